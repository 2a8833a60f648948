// The pages of the exported site, each built from the index's records (never from kb/
// Markdown): the home page, one page per entry, the category and family index pages, the
// environment-variable reference and the questions. Pure: values in, HTML strings out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "indexer/entry.h"
#include "site/layout.h"

namespace gpuerr::site {

/// Everything the pages are built from, read once from an index.
struct Catalogue {
  std::vector<Entry> entries;                                     // every kind, in id order
  std::map<std::string, std::string> families;                    // id -> family (query/stats.h)
  std::map<std::string, std::vector<std::string>> referenced_by;  // id -> ids linking to it
  Footer footer;
};

/// One file of the site: its path under the root and its bytes.
struct File {
  std::string path;
  std::string content;
};

/// Every HTML page of the site, framed, in a stable order (home first). Empty entries give a
/// home page and empty index pages.
std::vector<File> html_pages(const Catalogue& catalogue);

/// sitemap.xml over `pages`: absolute addresses under `base_url` when it is given, else paths
/// relative to the sitemap (which crawlers ignore, but a reader can follow).
std::string sitemap(const std::vector<File>& pages, const std::string& base_url);

}  // namespace gpuerr::site
