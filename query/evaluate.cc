#include "query/evaluate.h"

#include <algorithm>

#include "query/lookup.h"

namespace gpuerr::query {
namespace {

constexpr int kRanksCounted = 10;  // a right entry below this rank adds nothing to MRR
constexpr int kCalibrationBins = 10;

// The 1-based rank of the first right id, 0 when none of the first kRanksCounted is right.
int first_right_rank(const Ranking& r, const std::vector<std::string>& expect) {
  for (size_t i = 0; i < r.ids.size() && i < kRanksCounted; ++i)
    if (std::find(expect.begin(), expect.end(), r.ids[i]) != expect.end())
      return static_cast<int>(i) + 1;
  return 0;
}

void count(Figures& f, const EvalCase& c, const Ranking& r, int rank) {
  if (c.expect.empty()) {
    ++f.negatives;
    f.negatives_unanswered += !r.confident;
    return;
  }
  ++f.positives;
  f.positives_unanswered += !r.confident;
  f.top1 += rank == 1 && r.confident;
  f.top3 += rank >= 1 && rank <= 3;
  if (rank > 0) f.reciprocal_ranks += 1.0 / rank;
}

}  // namespace

EvalReport evaluate(const std::vector<EvalCase>& cases, const Matcher& matcher,
                    const std::map<std::string, std::string>& family_of_entry) {
  EvalReport report;
  report.overall.family = "all";
  for (int i = 0; i < kCalibrationBins; ++i)
    report.calibration.push_back({i / double(kCalibrationBins), (i + 1) / double(kCalibrationBins)});
  std::map<std::string, Figures> by_family;
  for (const EvalCase& c : cases) {
    const Ranking r = matcher(c.text);
    const int rank = first_right_rank(r, c.expect);
    count(report.overall, c, r, rank);
    if (!c.expect.empty()) {
      const auto it = family_of_entry.find(c.expect.front());
      const std::string family = it == family_of_entry.end() ? "unknown" : it->second;
      by_family[family].family = family;
      count(by_family[family], c, r, rank);
    }
    if (!r.ids.empty()) {
      const int bin = std::clamp(static_cast<int>(r.confidence * kCalibrationBins), 0,
                                 kCalibrationBins - 1);
      ++report.calibration[bin].answers;
      report.calibration[bin].right += rank == 1;
    }
    const bool wrong = c.expect.empty() ? r.confident : !(rank == 1 && r.confident);
    if (wrong) {
      Miss m{c.where, c.expect, {}, r.confidence, r.confident};
      for (size_t i = 0; i < r.ids.size() && i < 3; ++i) m.got.push_back(r.ids[i]);
      report.misses.push_back(std::move(m));
    }
  }
  for (auto& [name, f] : by_family) report.families.push_back(std::move(f));
  return report;
}

Ranking lookup_ranking(const Store& store, std::string_view text) {
  const std::vector<Match> matches = lookup(store, text);
  Ranking r;
  for (const Match& m : matches) r.ids.push_back(m.entry_id);
  if (!matches.empty()) {
    r.confidence = matches.front().confidence;
    r.confident = r.confidence >= kConfident;
  }
  return r;
}

Ranking baseline_ranking(const Store& store, std::string_view text) {
  const std::vector<TextHit> hits = store.baseline_search(std::string(text), kRanksCounted);
  Ranking r;
  for (const TextHit& h : hits) r.ids.push_back(h.entry_id);
  if (!hits.empty()) {
    r.confidence = hits.front().percent;
    r.confident = true;
  }
  return r;
}

}  // namespace gpuerr::query
