#include "indexer/signature.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <mutex>

#include <re2/re2.h>

#include "indexer/error.h"
#include "indexer/limits.h"

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
    if (!re.ok()) return re.error();
    if (re.ProgramSize() > limits::kMaxSignatureProgram)
      return "it compiles to " + std::to_string(re.ProgramSize()) + " instructions (at most " +
             std::to_string(limits::kMaxSignatureProgram) +
             "), which every lookup trying it pays for; write {*} or [^\\n]*? for a counted "
             "repeat such as [^\\n]{0,80}";
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

// The space-free pieces of `literal_runs`, lower-cased.
std::vector<std::string> space_free_pieces(const std::vector<std::string>& literal_runs) {
  std::vector<std::string> out;
  for (const std::string& run : literal_runs) {
    size_t i = 0;
    while (i < run.size()) {
      while (i < run.size() && is_space(run[i])) ++i;
      size_t end = i;
      while (end < run.size() && !is_space(run[end])) ++end;
      if (end > i) out.push_back(ascii_lower(run.substr(i, end - i)));
      i = end;
    }
  }
  return out;
}

// Literal runs of a raw regular expression that every match must contain; empty when optional
// parts (alternation, an optional group) make that hard to tell.
std::vector<std::string> required_literals(std::string_view re) {
  for (std::string_view risky : {"|", ")?", ")*", "){0", ")+?"})
    if (re.find(risky) != std::string_view::npos) return {};
  std::vector<std::string> runs(1);
  auto cut = [&] { if (!runs.back().empty()) runs.emplace_back(); };
  for (size_t i = 0; i < re.size(); ++i) {
    const char c = re[i];
    if (c == '\\' && i + 1 < re.size()) {
      if (std::isalnum(static_cast<unsigned char>(re[i + 1]))) cut();  // \b, \d, \n, ...
      else runs.back() += re[i + 1];                                   // \( is a literal '('
      ++i;
    } else if (c == '[') {
      cut();
      i = re.find(']', i + 2);
      if (i == std::string_view::npos) return {};
    } else if (c == '?' || c == '*' || c == '{') {
      if (!runs.back().empty()) runs.back().pop_back();  // the quantified atom is optional
      cut();
      if (c == '{') i = std::min(re.find('}', i), re.size());
    } else if (c == '(' && i + 1 < re.size() && re[i + 1] == '?') {
      cut();
      while (i < re.size() && re[i] != ':' && re[i] != ')') ++i;  // (?i) or (?:
    } else if (std::string_view("()^$.+").find(c) != std::string_view::npos) {
      cut();
    } else {
      runs.back() += c;
    }
  }
  return runs;
}

// The literal text of a placeholder signature, as runs between placeholders.
std::vector<std::string> placeholder_literals(std::string_view signature) {
  std::vector<std::string> runs(1);
  for (size_t i = 0; i < signature.size(); ++i) {
    const char c = signature[i];
    if ((c == '{' || c == '}') && i + 1 < signature.size() && signature[i + 1] == c) {
      runs.back() += c;
      ++i;
    } else if (c == '{') {
      i = std::min(signature.find('}', i), signature.size());
      runs.emplace_back();
    } else {
      runs.back() += c;
    }
  }
  return runs;
}

// Where the group opening at `open` closes (the index of its ')'), skipping escapes and
// character classes; npos when it never does.
size_t group_end(std::string_view re, size_t open) {
  int depth = 0;
  for (size_t i = open; i < re.size(); ++i) {
    if (re[i] == '\\') ++i;
    else if (re[i] == '[') i = re.find(']', i + 2);
    else if (re[i] == '(') ++depth;
    else if (re[i] == ')' && --depth == 0) return i;
    if (i == std::string_view::npos) return i;
  }
  return std::string_view::npos;
}

// Literal runs of a raw regular expression for prefiltering: like required_literals(), but a
// group is skipped whole instead of giving up on the pattern (only an alternative outside every
// group does), and a boundary that can only be a non-word character (\b, \s, \W) stands as a
// space, which ends a word without being required text.
std::vector<std::string> prefilter_runs(std::string_view re) {
  std::vector<std::string> runs(1);
  auto cut = [&] { if (!runs.back().empty()) runs.emplace_back(); };
  for (size_t i = 0; i < re.size(); ++i) {
    const char c = re[i];
    if (c == '|') return {};
    if (c == '\\' && i + 1 < re.size()) {
      const char e = re[++i];
      if (e == 'b' || e == 's' || e == 'W') runs.back() += ' ';
      else if (std::isalnum(static_cast<unsigned char>(e))) cut();
      else runs.back() += e;
    } else if (c == '(' || c == '[') {
      cut();
      i = c == '(' ? group_end(re, i) : re.find(']', i + 2);
      if (i == std::string_view::npos) return {};
    } else if (c == '?' || c == '*' || c == '{') {
      if (!runs.back().empty()) runs.back().pop_back();  // the quantified atom is optional
      cut();
      if (c == '{') i = std::min(re.find('}', i), re.size());
    } else if (std::string_view(")^$.+").find(c) != std::string_view::npos) {
      cut();
    } else {
      runs.back() += c;
    }
  }
  return runs;
}

// The runs prefiltering reads: a placeholder signature's literal text, or a raw pattern's.
std::vector<std::string> literal_runs(std::string_view signature) {
  return signature.starts_with(kRawPrefix) ? prefilter_runs(signature.substr(kRawPrefix.size()))
                                           : placeholder_literals(signature);
}

}  // namespace

std::unique_ptr<RE2> compile_signature_regex(const std::string& regex) {
  return std::make_unique<RE2>(regex, matcher_options());
}

std::optional<std::string> fold_for_plain_match(std::string_view text,
                                                std::vector<size_t>* origins) {
  std::string folded;
  folded.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
    const bool space = is_space(c) || c == '\f';
    const size_t before = folded.size();
    if (!space) folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (folded.empty() || folded.back() != ' ') folded += ' ';
    if (origins && folded.size() > before) origins->push_back(i);
  }
  return folded;
}

std::optional<std::string> plain_signature(std::string_view signature) {
  if (signature.starts_with(kRawPrefix)) return std::nullopt;
  for (const char c : signature)
    if (c == '{' || c == '}' || ((c < 0x20 || c > 0x7e) && !is_space(c))) return std::nullopt;
  return fold_for_plain_match(signature);
}

std::vector<std::string> signature_literals(std::string_view signature) {
  return space_free_pieces(literal_runs(signature));
}

std::string joined_literals(std::string_view signature) {
  std::string out;
  for (const std::string& piece : signature_literals(signature))
    out += (out.empty() ? "" : " ") + piece;
  return out;
}

bool contains_literals(std::string_view lower_text, std::string_view joined) {
  size_t i = 0;
  while (i < joined.size()) {
    const size_t end = std::min(joined.find(' ', i), joined.size());
    // glibc's memmem, not string_view::find: find stops at every occurrence of the piece's first
    // letter, which in a pasted log is every few bytes (a third of a 40-line lookup's time).
    if (end > i && !memmem(lower_text.data(), lower_text.size(), joined.data() + i, end - i))
      return false;
    i = end + 1;
  }
  return true;
}

namespace {

size_t byte_pair(char a, char b) {
  return static_cast<size_t>(static_cast<unsigned char>(a)) << 8 | static_cast<unsigned char>(b);
}

}  // namespace

LiteralText::LiteralText(std::string_view lower_text) : text_(lower_text) {
  for (size_t i = 1; i < text_.size(); ++i) pairs_.set(byte_pair(text_[i - 1], text_[i]));
}

bool LiteralText::contains(std::string_view joined) const {
  for (size_t i = 0; i < joined.size();) {
    const size_t end = std::min(joined.find(' ', i), joined.size());
    for (size_t j = i + 1; j < end; ++j)
      if (!pairs_.test(byte_pair(joined[j - 1], joined[j]))) return false;
    i = end + 1;
  }
  return contains_literals(text_, joined);
}

std::string signature_anchor(std::string_view signature) {
  std::string best;
  for (std::string& piece : signature_literals(signature))
    if (piece.size() > best.size()) best = std::move(piece);
  return best;
}

std::vector<std::string> signature_keys(std::string_view signature) {
  std::vector<std::string> out;
  for (const std::string& run : literal_runs(signature)) {
    size_t i = 0;
    while (i < run.size()) {
      if (!is_key_char(run[i])) { ++i; continue; }
      size_t end = i;
      while (end < run.size() && is_key_char(run[end])) ++end;
      // A word at either end of a run may continue into a placeholder or past the signature.
      if (i > 0 && end < run.size()) out.push_back(ascii_lower(run.substr(i, end - i)));
      i = end;
    }
  }
  return out;
}

size_t signature_letters(std::string_view signature) {
  const std::vector<std::string> runs =
      signature.starts_with(kRawPrefix) ? required_literals(signature.substr(kRawPrefix.size()))
                                        : placeholder_literals(signature);
  size_t letters = 0;
  for (const std::string& run : runs)
    for (char c : run) letters += std::isalpha(static_cast<unsigned char>(c)) != 0;
  return letters;
}

// Each signature is compiled only when its literal pieces all occur in a text being matched: a
// lookup touches a handful of the catalogue's signatures, so compiling all of them at start-up
// (an RE2::Set of a thousand patterns, about 40 ms) would cost more than the whole lookup.
struct SignatureSet::Impl {
  struct Pattern {
    std::string regex;
    std::string literals;  // joined_literals(); empty: always try
    std::once_flag compiled;
    std::unique_ptr<RE2> re;
  };
  std::vector<std::unique_ptr<Pattern>> patterns;
};

SignatureSet::SignatureSet(const std::vector<std::string>& signatures)
    : impl_(std::make_unique<Impl>()) {
  for (const std::string& s : signatures) {
    auto p = std::make_unique<Impl::Pattern>();
    p->regex = signature_to_regex(s);
    p->literals = joined_literals(s);
    impl_->patterns.push_back(std::move(p));
  }
}

SignatureSet::~SignatureSet() = default;
SignatureSet::SignatureSet(SignatureSet&&) noexcept = default;
SignatureSet& SignatureSet::operator=(SignatureSet&&) noexcept = default;

std::vector<int> SignatureSet::match(std::string_view text) const {
  std::vector<int> hits;
  const std::string lower = ascii_lower(text);
  const re2::StringPiece input(text.data(), text.size());
  for (size_t i = 0; i < impl_->patterns.size(); ++i) {
    Impl::Pattern& p = *impl_->patterns[i];
    if (!contains_literals(lower, p.literals)) continue;
    std::call_once(p.compiled, [&p] { p.re = compile_signature_regex(p.regex); });
    // A signature that does not compile never matches; the lint reports it before indexing.
    if (p.re->ok() && RE2::PartialMatch(input, *p.re)) hits.push_back(static_cast<int>(i));
  }
  return hits;
}

}  // namespace gpuerr
