#include "query/triage.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <functional>
#include <unordered_map>
#include <utility>

#include "query/clean.h"
#include "query/log_events.h"
#include "query/log_line.h"
#include "query/lookup.h"
#include "query/triage_facts.h"

namespace gpuerr::query {
namespace {

// Bounds that keep memory flat whatever the log size.
constexpr size_t kMaxEvents = 20000;       // distinct (entry, rank/host) events kept
constexpr size_t kMaxCachedLines = 8192;   // cleaned lines whose lookup result is remembered
constexpr size_t kMaxCheckpoints = 1000;   // the most recent saves kept
constexpr size_t kMaxKills = 1000;         // the first kills kept
constexpr size_t kMaxProcesses = 65536;    // of the job, with their GPUs (JobPlacement)
constexpr size_t kMaxGpusPerProcess = 64;
constexpr size_t kMaxUnfinishedParts = 65536;  // saves of a path still waiting for their end
constexpr size_t kMaxSettings = 200;
constexpr size_t kMaxAwaitingWork = 64;     // causes of a file, each until its rank's work goes on
constexpr size_t kMaxTextBytes = 400;      // of an event's line, as shown in the report
constexpr size_t kMaxLookupBytes = 4000;   // of a line, looked up (half its start, half its end)
constexpr size_t kSummaryFieldLines = 12;  // lines after torchrun's "first observed failure"
// Saves begun this many seconds apart are one after the other, not the ranks of one save.
constexpr double kSaveInterval = 60;
constexpr size_t kMaxFilesTracked = 4096;  // files whose first date or failure summary is kept
// How far back the time of an undated line is looked for among the lines not read before it.
constexpr size_t kLookBackLines = 64;
constexpr size_t kLookBackBytes = 16 << 10;
// Look-backs in a row that find no date before a file's skipped lines are taken to have none
// (until a line read has a date again): an undated log would otherwise be read twice over.
constexpr size_t kLookBackMisses = 8;
// Lines passed over that are looked at one by one, after an event that waits for a dated line
// (its bound, or its rank's work going on): at most this many, then it stops waiting.
constexpr size_t kLinesWaitedFor = 1 << 16;
constexpr double kHalfYear = 183 * 86400.0;
// A file's first lines, read for a full date even when the filter passes over them.
constexpr size_t kDateSampleLines = 64;
// A traceback's error is at most this many lines below the frames it ends.
constexpr size_t kFramesAboveError = 40;

// What reading needs of an entry, read once from the index.
struct EntryFacts {
  std::string role, category;
};

// Per input file: the recent past, for lines that carry no prefix of their own.
struct FileState {
  std::optional<double> last_time;
  bool year_guessed = false;      // last_time's date had no year (see Triage::report)
  std::optional<std::optional<int>> named_rank;  // the rank its name gives, once looked at
  std::optional<double> zone;     // the UTC offset last_time was printed with, if any
  std::string unread;             // the last lines not read, when lines come one by one
  std::vector<size_t> undated;    // events with an inherited time, awaiting the next dated line
  size_t lines_sampled = 0;       // of its first lines, read for a full date (see sample_date)
  size_t look_back_misses = 0;    // look-backs in a row that found no dated line
  size_t summary_lines_left = 0;  // inside torchrun's failure summary block
  bool last_error_next = false;   // the line read before ended in NCCL's "Last error:"
  size_t last_line = 0;           // the last line that is not blank, read or passed over
  std::string last_text;          // and its text (clipped)
  std::string host;               // the one host this file's prefixes name ("" if none)
  std::set<std::string> pdsh_hosts;  // hosts its first lines begin with, "node7: [...] ..."
  bool several_hosts = false;     // then no host is inferred for its other lines
  // A save begun here whose end its framework never logs (Lightning's "saving model to"): the
  // order of its line and its rank, until a line after it shows the program went on.
  std::optional<size_t> open_save;
  std::optional<int> open_save_rank;
  // Causes read in this file, until a dated line of their rank's work minutes after them shows
  // the process went on (see read_skipped): the event's index, and the time it happened by.
  std::vector<std::pair<size_t, std::optional<double>>> faults_awaiting_work;
  size_t lines_left_to_wait = 0;  // for those and `undated` (kLinesWaitedFor)
  // The last line seen, read or passed over, is a traceback's (in_traceback, or the source line
  // below a frame: a launcher's prefix such as "[rank6]:" takes its indent away), or a frame's
  // "File ..." line.
  bool last_in_traceback = false, last_frame = false;
  bool unread_after_frame = false;  // the last line read was a traceback's frame
  size_t save_frame_line = 0;       // the last frame read in code that saves (is_save_frame)
  // The last uncaught exception no entry names (its event's index), and, once a line joins its
  // traceback to the next one, the same index until that next exception line is read.
  std::optional<size_t> last_exception, chained_exception;
};

// The civil UTC date and time of `seconds` since the epoch.
std::tm civil(double seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  return utc;
}

int year_of(double seconds) { return civil(seconds).tm_year + 1900; }

int current_year() { return year_of(static_cast<double>(std::time(nullptr))); }

// The same month, day and time of day in another year.
double in_year(double seconds, int year) {
  const std::tm utc = civil(seconds);
  return utc_seconds(year, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec) +
         (seconds - std::floor(seconds));
}

// The start of the line that holds position `at`.
size_t line_start(std::string_view text, size_t at) {
  const size_t newline = text.rfind('\n', at);
  return newline == std::string_view::npos ? 0 : newline + 1;
}

// Where and when a line says it was printed, its colours (loguru colours its time, dmesg --color
// its prefix) taken out first: an escape before the time or the host would hide them.
LineOrigin origin_of(std::string_view line, int year) {
  if (line.find('\x1b') == std::string_view::npos) return parse_line(line, year).origin;
  return parse_line(as_printed(line), year).origin;
}

// Whether `line` may hold a time of day: every time origin_of() reads has hours and minutes
// ("10:12"). A cheap test in front of it for the lines passed over.
bool may_hold_time(std::string_view line) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t colon = line.find(':'); colon != std::string_view::npos;
       colon = line.find(':', colon + 1))
    if (colon > 0 && colon + 2 < line.size() && digit(line[colon - 1]) &&
        digit(line[colon + 1]) && digit(line[colon + 2]))
      return true;
  return false;
}

// The origin of the last dated line of `lines`, looking back a bounded way: a traceback's lines
// are undated, and so is the error at its end, which happened at about the time of the progress
// line above it.
std::optional<LineOrigin> last_time_in(std::string_view lines, int year) {
  if (lines.size() > kLookBackBytes) lines.remove_prefix(lines.size() - kLookBackBytes);
  while (!lines.empty() && lines.back() == '\n') lines.remove_suffix(1);
  for (size_t n = 0; n < kLookBackLines && !lines.empty(); ++n) {
    const size_t start = line_start(lines, lines.size() - 1);
    if (LineOrigin o = origin_of(lines.substr(start), year); o.time) return o;
    lines.remove_suffix(lines.size() - start);
    if (!lines.empty()) lines.remove_suffix(1);  // its '\n'
  }
  return std::nullopt;
}

// The one host of `hosts` that `name` (a file's or a folder's) holds as a word of its own
// ("dmesg-T_gpu-a12.txt" holds "gpu-a12", not "gpu-a1"), or "" when none or several do.
std::string host_in_name(std::string_view name, const std::set<std::string>& hosts) {
  auto in_name = [&](const std::string& host) {
    for (size_t at = name.find(host); at != std::string_view::npos; at = name.find(host, at + 1)) {
      const size_t end = at + host.size();
      if ((at == 0 || !std::isalnum(static_cast<unsigned char>(name[at - 1]))) &&
          (end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end]))))
        return true;
    }
    return false;
  };
  // A name and an address in one file name are one machine's ("dmesg-T_10.0.1.22_trn-a22.txt",
  // where pdsh named it by address and NCCL by name): the name is kept, as the kernel prints it.
  auto address = [](const std::string& host) {
    return host.find_first_not_of("0123456789.") == std::string::npos;
  };
  std::string found, found_address;
  for (const std::string& host : hosts) {
    if (host.empty() || !in_name(host)) continue;
    std::string& slot = address(host) ? found_address : found;
    if (!slot.empty()) return "";
    slot = host;
  }
  return found.empty() ? found_address : found;
}

// The host of `hosts` that the file at `path` is named for, or failing that the folder it is in,
// or that folder's folder ("node-logs/node18/dmesg.txt"): the nearest name that holds one.
// Never a folder above the path as given.
std::string host_in_file_name(std::string_view path, const std::set<std::string>& hosts) {
  constexpr int kFoldersUp = 2;
  for (int level = 0; level <= kFoldersUp && !path.empty(); ++level) {
    const size_t slash = path.rfind('/');
    const std::string_view name = path.substr(slash + 1);  // (npos + 1 is 0)
    if (std::string host = host_in_name(name, hosts); !host.empty()) return host;
    if (slash == std::string_view::npos) break;
    path = path.substr(0, slash);
  }
  return "";
}

// Is `path` the folder `folder` or in it?
bool inside(std::string_view path, std::string_view folder) {
  return !folder.empty() && path.starts_with(folder) &&
         (path.size() == folder.size() || path[folder.size()] == '/');
}

std::string clipped(std::string_view text) {
  std::string s(text.substr(0, kMaxTextBytes));
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

struct Triage::Impl {
  const Store& store;
  SavePatterns save_patterns;
  int year;
  bool year_given;
  std::optional<double> boot_time;
  // From kernel lines that carry both clocks: the boot time, and whether its date had no year.
  std::map<std::string, std::pair<double, bool>> boot_by_host;

  CueScanner cues;
  std::unordered_map<std::string, std::optional<Match>> line_cache;
  mutable std::map<std::string, EntryFacts> facts;
  LogEvent dropped;  // what add_event_of hands back past kMaxEvents
  std::map<std::string, size_t> event_index;  // identity key -> position in read.events
  std::map<std::string, FileState> files;
  std::map<int, std::string> host_of_rank;  // from lines naming both ("11: node8:1:2 [3] NCCL")
  std::map<int, std::pair<std::string, long>> process_of_rank;  // (short host, pid), from NCCL
  // A process's rank in the largest of its NCCL communicators, and that communicator's size:
  // "comm 0x... rank 9 nranks 16 ... busId 3b000" (for a log whose lines carry no rank).
  std::map<std::pair<std::string, long>, std::pair<int, int>> comm_rank_of_process;
  std::map<std::string, CheckpointEvent> unfinished_parts;  // path -> the start of its save
  std::set<std::string> groups_with_ended_parts;  // checkpoints whose parts' ends are logged
  size_t processes = 0;  // (host, pid) pairs in read_so_far.placement
  TriageFacts read_so_far;
  size_t order = 0;

  Impl(const Store& s, std::vector<std::string> patterns, int y, std::optional<double> boot)
      : store(s), save_patterns(patterns), year(y ? y : current_year()), year_given(y != 0),
        boot_time(boot) {
  }

  const EntryFacts& facts_of(const std::string& id) const {
    auto it = facts.find(id);
    if (it != facts.end()) return it->second;
    EntryFacts f;
    if (std::optional<Entry> e = store.entry(id)) f = {triage_role(*e), e->category};
    return facts.emplace(id, std::move(f)).first->second;
  }

  // The entry a line names, through lookup, remembered by the line's cleaned words. Of a very
  // long line (a logger that prints a batch's ids before the error) its start and its end are
  // read, where messages are.
  std::optional<Match> match_line(std::string_view message) {
    std::string text(message);
    if (text.size() > kMaxLookupBytes)
      text = std::string(message.substr(0, kMaxLookupBytes / 2)) + "\n" +
             std::string(message.substr(message.size() - kMaxLookupBytes / 2));
    std::string key = search_text(message.substr(0, 1000));
    if (message.size() > 1000) key += "\n" + search_text(message.substr(message.size() - 1000));
    if (auto it = line_cache.find(key); it != line_cache.end()) return it->second;
    std::optional<Match> found;
    // Only exact evidence names an event: a log is mostly ordinary text, and full-text
    // similarity alone would turn banners and progress lines into faults.
    const std::vector<Match> matches = lookup(store, text);
    if (!matches.empty() && matches.front().confidence >= kConfident &&
        (!matches.front().code.empty() || !matches.front().signature.empty()))
      found = matches.front();
    if (line_cache.size() >= kMaxCachedLines) line_cache.clear();
    return line_cache.emplace(std::move(key), found).first->second;
  }

  // The line's wall-clock time; state.year_guessed says whether its year was guessed.
  std::optional<double> wall_time(const LineOrigin& o, FileState& state) {
    if (o.time && o.uptime && !o.host.empty())
      boot_by_host[o.host] = {*o.time - *o.uptime, o.year_guessed};
    if (o.time) {
      state.zone = o.zone;
      state.year_guessed = o.year_guessed;
      return state.last_time = o.time;
    }
    if (o.uptime) {
      auto it = boot_by_host.find(o.host);
      state.year_guessed = it != boot_by_host.end() && it->second.second;
      if (it != boot_by_host.end()) return state.last_time = it->second.first + *o.uptime;
      if (boot_time) return state.last_time = *boot_time + *o.uptime;
      return std::nullopt;  // uptimes are not comparable with wall times
    }
    return state.last_time;  // a traceback line inherits the time of the line it follows
  }

  void add_event(const std::string& file, size_t line, std::string_view text,
                 const LineOrigin& o, std::optional<double> time, const Match& m,
                 bool last_error = false) {
    const EntryFacts& f = facts_of(m.entry_id);
    // (a cause named after "Last error:" is an event of its own, beside the same cause seen
    // before as a warning: it tells which generic result it stands for)
    LogEvent& e = add_event_of(m.entry_id, f.role, f.category, file, line, text, o, time,
                               last_error ? "named after Last error" : "");
    if (e.line != line || e.file != file) return;  // (seen before: counted)
    e.confidence = m.confidence;
    e.last_error = last_error;
    if (m.analysis)
      e.reading = m.analysis->verdict, e.finding = m.analysis->finding,
      e.action = m.analysis->action;
  }

  // An uncaught exception that no entry names: the program's own error (the catalogue is of GPU
  // failures), or its environment's when a module or file was missing.
  // Returns the index of its event (none when the events were full and it was dropped).
  std::optional<size_t> add_exception(const std::string& file, size_t line,
                                      std::string_view text, const LineOrigin& o,
                                      std::optional<double> time, const ExceptionLine& x) {
    LogEvent& e = add_event_of("", "exception", x.environment ? "configuration" : "application",
                               file, line, text, o, time, x.type);
    if (e.line == line && e.file == file)
      e.reading = "an uncaught " + x.type + " ended the program on this rank" +
                  (x.environment ? ": something it needed was missing from its environment" : "");
    if (&e == &dropped) return std::nullopt;
    return static_cast<size_t>(&e - read_so_far.events.data());
  }

  // The event of `entry_id` (or, for an exception, of `type`; for an entry, `type` sets apart
  // events of another kind) on this line's rank or host: a new one, or the one seen before
  // there, counted again. An event dropped past kMaxEvents is a
  // throwaway.
  LogEvent& add_event_of(const std::string& entry_id, const std::string& role,
                         const std::string& category, const std::string& file, size_t line,
                         std::string_view text, const LineOrigin& o, std::optional<double> time,
                         const std::string& type = "") {
    std::string who = o.rank ? "r" + std::to_string(*o.rank)
                             : o.host + "/" + (o.local_rank ? std::to_string(*o.local_rank) : file);
    const std::string key =
        (entry_id.empty() ? "exception:" + type : entry_id + "|" + type) + "|" + who;
    if (auto it = event_index.find(key); it != event_index.end()) {
      LogEvent& again = read_so_far.events[it->second];
      ++again.count;
      // It came back: whether the work went on is judged from here.
      again.went_on_after.reset();
      std::erase_if(files[again.file].faults_awaiting_work,
                    [&](const auto& f) { return f.first == it->second; });
      if (file == again.file && !o.kernel && !o.uptime)
        await_work(again, it->second, time, time && !o.time);
      return again;
    }
    std::vector<LogEvent>& events = read_so_far.events;
    if (events.size() >= kMaxEvents) return dropped = LogEvent{};
    event_index.emplace(key, events.size());
    LogEvent& e = events.emplace_back();
    e.entry_id = entry_id, e.role = role, e.category = category;
    e.rank = o.rank, e.local_rank = o.local_rank, e.host = o.host, e.pid = o.pid;
    e.time = time, e.year_guessed = o.year_guessed, e.zone = o.zone;
    e.file = file, e.line = line, e.text = clipped(text), e.order = order;
    if (time && !o.time && !o.uptime) {
      e.zone = files[file].zone;
      e.time_inherited = true;
      files[file].undated.push_back(events.size() - 1);
      files[file].lines_left_to_wait = kLinesWaitedFor;
    }
    if (!o.kernel && !o.uptime) await_work(e, events.size() - 1, time, e.time_inherited);
    return e;
  }

  // A rank's cause waits for its rank's later lines to show the process went on (read_skipped).
  void await_work(const LogEvent& e, size_t index, std::optional<double> time, bool inherited) {
    auto& awaiting = files[e.file].faults_awaiting_work;
    if ((e.role == "cause" || e.role == "exception") && time &&
        awaiting.size() < kMaxAwaitingWork) {
      awaiting.emplace_back(index, inherited ? std::nullopt : time);
      files[e.file].lines_left_to_wait = kLinesWaitedFor;
    }
  }

  void read(const std::string& file, size_t line, std::string_view text) {
    read_so_far.bytes += text.size() + 1;
    read_counted(file, line, text);
  }

  // A file's first lines may be the only ones with a full date (its progress lines, which the
  // filter passes over); the year they name is the one syslog and glog dates are given.
  // They also name ranks whose logs are in the input, though their lines hold no cue (a hung
  // rank's log of progress lines): the file's name, and its first lines' prefixes.
  void sample_date(const std::string& file, FileState& state, std::string_view line) {
    if (state.lines_sampled >= kDateSampleLines) return;
    const size_t number = ++state.lines_sampled;  // (files are read from their first line)
    if (number == 1)
      if (const std::optional<int> rank = rank_from_file_name(file))
        note_rank(*rank, file, number);
    const LineOrigin o = origin_of(line, year);
    if (!o.host.empty() && state.pdsh_hosts.size() < kDateSampleLines &&
        line.size() > o.host.size() && line.starts_with(o.host) &&
        line.substr(o.host.size()).starts_with(": "))
      state.pdsh_hosts.insert(o.host);
    if (o.time && !o.year_guessed) {
      read_so_far.latest_dated = std::max(read_so_far.latest_dated.value_or(*o.time), *o.time);
      if (!o.kernel && read_so_far.first_dated_of_file.size() < kMaxFilesTracked)
        read_so_far.first_dated_of_file.try_emplace(file, *o.time);
    }
    if (o.rank && !o.kernel) note_rank(*o.rank, file, number);
  }

  void note_last_dated(const std::string& file, double time) {
    auto it = read_so_far.last_dated_of_file.find(file);
    if (it != read_so_far.last_dated_of_file.end())
      it->second = std::max(it->second, time);
    else if (read_so_far.last_dated_of_file.size() < kMaxFilesTracked)
      read_so_far.last_dated_of_file.emplace(file, time);
  }

  void note_rank(int rank, const std::string& file, size_t line) {
    if (read_so_far.ranks_present.size() < kMaxProcesses)
      read_so_far.ranks_present.try_emplace(rank, Evidence{file, line, ""});
  }

  // A line whose bytes are already counted.
  void read_counted(const std::string& file, size_t line, std::string_view text) {
    ++read_so_far.lines;
    FileState& state = files[file];
    sample_date(file, state, text);
    if (!worth_reading(text) && state.summary_lines_left == 0 && !state.last_error_next &&
        !save_patterns.match(text)) {
      read_skipped(file, state, text, line);
      if (state.unread.size() > 2 * kLookBackBytes) state.unread.erase(0, kLookBackBytes);
      state.unread.append(text).push_back('\n');
      return;
    }
    read_interesting(file, line, text, state, state.unread);
    state.unread.clear();
  }

  // Only the lines the filter reacts to are looked at one by one; the others are counted.
  void read_block(const std::string& file, size_t line, std::string_view block) {
    if (!save_patterns.empty()) {  // a site's own save lines may hold none of the filter's words
      read_so_far.bytes += block.size() + 1;  // for_each_line drops the '\r' of a CRLF line
      for_each_line(block, [&](std::string_view text) { read_counted(file, line++, text); });
      return;
    }
    FileState& state = files[file];
    for (size_t from = 0; from < block.size() && state.lines_sampled < kDateSampleLines;) {
      size_t end = block.find('\n', from);
      if (end == std::string_view::npos) end = block.size();
      sample_date(file, state, block.substr(from, end - from));
      from = end + 1;
    }
    size_t pos = 0;
    while (pos <= block.size()) {  // pos == size: the block ends with an empty line
      // Inside torchrun's failure summary every line is read, cue or not, as read_counted does;
      // so is the line after NCCL's "Last error:", which names the cause in its own words.
      const bool in_summary = state.summary_lines_left > 0 || state.last_error_next;
      const size_t hit = in_summary ? pos : cues.next(block, pos);
      if (hit == std::string_view::npos) {  // the rest, its last line without its '\n'
        std::string_view rest = block.substr(pos);
        while (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
        if (state.open_save) close_open_save(state, rest);  // (the rest may end the file)
        if (const std::optional<LineOrigin> dated = last_time_in(rest, year);
            dated && !dated->year_guessed && !dated->kernel)
          note_last_dated(file, *dated->time);
        read_skipped(file, state, rest, line + newlines(rest));
        read_so_far.lines += newlines(block.substr(pos)) + 1;
        read_so_far.bytes += block.size() - pos + 1;
        break;
      }
      // (The line at `pos` may be empty: `hit` is then its '\n', not a place inside it.)
      const size_t start = in_summary ? pos : line_start(block, hit);
      const size_t skipped = newlines(block.substr(pos, start - pos));
      if (skipped > 0)
        read_skipped(file, state, block.substr(pos, start - pos - 1), line + skipped - 1);
      line += skipped;
      read_so_far.lines += skipped;
      read_so_far.bytes += start - pos;
      size_t end = block.find('\n', hit);
      if (end == std::string_view::npos) end = block.size();
      ++read_so_far.lines;
      read_so_far.bytes += end - start + 1;
      read_interesting(file, line++, block.substr(start, end - start), state,
                       block.substr(pos, start - pos));
      pos = end + 1;
    }
  }

  // `unread`: the lines since the last line read, which the filter passed over.
  void read_interesting(const std::string& file, size_t line, std::string_view text,
                        FileState& state, std::string_view unread = {}) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    note_last_line(state, line, text);
    if (state.open_save && !unread.empty()) close_open_save(state, unread);
    state.unread_after_frame = false;
    std::string printed;  // a coloured line, as printed (see origin_of)
    if (text.find('\x1b') != std::string_view::npos) text = printed = as_printed(text);
    if (!text.empty() && text.back() == '}') {
      // A structured logger's record is read as the lines its strings hold, under its number.
      // Its other fields (stream, time) must not use up the lines of torchrun's failure summary:
      // the record counts as one line of it.
      if (const std::optional<std::string> strings = json_record_strings(text)) {
        const size_t summary_left = state.summary_lines_left;
        // A field that holds only a time (Docker's "time") dates the record's message, which
        // would otherwise take the time of the record before: such lines are read first.
        std::vector<std::string_view> lines;
        for_each_line(*strings, [&](std::string_view s) { lines.push_back(s); });
        std::stable_partition(lines.begin(), lines.end(), [&](std::string_view s) {
          const ParsedLine p = parse_line(s, year);
          return p.message.empty() && p.origin.time;
        });
        for (std::string_view s : lines) read_interesting(file, line, s, state);
        if (summary_left > 0) state.summary_lines_left = summary_left - 1;
        else if (state.summary_lines_left > 0) state.summary_lines_left = kSummaryFieldLines;
        return;
      }
    }
    ++order;
    ParsedLine p = parse_line(text, year);
    if (p.origin.host.empty()) read_known_host(p, state);
    if (!p.origin.rank && !p.origin.local_rank) p.origin.rank = rank_from_file_name(file);
    if (p.origin.time) {
      state.look_back_misses = 0;
    } else if (!p.origin.uptime && !unread.empty() && state.look_back_misses < kLookBackMisses) {
      if (const std::optional<LineOrigin> dated = last_time_in(unread, year)) {
        state.last_time = dated->time, state.year_guessed = dated->year_guessed;
        state.zone = dated->zone, state.look_back_misses = 0;
      } else {
        ++state.look_back_misses;
      }
    }
    const std::optional<double> time = wall_time(p.origin, state);
    if (p.origin.time && !p.origin.kernel && !p.origin.year_guessed)
      note_last_dated(file, *p.origin.time);
    // (a date without its year, its own or the line's it inherits, is moved in report())
    const bool year_guessed = p.origin.year_guessed = state.year_guessed;
    if (time && (p.origin.time || p.origin.uptime)) {
      for (size_t i : state.undated) {
        read_so_far.events[i].latest = time;
        read_so_far.events[i].latest_year_guessed = year_guessed;
      }
      state.undated.clear();
    }
    if (p.origin.rank && !p.origin.host.empty() && !p.origin.kernel &&
        host_of_rank.size() < kMaxProcesses)
      host_of_rank.emplace(*p.origin.rank, p.origin.host);
    if (p.origin.rank && !p.origin.kernel) note_rank(*p.origin.rank, file, line);
    // (A kernel line, merged into a job's output, names its own host and says nothing of the
    // ranks' hosts.)
    if (!p.origin.host.empty() && !p.origin.kernel && !state.several_hosts) {
      if (state.host.empty()) state.host = p.origin.host;
      else if (state.host != p.origin.host) state.several_hosts = true, state.host.clear();
    }
    if (state.summary_lines_left > 0) {
      --state.summary_lines_left;
      read_summary_field(file, line, p);
    }
    if (opens_failure_summary(p.message)) state.summary_lines_left = kSummaryFieldLines;
    const bool last_error = std::exchange(state.last_error_next, says_last_error(p.message));
    for (std::string& s : read_settings(p.message))
      if (read_so_far.settings.size() < kMaxSettings) read_so_far.settings.insert(std::move(s));
    if (std::optional<SaveLine> save = read_save(p.message)) {
      record_save(file, line, text, time, p.origin.year_guessed, *save);
      read_so_far.checkpoints.back().own_time = p.origin.time.has_value();
      state.open_save.reset();
      if (!save->completed && !save->end_logged) {
        state.open_save = read_so_far.checkpoints.back().order;
        state.open_save_rank = p.origin.rank;
      }
    } else if (save_patterns.match(p.message)) {
      record_save(file, line, text, time, p.origin.year_guessed, SaveLine{});
    } else if (read_resume(p.message)) {
      read_so_far.resumed_from =
          CheckpointEvent{file, line, time, p.origin.year_guessed, clipped(text), true, order, ""};
    }
    if (std::optional<WatchdogLine> w = read_watchdog(p.message); w && p.origin.rank) {
      RankProgress& r = read_so_far.watchdog[w->group][*p.origin.rank];
      if (w->timed_out_seq)
        r.timed_out_seq = w->timed_out_seq, r.op_type = w->op_type, r.file = file, r.line = line;
      if (w->last_enqueued) r.last_enqueued = w->last_enqueued;
    }
    read_srun_exit(file, line, p.message);
    if (const std::optional<RayWorker> w = read_ray_worker(p.message);
        w && process_of_rank.size() < kMaxProcesses)
      process_of_rank.try_emplace(w->rank, w->ip, w->pid);
    if (const std::optional<int> named = read_desync_named(p.message);
        named && read_so_far.desync_named.size() < kMaxProcesses)
      ++read_so_far.desync_named[*named];
    if (const auto mismatch = read_collective_mismatch(p.message);
        mismatch && read_so_far.mismatch_named.size() < kMaxProcesses)
      read_so_far.mismatch_named.try_emplace(mismatch->first, mismatch->second);
    const std::optional<KillLine> kill = read_kill(p.message);
    if (kill) add_kill(file, line, text, p.origin, time, *kill);
    if (is_teardown(p.message)) {
      ++read_so_far.teardown_lines;
      return;
    }
    if (!state.named_rank) state.named_rank = rank_from_file_name(file);
    note_placement(p, *state.named_rank);
    if (p.message.find(" NCCL INFO ") != std::string_view::npos ||
        p.message.starts_with("NCCL INFO"))
      return;  // NCCL's informational trace; its WARN lines are read
    if (p.origin.time && !p.origin.year_guessed)
      read_so_far.latest_dated = std::max(read_so_far.latest_dated.value_or(*p.origin.time),
                                          *p.origin.time);
    const bool after_traceback = state.last_in_traceback;
    note_traceback_line(state, p.message);
    state.unread_after_frame = state.last_frame;  // (for the lines the filter passes next)
    if (chains_exceptions(p.message)) state.chained_exception = state.last_exception;
    if (state.last_frame && is_save_frame(p.message)) state.save_frame_line = line;
    const size_t events_before = read_so_far.events.size();
    if (std::optional<Match> m = match_line(p.message)) {
      add_event(file, line, text, p.origin, time, *m, last_error);
      // (the exception the chain went on to is one an entry names: it says what happened)
      if (state.chained_exception && read_exception(p.message)) {
        read_so_far.events[*state.chained_exception].chained_into = m->entry_id;
        state.chained_exception.reset();
      }
    } else if (after_traceback && !kill) {  // (a kill's own report is read as the kill)
      if (std::optional<ExceptionLine> x = read_exception(p.message)) {
        state.last_exception = add_exception(file, line, text, p.origin, time, *x);
        state.chained_exception.reset();
      }
    }
    if (read_so_far.events.size() > events_before) note_during_save(state, line);
  }

  // The first error below a traceback's frame in code that saves failed that save.
  void note_during_save(FileState& state, size_t line) {
    if (state.save_frame_line == 0 || line - state.save_frame_line > kFramesAboveError) return;
    read_so_far.events.back().during_save = true;
    state.save_frame_line = 0;
  }

  // pdsh's "node7: " before a line of any kind ("node7: Fatal Python error: Segmentation
  // fault"), once the file's first lines began with it or other lines named node7 as one of the
  // job's hosts: parse_line() takes that prefix only before the lines that show it is one (see
  // pdsh in log_line.cc).
  void read_known_host(ParsedLine& p, const FileState& state) const {
    const size_t colon = p.message.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 64) return;
    const std::string host(p.message.substr(0, colon));
    if (!state.pdsh_hosts.contains(host) &&
        !read_so_far.placement.hosts.contains(short_host(host)))
      return;
    ParsedLine rest = parse_line(p.message.substr(colon + 2), year);
    if (!rest.origin.host.empty() && short_host(rest.origin.host) != short_host(host)) return;
    rest.origin.host = host;
    if (!rest.origin.time) rest.origin.time = p.origin.time, rest.origin.zone = p.origin.zone;
    if (!rest.origin.rank) rest.origin.rank = p.origin.rank;
    p = rest;
  }

  // What `message`, the next line of its file, says of a traceback (see FileState).
  static void note_traceback_line(FileState& state, std::string_view message) {
    state.last_in_traceback = state.last_frame || in_traceback(message);
    state.last_frame = is_frame(message);
  }

  static bool is_frame(std::string_view message) {
    const size_t start = message.find_first_not_of(" \t");
    return start != std::string_view::npos && message.substr(start).starts_with("File \"");
  }

  // NCCL's lines tell where the job's processes run, and on which GPUs (see JobPlacement); a
  // rank's NCCL line names the process that is that rank.
  void note_placement(const ParsedLine& p, std::optional<int> file_rank) {
    JobPlacement& job = read_so_far.placement;
    if (p.origin.host.empty() || job.overflowed) return;
    const std::string host = short_host(p.origin.host);
    if (p.origin.kernel) {
      if (job.kernel_hosts.size() < kMaxProcesses) job.kernel_hosts.insert(host);
      return;
    }
    const bool nccl = p.origin.pid && p.message.starts_with("NCCL ");
    if (!p.origin.rank && !nccl) return;
    if (job.hosts.size() >= kMaxProcesses || processes >= kMaxProcesses ||
        process_of_rank.size() >= kMaxProcesses) {
      job.overflowed = true;  // (not a job's logs; nothing is judged outside it)
      return;
    }
    job.hosts.insert(host);
    if (!nccl) return;
    std::map<long, std::set<long>>& on_host = job.gpus[host];
    auto it = on_host.find(*p.origin.pid);
    if (it == on_host.end()) {
      it = on_host.emplace(*p.origin.pid, std::set<long>{}).first;
      ++processes;
    }
    // (a NCCL line's "[4]" is its device; a per-rank file's name gives the rank)
    if (const std::optional<int> rank = p.origin.rank ? p.origin.rank : file_rank)
      process_of_rank.try_emplace(*rank, host, *p.origin.pid);
    if (p.message.find("busId") == std::string_view::npos &&
        p.message.find("nNodes") == std::string_view::npos)
      return;
    const std::optional<NcclPlacement> n = read_nccl_placement(p.message);
    if (!n) return;
    if (n->bus_id && it->second.size() < kMaxGpusPerProcess) it->second.insert(*n->bus_id);
    if (n->rank) {  // (the rank in its largest communicator, which may be the job's)
      auto [comm, added] =
          comm_rank_of_process.try_emplace({host, *p.origin.pid}, *n->ranks, *n->rank);
      if (!added && *n->ranks > comm->second.first) comm->second = {*n->ranks, *n->rank};
    }
    if (n->nodes) job.nodes = std::max(job.nodes, *n->nodes);
    if (n->local_ranks) job.local_ranks[host] = std::max(job.local_ranks[host], *n->local_ranks);
  }

  // The GPU an event happened on: an Xid names it; a rank's line has its process's, when NCCL
  // named one GPU for that process.
  void place_on_gpu(LogEvent& e, const JobPlacement& job,
                    const std::map<std::pair<std::string, long>, int>& rank_of_process) const {
    if (e.entry_id.starts_with("xid-")) {
      const XidPlace x = read_xid_place(e.text);
      e.gpu = x.bus_id;
      if (!e.rank && !e.local_rank) name_rank_of_xid(e, x, job, rank_of_process);
      return;
    }
    std::optional<std::pair<std::string, long>> process;
    if (e.pid && !e.host.empty()) process.emplace(short_host(e.host), *e.pid);
    else if (e.rank)
      if (auto it = process_of_rank.find(*e.rank); it != process_of_rank.end())
        process = it->second;
    if (!process) return;
    auto host = job.gpus.find(process->first);
    if (host == job.gpus.end()) return;
    auto gpus = host->second.find(process->second);
    if (gpus != host->second.end() && gpus->second.size() == 1) e.gpu = *gpus->second.begin();
  }

  // An Xid names the process (pid=) and the GPU it hit; when NCCL named that process, or the
  // one process on that GPU, and a rank's line named the process, the Xid is that rank's. A
  // dmesg without host names is taken for the job's host when the job has only one.
  static void name_rank_of_xid(LogEvent& e, const XidPlace& x, const JobPlacement& job,
                               const std::map<std::pair<std::string, long>, int>& rank_of) {
    const std::string host = job.host_of(e.host);
    const auto processes = job.gpus.find(host);
    if (processes == job.gpus.end()) return;
    std::optional<long> pid;
    for (const auto& [p, gpus] : processes->second)
      if (p == x.pid || (x.bus_id && gpus.contains(*x.bus_id))) {
        if (pid && *pid != p) return;  // two of the job's processes: none is named
        pid = p;
      }
    if (!pid) return;
    if (auto it = rank_of.find({host, *pid}); it != rank_of.end()) {
      e.rank = it->second;
      if (e.host.empty()) e.host = host;
    }
  }

  // A killed process prints nothing; the line that reports its end stands for it.
  void add_kill(const std::string& file, size_t line, std::string_view text, const LineOrigin& o,
                std::optional<double> time, const KillLine& k) {
    if (read_so_far.kills.size() >= kMaxKills) return;
    LogEvent e;
    e.role = "killed";
    e.category = k.host_memory ? "resource" : "";
    if (k.segfault) e.finding = kSegfault;
    e.rank = k.rank ? k.rank : k.agent ? std::nullopt : o.rank;
    e.local_rank = k.local_rank ? k.local_rank : o.local_rank;
    e.host = k.host.empty() ? o.host : k.host;
    e.pid = k.pid ? k.pid : o.pid;
    e.time = time, e.year_guessed = o.year_guessed;
    e.time_inherited = time && !o.time && !o.uptime;
    e.file = file, e.line = line, e.text = clipped(text), e.order = order;
    e.reading = k.host_memory ? "killed by the out-of-memory killer: the host's memory (RAM) ran "
                                "out, not the GPU's"
                : k.segfault ? "crashed with a segmentation fault (SIGSEGV): native code read "
                               "memory it does not own (an extension's or a library's bug, "
                               "libraries built for other versions, failing memory); its stack "
                               "tells which"
                             : "killed by SIGKILL; this log does not say who sent it (the "
                               "out-of-memory killer, the scheduler, a person)";
    read_so_far.kills.push_back(std::move(e));
  }

  void read_summary_field(const std::string& file, size_t line, const ParsedLine& p) {
    std::optional<LauncherField> f = read_failure_summary_field(p.message);
    if (!f || f->name != "rank") return;
    if (!read_so_far.launcher_summary)
      read_so_far.launcher_summary = Evidence{file, line, "rank " + f->value};
    // "7 (local_rank: 3)"
    static const RE2 ranks(R"(^(\d{1,6})(?:\s*\(local_rank:\s*(\d{1,6})\))?)");
    std::string rank, local;
    if (read_so_far.launcher_root_by_file.size() >= kMaxFilesTracked ||
        read_so_far.launcher_root_by_file.contains(file) ||
        !RE2::PartialMatch(f->value, ranks, &rank, &local))
      return;
    read_so_far.launcher_root_by_file[file] = {
        std::stoi(rank), local.empty() ? std::nullopt : std::optional<int>(std::stoi(local)),
        line, ""};
  }

  // srun's report of a task's failed exit; the first in a file is the first task to fail that
  // srun saw (a range, "tasks 0-3", is its teardown of the rest).
  void read_srun_exit(const std::string& file, size_t line, std::string_view message) {
    if (!message.starts_with("srun: error: ")) return;
    static const RE2 exit(
        R"(^srun: error: ([\w.-]+): task (\d{1,6}): Exited with exit code [1-9])");
    std::string host;
    int rank = 0;
    if (read_so_far.launcher_root_by_file.size() >= kMaxFilesTracked ||
        read_so_far.launcher_root_by_file.contains(file) ||
        !RE2::PartialMatch(message, exit, &host, &rank))
      return;
    read_so_far.launcher_root_by_file[file] = {rank, std::nullopt, line, host};
  }

  // Lines the filter passed over, the last at `last_line` of `file`, looked at one by one while
  // an event waits for what a dated line tells (so that a block reads as its lines one by one).
  void read_skipped(const std::string& file, FileState& state, std::string_view lines,
                    size_t last_line) {
    // (only the last two lines of the run bear on the line read after it)
    const size_t last_break = lines.rfind('\n');
    note_last_line(state, last_line, lines.substr(last_break + 1));
    if (last_break != std::string_view::npos) {
      const size_t before = lines.rfind('\n', last_break - (last_break > 0));
      const size_t from = before == std::string_view::npos || last_break == 0 ? 0 : before + 1;
      note_traceback_line(state, parse_line(lines.substr(from, last_break - from), year).message);
    }
    note_traceback_line(state, parse_line(lines.substr(last_break + 1), year).message);
    if (state.undated.empty() && state.faults_awaiting_work.empty()) return;
    size_t line = last_line - newlines(lines);
    for_each_line_until(lines, [&](std::string_view text) {
      read_skipped_line(file, state, text, line++);
      return !state.undated.empty() || !state.faults_awaiting_work.empty();
    });
  }

  static void note_last_line(FileState& state, size_t line, std::string_view text) {
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    state.last_line = line;
    state.last_text = clipped(text);
  }

  // A line the filter passed over. The first dated one bounds the time of the undated events
  // above it (a traceback's error, an NCCL WARN), as a dated line read would. A dated one of a
  // rank's work five minutes or more after a cause of that rank in the same file shows the
  // process went on past it (a caught out-of-memory, a skipped batch); a cause with an inherited
  // time is counted from its bound.
  void read_skipped_line(const std::string& file, FileState& state, std::string_view text,
                         size_t line) {
    if (state.lines_left_to_wait == 0) {
      state.undated.clear();               // (no date within kLinesWaitedFor: no bound)
      state.faults_awaiting_work.clear();  // (no work going on: they stand)
      return;
    }
    --state.lines_left_to_wait;
    if (!may_hold_time(text)) return;
    const LineOrigin o = origin_of(text, year);
    if (!o.time) return;
    for (size_t i : state.undated) {
      read_so_far.events[i].latest = o.time;
      read_so_far.events[i].latest_year_guessed = o.year_guessed;
    }
    state.undated.clear();
    if (!state.named_rank) state.named_rank = rank_from_file_name(file);
    const std::optional<int> rank = o.rank ? o.rank : *state.named_rank;
    std::erase_if(state.faults_awaiting_work, [&](std::pair<size_t, std::optional<double>>& f) {
      LogEvent& e = read_so_far.events[f.first];
      if (!f.second) f.second = o.time;
      if ((rank && e.rank && *rank != *e.rank) || *o.time - *f.second < kSurvivedAfter)
        return false;
      e.went_on_after = *o.time - *f.second;
      e.went_on_line = line;
      return true;
    });
  }

  // A save whose end is never logged has completed when the lines after it, which the filter
  // passed over, show the program going on (a progress line of the same rank, not a traceback);
  // a save the job was killed in has no such line after it.
  void close_open_save(FileState& state, std::string_view unread) {
    if (!shows_work(unread, state.open_save_rank, year, state.unread_after_frame)) return;
    for (CheckpointEvent& c : read_so_far.checkpoints)
      if (c.order == *state.open_save) c.completed = true;
    state.open_save.reset();
  }

  void record_save(const std::string& file, size_t line, std::string_view text,
                   std::optional<double> time, bool year_guessed, const SaveLine& save) {
    const bool completed = save.completed;
    track_part(file, time, save);
    std::deque<CheckpointEvent>& checkpoints = read_so_far.checkpoints;
    CheckpointEvent* previous = checkpoints.empty() ? nullptr : &checkpoints.back();
    if (completed && previous && !previous->completed)
      checkpoints.pop_back();  // the confirmation of the save that just started
    // A second start of the same save (Lightning's "saving model to <path>", then NeMo's
    // "Scheduled async checkpoint save for <path>"): the later line says how it ends.
    else if (!completed && previous && !previous->completed && previous->file == file &&
             !save.group.empty() && previous->group == save.group)
      checkpoints.pop_back();
    // A loop that logs only the start of its saves: when the same log starts another save a
    // while later, training went on after the one before, so that one returned.
    else if (!completed && previous && !previous->completed && previous->file == file && time &&
             previous->time && *time - *previous->time >= kSaveInterval)
      previous->completed = true;
    checkpoints.push_back({file, line, time, year_guessed, clipped(text), completed, order,
                           save.group, !completed && !save.end_logged});
    if (checkpoints.size() > kMaxCheckpoints) checkpoints.pop_front();
    if (!completed && !save.path.empty() && unfinished_parts.size() < kMaxUnfinishedParts)
      unfinished_parts.insert_or_assign(save.path, checkpoints.back());
  }

  // A checkpoint that many ranks save in parts, each logged ("Saving /ckpt/global_step9/
  // rank_5.pt..." then "zero checkpoint saved /ckpt/global_step9/rank_5.pt"): a part whose end
  // never came leaves that checkpoint unfinished, whatever the other ranks said. A save line
  // naming the path (or a file inside the folder) ends that part; so does any save line in the
  // same file a while after it, which shows the job went on.
  // Only a checkpoint some of whose parts did end that way is judged by its parts: a framework
  // that logs the start of a part but not its end (DeepSpeed's "Saving model checkpoint:
  // <file>" before 0.10) leaves every part of every save open.
  void track_part(const std::string& file, std::optional<double> time, const SaveLine& save) {
    std::erase_if(unfinished_parts, [&](const auto& part) {
      const auto& [path, start] = part;
      const bool ended = save.completed && (inside(save.path, path) || inside(path, save.path));
      if (ended && groups_with_ended_parts.size() < kMaxUnfinishedParts)
        groups_with_ended_parts.insert(start.group);
      const bool went_on = start.file == file && time && start.time &&
                           *time - *start.time >= kSaveInterval;
      return ended || went_on;
    });
  }
};

Triage::Triage(const Store& store, std::vector<std::string> checkpoint_patterns, int year,
               std::optional<double> boot_time)
    : impl_(std::make_unique<Impl>(store, std::move(checkpoint_patterns), year, boot_time)) {}
Triage::~Triage() = default;

void Triage::add_line(const std::string& file, size_t line, std::string_view text) {
  impl_->read(file, line, text);
}

void Triage::add_lines(const std::string& file, size_t first_line, std::string_view lines) {
  impl_->read_block(file, first_line, lines);
}

TriageReport Triage::report() const {
  TriageFacts facts = impl_->read_so_far;
  // The last dated line of a file whose last lines, given one by one, the filter passed over.
  for (const auto& [path, state] : impl_->files) {
    const std::optional<LineOrigin> dated = last_time_in(state.unread, impl_->year);
    if (!dated || dated->year_guessed || dated->kernel) continue;
    double& last = facts.last_dated_of_file.try_emplace(path, *dated->time).first->second;
    last = std::max(last, *dated->time);
  }
  // A save whose end is never logged, followed to the end of its file by lines given one by one
  // that the filter passed over (kept unread): it ended if they show the program going on.
  for (const auto& [path, state] : impl_->files) {
    if (!state.open_save || state.unread.empty() ||
        !shows_work(state.unread, state.open_save_rank, impl_->year, state.unread_after_frame))
      continue;
    for (CheckpointEvent& c : facts.checkpoints)
      if (c.order == *state.open_save) c.completed = true;
  }
  for (const auto& [path, start] : impl_->unfinished_parts)
    if (impl_->groups_with_ended_parts.contains(start.group))
      facts.unfinished_parts.push_back(start);
  // Where each file named for a rank stops: a hang's silent rank is placed there.
  for (const auto& [path, state] : impl_->files)
    if (const std::optional<int> rank = rank_from_file_name(path); rank && state.last_line > 0)
      facts.last_line_of_rank[*rank] = Evidence{path, state.last_line, state.last_text};
  // A rank's own log rarely names its host, but its NCCL lines do ("node7:1234:1290 [3] NCCL"):
  // the lines of a file that names one host only are that host's.
  // (Not for kills: srun's and slurmstepd's lines in a job's output are no rank's.) A rank's
  // line without a host takes the host another line of that rank named. Failing those, a file
  // named for one of the job's hosts ("dmesg-T_gpu-a12.txt") is that host's.
  std::map<std::pair<std::string, long>, int> rank_of_process;
  for (const auto& [rank, process] : impl_->process_of_rank) rank_of_process.emplace(process, rank);
  // Where no line names its rank, a process's rank in the job's communicator (the largest any
  // process printed) is its rank.
  int world = 0;
  for (const auto& [process, comm] : impl_->comm_rank_of_process)
    world = std::max(world, comm.first);
  for (const auto& [process, comm] : impl_->comm_rank_of_process)
    if (comm.first == world) rank_of_process.emplace(process, comm.second);
  // A file named like a task's output ("torchrun_1799683_1.log", Slurm's %j_%t) whose launcher
  // report names another rank as the first to fail is a node's, the task a node's launcher: its
  // name gives no rank (its events take the launcher's, see name_rank in judge_ranks.cc).
  for (LogEvent& e : facts.events) {
    const auto root = facts.launcher_root_by_file.find(e.file);
    if (e.rank && !e.local_rank && root != facts.launcher_root_by_file.end() &&
        root->second.rank != *e.rank && rank_from_file_name(e.file) == e.rank)
      e.rank.reset();
  }
  for (LogEvent& e : facts.events) {
    auto it = impl_->files.find(e.file);
    if (e.host.empty() && it != impl_->files.end()) e.host = it->second.host;
    if (e.host.empty() && e.rank)
      if (auto h = impl_->host_of_rank.find(*e.rank); h != impl_->host_of_rank.end())
        e.host = h->second;
    if (e.host.empty()) e.host = host_in_file_name(e.file, facts.placement.hosts);
    // A line of no rank from a process another line tied to a rank (NCCL's, Ray Train's worker
    // table: "(RayTrainWorker pid=3634254, ip=10.0.0.7) IndexError: ...") is that rank's.
    if (!e.rank && !e.local_rank && e.pid && !e.host.empty())
      if (auto r = rank_of_process.find({short_host(e.host), *e.pid}); r != rank_of_process.end())
        e.rank = r->second;
    impl_->place_on_gpu(e, facts.placement, rank_of_process);
  }
  // A kill that names its process (the out-of-memory killer's "Killed process 61236") is the
  // rank's whose NCCL lines named that process on the kill's host: its line's host, else the
  // host its file is named for, else the job's one host.
  for (LogEvent& k : facts.kills) {
    if (k.rank || k.local_rank || !k.pid) continue;
    const std::string named =
        k.host.empty() ? host_in_file_name(k.file, facts.placement.hosts) : k.host;
    const std::string host = facts.placement.host_of(named);
    if (auto it = rank_of_process.find({host, *k.pid}); !host.empty() &&
                                                         it != rank_of_process.end()) {
      k.rank = it->second;
      if (k.host.empty()) k.host = host;
    }
  }
  // Dates printed without a year (syslog, glog) were given this year while reading; when the
  // input dates other lines fully and no year was given, move them to the year that puts them
  // nearest the latest full date, never half a year after it: a syslog "Dec 31 23:59:58" beside
  // an ISO "2025-01-01" is in 2024, and a dmesg excerpt and an ISO-dated rank log of 2024 sort
  // together.
  if (!impl_->year_given && facts.latest_dated) {
    const double latest = *facts.latest_dated;
    auto move = [&](double t) {
      double moved = in_year(t, year_of(latest));
      if (moved - latest > kHalfYear) moved = in_year(t, year_of(latest) - 1);
      return moved;
    };
    for (std::vector<LogEvent>* list : {&facts.events, &facts.kills})
      for (LogEvent& e : *list) {
        if (e.year_guessed && e.time) e.time = move(*e.time);
        if (e.latest_year_guessed && e.latest) e.latest = move(*e.latest);
      }
    for (CheckpointEvent& c : facts.checkpoints)
      if (c.year_guessed && c.time) c.time = move(*c.time);
    for (CheckpointEvent& c : facts.unfinished_parts)
      if (c.year_guessed && c.time) c.time = move(*c.time);
  }
  return judge(facts, impl_->store);
}

}  // namespace gpuerr::query
