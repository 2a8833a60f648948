// Where each page of the exported site lives, and the frame every page shares (header,
// navigation, main, footer). Knows nothing of entries' fields; pages.h fills the frames.
#pragma once

#include <string>
#include <string_view>

namespace gpuerr::site {

/// The page of the entry `id`, relative to the site's root: "e/<id>.html". Stable: it depends
/// on the id alone, so links to it survive a re-export and a change of the entry's kind.
std::string entry_path(std::string_view id);

/// The index page of an error category or a family ("category/application.html",
/// "family/xid.html").
std::string category_path(std::string_view category);
std::string family_path(std::string_view family);

/// `entry_path(id)` under a site's address: "https://wiki/gpu/e/<id>.html" for base
/// "https://wiki/gpu" or "https://wiki/gpu/".
std::string entry_url(std::string_view base_url, std::string_view id);

/// One page before framing.
struct Page {
  std::string path;        // relative to the root, e.g. "e/xid-79.html"
  std::string title;       // the page's one h1, as text
  std::string body;        // HTML inside <main>, after the h1
  bool search_box = true;  // a search form in the header (the home page has its own)
  std::string scripts;     // file names under the root to load at the end of <body>
};

/// Facts about the index shown in every footer.
struct Footer {
  std::string gpuerr_version;
  std::string built_at;
  int entries = 0;
};

/// The complete HTML document of `page`: landmarks (header, nav, main, footer), exactly one
/// h1, the stylesheet and links relative to the page so that the site works from file://.
std::string render(const Page& page, const Footer& footer);

/// "../" once per folder in `path` ("e/x.html" gives "../", "index.html" gives "").
std::string root_of(std::string_view path);

}  // namespace gpuerr::site
