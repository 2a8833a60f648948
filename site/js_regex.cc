#include "site/js_regex.h"

#include <cctype>
#include <vector>

namespace gpuerr::site {
namespace {

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
char other_case(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return static_cast<char>(std::islower(u) ? std::toupper(u) : std::tolower(u));
}

// Rewrites RE2 syntax into JavaScript's, one construct at a time. `spell_cases` means the
// result has no "i" flag, so letters that RE2 matches in any case are spelt "[aA]".
class Rewriter {
 public:
  Rewriter(std::string_view re, bool spell_cases) : re_(re), spell_(spell_cases) {}

  std::optional<std::string> run(size_t from) {
    for (i_ = from; i_ < re_.size();) {
      const char c = re_[i_];
      const bool ok = c == '\\'  ? escape(out_)
                      : c == '[' ? char_class()
                      : c == '(' ? open_group()
                      : c == ')' ? close_group()
                                 : literal(c);
      if (!ok) return std::nullopt;
    }
    if (!groups_.empty()) return std::nullopt;  // an unclosed group
    return out_;
  }

 private:
  bool insensitive() const { return groups_.empty() ? true : groups_.back(); }

  bool literal(char c) {
    if (spell_ && insensitive() && is_letter(c))
      out_ += std::string("[") + c + other_case(c) + "]";
    else
      out_ += c;
    ++i_;
    return true;
  }

  // One escape at i_, written to `out`; false when JavaScript has no equivalent.
  bool escape(std::string& out) {
    if (i_ + 1 >= re_.size()) return false;
    const char n = re_[i_ + 1];
    i_ += 2;
    if (std::string_view("dDwWsSbBfnrtv").find(n) != std::string_view::npos) {
      out += '\\';
      out += n;
    } else if (n == 'A') {
      out += "(?<![\\s\\S])";
    } else if (n == 'z') {
      out += "(?![\\s\\S])";
    } else if (n == 'x' && i_ + 1 < re_.size() &&
               std::isxdigit(static_cast<unsigned char>(re_[i_])) &&
               std::isxdigit(static_cast<unsigned char>(re_[i_ + 1]))) {
      out += "\\x" + std::string(re_.substr(i_, 2));
      i_ += 2;
    } else if (std::isalnum(static_cast<unsigned char>(n))) {
      return false;  // \p, \Q, \C, back references and the like
    } else {
      out += '\\';
      out += n;  // an escaped punctuation character is itself in both syntaxes
    }
    return true;
  }

  bool char_class() {
    std::string body = "[";
    std::string extra;  // the other case of each letter, when spelling cases
    ++i_;
    if (i_ < re_.size() && re_[i_] == '^') body += re_[i_++];
    bool first = true;
    while (i_ < re_.size() && (re_[i_] != ']' || first)) {
      first = false;
      if (re_.substr(i_, 2) == "[:") return false;  // POSIX classes
      if (re_[i_] == '\\') {
        if (!escape(body)) return false;
        continue;
      }
      const char c = re_[i_];
      if (i_ + 2 < re_.size() && re_[i_ + 1] == '-' && re_[i_ + 2] != ']') {
        const char to = re_[i_ + 2];
        body += std::string{c, '-', to};
        if (is_letter(c) && is_letter(to)) extra += std::string{other_case(c), '-', other_case(to)};
        i_ += 3;
        continue;
      }
      body += c == ']' ? "\\]" : std::string(1, c);
      if (is_letter(c)) extra += other_case(c);
      ++i_;
    }
    if (i_ >= re_.size()) return false;
    ++i_;
    out_ += body + (spell_ && insensitive() ? extra : "") + "]";
    return true;
  }

  bool open_group() {
    if (re_.substr(i_, 2) != "(?") {
      groups_.push_back(insensitive());
      out_ += '(';
      ++i_;
      return true;
    }
    if (re_.substr(i_, 4) == "(?P<") {
      groups_.push_back(insensitive());
      out_ += "(?<";
      i_ += 4;
      return true;
    }
    // "(?:", "(?i:", "(?-i:"; a flag group in mid-pattern, "(?m)", has no JavaScript form.
    size_t j = i_ + 2;
    bool on = true, insensitive_here = insensitive();
    for (; j < re_.size() && re_[j] != ':'; ++j) {
      if (re_[j] == '-')
        on = false;
      else if (re_[j] == 'i')
        insensitive_here = on;
      else
        return false;
    }
    if (j >= re_.size()) return false;
    groups_.push_back(insensitive_here);
    out_ += "(?:";
    i_ = j + 1;
    return true;
  }

  bool close_group() {
    if (groups_.empty()) return false;
    groups_.pop_back();
    out_ += ')';
    ++i_;
    return true;
  }

  std::string_view re_;
  bool spell_;
  size_t i_ = 0;
  std::string out_;
  std::vector<bool> groups_;  // case-insensitive inside each open group
};

}  // namespace

std::optional<JsRegex> js_regex(std::string_view re2) {
  JsRegex out;
  // Leading flag groups: "(?i)", "(?m)", "(?s)", "(?ims)".
  size_t start = 0;
  while (re2.substr(start, 2) == "(?") {
    size_t j = start + 2;
    std::string flags;
    while (j < re2.size() && (re2[j] == 'i' || re2[j] == 'm' || re2[j] == 's')) flags += re2[j++];
    if (j >= re2.size() || re2[j] != ')' || flags.empty()) break;
    for (char f : flags)
      if (f != 'i' && out.flags.find(f) == std::string::npos) out.flags += f;
    start = j + 1;
  }
  const bool spell_cases = re2.find("(?-i") != std::string_view::npos;
  std::optional<std::string> source = Rewriter(re2, spell_cases).run(start);
  if (!source) return std::nullopt;
  out.source = std::move(*source);
  if (!spell_cases) out.flags = "i" + out.flags;
  return out;
}

}  // namespace gpuerr::site
