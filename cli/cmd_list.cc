// `gpuerr list [--category C]`: every error entry, one line each.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/print_json.h"
#include "cli/print_text.h"
#include "cli/runner.h"
#include "indexer/error.h"
#include "query/store.h"

namespace gpuerr::cli {
namespace {

struct ListOptions {
  std::string category;  // empty: every category
};

int run_list(const GlobalOptions& global, const ListOptions& options) {
  const query::Store store(index_dir(global));
  std::vector<Entry> shown;
  std::set<std::string> categories;
  for (Entry& e : store.entries(Kind::kError)) {
    categories.insert(e.category);
    if (options.category.empty() || e.category == options.category) shown.push_back(std::move(e));
  }
  if (!options.category.empty() && !categories.count(options.category)) {
    std::string known;
    for (const std::string& c : categories) known += (known.empty() ? "" : ", ") + c;
    throw Error("no category '" + options.category + "' in the index (categories: " + known + ")");
  }
  if (global.json) {
    print_json(std::cout, entries_json(shown));
  } else {
    print_entry_list_text(std::cout, shown);
  }
  return kExitOk;
}

}  // namespace

void add_list_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* sub = app.add_subcommand("list", "List the error entries");
  sub->add_option("--category", options->category, "Only this category, e.g. hardware");
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_list(global, *options); };
  });
}

}  // namespace gpuerr::cli
