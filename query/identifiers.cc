#include "query/identifiers.h"

#include <algorithm>
#include <cctype>

#include <re2/re2.h>

#include "indexer/entry.h"

namespace gpuerr::query {
namespace {

struct NumberContext {
  const char* family;  // the key prefix, e.g. "xid"
  const RE2* pattern;  // one capture group: the number
};

// Numbers mean nothing alone; these are the contexts that say which table a number is from.
const std::vector<NumberContext>& number_contexts() {
  // Built once and never destroyed (no exit-time teardown).
  static const auto& contexts = *new std::vector<NumberContext>{
      // "NVRM: Xid (PCI:0000:3b:00): 79, pid=..." and "Xid 79"
      {"xid", new RE2(R"((?i)\bxid\b\s*(?:\(pci:[^)]*\))?\s*:?\s*(\d+))")},
      // "CUDA error 700", "CUDA runtime error (700)", "cudaError 700", "cudaError_t = 700"
      {"cuda", new RE2(R"((?i)\bcuda(?:\s+runtime)?\s*error(?:_t)?(?:\s+code)?\s*[:=#]?\s*\(?(\d+)\b)")},
      // "(error 700)" or "error code 700" on a line that says CUDA elsewhere
      {"cuda", new RE2(R"((?i)cuda[^\n]*?\berror(?:\s+code)?\s*[:=#]?\s*\(?(\d+)\)?)")},
      // "CUresult 700", "CUDA_ERROR 700", "cuda driver error 700"
      {"cu", new RE2(R"((?i)\b(?:curesult|cuda\s+driver\s+error)\s*[:=#]?\s*\(?(\d+)\b)")},
  };
  return contexts;
}

bool looks_like_error_name(std::string_view word) {
  if (word.size() < 6) return false;
  if (word.find('_') != std::string_view::npos) return true;
  for (size_t i = 1; i < word.size(); ++i)  // camelCase: a capital after a small letter
    if (std::isupper(static_cast<unsigned char>(word[i])) &&
        std::islower(static_cast<unsigned char>(word[i - 1])))
      return true;
  return false;
}

void add(std::vector<std::string>& keys, std::string key) {
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
}

}  // namespace

std::vector<std::string> code_keys(std::string_view text) {
  std::vector<std::string> keys;
  size_t i = 0;
  while (i < text.size()) {
    const auto word_char = [&](size_t k) {
      const unsigned char c = static_cast<unsigned char>(text[k]);
      return std::isalnum(c) || c == '_';
    };
    if (!word_char(i)) { ++i; continue; }
    size_t end = i;
    while (end < text.size() && word_char(end)) ++end;
    const std::string_view word = text.substr(i, end - i);
    if (std::isalpha(static_cast<unsigned char>(word[0])) && looks_like_error_name(word))
      add(keys, code_key(word));
    i = end;
  }
  for (const NumberContext& c : number_contexts()) {
    re2::StringPiece input(text.data(), text.size());
    std::string number;
    while (RE2::FindAndConsume(&input, *c.pattern, &number))
      add(keys, std::string(c.family) + ":" + std::to_string(std::stoul(number.substr(0, 9))));
  }
  return keys;
}

}  // namespace gpuerr::query
