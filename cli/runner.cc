#include "cli/runner.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "indexer/error.h"

namespace gpuerr::cli {

std::string index_dir(const GlobalOptions& options) {
  if (!options.index_dir.empty()) return options.index_dir;
  if (const char* env = std::getenv("GPUERR_INDEX"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path base = ec ? std::filesystem::path(".") : self.parent_path();
  return (base / GPUERR_INDEX_RELATIVE).lexically_normal().string();
}

int exit_now(int code) {
#if defined(__SANITIZE_ADDRESS__)
  return code;
#else
  std::cout.flush();
  std::_Exit(code);
#endif
}

std::optional<std::string> read_stdin(size_t limit) {
  std::string text;
  char chunk[1 << 16];
  ssize_t n;
  while ((n = ::read(STDIN_FILENO, chunk, sizeof chunk)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("reading standard input: ") + std::strerror(errno));
    }
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > limit) return std::nullopt;
  }
  return text;
}

}  // namespace gpuerr::cli
