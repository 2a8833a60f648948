// `gpuerr show ID`: one entry in full.
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/print_json.h"
#include "cli/print_text.h"
#include "cli/runner.h"
#include "indexer/error.h"
#include "query/store.h"
#include "query/suggest.h"

namespace gpuerr::cli {
namespace {

struct ShowOptions {
  std::string id;
};

int run_show(const GlobalOptions& global, const ShowOptions& options) {
  const query::Store store(index_dir(global));
  const std::optional<Entry> entry = store.entry(options.id);
  if (!entry) throw Error(query::unknown_id_message(options.id, store.ids()));
  const std::vector<std::string> back = store.referenced_by(entry->id);
  if (global.json) {
    nlohmann::ordered_json out = entry_json(*entry);
    out["referenced_by"] = back;
    print_json(std::cout, out);
  } else {
    const Style style = output_style(global.color);
    std::ostringstream text;
    print_entry_text(text, *entry, back, style);
    show(text.str(), style);
  }
  return kExitOk;
}

}  // namespace

void add_show_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<ShowOptions>();
  CLI::App* sub = app.add_subcommand("show", "Print one entry in full");
  sub->add_option("id", options->id, "The entry's id, as lookup prints it")->required();
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_show(global, *options); };
  });
}

}  // namespace gpuerr::cli
