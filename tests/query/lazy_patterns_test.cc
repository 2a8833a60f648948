#include "query/lazy_patterns.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <stdexcept>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("a pattern table skips, without compiling, the texts its guards rule out") {
  const LazyPatterns table({
      {"", R"(\d+)", true},           // needs a digit only
      {"cuda|nccl", R"(error)"},      // needs one of two words
      {"xid", R"(xid (\d+))", true},  // needs both
  });
  CHECK(table.may_match(0, "error 700"));
  CHECK_FALSE(table.may_match(0, "no figures here"));
  CHECK(table.may_match(1, "nccl error"));
  CHECK_FALSE(table.may_match(1, "hip error"));
  CHECK(table.may_match(2, "xid 79"));
  CHECK_FALSE(table.may_match(2, "xid seventy-nine"));
  CHECK_FALSE(table.may_match(2, "error 79"));
  CHECK(RE2::PartialMatch("xid 79", table[2]));  // compiled on first use
}

TEST_CASE("a guard with a blank alternative, which every text would pass, is refused") {
  using Table = std::vector<GuardedPattern>;
  CHECK_THROWS_AS(LazyPatterns(Table{{" | ", R"(x)"}}), std::logic_error);
  CHECK_THROWS_AS(LazyPatterns(Table{{"cuda|", R"(x)"}}), std::logic_error);
  CHECK_NOTHROW(LazyPatterns(Table{{"[|: ", R"(x)"}, {"", R"(x)"}}));
}

}  // TEST_SUITE

}  // namespace gpuerr::query
