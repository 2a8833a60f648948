// `gpuerr triage [FILE...]`: the first fault of a multi-rank job's logs, code or hardware, and
// whether the last checkpoint is safe; and `gpuerr redact [FILE...]`, which prints logs with
// host names, addresses and user names replaced.
#include <unistd.h>

#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/log_input.h"
#include "cli/print_json.h"
#include "cli/runner.h"
#include "indexer/error.h"
#include "query/log_line.h"
#include "query/redact.h"
#include "query/log_events.h"
#include "query/triage.h"

namespace gpuerr::cli {
namespace {

struct TriageOptions {
  std::vector<std::string> files;  // none: standard input
  std::vector<std::string> checkpoint_patterns;
  bool redact = false;
  int year = 0;
  double boot_time = -1;  // seconds since the epoch; <0: unknown
};

constexpr size_t kProgressStepBytes = 32 << 20;

// "2024-05-01T12:00:03Z"
std::string iso_time(double seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(seconds));
  std::tm utc{};
  gmtime_r(&t, &utc);
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return out;
}

// What an event is: its entry, or for one no entry names, its role ("killed", "exception"; a
// kill that was a segmentation fault, "crashed").
std::string what(const query::LogEvent& e) {
  if (e.role == "killed" && e.finding == query::kSegfault) return "crashed";
  return e.entry_id.empty() ? e.role : e.entry_id;
}

std::string place(const query::LogEvent& e) {
  if (e.ranks_alike > 0)
    return "every rank alike (" + std::to_string(e.ranks_alike) + " ranks reported it)";
  std::string who;
  if (e.rank) who = "rank " + std::to_string(*e.rank);
  else if (e.local_rank) who = "local rank " + std::to_string(*e.local_rank);
  if (!e.host.empty()) who += (who.empty() ? "host " : " on ") + e.host;
  if (e.rank_line)
    who += " (named at " + (e.rank_file.empty() ? "line " : e.rank_file + ":") +
           std::to_string(e.rank_line) + ")";
  return who.empty() ? "an unknown rank" : who;
}

// Every string a report shows, passed through the redactor (which first learns the hosts).
void redact_report(query::TriageReport& r) {
  query::Redactor redactor;
  for (const query::LogEvent& e : r.faults) redactor.learn_host(e.host);
  for (const query::LogEvent& e : r.cascade) redactor.learn_host(e.host);
  auto event = [&](query::LogEvent& e) {
    e.host = redactor.redact(e.host), e.text = redactor.redact(e.text);
    e.file = redactor.redact(e.file), e.set_aside = redactor.redact(e.set_aside);
    e.rank_file = redactor.redact(e.rank_file);
  };
  if (r.first_fault) event(*r.first_fault);
  for (query::LogEvent& e : r.faults) event(e);
  for (query::LogEvent& e : r.cascade) event(e);
  for (query::Evidence& e : r.verdict_evidence)
    e.text = redactor.redact(e.text), e.file = redactor.redact(e.file);
  if (r.last_checkpoint)
    r.last_checkpoint->text = redactor.redact(r.last_checkpoint->text),
    r.last_checkpoint->file = redactor.redact(r.last_checkpoint->file);
  r.checkpoint_reason = redactor.redact(r.checkpoint_reason);
  for (std::string& s : r.settings) s = redactor.redact(s);
}

nlohmann::ordered_json event_json(const query::LogEvent& e) {
  nlohmann::ordered_json j = {{"entry_id", e.entry_id}, {"role", e.role},
                              {"rank", nullptr},        {"local_rank", nullptr},
                              {"host", e.host},         {"pid", nullptr},
                              {"time", nullptr},
                              {"file", e.file},         {"line", e.line},
                              {"text", e.text},         {"reading", e.reading},
                              {"count", e.count},       {"rank_line", nullptr},
                              {"rank_file", nullptr},
                              {"set_aside", e.set_aside}};
  if (e.rank) j["rank"] = *e.rank;
  if (e.local_rank) j["local_rank"] = *e.local_rank;
  if (e.pid) j["pid"] = *e.pid;
  if (e.time) j["time"] = iso_time(*e.time);
  if (e.rank_line) j["rank_line"] = e.rank_line;
  if (!e.rank_file.empty()) j["rank_file"] = e.rank_file;
  j["ranks_alike"] = e.ranks_alike;  // every rank reported it alike: none failed first
  // (an undated line: `time` is the earliest it may have happened, `latest` the latest, if known)
  j["time_inherited"] = e.time_inherited;
  j["latest"] = e.time_inherited && e.latest ? nlohmann::ordered_json(iso_time(*e.latest)) : nullptr;
  return j;
}

// When `e` happened, for text: its time, or for an undated line (a traceback's) the span its
// file's dated lines give it.
std::string when(const query::LogEvent& e) {
  if (!e.time) return "";
  if (!e.time_inherited) return ", " + iso_time(*e.time);
  return ", undated: after " + iso_time(*e.time) + (e.latest ? ", by " + iso_time(*e.latest) : "");
}

nlohmann::ordered_json report_json(const query::TriageReport& r) {
  nlohmann::ordered_json faults = nlohmann::ordered_json::array(), cascade = faults,
                         evidence = faults, after = faults;
  for (const query::LogEvent& e : r.faults) faults.push_back(event_json(e));
  for (const query::LogEvent& e : r.cascade) cascade.push_back(event_json(e));
  for (const query::Evidence& e : r.verdict_evidence)
    evidence.push_back({{"file", e.file}, {"line", e.line}, {"text", e.text}});
  auto save_json = [](const query::CheckpointEvent& c) {
    return nlohmann::ordered_json{{"file", c.file},
                                  {"line", c.line},
                                  {"time", c.time ? nlohmann::ordered_json(iso_time(*c.time)) : nullptr},
                                  {"text", c.text}};
  };
  for (const query::CheckpointEvent& c : r.checkpoints_after_fault) after.push_back(save_json(c));
  nlohmann::ordered_json hang = nullptr;
  if (r.hang_suspect_rank) hang = {{"suspect_rank", *r.hang_suspect_rank}, {"reason", r.hang_reason}};
  nlohmann::ordered_json launcher = nullptr;
  if (r.launcher_first_failure)
    launcher = {{"file", r.launcher_first_failure->file},
                {"line", r.launcher_first_failure->line},
                {"text", r.launcher_first_failure->text}};
  return {
      {"first_fault", r.first_fault ? event_json(*r.first_fault) : nullptr},
      {"verdict", r.verdict},
      {"verdict_reason", r.verdict_reason},
      {"verdict_evidence", evidence},
      {"first_action", r.first_action},
      {"first_action_note", r.first_action_note},
      {"checkpoint",
       {{"last_before_fault", r.last_checkpoint ? save_json(*r.last_checkpoint) : nullptr},
        {"safe_to_resume", r.safe_to_resume ? nlohmann::ordered_json(*r.safe_to_resume) : nullptr},
        {"reason", r.checkpoint_reason},
        {"after_fault", after}}},
      {"faults", faults},
      {"cascade", cascade},
      {"cascade_count", r.cascade_count},
      {"hang", hang},
      {"launcher_first_failure", launcher},
      {"settings", r.settings},
      {"lines", r.lines},
      {"bytes", r.bytes},
  };
}

void print_report(const query::TriageReport& r) {
  if (!r.first_fault) {
    std::cout << "No fault found in " << r.lines << " lines.\n";
  } else {
    const query::LogEvent& f = *r.first_fault;
    const std::string where =
        f.file.empty() ? "no line of its own in the input" : f.file + ":" + std::to_string(f.line);
    std::cout << "First fault: " << place(f) << when(f) << "  ["
              << where << "]\n  " << what(f)
              << ": " << f.text << '\n';
    std::cout << "Verdict:     " << r.verdict << " (" << r.verdict_reason << ")\n";
    for (const query::Evidence& e : r.verdict_evidence)
      if (e.line != f.line || e.file != f.file)
        std::cout << "  evidence: " << e.file << ":" << e.line << ": " << e.text << '\n';
    if (!f.reading.empty()) std::cout << "Reading:     " << f.reading << '\n';
    if (!r.first_action.empty()) std::cout << "First:       " << r.first_action << '\n';
    if (!r.first_action_note.empty()) std::cout << "  (" << r.first_action_note << ")\n";
    std::cout << "Cascade:     " << r.cascade_count << " lines explained by it";
    for (size_t i = 0; i < r.cascade.size() && i < 4; ++i)
      std::cout << (i ? ", " : ": ") << what(r.cascade[i]) << " (" << place(r.cascade[i])
                << (r.cascade[i].count > 1 ? ", x" + std::to_string(r.cascade[i].count) : "")
                << ")";
    if (r.cascade.size() > 4) std::cout << " and " << r.cascade.size() - 4 << " more";
    std::cout << '\n';
  }
  for (size_t i = r.first_fault ? 1 : 0; i < r.faults.size(); ++i)
    std::cout << "Also:        " << what(r.faults[i]) << " on " << place(r.faults[i])
              << (r.faults[i].set_aside.empty() ? ""
                                                : " (set aside: " + r.faults[i].set_aside + ")")
              << "  [" << r.faults[i].file << ":" << r.faults[i].line << "]\n";
  if (r.hang_suspect_rank) std::cout << "Hang:        " << r.hang_reason << '\n';
  if (r.launcher_first_failure)
    std::cout << "Launcher:    torchrun observed " << r.launcher_first_failure->text
              << " first (its own observation order; weak evidence)  ["
              << r.launcher_first_failure->file << ":" << r.launcher_first_failure->line << "]\n";
  std::cout << "Checkpoint:  ";
  if (r.last_checkpoint)
    std::cout << r.last_checkpoint->file << ":" << r.last_checkpoint->line << ", safe to resume: "
              << (!r.safe_to_resume ? "unknown" : *r.safe_to_resume ? "yes" : "NO") << " ("
              << r.checkpoint_reason << ")\n";
  else
    std::cout << r.checkpoint_reason << '\n';
  for (const query::CheckpointEvent& c : r.checkpoints_after_fault)
    std::cout << "  not safe: " << c.file << ":" << c.line << " (written after the memory error)\n";
  if (!r.settings.empty()) {
    std::cout << "Settings:   ";
    for (const std::string& s : r.settings) std::cout << ' ' << s;
    std::cout << '\n';
  }
}

// A progress line on stderr for large inputs, only when stderr is a terminal.
ProgressSink progress_for(const std::string& file) {
  if (!isatty(STDERR_FILENO)) return nullptr;
  auto last = std::make_shared<size_t>(0);
  return [file, last](size_t read, size_t size) {
    if (size < kProgressStepBytes || read < *last + kProgressStepBytes) return;
    *last = read;
    std::cerr << "\rtriage: " << file << " " << (100 * read / size) << "%" << std::flush;
    if (read >= size) std::cerr << "\r\033[K" << std::flush;
  };
}

int run_triage(const GlobalOptions& global, const TriageOptions& options) {
  const query::Store store(index_dir(global));
  std::optional<double> boot;
  if (options.boot_time >= 0) boot = options.boot_time;
  query::Triage triage(store, options.checkpoint_patterns, options.year, boot);
  std::vector<std::string> files = expand_folders(options.files);
  if (files.empty() && isatty(STDIN_FILENO))
    throw Error("no log given: name log files ('gpuerr triage rank*.log') or pipe one in");
  if (files.empty()) files.push_back("-");
  for (const std::string& file : files) {
    const std::string name = file == "-" ? "stdin" : file;
    read_log(file, [&](size_t line, std::string_view lines) { triage.add_lines(name, line, lines); },
             progress_for(name));
  }
  query::TriageReport report = triage.report();
  if (options.redact) redact_report(report);
  if (global.json) print_json(std::cout, report_json(report));
  else print_report(report);
  return report.first_fault ? kExitOk : kExitNoMatch;
}

int run_redact(const std::vector<std::string>& files) {
  query::Redactor redactor;
  std::vector<std::string> inputs =
      files.empty() ? std::vector<std::string>{"-"} : expand_folders(files);
  for (const std::string& file : inputs)
    read_log(file, [&](size_t, std::string_view lines) {
      query::for_each_line(lines, [&](std::string_view line) { std::cout << redactor.redact(line) << '\n'; });
    });
  return kExitOk;
}

}  // namespace

void add_triage_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<TriageOptions>();
  CLI::App* sub = app.add_subcommand(
      "triage", "Read a job's logs (any ranks, hosts, dmesg; .gz and .zst too): the first fault, "
                "code or hardware, and whether the last checkpoint is safe");
  sub->add_option("files", options->files,
                  "Log files or folders of them; none or '-': standard input");
  sub->add_option("--checkpoint-pattern", options->checkpoint_patterns,
                  "An RE2 pattern for your own 'checkpoint saved' lines (repeatable)");
  sub->add_flag("--redact", options->redact,
                "Replace host names, IP addresses and user names in the report");
  sub->add_option("--year", options->year, "The year of dates printed without one (default: this year)");
  sub->add_option("--boot-time", options->boot_time,
                  "The hosts' boot time (seconds since 1970) to date dmesg uptimes");
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_triage(global, *options); };
  });

  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* redact = app.add_subcommand(
      "redact", "Print logs with host names, IP addresses, user names and home paths replaced "
                "by stable placeholders");
  redact->add_option("files", *files, "Log files or folders of them; none or '-': standard input");
  redact->callback([&run, files] { run = [files] { return run_redact(*files); }; });
}

}  // namespace gpuerr::cli
