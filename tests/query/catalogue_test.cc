// The catalogue tests itself: generated from kb/, so every new entry is checked with no new code.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "indexer/signature.h"
#include "query/lookup.h"
#include "tests/support.h"

namespace gpuerr::query {

TEST_SUITE("catalogue") {

TEST_CASE("every example message ranks its own entry first") {
  const Store& store = test::bundled_store();
  int checked = 0;
  for (const Entry& e : store.entries(Kind::kError)) {
    for (const Example& example : e.examples) {
      CAPTURE(e.id);
      CAPTURE(example.text);
      CHECK(test::top_entry(lookup(store, example.text)) == e.id);
      ++checked;
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("a CUDA runtime error printed by the usual hand-written check macros names its entry") {
  // CUDA by Example's HANDLE_ERROR prints "<message> in <file> at line <n>", the widely copied
  // gpuErrchk "GPUassert: <message> <file> <n>" (docs/authoring.md has both sources).
  const Store& store = test::bundled_store();
  std::map<std::string, std::vector<std::string>> entries_of_message;
  for (const Entry& e : store.entries(Kind::kError)) {
    const bool runtime = std::any_of(e.codes.begin(), e.codes.end(), [](const std::string& c) {
      return c.starts_with("cudaError");
    });
    constexpr std::string_view kPrefix = "CUDA error: ";
    if (runtime && e.title.starts_with(kPrefix))
      entries_of_message[e.title.substr(kPrefix.size())].push_back(e.id);
  }
  int checked = 0;
  for (const auto& [message, ids] : entries_of_message) {
    if (ids.size() > 1) continue;  // one message, several codes: no single answer
    for (const std::string& text : {message + " in kernels/solver.cu at line 118",
                                    "GPUassert: " + message + " solver.cu 118"}) {
      CAPTURE(text);
      const std::vector<Match> m = lookup(store, text);
      REQUIRE(!m.empty());
      CHECK(m.front().entry_id == ids.front());
      CHECK(m.front().confidence >= kConfident);
      ++checked;
    }
  }
  CHECK(checked >= 200);
}

TEST_CASE("plain signatures matched without a regex agree with their regex on every example") {
  const Store& store = test::bundled_store();
  std::vector<std::string> texts;
  for (const Entry& e : store.entries(Kind::kError))
    for (const Example& example : e.examples) texts.push_back(example.text);
  int plain = 0, matched = 0;
  for (const auto& [id, signature] : store.signatures()) {
    const std::optional<std::string> folded_signature = plain_signature(signature);
    if (!folded_signature) continue;
    ++plain;
    const SignatureSet by_regex({signature});
    for (const std::string& text : texts) {
      const std::optional<std::string> folded = fold_for_plain_match(text);
      if (!folded) continue;
      CAPTURE(signature);
      CAPTURE(text);
      const bool hit = !by_regex.match(text).empty();
      CHECK((folded->find(*folded_signature) != std::string::npos) == hit);
      matched += hit;
    }
  }
  CHECK(plain > 100);
  CHECK(matched > 100);
}

TEST_CASE("every error entry has two examples, a first action and a public source") {
  for (const Entry& e : test::bundled_store().entries(Kind::kError)) {
    CAPTURE(e.id);
    CHECK(e.examples.size() >= 2);
    CHECK(!e.first_actions.empty());
    CHECK(!e.sources.empty());
  }
}

TEST_CASE("every entry links only to entries that exist") {
  const Store& store = test::bundled_store();
  for (const Entry& e : store.entries()) {
    for (const std::string& r : e.related) {
      CAPTURE(e.id);
      CAPTURE(r);
      CHECK(store.entry(r).has_value());
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::query
