#include "indexer/signature.h"

#include <doctest/doctest.h>

#include "indexer/error.h"

namespace gpuerr {

TEST_SUITE("indexer") {

TEST_CASE("placeholders match the parts of a message that vary") {
  struct Case {
    std::string signature, text;
    bool matches;
  };
  const Case cases[] = {
      {"Tried to allocate {size}", "CUDA out of memory. Tried to allocate 2.00 GiB.", true},
      {"Tried to allocate {size}", "Tried to allocate 20 MiB", true},
      {"Tried to allocate {size}", "Tried to allocate lots", false},
      {"GPU {n} has", "GPU 3 has a total capacity", true},
      {"address {hex}", "at address 0x7f3a00001000", true},
      {"{path}:{n}: block", "/src/loss.cu:42: block: [0,0,0]", true},
      {"Assertion {*} failed", "Assertion `t >= 0 && t < n_classes` failed.", true},
      {"misaligned address", "CUDA ERROR: MISALIGNED   ADDRESS", true},  // case and spaces
      {"a {{literal}} brace", "a {literal} brace", true},
      {"re:Xid \\(PCI:[0-9a-f:.]+\\): (48|79),", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1", true},
      {"re:Xid \\(PCI:[0-9a-f:.]+\\): (48|79),", "NVRM: Xid (PCI:0000:3b:00): 13, pid=1", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.signature);
    CAPTURE(c.text);
    CHECK(!SignatureSet({c.signature}).match(c.text).empty() == c.matches);
  }
}

TEST_CASE("a plain signature matches without a regex exactly where its regex does") {
  struct Case {
    std::string signature, text;
  };
  const Case cases[] = {
      {"misaligned address", "CUDA ERROR: MISALIGNED   ADDRESS"},
      {"misaligned address", "misaligned\taddress\n"},
      {"misaligned address", "misaligned\f address"},  // \f is whitespace to RE2 too
      {"misaligned address", "misaligned\vaddress"},   // \v is not
      {"misaligned address", "misalignedaddress"},
      {" leading space", "a leading space"},
      {" leading space", "leading space"},
      {"trailing.", "ends with trailing."},
      {"trailing.", "ends with trailingx"},  // the dot is literal
      {"out of memory (oom)", "CUDA Out Of Memory (OOM) again"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.signature);
    CAPTURE(c.text);
    const std::optional<std::string> plain = plain_signature(c.signature);
    const std::optional<std::string> folded = fold_for_plain_match(c.text);
    REQUIRE(plain);
    REQUIRE(folded);
    CHECK((folded->find(*plain) != std::string::npos) == !SignatureSet({c.signature}).match(c.text).empty());
  }
  CHECK_FALSE(plain_signature("Tried to allocate {size}"));
  CHECK_FALSE(plain_signature("a {{literal}} brace"));
  CHECK_FALSE(plain_signature("re:misaligned address"));
  CHECK_FALSE(plain_signature("caf\xc3\xa9 error"));
  CHECK_FALSE(fold_for_plain_match("\xe2\x80\x9cquoted\xe2\x80\x9d"));  // RE2 decides
}

TEST_CASE("a set reports every signature found, by position") {
  const SignatureSet set({"misaligned address", "illegal memory access", "GPU {n}"});
  CHECK(set.match("GPU 0: misaligned address") == std::vector<int>{0, 2});
  CHECK(set.match("nothing here").empty());
  CHECK(SignatureSet({}).match("anything").empty());
}

TEST_CASE("the literal pieces and key words are text every match must contain") {
  using V = std::vector<std::string>;
  struct Case {
    std::string signature;
    V literals, keys;
  };
  const Case cases[] = {
      {"CUDA error: misaligned address", V{"cuda", "error:", "misaligned", "address"},
       V{"error", "misaligned"}},
      {"Tried to allocate {size}", V{"tried", "to", "allocate"}, V{"to", "allocate"}},
      {"{path}:{n}: block: [{n},{n},{n}]", V{":", ":", "block:", "[", ",", ",", "]"},
       V{"block"}},
      {"re:Xid \\(PCI:[^)]*\\): 79\\b", V{"xid", "(pci:", "):", "79"}, V{"pci", "79"}},
      {"re:colou?r scheme", V{"colo", "r", "scheme"}, V{}},  // 'u' is optional
      {"re:(foo|bar) failed", V{"failed"}, V{}},  // the group is skipped, not what follows
      {"re:foo|bar failed", V{}, V{}},  // alternatives of the whole: nothing is surely required
      {"re:(?-i:\\bcu(?:da|[A-Z])|CUDA)[^\\n]*\\binvalid\\s+argument\\b",
       V{"invalid", "argument"}, V{"invalid"}},
      {"re:\\d+", V{}, V{}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.signature);
    CHECK(signature_literals(c.signature) == c.literals);
    CHECK(signature_keys(c.signature) == c.keys);
  }
}

TEST_CASE("literal pieces are found in a text with or without its byte pairs looked up first") {
  const std::string text = "cuda error: an illegal memory access\twas encountered \xc3\xa9!";
  const LiteralText literal_text(text);
  for (const std::string joined :
       {"cuda error:", "illegal memory access", "illegal access", "access\twas", "d!",
        "encountered", "encountere", "countered x", "\xc3\xa9!", "\xa9\xc3", "x", "c", "!",
        "cuda  error:", "", "ac", "ca", "memory accss", "s!", "lmem"}) {
    CAPTURE(joined);
    CHECK(literal_text.contains(joined) == contains_literals(text, joined));
  }
  CHECK(literal_text.contains("illegal memory"));
  CHECK_FALSE(literal_text.contains("illegal address"));
  CHECK_FALSE(LiteralText("").contains("a"));
  CHECK(LiteralText("").contains(""));
}

TEST_CASE("the anchor is the longest literal piece") {
  CHECK(signature_anchor("CUDA error: misaligned address") == "misaligned");
  CHECK(signature_anchor("re:(foo|bar) failed") == "failed");
  CHECK(signature_anchor("re:\\d+") == "");
}

TEST_CASE("a text a signature matches holds each of its key words as a whole word") {
  const std::string text = "x: [rank3]: CUDA error: misaligned address at 0x7f, Xid (PCI:0000:3b:00): 79";
  for (const std::string signature :
       {"CUDA error: misaligned address", "re:Xid \\(PCI:[^)]*\\): 79\\b", "at {hex}, Xid"}) {
    CAPTURE(signature);
    REQUIRE(!SignatureSet({signature}).match(text).empty());
    for (const std::string& key : signature_keys(signature)) {
      CAPTURE(key);
      const std::string lower = "x: [rank3]: cuda error: misaligned address at 0x7f, xid (pci:0000:3b:00): 79";
      const size_t at = lower.find(key);
      REQUIRE(at != std::string::npos);
      CHECK((at == 0 || !is_key_char(lower[at - 1])));
      CHECK((at + key.size() == lower.size() || !is_key_char(lower[at + key.size()])));
    }
  }
}

TEST_CASE("a signature's letters count only the text every match must contain") {
  CHECK(signature_letters("misaligned address") == 17);
  CHECK(signature_letters("Tried to allocate {size}") == 15);
  CHECK(signature_letters("re:Xid \\(PCI:[^)]*\\): 79") == 6);  // "Xid (PCI:" and "): 79"
  CHECK(signature_letters("re:(?:CUDA|cuda) error") == 0);  // alternatives hide what is required
}

TEST_CASE("a signature that does not compile says why") {
  CHECK(signature_problem("ok {n}") == "");
  CHECK(signature_problem("x {nope}") ==
        "unknown placeholder '{nope}' (known: {n} {num} {hex} {size} {path} {word} {*})");
  CHECK(signature_problem("x {n") == "unclosed '{' at column 3");
  CHECK(signature_problem("x }") == "unmatched '}' at column 3 (write '}}' for a brace)");
  CHECK(signature_problem("   ") == "empty signature");
  CHECK(SignatureSet({"re:(", "ok"}).match("ok (") == std::vector<int>{1});  // never matches
  CHECK_THROWS_AS(SignatureSet({"x {nope}"}), Error);
}

TEST_CASE("a signature too costly to compile in every lookup is a problem, with the cure") {
  const std::string counted = signature_problem("re:CUDA error[^\\n]{0,80}?out of memory");
  CHECK(counted.starts_with("it compiles to "));
  CHECK(counted.find("write {*}") != std::string::npos);
  CHECK(signature_problem("re:CUDA error[^\\n]*?out of memory") == "");
  CHECK(signature_problem("CUDA error{*}out of memory") == "");
}

}  // TEST_SUITE

}  // namespace gpuerr
