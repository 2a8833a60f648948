#include "indexer/signature.h"

#include <algorithm>
#include <array>

#include <re2/re2.h>
#include <re2/set.h>

#include "indexer/error.h"

namespace gpuerr {
namespace {

struct Placeholder {
  std::string_view name;
  std::string_view regex;
};

// Sizes as PyTorch, JAX and the CUDA tools print them: "2.00 GiB", "512 MiB", "1024 bytes".
constexpr std::array kPlaceholders{
    Placeholder{"n", "[0-9]+"},
    Placeholder{"num", "[0-9]+(?:\\.[0-9]+)?"},
    Placeholder{"hex", "(?:0x)?[0-9a-f]+"},
    Placeholder{"size", "[0-9]+(?:\\.[0-9]+)?\\s*(?:[kmgtp]i?b|bytes?|b)\\b"},
    Placeholder{"path", "[^\\s:'\"()]+"},
    Placeholder{"word", "\\S+"},
    Placeholder{"*", "[^\\n]*?"},
};

constexpr std::string_view kRawPrefix = "re:";

RE2::Options matcher_options() {
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  options.set_max_mem(256 << 20);  // room for a set of thousands of signatures
  return options;
}

std::string_view placeholder_regex(std::string_view name) {
  for (const Placeholder& p : kPlaceholders)
    if (p.name == name) return p.regex;
  throw Error("unknown placeholder '{" + std::string(name) + "}' (known: {n} {num} {hex} {size} "
              "{path} {word} {*})");
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string signature_to_regex(std::string_view signature) {
  if (signature.starts_with(kRawPrefix)) return std::string(signature.substr(kRawPrefix.size()));
  std::string regex;
  std::string literal;
  auto flush = [&] {
    regex += RE2::QuoteMeta(literal);
    literal.clear();
  };
  for (size_t i = 0; i < signature.size(); ++i) {
    const char c = signature[i];
    if ((c == '{' || c == '}') && i + 1 < signature.size() && signature[i + 1] == c) {
      literal += c;  // "{{" and "}}" are literal braces
      ++i;
    } else if (c == '{') {
      const size_t close = signature.find('}', i);
      if (close == std::string_view::npos) throw Error("unclosed '{' at column " + std::to_string(i + 1));
      flush();
      regex += "(?:";
      regex += placeholder_regex(signature.substr(i + 1, close - i - 1));
      regex += ")";
      i = close;
    } else if (c == '}') {
      throw Error("unmatched '}' at column " + std::to_string(i + 1) + " (write '}}' for a brace)");
    } else if (is_space(c)) {
      while (i + 1 < signature.size() && is_space(signature[i + 1])) ++i;
      flush();
      regex += "\\s+";
    } else {
      literal += c;
    }
  }
  flush();
  return regex;
}

std::string signature_problem(std::string_view signature) {
  if (signature.find_first_not_of(" \t\r\n") == std::string_view::npos) return "empty signature";
  try {
    const RE2 re(signature_to_regex(signature), matcher_options());
    return re.ok() ? "" : re.error();
  } catch (const Error& e) {
    return e.what();
  }
}

struct SignatureSet::Impl {
  RE2::Set set{matcher_options(), RE2::UNANCHORED};
  size_t count = 0;
};

SignatureSet::SignatureSet(const std::vector<std::string>& signatures)
    : impl_(std::make_unique<Impl>()) {
  for (const std::string& s : signatures) {
    std::string why;
    if (impl_->set.Add(signature_to_regex(s), &why) < 0)
      throw Error("compiling signature '" + s + "': " + why);
    ++impl_->count;
  }
  if (!impl_->set.Compile())
    throw Error("compiling " + std::to_string(signatures.size()) +
                " signatures: out of memory for the matcher");
}

SignatureSet::~SignatureSet() = default;
SignatureSet::SignatureSet(SignatureSet&&) noexcept = default;
SignatureSet& SignatureSet::operator=(SignatureSet&&) noexcept = default;

std::vector<int> SignatureSet::match(std::string_view text) const {
  std::vector<int> hits;
  if (impl_->count == 0) return hits;
  impl_->set.Match(text, &hits);
  std::sort(hits.begin(), hits.end());
  return hits;
}

}  // namespace gpuerr
