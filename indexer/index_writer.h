// Writes the index directory (kb.sqlite + xapian/) from checked entries. The only writer of an
// index; it never reads Markdown, which kb_loader.h has already rendered.
#pragma once

#include <string>
#include <vector>

#include "indexer/entry.h"

namespace gpuerr::indexer {

/// Writes `entries` as the index at `out_dir`. The index is built in a temporary sibling
/// directory and then swapped into place in one rename, so a reader sees the old index or the
/// new one, never half of one. Refuses to replace a directory that is neither empty nor an
/// index. Throws gpuerr::Error on any I/O, SQLite or Xapian failure, leaving `out_dir` as it was.
void write_index(const std::vector<Entry>& entries, const std::string& out_dir,
                 const std::vector<DocumentedCode>& documented = {});

}  // namespace gpuerr::indexer
