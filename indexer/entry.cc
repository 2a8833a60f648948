#include "indexer/entry.h"

namespace gpuerr {

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kError: return "error";
    case Kind::kEnv: return "env";
    case Kind::kFaq: return "faq";
  }
  return "error";
}

std::string to_string(const Diagnostic& d) {
  return d.file + ":" + std::to_string(d.line) + ": " + d.message;
}

}  // namespace gpuerr
