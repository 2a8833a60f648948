#include "query/stats.h"

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
