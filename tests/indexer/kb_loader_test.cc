#include "indexer/kb_loader.h"

#include <doctest/doctest.h>

#include "tests/support.h"

namespace gpuerr::indexer {
namespace {

// A complete, valid error entry; tests replace one line of it to make it wrong.
const std::string kGood = R"(---
id: misaligned-address
title: "CUDA error: misaligned address"
category: application
codes: [cudaErrorMisalignedAddress, "cuda:716"]
signatures:
  - "misaligned address"
poisons_context: true
hardware: no
first_actions:
  - "Call `.contiguous()` on the kernel's inputs."
related: []
examples:
  - "RuntimeError: CUDA error: misaligned address"
sources:
  - title: "CUDA Runtime API"
    url: "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
---
## What happened

A vectorised access was not aligned.
)";

std::string replaced(const std::string& from, const std::string& to) {
  std::string text = kGood;
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::vector<std::string> problems_of(const std::string& text, Kind kind = Kind::kError,
                                     const std::string& file = "kb/errors/misaligned-address.md") {
  std::vector<Diagnostic> problems;
  parse_entry(file, kind, text, problems);
  std::vector<std::string> out;
  for (const Diagnostic& d : problems) out.push_back(to_string(d));
  return out;
}

}  // namespace

TEST_SUITE("indexer") {

TEST_CASE("a complete entry parses with every field and no problems") {
  std::vector<Diagnostic> problems;
  const ParsedEntry p = parse_entry("kb/errors/misaligned-address.md", Kind::kError, kGood, problems);
  CHECK(problems.empty());
  CHECK(p.entry.id == "misaligned-address");
  CHECK(p.entry.title == "CUDA error: misaligned address");
  CHECK(p.entry.category == "application");
  CHECK(p.entry.codes == std::vector<std::string>{"cudaErrorMisalignedAddress", "cuda:716"});
  CHECK(p.entry.poisons_context);
  CHECK(p.entry.hardware == "no");
  CHECK(p.entry.first_actions.size() == 1);
  REQUIRE(p.entry.sources.size() == 1);
  CHECK(p.entry.sources[0].url.starts_with("https://docs.nvidia.com/"));
  CHECK(p.entry.body_html.find("<h2>What happened</h2>") != std::string::npos);
  CHECK(p.example_lines == std::vector<int>{14});
  CHECK(p.signature_lines == std::vector<int>{7});
}

TEST_CASE("an example is its text, or its text and the address it was seen at") {
  std::vector<Diagnostic> problems;
  const ParsedEntry p = parse_entry(
      "kb/errors/misaligned-address.md", Kind::kError,
      replaced("  - \"RuntimeError: CUDA error: misaligned address\"",
               "  - \"RuntimeError: CUDA error: misaligned address\"\n"
               "  - text: \"CUDA error: misaligned address\"\n"
               "    source: \"https://github.com/pytorch/pytorch/issues/1\""),
      problems);
  CHECK(problems.empty());
  REQUIRE(p.entry.examples.size() == 2);
  CHECK(p.entry.examples[0].source.empty());
  CHECK(p.entry.examples[1].text == "CUDA error: misaligned address");
  CHECK(p.entry.examples[1].source == "https://github.com/pytorch/pytorch/issues/1");
  CHECK(p.example_lines == std::vector<int>{14, 15});
}

TEST_CASE("each per-file problem is reported at its file line, word for word") {
  struct Case {
    std::string name, text, problem;
  };
  const std::string f = "kb/errors/misaligned-address.md:";
  const Case cases[] = {
      {"missing field", replaced("category: application\n", ""),
       f + "1: missing required field 'category'"},
      {"unknown field", replaced("hardware: no\n", "hardware: no\nseverity: high\n"),
       f + "10: unknown field 'severity' for a error entry"},
      {"bad yaml", replaced("category: application", "category: application: bug"),
       f + "4: front matter is not valid YAML: illegal map value"},
      {"id not the file name", replaced("id: misaligned-address", "id: misaligned"),
       f + "2: id 'misaligned' must equal the file name 'misaligned-address'"},
      {"unknown category", replaced("category: application", "category: bug"),
       f + "4: unknown category 'bug' (one of: application, configuration, hardware, driver, "
           "resource, framework, communication)"},
      {"unknown hardware", replaced("hardware: no", "hardware: maybe"),
       f + "9: unknown hardware 'maybe' (one of: no, possible, likely, yes)"},
      {"bare number code", replaced("\"cuda:716\"", "716"),
       f + "5: code '716' is a bare number; write it as cuda:N, cu:N or xid:N"},
      {"list that is text", replaced("related: []", "related: oops"),
       f + "12: 'related' must be a list"},
      {"not a boolean", replaced("poisons_context: true", "poisons_context: often"),
       f + "8: 'poisons_context' must be true or false"},
      {"source without url", replaced("    url: \"https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html\"\n", ""),
       f + "16: each source needs a 'title' and a 'url'"},
      {"source url not http", replaced("\"https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html\"", "docs.nvidia.com"),
       f + "16: source url 'docs.nvidia.com' must start with http:// or https://"},
      {"example source not http",
       replaced("  - \"RuntimeError: CUDA error: misaligned address\"",
                "  - text: \"misaligned address\"\n    source: github.com/x/y/issues/1"),
       f + "14: example source 'github.com/x/y/issues/1' must start with http:// or https://"},
      {"example map with another key",
       replaced("  - \"RuntimeError: CUDA error: misaligned address\"",
                "  - text: \"misaligned address\"\n    seen: yesterday"),
       f + "14: each example must be text, or a 'text' with an optional 'source'"},
      {"level-1 heading", replaced("## What happened", "# What happened"),
       f + "19: level-1 heading in the body; the title comes from front matter"},
      {"no front matter", "just text\n",
       f + "1: no front matter: the file must start with a '---' line and the front matter end "
           "with another"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(problems_of(c.text) == std::vector<std::string>{c.problem});
  }
}

TEST_CASE("env and faq entries have fields of their own and refuse error fields") {
  const std::string env = R"(---
id: cuda-launch-blocking
title: CUDA_LAUNCH_BLOCKING
name: CUDA_LAUNCH_BLOCKING
values: "0 or 1"
default: "0"
category: configuration
sources:
  - {title: "CUDA Programming Guide", url: "https://docs.nvidia.com/cuda/"}
---
Makes launches synchronous.
)";
  CHECK(problems_of(env, Kind::kEnv, "kb/env/cuda-launch-blocking.md") ==
        std::vector<std::string>{
            "kb/env/cuda-launch-blocking.md:7: unknown field 'category' for a env entry"});
}

TEST_CASE("a kb directory is read folder by folder, and a directory without folders is a problem") {
  const auto dir = test::temp_dir();
  test::write_file(dir / "errors" / "misaligned-address.md", kGood);
  test::write_file(dir / "errors" / "notes.txt", "not an entry");
  KbContent content = load_kb(dir.string(), "site");
  REQUIRE(content.entries.size() == 1);
  CHECK(content.problems.empty());
  CHECK(content.entries[0].entry.layer == "site");
  CHECK(content.entries[0].entry.kind == Kind::kError);

  const auto empty = test::temp_dir();
  content = load_kb(empty.string(), "x");
  REQUIRE(content.problems.size() == 1);
  CHECK(content.problems[0].message == "no errors/, env/ or faq/ folder: not a kb directory");
}

}  // TEST_SUITE

}  // namespace gpuerr::indexer
