// gpuerr: the command line. Wires the subcommands to CLI11 and prints gpuerr::Error; every
// command's work happens in cli/cmd_<name>.cc over the libraries.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/runner.h"
#include "indexer/error.h"

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
  add_lookup_command(app, global, run);  // also the default: gpuerr "message"
  add_show_command(app, global, run);
  add_list_command(app, global, run);
  add_env_command(app, global, run);
  add_faq_command(app, global, run);
  add_stats_command(app, global, run);
  add_doctor_command(app, global, run);
  add_eval_command(app, global, run);
  add_triage_command(app, global, run);
  add_export_command(app, global, run);
  add_index_command(app, run);
  add_lint_command(app, run);
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
