// Lookup: finds the catalogue entries that explain one error message or paste. Reads the
// index, never writes it; knows nothing about terminals or HTML.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "query/analyse.h"
#include "query/store.h"

namespace gpuerr::query {

/// One entry that explains some input, how strongly, and why.
struct Match {
  std::string entry_id;  // e.g. "illegal-memory-access"
  double score = 0;      // higher is better; compare within one call only
  double confidence = 0; // 0..1; at or above kConfident the match is shown as an answer
  std::string code;       // the identifier that named the entry ("xid:79"), empty if none
  std::string signature;  // the first signature that matched, empty if none
  double text_score = 0;  // 0..1: the share of the query's words the entry matched (BM25 layer)
  std::optional<Analysis> analysis;  // the figures of a message this entry's signatures match
};

/// Matches below this confidence are candidates, not answers.
inline constexpr double kConfident = 0.5;

/// Returns the entries that might explain `message`, best first: confident matches, then weaker
/// candidates. An empty result means the catalogue has nothing to say; that is an answer, not an
/// error. Throws gpuerr::Error only if the index cannot be read.
///
///     const Store store(index_dir);
///     for (const Match& m : lookup(store, "CUDA error: misaligned address"))
///       if (m.confidence >= kConfident) std::cout << m.entry_id << '\n';
std::vector<Match> lookup(const Store& store, std::string_view message);

}  // namespace gpuerr::query
