// The exported site as a whole: its structure, links, landmarks, escaping, sitemap, and how
// export fails and replaces an earlier export.
#include "site/export.h"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "indexer/error.h"
#include "indexer/index_writer.h"
#include "indexer/lint.h"
#include "query/stats.h"
#include "site/html.h"
#include "site/layout.h"
#include "tests/support.h"

namespace gpuerr::site {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The bundled catalogue's site, exported once per test binary.
const fs::path& bundled_site() {
  static const fs::path dir = [] {
    const fs::path out = test::temp_dir() / "site";
    export_site(test::bundled_store(), {out.string(), "", "html"});
    return out;
  }();
  return dir;
}

std::vector<fs::path> html_files(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& f : fs::recursive_directory_iterator(root))
    if (f.path().extension() == ".html") out.push_back(f.path());
  return out;
}

// Every href, src and form action of an HTML text.
std::vector<std::string> references(const std::string& html) {
  static const std::regex attribute(R"re(\b(?:href|src|action)="([^"]*)")re");
  std::vector<std::string> out;
  for (std::sregex_iterator it(html.begin(), html.end(), attribute), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

std::string percent_decoded(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool leaves_site(const std::string& ref) {
  return ref.starts_with("http://") || ref.starts_with("https://") || ref.starts_with("mailto:");
}

// A kb with hostile text in every field a page prints, a variable and a question, indexed.
fs::path hostile_index() {
  const fs::path kb = test::temp_dir() / "kb";
  test::write_file(kb / "errors" / "hostile-entry.md", R"(---
id: hostile-entry
title: "<script>alert('title')</script> hostile marker"
category: application
codes: [cudaErrorHostile]
signatures:
  - "hostile {*} marker"
hardware: "no"
first_actions:
  - "Type `<script>alert('action')</script>` and <img src=x onerror=alert(1)>."
related: [fixture-var, fixture-question, plain-error]
examples:
  - text: "<script>alert('example')</script> hostile <b>x</b> marker"
    source: "https://example.org/issues/1?a=1&b=<2>"
  - "hostile plain marker"
sources:
  - title: "Source \"quoted\" <i>title</i>"
    url: "https://example.org/doc?x=1&y=2"
---
Raw: <script>alert('body')</script>

<script>alert('block')</script>

Code: `<script>alert('code')</script>` and [a link](javascript:alert(1)).
)");
  test::write_file(kb / "errors" / "plain-error.md", R"(---
id: plain-error
title: "Plain error happened"
category: hardware
signatures:
  - "plain error happened"
hardware: "yes"
first_actions:
  - "Drain the node."
related: [hostile-entry]
examples:
  - "Plain error happened on node 3"
sources:
  - title: "Doc"
    url: "https://example.org/plain"
---
Plain body.
)");
  test::write_file(kb / "env" / "fixture-var.md", R"(---
id: fixture-var
title: FIXTURE_VAR
name: FIXTURE_VAR
values: "0 or 1"
default: "0"
sources:
  - title: "Doc"
    url: "https://example.org/var"
---
What it does.
)");
  test::write_file(kb / "faq" / "fixture-question.md", R"(---
id: fixture-question
title: "Is <this> a question?"
related: [plain-error]
sources:
  - title: "Doc"
    url: "https://example.org/faq"
---
Yes.
)");
  const indexer::Catalogue catalogue = indexer::read_catalogue({kb.string()});
  for (const Diagnostic& d : catalogue.problems) MESSAGE(to_string(d));
  REQUIRE(catalogue.problems.empty());
  const fs::path index = kb.parent_path() / "index";
  indexer::write_index(catalogue.entries, index.string(), catalogue.documented);
  return index;
}

}  // namespace

TEST_SUITE("site") {
TEST_CASE("the site has a home page, a page per entry, per category and per family, the "
          "variables, the questions, a sitemap and its assets") {
  const fs::path& site = bundled_site();
  for (const char* file :
       {"index.html", "categories.html", "families.html", "env.html", "faq.html", "sitemap.xml",
        "style.css", "search.js", "search-index.js", kExportMarker}) {
    CAPTURE(file);
    CHECK(fs::is_regular_file(site / file));
  }
  const std::vector<Entry> entries = test::bundled_store().entries();
  std::set<std::string> categories, families;
  const auto family_of = query::entry_families(test::bundled_store());
  for (const Entry& e : entries) {
    CAPTURE(e.id);
    CHECK(fs::is_regular_file(site / entry_path(e.id)));
    if (e.kind != Kind::kError) continue;
    categories.insert(e.category);
    families.insert(family_of.at(e.id));
  }
  for (const std::string& c : categories) CHECK(fs::is_regular_file(site / category_path(c)));
  for (const std::string& f : families) CHECK(fs::is_regular_file(site / family_path(f)));
  size_t entry_pages = 0;
  for (const auto& f : fs::directory_iterator(site / "e")) entry_pages += f.is_regular_file();
  CHECK(entry_pages == entries.size());
}

TEST_CASE("every internal link, script and form in every page resolves to a file of the site") {
  const fs::path& site = bundled_site();
  size_t checked = 0;
  for (const fs::path& page : html_files(site)) {
    for (std::string ref : references(slurp(page))) {
      if (leaves_site(ref)) continue;
      CAPTURE(page.string());
      CAPTURE(ref);
      REQUIRE(!ref.empty());
      if (ref.starts_with("#")) continue;
      ref = percent_decoded(ref.substr(0, ref.find_first_of("#?")));
      CHECK(fs::is_regular_file((page.parent_path() / ref).lexically_normal()));
      ++checked;
    }
  }
  CHECK(checked > 5000);
}

TEST_CASE("nothing on the site loads from the network: no remote scripts, styles, images or "
          "fonts") {
  const fs::path& site = bundled_site();
  static const std::regex asset(R"re(<(?:script|link|img|iframe|source|video|audio)\b[^>]*)re");
  for (const fs::path& page : html_files(site)) {
    const std::string html = slurp(page);
    for (std::sregex_iterator it(html.begin(), html.end(), asset), end; it != end; ++it) {
      const std::string tag = (*it)[0];
      CAPTURE(page.string());
      CAPTURE(tag);
      CHECK(tag.find("http:") == std::string::npos);
      CHECK(tag.find("https:") == std::string::npos);
      CHECK(tag.find("//") == std::string::npos);
    }
  }
  const std::string css = slurp(site / "style.css");
  CHECK(css.find("url(") == std::string::npos);
  CHECK(css.find("@import") == std::string::npos);
  const std::string js = slurp(site / "search.js");
  for (const char* call : {"fetch(", "XMLHttpRequest", "import(", "WebSocket"}) {
    CAPTURE(call);
    CHECK(js.find(call) == std::string::npos);
  }
}

TEST_CASE("every page has one h1, the header, nav, main and footer landmarks, and labelled "
          "inputs") {
  static const std::regex input_id(R"re(<(?:input|textarea)\b[^>]*\bid="([^"]+)")re");
  for (const fs::path& page : html_files(bundled_site())) {
    const std::string html = slurp(page);
    CAPTURE(page.string());
    CHECK(count(html, "<h1") == 1);
    CHECK(count(html, "<main") == 1);
    CHECK(count(html, "<header") == 1);
    CHECK(count(html, "<nav") == 1);
    CHECK(count(html, "<footer") == 1);
    CHECK(html.find("<html lang=\"en\">") != std::string::npos);
    CHECK(html.find("name=\"viewport\"") != std::string::npos);
    for (std::sregex_iterator it(html.begin(), html.end(), input_id), end; it != end; ++it)
      CHECK(html.find("<label for=\"" + std::string((*it)[1]) + "\"") != std::string::npos);
  }
  const std::string home = slurp(bundled_site() / "index.html");
  CHECK(home.find("<textarea id=\"q\"") != std::string::npos);
  CHECK(home.find("<script src=\"search-index.js\"></script>") != std::string::npos);
}

TEST_CASE("an entry page puts the first actions before its facts and explanation, and links "
          "related entries, variables and the entries that refer to it") {
  const std::string page = slurp(bundled_site() / entry_path("illegal-memory-access"));
  const size_t actions = page.find("<h2 id=\"first-actions\">First actions</h2>");
  const size_t facts = page.find("<dl class=\"facts\">");
  const size_t explanation = page.find("class=\"explanation\"");
  REQUIRE(actions != std::string::npos);
  REQUIRE(explanation != std::string::npos);
  CHECK(actions < facts);
  CHECK(actions < explanation);
  CHECK(page.find("<code>cudaErrorIllegalAddress</code>") != std::string::npos);
  CHECK(page.find("href=\"../e/cuda-launch-blocking.html\"") != std::string::npos);
  CHECK(page.find("<h2>Related variables</h2>") != std::string::npos);
  CHECK(page.find("<h2>Referenced by</h2>") != std::string::npos);
  CHECK(page.find("href=\"../category/application.html\"") != std::string::npos);
  CHECK(page.find("<h2>Sources</h2>") != std::string::npos);
}

TEST_CASE("text holding <script> shows as text: title, actions, examples, sources, "
          "raw HTML and javascript: links in a body are dropped") {
  const query::Store store(hostile_index().string());
  const fs::path out = test::temp_dir() / "hostile-site";
  export_site(store, {out.string(), "", "html"});
  const std::string page = slurp(out / entry_path("hostile-entry"));
  // The only <script elements are the site's own, at the end of the page.
  CHECK(page.find("<script>") == std::string::npos);
  // cmark's safe mode drops the tags and keeps the text between them as text.
  CHECK(page.find("<!-- raw HTML omitted -->alert('body')<!-- raw HTML omitted -->") !=
        std::string::npos);
  CHECK(page.find("alert('block')") == std::string::npos);
  CHECK(page.find("javascript:") == std::string::npos);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("<b>") == std::string::npos);
  CHECK(page.find("<i>") == std::string::npos);
  for (const char* shown :
       {"<h1>&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; hostile marker</h1>",
        "<code>&lt;script&gt;alert(&#39;action&#39;)&lt;/script&gt;</code> and &lt;img src=x "
        "onerror=alert(1)&gt;.",
        "&lt;script&gt;alert(&#39;example&#39;)&lt;/script&gt; hostile &lt;b&gt;x&lt;/b&gt; "
        "marker",
        "<code>&lt;script&gt;alert('code')&lt;/script&gt;</code>",
        "href=\"https://example.org/issues/1?a=1&amp;b=&lt;2&gt;\"",
        "Source &quot;quoted&quot; &lt;i&gt;title&lt;/i&gt;"}) {
    CAPTURE(shown);
    CHECK(page.find(shown) != std::string::npos);
  }
  CHECK(slurp(out / category_path("application")).find("&lt;script&gt;alert(&#39;title&#39;)") !=
        std::string::npos);
  CHECK(slurp(out / "faq.html").find("Is &lt;this&gt; a question?") != std::string::npos);
  // In the search index the same text is JSON inside a script file, never markup.
  const std::string index = slurp(out / "search-index.js");
  const nlohmann::json j = nlohmann::json::parse(
      index.substr(index.find('{'), index.rfind('}') - index.find('{') + 1));
  bool found = false;
  for (const nlohmann::json& e : j["entries"])
    if (e["id"] == "hostile-entry")
      found = e["title"] == "<script>alert('title')</script> hostile marker";
  CHECK(found);
}

TEST_CASE("an example's source is a link under the example, one without a source says so") {
  const query::Store store(hostile_index().string());
  const fs::path out = test::temp_dir() / "sources-site";
  export_site(store, {out.string(), "", "html"});
  const std::string page = slurp(out / entry_path("hostile-entry"));
  CHECK(count(page, "<figcaption>Seen in <a href=") == 1);
  CHECK(count(page, "<figcaption>Assembled from the documented wording") == 1);
  CHECK(count(page, "<figure class=\"example\">") == 2);
}

TEST_CASE("the sitemap lists every page, with absolute addresses under --base-url") {
  const query::Store store(hostile_index().string());
  const fs::path plain = test::temp_dir() / "plain";
  const fs::path based = test::temp_dir() / "based";
  export_site(store, {plain.string(), "", "html"});
  export_site(store, {based.string(), "https://wiki.example/gpu/", "html"});
  const std::string relative = slurp(plain / "sitemap.xml");
  const std::string absolute = slurp(based / "sitemap.xml");
  const size_t pages = html_files(plain).size();
  CHECK(count(relative, "<loc>") == pages);
  CHECK(count(absolute, "<loc>https://wiki.example/gpu/") == pages);
  CHECK(absolute.find("<loc>https://wiki.example/gpu/e/hostile-entry.html</loc>") !=
        std::string::npos);
  CHECK(relative.find("<loc>e/hostile-entry.html</loc>") != std::string::npos);
}

TEST_CASE("an export under a file fails with one line naming the directory and leaves nothing "
          "behind") {
  const fs::path dir = test::temp_dir();
  test::write_file(dir / "a-file", "not a directory\n");
  const fs::path out = dir / "a-file" / "site";
  CHECK_THROWS_WITH_AS(export_site(test::bundled_store(), {out.string(), "", "html"}),
                       ("exporting the site to '" + out.string() + "': cannot create '" +
                        (dir / "a-file").string() + "': Not a directory")
                           .c_str(),
                       Error);
  std::vector<fs::path> left;
  for (const auto& f : fs::directory_iterator(dir)) left.push_back(f.path());
  CHECK(left == std::vector<fs::path>{dir / "a-file"});
}

TEST_CASE("a directory that is not an earlier export is refused, an earlier export is replaced "
          "whole") {
  const query::Store store(hostile_index().string());
  const fs::path dir = test::temp_dir();
  test::write_file(dir / "docs" / "mine.txt", "keep me\n");
  CHECK_THROWS_WITH_AS(export_site(store, {(dir / "docs").string(), "", "html"}),
                       ("exporting the site to '" + (dir / "docs").string() +
                        "': it exists and is not an earlier export; choose an empty or new "
                        "directory")
                           .c_str(),
                       Error);
  CHECK(slurp(dir / "docs" / "mine.txt") == "keep me\n");

  const fs::path site = dir / "site";
  export_site(store, {site.string(), "", "html"});
  test::write_file(site / "stale.html", "from before\n");
  export_site(store, {site.string(), "", "html"});
  CHECK(!fs::exists(site / "stale.html"));
  CHECK(fs::is_regular_file(site / "index.html"));
  std::vector<std::string> names;
  for (const auto& f : fs::directory_iterator(dir)) names.push_back(f.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"docs", "site"});  // no temporary directory left
}

TEST_CASE("a bad base URL or format is refused before anything is written") {
  const fs::path out = test::temp_dir() / "never";
  CHECK_THROWS_WITH_AS(export_site(test::bundled_store(), {out.string(), "wiki/gpu", "html"}),
                       "exporting: the base URL 'wiki/gpu' is not an http:// or https:// address",
                       Error);
  CHECK_THROWS_WITH_AS(export_site(test::bundled_store(), {out.string(), "", "pdf"}),
                       "exporting: unknown format 'pdf' (use html or docset)", Error);
  CHECK(!fs::exists(out));
}

TEST_CASE("search-index.js assigns one global holding every entry, code and signature") {
  const std::string js = slurp(bundled_site() / "search-index.js");
  const std::string prefix = "window.GPUERR_SEARCH = ";
  REQUIRE(js.starts_with(prefix));
  const nlohmann::json j =
      nlohmann::json::parse(js.substr(prefix.size(), js.rfind(';') - prefix.size()));
  CHECK(j["entries"].size() == test::bundled_store().entries().size());
  CHECK(j["lengths"].size() == j["entries"].size());
  CHECK(j["untranslated"] == 0);
  CHECK(j["signatures"].size() == test::bundled_store().signatures().size());
  REQUIRE(j["codes"].contains("cudaerrorillegaladdress"));
  const size_t at = j["codes"]["cudaerrorillegaladdress"][0];
  CHECK(j["entries"][at]["id"] == "illegal-memory-access");
  CHECK(j["entries"][at]["url"] == "e/illegal-memory-access.html");
  CHECK(j["codes"].contains("cuda:700"));
}

}  // TEST_SUITE

}  // namespace gpuerr::site
