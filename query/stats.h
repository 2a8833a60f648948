// Catalogue statistics: entries per family, and which documented codes still lack an entry.
// Reads the index only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "query/store.h"

namespace gpuerr::query {

/// One family's coverage. Families come from kb/coverage/ (cuda-runtime, xid, cublas, ...);
/// entries whose codes belong to none are counted under "other: <category>", and variables and
/// questions under "env" and "faq".
struct FamilyStats {
  std::string family;
  int entries = 0;
  int documented = 0;                   // codes the family's list holds; 0 for "other"
  std::vector<DocumentedCode> missing;  // documented codes no entry has, in list order
  std::vector<std::string> thinly_sourced;  // error entries short of two sourced examples, by id
};

/// Whether an entry has two examples seen at public sources that differ in text and come from
/// different pages (the address without its #fragment). The catalogue's goal for every error
/// entry; examples without a source were assembled from the documented wording and do not count.
bool has_two_sourced_examples(const Entry& e);

/// Every family, documented families first in name order, then the others. Empty for an empty
/// index.
std::vector<FamilyStats> catalogue_stats(const Store& store);

/// The family of every entry, by id, named as catalogue_stats() names them ("xid",
/// "other: configuration", "env").
std::map<std::string, std::string> entry_families(const Store& store);

}  // namespace gpuerr::query
