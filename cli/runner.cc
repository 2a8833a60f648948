#include "cli/runner.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>

namespace gpuerr::cli {

std::string index_dir(const GlobalOptions& options) {
  if (!options.index_dir.empty()) return options.index_dir;
  if (const char* env = std::getenv("GPUERR_INDEX"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path base = ec ? std::filesystem::path(".") : self.parent_path();
  return (base / GPUERR_INDEX_RELATIVE).lexically_normal().string();
}

std::string read_stdin() {
  std::ios::sync_with_stdio(false);
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

}  // namespace gpuerr::cli
