#include "query/stats.h"

#include <set>

#include <doctest/doctest.h>

#include "indexer/kb_loader.h"
#include "tests/support.h"

namespace gpuerr::query {

TEST_SUITE("catalogue") {

TEST_CASE("every code the coverage lists document has an entry") {
  int families = 0;
  for (const FamilyStats& f : catalogue_stats(test::bundled_store())) {
    if (f.documented == 0) continue;
    ++families;
    std::string missing;
    for (const DocumentedCode& d : f.missing) missing += d.code + " (" + d.name + ") ";
    CAPTURE(f.family);
    CAPTURE(missing);
    CHECK(f.missing.empty());
  }
  CHECK(families >= 10);  // cuda-runtime, cuda-driver, xid, nccl and the six math libraries
}

TEST_CASE("stats count every entry exactly once") {
  int counted = 0;
  for (const FamilyStats& f : catalogue_stats(test::bundled_store())) counted += f.entries;
  CHECK(counted == test::bundled_store().info().entry_count);
}

TEST_CASE("two sourced examples must differ in text and come from different pages") {
  Entry e;
  e.examples = {{"Xid 92 here", "https://a.example/issue/1#c1"}, {"Xid 92 there", "https://a.example/issue/1#c2"}};
  CHECK_FALSE(has_two_sourced_examples(e));  // one page, two comments
  e.examples.push_back({"Xid 92 here", "https://b.example/log"});
  CHECK(has_two_sourced_examples(e));  // "there" on page a, "here" on page b
  e.examples = {{"Xid 92 here", "https://a.example/1"}, {"Xid 92 assembled", ""}};
  CHECK_FALSE(has_two_sourced_examples(e));  // an example without a source does not count
  e.examples = {{"same text", "https://a.example/1"}, {"same text", "https://b.example/2"}};
  CHECK_FALSE(has_two_sourced_examples(e));
}

TEST_CASE("stats name the error entries short of two sourced examples, and only those") {
  const Store& store = test::bundled_store();
  std::set<std::string> thin;
  for (const FamilyStats& f : catalogue_stats(store)) thin.insert(f.thinly_sourced.begin(), f.thinly_sourced.end());
  for (const Entry& e : store.entries()) {
    CAPTURE(e.id);
    CHECK(thin.count(e.id) == (e.kind == Kind::kError && !has_two_sourced_examples(e)));
  }
}

TEST_CASE("a coverage line without a tab is a problem at its line") {
  std::vector<Diagnostic> problems;
  const auto codes = indexer::parse_coverage("kb/coverage/xid.tsv",
                                             "# comment\nxid:79\tFALLEN_OFF_BUS\nxid:80\n", problems);
  REQUIRE(codes.size() == 1);
  CHECK(codes[0].family == "xid");
  CHECK(codes[0].code == "xid:79");
  REQUIRE(problems.size() == 1);
  CHECK(to_string(problems[0]) == "kb/coverage/xid.tsv:3: expected 'code<TAB>name'");
}

}  // TEST_SUITE

}  // namespace gpuerr::query
