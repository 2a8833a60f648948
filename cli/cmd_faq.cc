// `gpuerr faq [WORDS]`: the questions, or the answers that best match some words.
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/print_json.h"
#include "cli/print_text.h"
#include "cli/runner.h"
#include "query/store.h"

namespace gpuerr::cli {
namespace {

struct FaqOptions {
  std::vector<std::string> words;  // empty: list every question
};

constexpr int kAnswersShown = 2;

int run_faq(const GlobalOptions& global, const FaqOptions& options) {
  const query::Store store(index_dir(global));
  std::vector<Entry> shown;
  if (options.words.empty()) {
    shown = store.entries(Kind::kFaq);
  } else {
    std::string text;
    for (const std::string& w : options.words) text += w + " ";
    for (const query::TextHit& hit : store.search(text, Kind::kFaq, kAnswersShown))
      if (std::optional<Entry> e = store.entry(hit.entry_id)) shown.push_back(std::move(*e));
  }
  if (global.json) {
    print_json(std::cout, entries_json(shown));
  } else if (options.words.empty()) {
    print_entry_list_text(std::cout, shown);
  } else {
    const Style style = output_style(global.color);
    std::ostringstream text;
    for (size_t i = 0; i < shown.size(); ++i) {
      if (i) text << "\n----\n\n";
      print_entry_text(text, shown[i], {}, style);
    }
    if (shown.empty()) text << "No question matches; 'gpuerr faq' lists them all.\n";
    show(text.str(), style);
  }
  return shown.empty() ? kExitNoMatch : kExitOk;
}

}  // namespace

void add_faq_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<FaqOptions>();
  CLI::App* sub = app.add_subcommand("faq", "Frequently asked questions: all, or those about WORDS");
  sub->add_option("words", options->words, "Words of the question, e.g. cascade");
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_faq(global, *options); };
  });
}

}  // namespace gpuerr::cli
