// Signatures: message shapes with placeholders ({n}, {hex}, {size}, ...) or raw RE2 patterns
// ("re:..."), compiled on demand behind a literal prefilter. Shared by the lint (does each example
// match?) and by lookup (which entries does this text match?). Knows nothing of entries.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuerr {

/// The regular expression a signature stands for (the syntax is in docs/authoring.md). Throws
/// gpuerr::Error naming the problem when a placeholder is unknown or a brace is unbalanced.
std::string signature_to_regex(std::string_view signature);

/// Why `signature` does not compile, or an empty string when it does.
std::string signature_problem(std::string_view signature);

/// A lower-case word that any text the signature matches must contain (e.g. "misaligned" for
/// "CUDA error: misaligned address"), used to skip signatures cheaply; empty when none can be
/// told, as for a raw pattern with alternatives.
std::string signature_anchor(std::string_view signature);

/// How much literal text a match of `signature` must contain, in letters: a longer required text
/// says more ("CUDA out of memory. Tried to allocate" over "out of memory"). Placeholders count
/// nothing; a raw pattern counts the letters outside its optional parts (0 when alternatives
/// make that hard to tell).
size_t signature_letters(std::string_view signature);

/// Many signatures, each compiled once, on first need; matching is case-insensitive and finds
/// each signature anywhere in the text. Safe to share between threads.
///
///     const SignatureSet set({"misaligned address", "Tried to allocate {size}"});
///     set.match("CUDA error: misaligned address");  // {0}
class SignatureSet {
 public:
  /// Throws gpuerr::Error if a signature's placeholders are malformed. A raw pattern that RE2
  /// rejects never matches (the lint reports those first).
  explicit SignatureSet(const std::vector<std::string>& signatures);
  ~SignatureSet();
  SignatureSet(SignatureSet&&) noexcept;
  SignatureSet& operator=(SignatureSet&&) noexcept;

  /// Positions, in the constructor's list, of the signatures found in `text`, ascending. Empty
  /// when none matches.
  std::vector<int> match(std::string_view text) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuerr
