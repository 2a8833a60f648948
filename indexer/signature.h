// Signatures: message shapes with placeholders ({n}, {hex}, {size}, ...) or raw RE2 patterns
// ("re:..."), compiled once into one multi-pattern matcher. Shared by the lint (does each example
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

/// Many signatures compiled once; matching is case-insensitive and finds each signature
/// anywhere in the text.
///
///     const SignatureSet set({"misaligned address", "Tried to allocate {size}"});
///     set.match("CUDA error: misaligned address");  // {0}
class SignatureSet {
 public:
  /// Throws gpuerr::Error if any signature does not compile (the lint reports those first).
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
