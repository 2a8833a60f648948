#include "query/evaluate.h"

#include <doctest/doctest.h>

#include "tests/support.h"

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("evaluate counts top-1, top-3, reciprocal ranks, negatives and misses") {
  // A matcher that answers from a table, so every figure can be checked by hand.
  const std::map<std::string, Ranking> answers = {
      {"first", {{"a", "b"}, 0.95, true}},        // right at rank 1
      {"second", {{"x", "b", "c"}, 0.85, true}},  // right at rank 2: top-3, MRR 1/2
      {"weak", {{"c"}, 0.3, false}},              // right entry first, but not confident
      {"noise", {{"a"}, 0.7, true}},              // a negative answered confidently
      {"quiet", {{}, 0, false}},                  // a negative left alone
  };
  const Matcher matcher = [&](std::string_view text) { return answers.at(std::string(text)); };
  const std::vector<EvalCase> cases = {{"f:1", "first", {"a"}},
                                       {"f:2", "second", {"b"}},
                                       {"f:3", "weak", {"c"}},
                                       {"f:4", "noise", {}},
                                       {"f:5", "quiet", {}}};
  const EvalReport r = evaluate(cases, matcher, {{"a", "fam-a"}, {"b", "fam-b"}, {"c", "fam-a"}});
  CHECK(r.overall.positives == 3);
  CHECK(r.overall.top1 == 1);  // "weak" is right but was not presented as the answer
  CHECK(r.overall.top3 == 3);
  CHECK(r.overall.reciprocal_ranks == doctest::Approx(1 + 0.5 + 1));
  CHECK(r.overall.positives_unanswered == 1);
  CHECK(r.overall.negatives == 2);
  CHECK(r.overall.negatives_unanswered == 1);
  REQUIRE(r.families.size() == 2);
  CHECK(r.families[0].family == "fam-a");
  CHECK(r.families[0].positives == 2);
  CHECK(r.families[1].family == "fam-b");
  REQUIRE(r.misses.size() == 3);  // second, weak, noise
  CHECK(r.misses[0].where == "f:2");
  CHECK(r.misses[2].where == "f:4");
  CHECK(r.calibration[9].answers == 1);  // 0.95
  CHECK(r.calibration[9].right == 1);
  CHECK(r.calibration[7].answers == 1);  // the negative at 0.7, wrong
  CHECK(r.calibration[7].right == 0);
}

TEST_CASE("the baseline ranks by plain BM25 and answers whenever a word hits") {
  const Store store(test::bundled_index().string());
  const Ranking r = baseline_ranking(store, "an illegal memory access was encountered");
  REQUIRE_FALSE(r.ids.empty());
  CHECK(r.confident);
  CHECK(r.ids.front() == "illegal-memory-access");
  CHECK(baseline_ranking(store, "zzqqxx").ids.empty());
}

}  // TEST_SUITE

}  // namespace gpuerr::query
