// `gpuerr export`: the catalogue as a static site or a Dash docset (site/export.h).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/runner.h"
#include "query/store.h"
#include "site/export.h"

namespace gpuerr::cli {
namespace {

int run_export(const GlobalOptions& global, const site::ExportOptions& options) {
  const query::Store store(index_dir(global));
  const site::ExportSummary summary = site::export_site(store, options);
  std::cout << "exported " << summary.entries << " entries (" << summary.pages << " pages) as "
            << (options.format == "docset" ? "a docset" : "a site") << " to " << options.out_dir
            << '\n';
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<site::ExportOptions>();
  CLI::App* sub = app.add_subcommand(
      "export", "Write the catalogue as a static web site (or a Dash/Zeal docset)");
  sub->add_option("--out", options->out_dir,
                  "The directory to write; an earlier export there is replaced whole")
      ->required();
  sub->add_option("--base-url", options->base_url,
                  "The address the site will be served at, for sitemap.xml (e.g. "
                  "https://wiki.example/gpuerr/)");
  sub->add_option("--format", options->format, "html (default) or docset (--out NAME.docset)")
      ->check(CLI::IsMember({"html", "docset"}));
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_export(global, *options); };
  });
}

}  // namespace gpuerr::cli
