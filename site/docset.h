// The Dash/Zeal docset form of the site: Info.plist and the SQLite searchIndex that those
// readers search by name (Dash's docset format). The pages themselves are the HTML site's.
#pragma once

#include <string>
#include <vector>

#include "indexer/entry.h"

namespace gpuerr::site {

/// One row of a docset's searchIndex.
struct DocsetRow {
  std::string name;  // what the reader searches, e.g. "CUDA error: misaligned address"
  std::string type;  // "Error", "Environment" or "Guide"
  std::string path;  // relative to Contents/Resources/Documents, e.g. "e/misaligned-address.html"
};

/// The rows for `entries`: each entry under its title, typed by its kind (errors "Error",
/// variables "Environment", questions "Guide"); each error also under every code that is a name
/// ("cudaErrorMisalignedAddress", not "cuda:716"), so a reader finds it by either.
std::vector<DocsetRow> docset_rows(const std::vector<Entry>& entries);

/// Contents/Info.plist of the docset: bundle "gpuerr", index page index.html, JavaScript on
/// (the site's search needs it).
std::string info_plist();

/// Writes `rows` as a new SQLite file at `path` with Dash's schema: searchIndex(id, name, type,
/// path) and the unique index `anchor` on (name, type, path). Throws gpuerr::Error naming the
/// file when SQLite cannot write it.
void write_docset_index(const std::string& path, const std::vector<DocsetRow>& rows);

}  // namespace gpuerr::site
