// `gpuerr lookup TEXT...` and the default `gpuerr TEXT...`: ranked entries for one message.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/print_json.h"
#include "cli/print_text.h"
#include "cli/runner.h"
#include "indexer/error.h"
#include "indexer/limits.h"
#include "query/lookup.h"

namespace gpuerr::cli {
namespace {

struct LookupOptions {
  std::vector<std::string> text;  // joined with spaces; empty or "-": standard input
  int limit = 5;
  bool brief = false;    // one line per match
  bool explain = false;  // the evidence behind each match
};

void add_lookup_options(CLI::App& app, LookupOptions& options) {
  app.add_option("--limit", options.limit, "Show at most this many matches")
      ->check(CLI::PositiveNumber);
  app.add_flag("--brief", options.brief, "One line per match: id, confidence, title (for scripts)");
  app.add_flag("--explain", options.explain,
               "Say why each entry matched: identifier, signature, share of words, score");
}

constexpr size_t kClosestShown = 3;

std::string message_of(const LookupOptions& options) {
  const std::string too_large =
      "the message is larger than " + std::to_string(limits::kMaxLookupBytes >> 10) +
      " KiB; lookup reads one paste, so pass the lines around the error (e.g. 'tail -n 200 LOG "
      "| gpuerr')";
  if (options.text.empty() || (options.text.size() == 1 && options.text[0] == "-")) {
    std::optional<std::string> text = read_stdin(limits::kMaxLookupBytes);
    if (!text) throw Error(too_large);
    return std::move(*text);
  }
  std::string message;
  for (const std::string& part : options.text) message += (message.empty() ? "" : " ") + part;
  if (message.size() > limits::kMaxLookupBytes) throw Error(too_large);
  return message;
}

// Every output of lookup prints only an entry's heading (Store::entry_heading); `gpuerr show`
// prints the rest.
Answer answer(const query::Store& store, const query::Match& m) {
  std::optional<Entry> entry = store.entry_heading(m.entry_id);
  return {m, entry ? std::move(*entry) : Entry{}};
}

int run_lookup(const GlobalOptions& global, const LookupOptions& options) {
  const std::string message = message_of(options);
  const query::Store store(index_dir(global));
  // Only the text output shows the closest entries below the confident ones; reading them for
  // --json or --brief would be wasted work.
  const bool show_closest = !global.json && !options.brief;
  std::vector<Answer> confident, closest;
  for (const query::Match& m : query::lookup(store, message)) {
    const bool sure = m.confidence >= query::kConfident;
    if (sure && static_cast<int>(confident.size()) < options.limit)
      confident.push_back(answer(store, m));
    else if (!sure && show_closest && closest.size() < kClosestShown && m.confidence > 0)
      closest.push_back(answer(store, m));
  }
  if (global.json)
    print_json(std::cout, lookup_json(message, confident));
  else if (options.brief)
    print_lookup_brief(std::cout, confident);
  else {
    const Style style = output_style(global.color);
    std::ostringstream text;
    print_lookup_text(text, confident, closest, options.explain, style);
    show(text.str(), style);
  }
  return exit_now(confident.empty() ? kExitNoMatch : kExitOk);
}

}  // namespace

void add_lookup_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<LookupOptions>();
  auto start = [&global, &run, options] { run = [&global, options] { return run_lookup(global, *options); }; };
  CLI::App* sub = app.add_subcommand("lookup", "Find the entries that explain an error message "
                                               "(the default command)");
  sub->add_option("text", options->text, "The message; '-' or nothing reads standard input");
  add_lookup_options(*sub, *options);
  sub->callback(start);
  // `gpuerr "message"` with no subcommand, or `... | gpuerr`, is a lookup too.
  app.add_option("text", options->text, "An error message to look up (same as 'lookup TEXT')");
  add_lookup_options(app, *options);
  app.callback([&run, start, options] {
    if (!run && (!options->text.empty() || !isatty(STDIN_FILENO))) start();
  });
}

}  // namespace gpuerr::cli
