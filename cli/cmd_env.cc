// `gpuerr env [NAME]`: the environment-variable reference, or one variable in full.
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

struct EnvOptions {
  std::string name;  // empty: list them all; "NAME=option:value" finds the option's entry
};

bool same_name(const std::string& a, const std::string& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
  });
}

int run_env(const GlobalOptions& global, const EnvOptions& options) {
  const query::Store store(index_dir(global));
  std::vector<Entry> vars = store.entries(Kind::kEnv);
  if (options.name.empty()) {
    if (global.json) {
      print_json(std::cout, entries_json(vars));
    } else {
      print_entry_list_text(std::cout, vars);
    }
    return kExitOk;
  }
  // Most specific first: the whole text, then "VAR=option" (an allocator option), then VAR.
  const std::string whole = options.name;
  const std::string option = whole.substr(0, whole.find(':', whole.find('=')));
  const std::string wanted = whole.substr(0, whole.find('='));
  for (const std::string& key : {whole, option, wanted}) {
    for (const Entry& e : vars) {
      if (!same_name(e.env_name.substr(0, e.env_name.find(':', e.env_name.find('='))), key) &&
          !same_name(e.env_name, key) && e.id != key)
        continue;
      if (global.json) {
        print_json(std::cout, entry_json(e));
      } else {
        const Style style = output_style(global.color);
        std::ostringstream text;
        print_entry_text(text, e, {}, style);
        show(text.str(), style);
      }
      return kExitOk;
    }
  }
  std::vector<std::string> names;
  for (const Entry& e : vars) names.push_back(e.env_name);
  const std::string near = query::closest_name(wanted, names);
  throw Error("no variable '" + wanted + "' in the index" +
              (near.empty() ? " (see 'gpuerr env')" : " (did you mean '" + near + "'?)"));
}

}  // namespace

void add_env_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<EnvOptions>();
  CLI::App* sub = app.add_subcommand("env", "Environment variables: all of them, or one in full");
  sub->add_option("name", options->name, "A variable, e.g. CUDA_LAUNCH_BLOCKING");
  sub->callback([&global, &run, options] {
    run = [&global, options] { return run_env(global, *options); };
  });
}

}  // namespace gpuerr::cli
