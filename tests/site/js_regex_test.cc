// Signatures rewritten for JavaScript: the same meaning, in JavaScript's syntax.
#include "site/js_regex.h"

#include <doctest/doctest.h>

#include "indexer/signature.h"

namespace gpuerr::site {

TEST_SUITE("site") {
TEST_CASE("a placeholder signature's regex carries over as it is, matched with the i flag") {
  const std::optional<JsRegex> re =
      js_regex(signature_to_regex("CUDA error: misaligned address"));
  REQUIRE(re);
  CHECK(re->source == "CUDA\\s+error\\:\\s+misaligned\\s+address");
  CHECK(re->flags == "i");
  const std::optional<JsRegex> sized = js_regex(signature_to_regex("Tried to allocate {size}"));
  REQUIRE(sized);
  CHECK(sized->source ==
        "Tried\\s+to\\s+allocate\\s+(?:[0-9]+(?:\\.[0-9]+)?\\s*(?:[kmgtp]i?b|bytes?|b)\\b)");
}

TEST_CASE("RE2 flag groups and case-sensitive groups get their JavaScript equivalents") {
  struct Case {
    std::string re2, source, flags;
  };
  const Case cases[] = {
      {"(?m)CUDA out of memory\\.?\\s*$", "CUDA out of memory\\.?\\s*$", "im"},
      {"(?i)\\bcuda\\w* error", "\\bcuda\\w* error", "i"},
      {"(?-i:CU_)x[a-c]", "(?:CU_)[xX][a-cA-C]", ""},
      {"(?-i:\\bcu(?:da|[A-Z])|CUDA)[^\\n]*\\bbad\\b",
       "(?:\\bcu(?:da|[A-Z])|CUDA)[^\\n]*\\b[bB][aA][dD]\\b", ""},
      {"(?P<n>\\d+)\\z", "(?<n>\\d+)(?![\\s\\S])", "i"},
      {"Xid \\(PCI:[^)]*\\): 79\\b", "Xid \\(PCI:[^)]*\\): 79\\b", "i"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.re2);
    const std::optional<JsRegex> re = js_regex(c.re2);
    REQUIRE(re);
    CHECK(re->source == c.source);
    CHECK(re->flags == c.flags);
  }
}

TEST_CASE("syntax JavaScript lacks gives no JavaScript form rather than a wrong one") {
  for (const std::string re2 :
       {"\\pL+", "\\Qa.b\\E", "[[:alpha:]]+", "a(?m)b", "(?U)a+", "a(", "a)"}) {
    CAPTURE(re2);
    CHECK(!js_regex(re2));
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::site
