// `gpuerr index` and `gpuerr lint`: check kb/ directories, and write the index when clean.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/runner.h"
#include "indexer/error.h"
#include "indexer/index_writer.h"
#include "indexer/lint.h"

namespace gpuerr::cli {
namespace {

struct IndexOptions {
  std::vector<std::string> kb_dirs;  // the first is the base, later ones overlays
  std::string out_dir;
};

// Prints every problem as file:line: message; returns how many there were. Overrides are
// printed as notes, so that an admin sees what the site changes, but they are not problems.
size_t report(const indexer::Catalogue& catalogue) {
  for (const Diagnostic& d : catalogue.overrides)
    std::cerr << d.file << ":" << d.line << ": note: " << d.message << '\n';
  for (const Diagnostic& d : catalogue.problems) std::cerr << to_string(d) << '\n';
  return catalogue.problems.size();
}

// The kb layers: --kb, else the directories of GPUERR_KB_PATH (colon-separated, base first).
std::vector<std::string> kb_layers(const IndexOptions& options) {
  if (!options.kb_dirs.empty()) return options.kb_dirs;
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("GPUERR_KB_PATH")) {
    std::istringstream list(path);
    for (std::string dir; std::getline(list, dir, ':');)
      if (!dir.empty()) dirs.push_back(dir);
  }
  if (dirs.empty()) throw Error("no kb given: pass --kb DIR (repeat for overlays) or set GPUERR_KB_PATH");
  return dirs;
}

int run_lint(const IndexOptions& options) {
  const indexer::Catalogue catalogue = indexer::read_catalogue(kb_layers(options));
  if (const size_t n = report(catalogue)) {
    std::cerr << "gpuerr: " << n << " problem" << (n == 1 ? "" : "s") << " in the kb\n";
    return kExitNoMatch;
  }
  std::cout << catalogue.entries.size() << " entries, no problems\n";
  return kExitOk;
}

int run_index(const IndexOptions& options) {
  const indexer::Catalogue catalogue = indexer::read_catalogue(kb_layers(options));
  if (const size_t n = report(catalogue)) {
    std::cerr << "gpuerr: index not written: " << n << " problem" << (n == 1 ? "" : "s")
              << " in the kb\n";
    return kExitNoMatch;
  }
  indexer::write_index(catalogue.entries, options.out_dir, catalogue.documented);
  std::cout << "indexed " << catalogue.entries.size() << " entries into " << options.out_dir
            << '\n';
  return kExitOk;
}

}  // namespace

void add_index_command(CLI::App& app, const GlobalOptions&, Runner& run) {
  auto options = std::make_shared<IndexOptions>();
  CLI::App* sub = app.add_subcommand("index", "Check kb/ directories and write an index");
  sub->add_option("--kb", options->kb_dirs,
                  "A kb directory; repeat for overlays (default: $GPUERR_KB_PATH, colon-separated)");
  sub->add_option("--out", options->out_dir, "The index directory to write")->required();
  sub->callback([&run, options] { run = [options] { return run_index(*options); }; });
}

void add_lint_command(CLI::App& app, const GlobalOptions&, Runner& run) {
  auto options = std::make_shared<IndexOptions>();
  CLI::App* sub = app.add_subcommand("lint", "Check kb/ directories; print each problem as "
                                             "file:line: message");
  sub->add_option("--kb", options->kb_dirs,
                  "A kb directory; repeat for overlays (default: $GPUERR_KB_PATH, colon-separated)");
  sub->callback([&run, options] { run = [options] { return run_lint(*options); }; });
}

}  // namespace gpuerr::cli
