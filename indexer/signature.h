// Signatures: message shapes with placeholders ({n}, {hex}, {size}, ...) or raw RE2 patterns
// ("re:..."), compiled on demand behind a literal prefilter. Shared by the lint (does each example
// match?) and by lookup (which entries does this text match?). Knows nothing of entries.
#pragma once

#include <bitset>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpuerr {

/// The regular expression a signature stands for (the syntax is in docs/authoring.md). Throws
/// gpuerr::Error naming the problem when a placeholder is unknown or a brace is unbalanced.
std::string signature_to_regex(std::string_view signature);

/// Why `signature` does not compile, or an empty string when it does.
std::string signature_problem(std::string_view signature);

/// The lower-case, space-free pieces of text that any text the signature matches must contain
/// (["cuda", "error:", "misaligned", "address"] for "CUDA error: misaligned address"), used to
/// skip signatures cheaply; empty when none can be told, as for a raw pattern with alternatives.
std::vector<std::string> signature_literals(std::string_view signature);

/// The literal pieces joined by single spaces, as the index stores them.
std::string joined_literals(std::string_view signature);

/// `text` with its ASCII letters in lower case, every other byte as it was: what signatures'
/// literals and keys, and the pattern tables' guards, are compared with.
std::string ascii_lower(std::string_view text);

/// Whether each space-separated piece of `joined` occurs in `lower_text` (lower-cased).
bool contains_literals(std::string_view lower_text, std::string_view joined);

/// contains_literals() for trying many signatures on one text: it first looks up the pieces'
/// byte pairs in the set of the text's, which tells most pieces absent without searching (a
/// one-line lookup tries 350 signatures that have no word to select them by).
class LiteralText {
 public:
  /// `lower_text` must outlive this.
  explicit LiteralText(std::string_view lower_text);
  bool contains(std::string_view joined) const;

 private:
  std::string_view text_;
  std::bitset<1 << 16> pairs_;  // bit (a << 8 | b): the text has byte a followed by byte b
};

/// The longest of signature_literals(): one piece of text any match must contain, e.g.
/// "misaligned" for "CUDA error: misaligned address"; empty when none can be told.
std::string signature_anchor(std::string_view signature);

/// The lower-case words (runs of a-z, 0-9 and '_') that any text the signature matches holds as
/// whole words, because the signature has a literal non-word character on each side of them:
/// ["error", "misaligned"] for "CUDA error: misaligned address" ("cuda" could be the end of a
/// longer word in the text, "address" the start of one). The index files each signature under
/// one of them, so a lookup reads only the signatures whose word the text has. Empty when there
/// is none.
std::vector<std::string> signature_keys(std::string_view signature);

/// Compiles a pattern made by signature_to_regex() with the options signatures are matched with
/// (ignoring case). Never null; a pattern RE2 rejects comes back with ok() false.
std::unique_ptr<re2::RE2> compile_signature_regex(const std::string& regex);

/// `text` folded for matching plain signatures without a regular expression: ASCII letters
/// lowered and each run of whitespace ([\t\n\f\r ], RE2's \s) made one space. nullopt when the
/// text has a byte outside ASCII, where RE2's Unicode case folding could decide differently.
/// With `origins`, also where each folded byte came from: origins[i] is its offset in `text`.
std::optional<std::string> fold_for_plain_match(std::string_view text,
                                                std::vector<size_t>* origins = nullptr);

/// What a signature with no placeholder and no raw pattern, in printable ASCII, stands for: a
/// text matches it exactly when the text's fold_for_plain_match() contains this (folded the same
/// way). Saves compiling its regular expression, most of a one-line lookup's matching cost.
/// nullopt for any other signature.
std::optional<std::string> plain_signature(std::string_view signature);

/// Whether `c` is part of a word in the sense of signature_keys().
inline bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

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
