// Helpers shared by the test suites: temporary directories, kb files from strings, an index
// of the bundled kb/ built once per test binary, and running the gpuerr binary.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "query/lookup.h"
#include "query/store.h"

namespace gpuerr::test {

/// A new empty directory under the system's temporary directory, removed when the test binary
/// exits.
std::filesystem::path temp_dir();

/// Writes `text` to `path`, creating its parent directories.
void write_file(const std::filesystem::path& path, const std::string& text);

/// The bundled kb/ of this source tree.
std::filesystem::path bundled_kb();

/// The index of the bundled kb/, built once per test binary into a temporary directory.
const std::filesystem::path& bundled_index();
const query::Store& bundled_store();

/// The id of the best confident match, or "(none)".
std::string top_entry(const std::vector<query::Match>& matches);

/// What running the gpuerr binary printed and returned.
struct Run {
  int exit_code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

/// Runs the built gpuerr binary with `args` and `stdin_text` on its standard input.
Run run_gpuerr(const std::vector<std::string>& args, const std::string& stdin_text = "");

/// Runs a shell command line in which "@gpuerr@" stands for the built binary.
Run run_shell(const std::string& command);

/// The largest resident set of any child process waited for so far, in KiB.
long max_child_rss_kib();

}  // namespace gpuerr::test
