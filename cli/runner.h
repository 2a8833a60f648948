// What every subcommand shares: exit codes, the options that apply to all commands, and how
// the index directory is found. Printing lives in print_*.h; logic lives in the libraries.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace gpuerr::cli {

/// grep's convention: answered, nothing matched, error (usage errors too).
inline constexpr int kExitOk = 0;
inline constexpr int kExitNoMatch = 1;
inline constexpr int kExitError = 2;

/// The command chosen on the command line; returns its exit code. Empty when none was chosen.
using Runner = std::function<int()>;

/// Options given before or after the subcommand.
struct GlobalOptions {
  std::string index_dir;  // --index; empty: GPUERR_INDEX, then the installed index
  bool json = false;      // --json
  std::string color = "auto";  // --color: auto, always or never
};

/// The index to open: `--index`, else $GPUERR_INDEX, else the index installed beside the
/// binary (../share/gpuerr/index from the binary's directory, in the build tree and once
/// installed alike).
std::string index_dir(const GlobalOptions& options);

/// Ends a command that has done all its work: flushes standard output and leaves without
/// running destructors. Closing the index and freeing every compiled pattern one by one took a
/// tenth of a lookup's wall time, for memory and files the kernel drops anyway. Under
/// AddressSanitizer it returns `code` instead, so that the leak checker still sees every
/// allocation freed.
int exit_now(int code);

/// Reads standard input (the message when none is given on the command line), at most `limit`
/// bytes; returns nullopt, having read no more than limit + 1 bytes, when there is more.
std::optional<std::string> read_stdin(size_t limit);

// One function per subcommand, each in cli/cmd_<name>.cc (add_triage_command adds redact too).
// main.cc lists them with their names.
void add_lookup_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_show_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_list_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_env_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_faq_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_stats_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_index_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_doctor_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_eval_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_triage_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_export_command(CLI::App& app, const GlobalOptions& global, Runner& run);
void add_lint_command(CLI::App& app, const GlobalOptions& global, Runner& run);

/// What `--version` prints: the program, and the index it would use (or why it cannot).
std::string version_text(const GlobalOptions& global);

}  // namespace gpuerr::cli
