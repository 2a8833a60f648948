// Evaluation: how often a matcher ranks the right entry first on labelled messages, per family,
// and how often it keeps quiet on text that is not a GPU failure. Bookkeeping over answers only;
// reading the labelled files is the caller's job.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "query/store.h"

namespace gpuerr::query {

/// One labelled message.
struct EvalCase {
  std::string where;                // "tests/eval/corpus/xid.yaml:12", for reports
  std::string text;                 // exactly as pasted
  std::vector<std::string> expect;  // any of these is right at rank 1; empty: a negative
};

/// A matcher's answer to one message: entry ids best first, and how sure it is of the first.
struct Ranking {
  std::vector<std::string> ids;
  double confidence = 0;   // of ids.front(); 0..1
  bool confident = false;  // the matcher presents ids.front() as the answer
};

using Matcher = std::function<Ranking(std::string_view text)>;

/// Counts for one family of messages (or for all of them).
struct Figures {
  std::string family;
  int positives = 0;              // messages with an expected entry
  int top1 = 0;                   // right entry first, and presented as the answer
  int top3 = 0;                   // right entry among the first three, confident or not
  double reciprocal_ranks = 0;    // sum of 1/rank of the first right entry (0 when absent)
  int positives_unanswered = 0;   // positives that got "no confident match"
  int negatives = 0;              // messages with no expected entry
  int negatives_unanswered = 0;   // negatives that got "no confident match" (what we want)
};

/// Answers whose confidence falls in [low, high), and how many of them were right.
struct CalibrationBin {
  double low = 0;
  double high = 0;
  int answers = 0;
  int right = 0;
};

/// A case the matcher got wrong: a positive not answered with a right entry first, or a
/// negative answered confidently.
struct Miss {
  std::string where;
  std::vector<std::string> expect;
  std::vector<std::string> got;  // the first three ids
  double confidence = 0;
  bool confident = false;
};

struct EvalReport {
  std::vector<Figures> families;  // positives by their first expected entry's family, in name order
  Figures overall;                // every case, negatives included
  std::vector<CalibrationBin> calibration;  // tenths of confidence, every case with an answer
  std::vector<Miss> misses;                 // in case order
};

/// Runs `matcher` on every case. `family_of_entry` maps an entry id to its family name
/// (entry_families()); an id it lacks counts under "unknown".
EvalReport evaluate(const std::vector<EvalCase>& cases, const Matcher& matcher,
                    const std::map<std::string, std::string>& family_of_entry);

/// Lookup as the CLI presents it: confident when the first match reaches kConfident.
Ranking lookup_ranking(const Store& store, std::string_view text);

/// The baseline: Store::baseline_search(); any hit counts as a confident answer, since plain
/// BM25 has no notion of "no match" short of no shared word.
Ranking baseline_ranking(const Store& store, std::string_view text);

}  // namespace gpuerr::query
