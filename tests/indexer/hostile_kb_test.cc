// Hostile and odd kb/ content, rows of docs/robustness.md: each is a diagnostic at its file and
// line, or safe output, never a crash.
#include <doctest/doctest.h>

#include <functional>

#include "indexer/kb_loader.h"
#include "indexer/lint.h"
#include "tests/support.h"

namespace gpuerr::indexer {
namespace fs = std::filesystem;

namespace {

std::string faq(const std::string& id, const std::string& title, const std::string& body) {
  return "---\nid: " + id + "\ntitle: \"" + title +
         "\"\nsources: [{title: T, url: \"https://e.org\"}]\n---\n" + body;
}

std::vector<std::string> messages(const fs::path& kb) {
  std::vector<std::string> out;
  for (const Diagnostic& d : read_catalogue({kb.string()}).problems)
    out.push_back(fs::path(d.file).filename().string() + ":" + std::to_string(d.line) + ": " +
                  d.message);
  return out;
}

}  // namespace

TEST_SUITE("robustness") {

TEST_CASE("hostile kb files are reported, not fatal") {
  struct Case {
    std::string name;
    std::function<void(const fs::path&)> make;  // writes into kb/faq
    std::string problem;
  };
  const Case cases[] = {
      {"huge field", [](const fs::path& d) { test::write_file(d / "q.md", faq("q", std::string(5000, 'x'), "A.\n")); },
       "q.md:3: 'title' is longer than 4096 bytes"},
      {"file over the size limit",
       [](const fs::path& d) { test::write_file(d / "q.md", faq("q", "Why?", std::string(2 << 20, 'a'))); },
       "q.md:0: the file is larger than 1024 KiB; split the entry or shorten it"},
      {"symlink loop", [](const fs::path& d) { fs::create_symlink("loop.md", d / "loop.md"); },
       "loop.md:0: cannot read the file: Too many levels of symbolic links"},
      {"directory named like an entry", [](const fs::path& d) { fs::create_directories(d / "dir.md"); },
       "dir.md:0: cannot read the file: Is a directory"},
      {"deeply nested YAML",
       [](const fs::path& d) {
         test::write_file(d / "q.md", "---\nid: q\ntitle: " + std::string(20000, '[') + "\n---\nA\n");
       },
       ""},  // any one YAML diagnostic; checked below as "not a crash"
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const fs::path kb = test::temp_dir();
    fs::create_directories(kb / "faq");
    c.make(kb / "faq");
    const std::vector<std::string> got = messages(kb);
    REQUIRE(!got.empty());
    if (!c.problem.empty()) CHECK(got[0] == c.problem);
  }
}

TEST_CASE("deeply nested Markdown renders without a crash") {
  const std::string nested = std::string(50000, '>') + " deep\n\n" + std::string(10000, '[') +
                             "x" + std::string(10000, ']') + "\n\n" + std::string(5000, '*') + "\n";
  std::vector<Diagnostic> problems;
  const ParsedEntry p = parse_entry("kb/faq/q.md", Kind::kFaq, faq("q", "Why?", nested), problems);
  CHECK(problems.empty());
  CHECK(!p.entry.body_html.empty());
}

TEST_CASE("HTML and script in a kb body are never passed through") {
  std::vector<Diagnostic> problems;
  const ParsedEntry p = parse_entry(
      "kb/faq/q.md", Kind::kFaq,
      faq("q", "Why?", "Text <script>alert(1)</script>\n\n<div onclick=\"x()\">block</div>\n"),
      problems);
  CHECK(problems.empty());
  CHECK(p.entry.body_html.find("<script>") == std::string::npos);
  CHECK(p.entry.body_html.find("onclick") == std::string::npos);
  CHECK(p.entry.body_html.find("raw HTML omitted") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::indexer
