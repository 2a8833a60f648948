#include "tests/support.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "indexer/index_writer.h"
#include "indexer/lint.h"

namespace gpuerr::test {
namespace fs = std::filesystem;

namespace {

struct TempRoot {
  fs::path path;
  TempRoot() {
    std::string pattern = (fs::temp_directory_path() / "gpuerr-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
    path = pattern;
  }
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TempRoot& temp_root() {
  static TempRoot root;
  return root;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

fs::path temp_dir() {
  static int counter = 0;
  const fs::path dir = temp_root().path / ("d" + std::to_string(++counter));
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
}

fs::path bundled_kb() { return fs::path(GPUERR_SOURCE_DIR) / "kb"; }

const fs::path& bundled_index() {
  static const fs::path dir = [] {
    const indexer::Catalogue catalogue = indexer::read_catalogue({bundled_kb().string()});
    if (!catalogue.problems.empty())
      throw std::runtime_error("bundled kb has problems: " + to_string(catalogue.problems[0]));
    const fs::path out = temp_dir() / "index";
    indexer::write_index(catalogue.entries, out.string(), catalogue.documented);
    return out;
  }();
  return dir;
}

const query::Store& bundled_store() {
  static const query::Store store(bundled_index().string());
  return store;
}

std::string top_entry(const std::vector<query::Match>& matches) {
  if (matches.empty() || matches.front().confidence < query::kConfident) return "(none)";
  return matches.front().entry_id;
}

namespace {

Run run_redirected(const std::string& command, const fs::path& dir) {
  const std::string full = "(" + command + ") >'" + (dir / "out").string() + "' 2>'" +
                           (dir / "err").string() + "'";
  const int status = std::system(full.c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = slurp(dir / "out");
  run.err = slurp(dir / "err");
  return run;
}

}  // namespace

Run run_shell(const std::string& command) {
  std::string line = command;
  const std::string binary = "'" + std::string(GPUERR_BINARY) + "'";
  const std::string placeholder = "@gpuerr@";
  for (size_t at = line.find(placeholder); at != std::string::npos;
       at = line.find(placeholder, at + binary.size()))
    line.replace(at, placeholder.size(), binary);
  return run_redirected(line, temp_dir());
}

long max_child_rss_kib() {
  struct rusage usage {};
  getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_maxrss;
}

Run run_gpuerr(const std::vector<std::string>& args, const std::string& stdin_text) {
  const fs::path dir = temp_dir();
  write_file(dir / "stdin", stdin_text);
  std::string command = "'" + std::string(GPUERR_BINARY) + "'";
  for (const std::string& a : args) {
    std::string quoted;
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += " '" + quoted + "'";
  }
  command += " <'" + (dir / "stdin").string() + "'";
  return run_redirected(command, dir);
}

}  // namespace gpuerr::test
