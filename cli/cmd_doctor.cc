// `gpuerr doctor` and the index part of `--version`: is the installation usable, and what to fix.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/runner.h"
#include "indexer/error.h"
#include "indexer/schema.h"
#include "query/lookup.h"

namespace gpuerr::cli {
namespace {

// Where the index path came from, for a person who wonders why that one was used.
std::string index_origin(const GlobalOptions& global) {
  if (!global.index_dir.empty()) return "--index";
  if (const char* env = std::getenv("GPUERR_INDEX"); env && *env) return "GPUERR_INDEX";
  return "installed beside the binary";
}

int run_doctor(const GlobalOptions& global) {
  const std::string dir = index_dir(global);
  std::cout << "index: " << dir << " (" << index_origin(global) << ")\n";
  try {
    const query::Store store(dir);
    const query::IndexInfo info = store.info();
    std::cout << "ok    index opens, schema version " << info.schema_version << '\n'
              << "ok    " << info.entry_count << " entries, built " << info.built_at
              << " by gpuerr " << info.gpuerr_version << '\n';
    if (info.gpuerr_version != GPUERR_VERSION)
      std::cout << "note  this is gpuerr " << GPUERR_VERSION
                << "; rebuilding the index with it is safe: gpuerr index --kb KB --out " << dir
                << '\n';
    const bool answers = !query::lookup(store, "CUDA error: misaligned address").empty();
    std::cout << (answers ? "ok    a test lookup answers\n"
                          : "FAIL  a test lookup found nothing: the index holds no CUDA entries; "
                            "index the bundled kb/ as well\n");
    return answers ? kExitOk : kExitError;
  } catch (const Error& e) {
    std::cout << "FAIL  " << e.what() << '\n';
    return kExitError;
  }
}

}  // namespace

std::string version_text(const GlobalOptions& global) {
  std::string text = std::string("gpuerr ") + GPUERR_VERSION + " (index schema " +
                     std::to_string(schema::kVersion) + ")\n";
  try {
    const query::IndexInfo info = query::Store(index_dir(global)).info();
    return text + "index: " + index_dir(global) + ", " + std::to_string(info.entry_count) +
           " entries, built " + info.built_at;
  } catch (const Error& e) {
    return text + "index: " + e.what();
  }
}

void add_doctor_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  CLI::App* sub = app.add_subcommand("doctor", "Check the installation: index found, readable, "
                                               "of this version, answering");
  sub->callback([&global, &run] { run = [&global] { return run_doctor(global); }; });
}

}  // namespace gpuerr::cli
