// gpuerr::Error: the one exception type that crosses module boundaries. Thrown for work that
// cannot be done (I/O, SQLite, Xapian, a missing or outdated index); printed only by cli/main.cc.
#pragma once

#include <stdexcept>
#include <string>

namespace gpuerr {

/// Work that cannot be done. `what()` is one lower-case line: what we were doing, the object in
/// single quotes, the reason, and the command that fixes it when there is one.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace gpuerr
