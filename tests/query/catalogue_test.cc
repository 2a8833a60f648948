// The catalogue tests itself: generated from kb/, so every new entry is checked with no new code.
#include <doctest/doctest.h>

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
