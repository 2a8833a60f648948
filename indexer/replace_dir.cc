#include "indexer/replace_dir.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "indexer/error.h"

namespace gpuerr {

namespace fs = std::filesystem;

fs::path temporary_sibling(const fs::path& out) {
  std::random_device seed;
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  return parent / ("." + out.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" +
                   std::to_string(seed()));
}

void swap_into_place(const fs::path& fresh, const fs::path& out, const std::string& what) {
  if (::rename(fresh.c_str(), out.c_str()) == 0) return;  // `out` was absent or empty
  if (errno != ENOTEMPTY && errno != EEXIST)
    throw Error("moving the new " + what + " to '" + out.string() + "': " + std::strerror(errno));
  if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, out.c_str(), RENAME_EXCHANGE) != 0)
    throw Error("replacing the " + what + " '" + out.string() + "': " + std::strerror(errno));
  std::error_code ignored;
  fs::remove_all(fresh, ignored);  // the old directory; a leftover is harmless
}

}  // namespace gpuerr
