// gpuerr: the command line. Wires the subcommands to CLI11 and prints gpuerr::Error; every
// command's work happens in cli/cmd_<name>.cc over the libraries.
#include <array>
#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>

#include "cli/runner.h"
#include "indexer/error.h"

namespace {

using gpuerr::cli::GlobalOptions;
using gpuerr::cli::Runner;

// A function that adds subcommands, and their names.
struct Command {
  void (*add)(CLI::App&, const GlobalOptions&, Runner&);
  std::array<std::string_view, 2> names;
};

constexpr Command kCommands[] = {
    {gpuerr::cli::add_lookup_command, {"lookup"}},  // also the default: gpuerr "message"
    {gpuerr::cli::add_show_command, {"show"}},
    {gpuerr::cli::add_list_command, {"list"}},
    {gpuerr::cli::add_env_command, {"env"}},
    {gpuerr::cli::add_faq_command, {"faq"}},
    {gpuerr::cli::add_stats_command, {"stats"}},
    {gpuerr::cli::add_doctor_command, {"doctor"}},
    {gpuerr::cli::add_eval_command, {"eval"}},
    {gpuerr::cli::add_triage_command, {"triage", "redact"}},
    {gpuerr::cli::add_export_command, {"export"}},
    {gpuerr::cli::add_index_command, {"index"}},
    {gpuerr::cli::add_lint_command, {"lint"}},
};

// The one function whose subcommands the command line can run, so that only they are built:
// building all of them with their options took a tenth of a lookup's instructions and more of
// its wall time (0.4 ms: fresh heap pages). Found by the first argument that names a subcommand,
// skipping options and the values of --index and --color; with none named, an argument that is
// no option is the message of the default command, lookup. nullptr (build all) when there is
// neither, and for --help, --version or "--": the full list may be shown, or nothing can be told.
// (tests/cli/cli_test.cc runs every subcommand the full help lists.)
const Command* only_command(int argc, char** argv) {
  bool message = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "--version" || arg == "--") return nullptr;
    if (arg == "--index" || arg == "--color") {
      ++i;
    } else if (arg.size() > 1 && arg.starts_with('-')) {
      continue;
    } else {
      for (const Command& c : kCommands)
        for (std::string_view name : c.names)
          if (!name.empty() && arg == name) return &c;
      message = true;
    }
  }
  return message ? &kCommands[0] : nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuerr::cli;
  CLI::App app{"gpuerr: offline answers for GPU and CUDA errors.\n"
               "Paste an error message: gpuerr \"CUDA error: an illegal memory access was "
               "encountered\""};
  GlobalOptions global;
  app.set_version_flag("--version", [&global] { return version_text(global); });
  app.add_option("--index", global.index_dir, "Index directory (default: $GPUERR_INDEX, then "
                                              "the installed index)");
  app.add_flag("--json", global.json, "Print JSON instead of text");
  app.add_option("--color", global.color,
                 "Colour text output: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.fallthrough();
  Runner run;
  if (const Command* only = only_command(argc, argv)) {
    only->add(app, global, run);
  } else {
    for (const Command& c : kCommands) c.add(app, global, run);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {  // --help and --version land here too, with code 0
    return app.exit(e) == 0 ? kExitOk : kExitError;
  }
  if (!run) {
    std::cerr << app.help();
    return kExitError;
  }
  try {
    return run();
  } catch (const gpuerr::Error& e) {
    std::cerr << "gpuerr: error: " << e.what() << '\n';
    return kExitError;
  }
}
