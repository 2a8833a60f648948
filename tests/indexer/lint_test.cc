#include "indexer/lint.h"

#include <doctest/doctest.h>

#include "tests/support.h"

namespace gpuerr::indexer {
namespace {

std::string error_entry(const std::string& id, const std::string& signature,
                        const std::string& example, const std::string& related = "[]") {
  return "---\nid: " + id + "\ntitle: \"" + example + "\"\ncategory: application\n" +
         "signatures:\n  - \"" + signature + "\"\nhardware: no\nfirst_actions: [\"Fix it.\"]\n" +
         "related: " + related + "\nexamples:\n  - \"" + example + "\"\n" +
         "sources:\n  - {title: T, url: \"https://example.org/\"}\n---\nBody.\n";
}

std::vector<std::string> lint_messages(const std::filesystem::path& kb) {
  std::vector<std::string> out;
  for (const Diagnostic& d : read_catalogue({kb.string()}).problems) {
    const std::string file = std::filesystem::path(d.file).filename().string();
    out.push_back(file + ":" + std::to_string(d.line) + ": " + d.message);
  }
  return out;
}

}  // namespace

TEST_SUITE("indexer") {

TEST_CASE("a clean kb has no problems and one entry per id") {
  const auto kb = test::temp_dir();
  test::write_file(kb / "errors" / "a.md", error_entry("a", "first failure", "first failure"));
  test::write_file(kb / "errors" / "b.md", error_entry("b", "second failure", "second failure", "[a]"));
  const Catalogue c = read_catalogue({kb.string()});
  CHECK(c.problems.empty());
  CHECK(c.entries.size() == 2);
}

TEST_CASE("each cross-entry problem is reported word for word") {
  struct Case {
    std::string name, file, text, problem;
  };
  const Case cases[] = {
      {"unknown related id", "a.md", error_entry("a", "x failed", "x failed", "[nowhere]"),
       "a.md:9: unknown related id 'nowhere'"},
      {"signature that does not compile", "a.md", error_entry("a", "x {bogus} failed", "x failed"),
       "a.md:6: signature 'x {bogus} failed' does not compile: unknown placeholder '{bogus}' "
       "(known: {n} {num} {hex} {size} {path} {word} {*})"},
      {"raw regex that does not compile", "a.md", error_entry("a", "re:x (failed", "x failed"),
       "a.md:6: signature 're:x (failed' does not compile: missing ): x (failed"},
      {"example matching none of its signatures", "a.md",
       error_entry("a", "x failed at {n}", "x failed at home"),
       "a.md:11: example 'x failed at home' matches none of the entry's signatures"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const auto kb = test::temp_dir();
    test::write_file(kb / "errors" / c.file, c.text);
    CHECK(lint_messages(kb) == std::vector<std::string>{c.problem});
  }
}

TEST_CASE("a code claimed by two entries is reported at the second") {
  const auto kb = test::temp_dir();
  std::string a = error_entry("a", "x failed", "x failed");
  std::string b = error_entry("b", "y failed", "y failed");
  a.insert(a.find("signatures:"), "codes: [cudaErrorX, \"cuda:1\"]\n");
  b.insert(b.find("signatures:"), "codes: [\"CUDA:1\"]\n");
  test::write_file(kb / "errors" / "a.md", a);
  test::write_file(kb / "errors" / "b.md", b);
  const std::vector<std::string> messages = lint_messages(kb);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].starts_with("b.md:5: code 'CUDA:1' is also a code of 'a' ("));
}

TEST_CASE("an id defined twice in one kb is a duplicate, in an overlay it overrides") {
  const auto kb = test::temp_dir();
  test::write_file(kb / "errors" / "a.md", error_entry("a", "x failed", "x failed"));
  test::write_file(kb / "faq" / "a.md",
                   "---\nid: a\ntitle: Why?\nsources: [{title: T, url: \"https://e.org\"}]\n---\nA.\n");
  const std::vector<std::string> messages = lint_messages(kb);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].starts_with("a.md:2: duplicate id 'a', first defined in "));

  const auto overlay = test::temp_dir();
  test::write_file(overlay / "errors" / "a.md", error_entry("a", "y failed", "y failed"));
  const auto base = test::temp_dir();
  test::write_file(base / "errors" / "a.md", error_entry("a", "x failed", "x failed"));
  const Catalogue c = read_catalogue({base.string(), overlay.string()});
  CHECK(c.problems.empty());
  REQUIRE(c.entries.size() == 1);
  CHECK(c.entries[0].signatures == std::vector<std::string>{"y failed"});
  CHECK(c.entries[0].layer == overlay.filename().string());  // the folder name, with no layer file
}

TEST_CASE("the bundled kb has no lint problems") {
  const Catalogue c = read_catalogue({test::bundled_kb().string()});
  for (const Diagnostic& d : c.problems) CHECK_MESSAGE(false, to_string(d));
  CHECK(c.entries.size() >= 23);
}

}  // TEST_SUITE

}  // namespace gpuerr::indexer
