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

constexpr size_t kMissingShown = 8;  // names shown in text; --json lists them all

// "a, b, c and 5 more": the first kMissingShown names.
std::string first_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMissingShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kMissingShown) out += " and " + std::to_string(names.size() - kMissingShown) + " more";
  return names.empty() ? "-" : out;
}

void print_text(const std::vector<query::FamilyStats>& families) {
  int total = 0;
  std::vector<std::string> thin;
  for (const query::FamilyStats& f : families) {
    total += f.entries;
    thin.insert(thin.end(), f.thinly_sourced.begin(), f.thinly_sourced.end());
  }
  std::cout << std::left << std::setw(28) << "family" << std::right << std::setw(8) << "entries"
            << std::setw(10) << "sourced" << std::setw(14) << "documented" << "  missing\n";
  for (const query::FamilyStats& f : families) {
    std::cout << std::left << std::setw(28) << f.family << std::right << std::setw(8) << f.entries;
    const bool errors = f.family != kind_name(Kind::kEnv) && f.family != kind_name(Kind::kFaq);
    if (errors) std::cout << std::setw(10) << f.entries - static_cast<int>(f.thinly_sourced.size());
    if (f.documented == 0) {
      std::cout << '\n';
      continue;
    }
    std::vector<std::string> missing;
    for (const DocumentedCode& d : f.missing) missing.push_back(d.name);
    const int covered = f.documented - static_cast<int>(f.missing.size());
    std::cout << std::setw(14) << (std::to_string(covered) + "/" + std::to_string(f.documented))
              << "  " << first_names(missing) << '\n';
  }
  std::cout << std::left << std::setw(28) << "total" << std::right << std::setw(8) << total << '\n'
            << "\nsourced: error entries with two examples seen at public sources, of different text\n"
            << "on different pages. Short of it (" << thin.size() << "): " << first_names(thin) << '\n';
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
                   {"missing", missing}, {"thinly_sourced", f.thinly_sourced}});
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
