// The search index of the exported site: what site/assets/search.js needs to rank entries for a
// pasted message the way query/lookup.cc does, precomputed from the index's records.
#pragma once

#include <string>

#include "site/pages.h"

namespace gpuerr::site {

/// "search-index.js": one statement, `window.GPUERR_SEARCH = {...};`, so that the index loads
/// with a <script> tag from file://, where a page may not fetch() local files. The object holds:
///
/// - `entries`: [{id, kind, title, category, url, first, role}] in catalogue order;
/// - `codes`: code key (query/identifiers.h) -> indices of the error entries with that code;
/// - `signatures`: [entry index, JavaScript source, flags, anchor, letters] per signature of an
///   error entry (js_regex.h; signature_anchor and signature_letters of indexer/signature.h);
///   signatures with no JavaScript form are left out and counted in `untranslated`;
/// - `terms`: word -> [entry index, weight, ...], with each field's words counted as often as
///   the engine's Xapian index counts them (indexer/schema.h), and `lengths`, the sum per entry;
/// - `stop`: the words a query drops.
std::string search_index_js(const Catalogue& catalogue);

}  // namespace gpuerr::site
