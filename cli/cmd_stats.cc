// `gpuerr stats`: entries per family and the documented codes still missing an entry.
#include <iomanip>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/print_json.h"
#include "cli/runner.h"
#include "query/stats.h"

namespace gpuerr::cli {
namespace {

constexpr size_t kMissingShown = 8;  // in text; --json lists them all

void print_text(const std::vector<query::FamilyStats>& families) {
  int total = 0;
  for (const query::FamilyStats& f : families) total += f.entries;
  std::cout << std::left << std::setw(28) << "family" << std::right << std::setw(8) << "entries"
            << std::setw(14) << "documented" << "  missing\n";
  for (const query::FamilyStats& f : families) {
    std::cout << std::left << std::setw(28) << f.family << std::right << std::setw(8) << f.entries;
    if (f.documented == 0) {
      std::cout << '\n';
      continue;
    }
    const int covered = f.documented - static_cast<int>(f.missing.size());
    std::cout << std::setw(14) << (std::to_string(covered) + "/" + std::to_string(f.documented))
              << "  ";
    for (size_t i = 0; i < f.missing.size() && i < kMissingShown; ++i)
      std::cout << (i ? ", " : "") << f.missing[i].name;
    if (f.missing.size() > kMissingShown) std::cout << " and " << f.missing.size() - kMissingShown << " more";
    std::cout << (f.missing.empty() ? "-" : "") << '\n';
  }
  std::cout << std::left << std::setw(28) << "total" << std::right << std::setw(8) << total << '\n';
}

int run_stats(const GlobalOptions& global) {
  const query::Store store(index_dir(global));
  const std::vector<query::FamilyStats> families = query::catalogue_stats(store);
  if (!global.json) {
    print_text(families);
    return kExitOk;
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const query::FamilyStats& f : families) {
    nlohmann::ordered_json missing = nlohmann::ordered_json::array();
    for (const DocumentedCode& d : f.missing) missing.push_back({{"code", d.code}, {"name", d.name}});
    out.push_back({{"family", f.family}, {"entries", f.entries}, {"documented", f.documented},
                   {"missing", missing}});
  }
  print_json(std::cout, {{"families", out}});
  return kExitOk;
}

}  // namespace

void add_stats_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  CLI::App* sub = app.add_subcommand("stats", "Entries per family, and documented codes still "
                                              "missing an entry");
  sub->callback([&global, &run] { run = [&global] { return run_stats(global); }; });
}

}  // namespace gpuerr::cli
