// Signatures in the browser: the RE2 pattern of a signature (indexer/signature.h) rewritten in
// JavaScript's syntax with the same meaning, so the site's search matches signatures as the
// engine does. Pure string rewriting; it compiles nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuerr::site {

/// A JavaScript regular expression: `new RegExp(source, flags)`.
struct JsRegex {
  std::string source;
  std::string flags;  // some of "i", "m", "s"
};

/// The JavaScript form of `re2`, an RE2 pattern that is matched case-insensitively (as
/// SignatureSet matches every signature). RE2's leading flag groups ("(?i)", "(?m)") become
/// flags; a case-sensitive group "(?-i:...)", which older JavaScript engines cannot express,
/// is kept by spelling every letter outside it in both cases ("[aA]") instead of using the "i"
/// flag. Returns nullopt for syntax with no JavaScript equivalent here (\p classes, \Q...\E,
/// POSIX classes, flags in mid-pattern); such a signature never matches on the site.
std::optional<JsRegex> js_regex(std::string_view re2);

}  // namespace gpuerr::site
