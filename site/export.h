// `gpuerr export`: the static site (or the Dash docset) of an index, written whole into a
// temporary sibling directory and renamed into place, so a reader never sees half of one.
#pragma once

#include <string>

#include "query/store.h"

namespace gpuerr::site {

/// What to export, and where.
struct ExportOptions {
  std::string out_dir;          // the site's root, or the docset directory ("gpuerr.docset")
  std::string base_url;         // e.g. "https://wiki.example/gpu/"; empty: relative links only
  std::string format = "html";  // "html" or "docset"
};

/// What was written.
struct ExportSummary {
  int pages = 0;    // HTML pages
  int entries = 0;  // catalogue entries, one page each
};

/// The file every export writes at its root, so that a later export knows it may replace the
/// directory (it refuses any other non-empty directory).
inline constexpr const char* kExportMarker = ".gpuerr-export";

/// Writes the site of `store` to `options.out_dir`: home page, one page per entry (layout.h's
/// entry_path), category and family index pages, the variables, the questions, sitemap.xml,
/// style.css, search.js and search-index.js. With format "docset", the same pages under
/// Contents/Resources/Documents of a Dash docset, with Info.plist and docSet.dsidx. Replaces an
/// earlier export in one rename. Throws gpuerr::Error, one line naming the directory, for an
/// unknown format, a base URL that is not http(s), an out_dir that exists and is not an export
/// (or, for a docset, is not named *.docset), or any I/O failure; out_dir is then as it was and
/// no temporary directory is left behind.
ExportSummary export_site(const query::Store& store, const ExportOptions& options);

}  // namespace gpuerr::site
