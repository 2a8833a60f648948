// `gpuerr show ID`: one entry in full.
#include <cstdlib>
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
#include "site/layout.h"

namespace gpuerr::cli {
namespace {

struct ShowOptions {
  std::string id;
  std::string site_url;  // --site-url; empty: $GPUERR_SITE_URL, else no link
};

// The address of the entry's page on the site `gpuerr export` wrote, or "" when none is known.
std::string page_url(const ShowOptions& options, const std::string& id) {
  std::string base = options.site_url;
  if (const char* env = std::getenv("GPUERR_SITE_URL"); base.empty() && env) base = env;
  return base.empty() ? "" : site::entry_url(base, id);
}

int run_show(const GlobalOptions& global, const ShowOptions& options) {
  const query::Store store(index_dir(global));
  const std::optional<Entry> entry = store.entry(options.id);
  if (!entry) throw Error(query::unknown_id_message(options.id, store.ids()));
  const std::vector<std::string> back = store.referenced_by(entry->id);
  if (global.json) {
    nlohmann::ordered_json out = entry_json(*entry);
    out["referenced_by"] = back;
    const std::string url = page_url(options, entry->id);
    out["url"] = url.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(url);
    print_json(std::cout, out);
  } else {
    const Style style = output_style(global.color);
    std::ostringstream text;
    print_entry_text(text, *entry, back, style);
    if (const std::string url = page_url(options, entry->id); !url.empty())
      text << "\nPage: " << url << '\n';
    show(text.str(), style);
  }
  return kExitOk;
}

}  // namespace

void add_show_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<ShowOptions>();
  CLI::App* sub = app.add_subcommand("show", "Print one entry in full");
  sub->add_option("id", options->id, "The entry's id, as lookup prints it")->required();
  sub->add_option("--site-url", options->site_url,
                  "Print the link to the entry's page on a site exported by 'gpuerr export' and "
                  "served at this address (default: $GPUERR_SITE_URL)");
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_show(global, *options); };
  });
}

}  // namespace gpuerr::cli
