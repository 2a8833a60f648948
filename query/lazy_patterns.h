// A table of regular expressions compiled one by one on first need, with cheap literal checks
// that skip a pattern a text cannot match: most texts need few of a table's patterns, and
// compiling them all costs more than a whole lookup.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpuerr::query {

/// Whether `text` contains one of the '|'-separated `alternatives`; true when there are none.
bool contains_any(std::string_view text, std::string_view alternatives);

/// Whether `text` holds a decimal digit.
bool has_digit(std::string_view text);

/// One pattern of a table: the texts one of which it cannot match without ("" when there are
/// none worth checking), the RE2 pattern (ASCII only: it is compiled as Latin-1), and whether it
/// cannot match a text without a digit.
struct GuardedPattern {
  const char* needs;
  std::string regex;
  bool needs_digit = false;
};

/// The patterns of a table, each compiled on its first use. Safe to share between threads.
class LazyPatterns {
 public:
  explicit LazyPatterns(std::vector<GuardedPattern> table);
  ~LazyPatterns();

  size_t size() const { return table_.size(); }
  /// Whether pattern i might match `text` (its guards hold), without compiling it.
  bool may_match(size_t i, std::string_view text) const;
  /// Pattern i, compiled now if it has not been.
  const re2::RE2& operator[](size_t i) const;

 private:
  std::vector<GuardedPattern> table_;
  std::unique_ptr<std::once_flag[]> once_;
  mutable std::vector<std::unique_ptr<re2::RE2>> compiled_;
};

}  // namespace gpuerr::query
