#include "site/export.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "indexer/error.h"
#include "indexer/replace_dir.h"
#include "query/stats.h"
#include "site/assets.h"
#include "site/docset.h"
#include "site/html.h"
#include "site/pages.h"
#include "site/search_index.h"

namespace gpuerr::site {
namespace {

namespace fs = std::filesystem;

Catalogue read_catalogue(const query::Store& store) {
  Catalogue c;
  c.entries = store.entries();
  c.families = query::entry_families(store);
  for (const Entry& e : c.entries)
    if (std::vector<std::string> back = store.referenced_by(e.id); !back.empty())
      c.referenced_by.emplace(e.id, std::move(back));
  const query::IndexInfo info = store.info();
  c.footer = {info.gpuerr_version, info.built_at, static_cast<int>(c.entries.size())};
  return c;
}

void write_file(const fs::path& path, std::string_view content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw Error("writing '" + path.string() + "': " + std::strerror(errno));
}

// Writes the HTML site under `root`; returns how many pages it has.
int write_html_site(const Catalogue& catalogue, const std::string& base_url, const fs::path& root) {
  const std::vector<File> pages = html_pages(catalogue);
  for (const File& f : pages) write_file(root / f.path, f.content);
  write_file(root / "sitemap.xml", sitemap(pages, base_url));
  write_file(root / "style.css", asset("style.css"));
  write_file(root / "search.js", asset("search.js"));
  write_file(root / "search-index.js", search_index_js(catalogue));
  return static_cast<int>(pages.size());
}

int write_docset(const Catalogue& catalogue, const std::string& base_url, const fs::path& root) {
  const int pages = write_html_site(catalogue, base_url, root / "Contents/Resources/Documents");
  write_file(root / "Contents/Info.plist", info_plist());
  write_docset_index((root / "Contents/Resources/docSet.dsidx").string(),
                     docset_rows(catalogue.entries));
  return pages;
}

// --- Putting it in place ------------------------------------------------------------------

bool is_replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) return false;
  return fs::is_empty(dir, ec) || fs::exists(dir / kExportMarker, ec);
}

void check_options(const ExportOptions& options, const fs::path& out) {
  if (options.format != "html" && options.format != "docset")
    throw Error("exporting: unknown format '" + options.format + "' (use html or docset)");
  if (!options.base_url.empty() && external_url(options.base_url).empty())
    throw Error("exporting: the base URL '" + options.base_url +
                "' is not an http:// or https:// address");
  if (options.format == "docset" && out.extension() != ".docset")
    throw Error("exporting the docset to '" + options.out_dir +
                "': Dash and Zeal only open a directory named NAME.docset; choose e.g. "
                "gpuerr.docset");
  if (!is_replaceable(out))
    throw Error("exporting the site to '" + options.out_dir +
                "': it exists and is not an earlier export; choose an empty or new directory");
}

}  // namespace

ExportSummary export_site(const query::Store& store, const ExportOptions& options) {
  fs::path out = fs::path(options.out_dir).lexically_normal();
  if (!out.has_filename() && out.has_parent_path()) out = out.parent_path();  // "site/" is "site"
  check_options(options, out);
  const Catalogue catalogue = read_catalogue(store);

  std::error_code ec;
  if (out.has_parent_path() && !fs::is_directory(out.parent_path(), ec)) {
    fs::create_directories(out.parent_path(), ec);
    if (ec)
      throw Error("exporting the site to '" + options.out_dir + "': cannot create '" +
                  out.parent_path().string() + "': " + ec.message());
  }
  const fs::path tmp = temporary_sibling(out);
  if (!fs::create_directory(tmp, ec))
    throw Error("exporting the site to '" + options.out_dir + "': cannot create '" + tmp.string() +
                "': " + (ec ? ec.message() : "it already exists"));
  ExportSummary summary;
  try {
    summary.pages = options.format == "docset" ? write_docset(catalogue, options.base_url, tmp)
                                               : write_html_site(catalogue, options.base_url, tmp);
    write_file(tmp / kExportMarker, "gpuerr export " + options.format + "\n");
    swap_into_place(tmp, out, "site");
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
  summary.entries = static_cast<int>(catalogue.entries.size());
  return summary;
}

}  // namespace gpuerr::site
