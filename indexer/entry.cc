#include "indexer/entry.h"

#include <cctype>

namespace gpuerr {

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kError: return "error";
    case Kind::kEnv: return "env";
    case Kind::kFaq: return "faq";
  }
  return "error";
}

std::string triage_role(const Entry& e) {
  return e.role.empty() || e.role == "report" ? "cause" : e.role;
}

std::string code_key(std::string_view code) {
  std::string key(code);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

std::string to_string(const Diagnostic& d) {
  return d.file + ":" + std::to_string(d.line) + ": " + d.message;
}

}  // namespace gpuerr
