// JSON output for scripts. The lookup shape is a contract (docs/cli.md): extend it, never
// break it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/answer.h"

namespace gpuerr::cli {

/// {"query": ..., "matches": [{"id", "title", "category", "confidence", "score",
/// "first_action", "actions", "codes", ...}]}, best first, confident matches only.
nlohmann::ordered_json lookup_json(const std::string& query, const std::vector<Answer>& confident);

/// Every field of one entry.
nlohmann::ordered_json entry_json(const Entry& entry);

/// A JSON array of `entry_json` for each entry, in order.
nlohmann::ordered_json entries_json(const std::vector<Entry>& entries);

/// Prints `value` on one line; invalid UTF-8 in the input becomes U+FFFD instead of failing.
void print_json(std::ostream& out, const nlohmann::ordered_json& value);

}  // namespace gpuerr::cli
