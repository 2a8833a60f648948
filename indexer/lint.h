// The checks that need more than one file, or more than the front matter's shape: duplicate
// ids, unknown related ids, signatures that do not compile, examples that match none of their
// entry's signatures. Per-file checks happen while loading (kb_loader.h).
#pragma once

#include <string>
#include <vector>

#include "indexer/entry.h"
#include "indexer/kb_loader.h"

namespace gpuerr::indexer {

/// Every cross-entry problem in `entries` (all layers, in layer order), in file order. Ids
/// repeated within one layer are duplicates; a later layer may override an earlier one's id.
std::vector<Diagnostic> lint(const std::vector<ParsedEntry>& entries);

/// The catalogue read from kb/ directories: the first is the base, each later one an overlay.
struct Catalogue {
  std::vector<Entry> entries;  // one per id, the last layer's, in id order
  std::vector<DocumentedCode> documented;  // every layer's coverage lists
  std::vector<Diagnostic> problems;
  std::vector<Diagnostic> overrides;  // an overlay replacing an earlier layer's entry: not a problem
};

/// Loads, checks and merges `dirs`. Problems are collected, never thrown; throws
/// gpuerr::Error only when a file cannot be read.
Catalogue read_catalogue(const std::vector<std::string>& dirs);

}  // namespace gpuerr::indexer
