#include "site/pages.h"

#include <set>
#include <sstream>

#include "site/html.h"

namespace gpuerr::site {
namespace {

// Indexes the catalogue once for the pages that link entries to each other.
struct Links {
  std::map<std::string, const Entry*> by_id;
  explicit Links(const Catalogue& c) {
    for (const Entry& e : c.entries) by_id.emplace(e.id, &e);
  }
  // A link to the entry `id` from the page at `from`, its title as text; plain text when the
  // index has no such entry (a kb lint lets none through, but an overlay may be older).
  std::string to(const std::string& id, const std::string& from) const {
    auto it = by_id.find(id);
    if (it == by_id.end()) return "<span class=\"id\">" + escape(id) + "</span>";
    return "<a href=\"" + root_of(from) + url_path(entry_path(id)) + "\">" +
           escape(it->second->title) + "</a>";
  }
};

std::string family_label(const std::string& family) {
  return family.starts_with("other: ") ? "Other codes: " + family.substr(7) : family;
}

// "<h2>Heading</h2><ul>...</ul>" over ids, or nothing when there are none.
std::string link_list(const std::string& heading, const std::vector<std::string>& ids,
                      const Links& links, const std::string& from) {
  if (ids.empty()) return "";
  std::string out = "<section>\n<h2>" + escape(heading) + "</h2>\n<ul class=\"links\">\n";
  for (const std::string& id : ids) out += "<li>" + links.to(id, from) + "</li>\n";
  return out + "</ul>\n</section>\n";
}

std::string first_actions(const Entry& e) {
  if (e.first_actions.empty()) return "";
  std::string out =
      "<section class=\"first-actions\" aria-labelledby=\"first-actions\">\n"
      "<h2 id=\"first-actions\">First actions</h2>\n<ol>\n";
  for (const std::string& a : e.first_actions) out += "<li>" + inline_html(a) + "</li>\n";
  return out + "</ol>\n</section>\n";
}

std::string facts(const Entry& e, const Catalogue& c, const std::string& from) {
  std::ostringstream out;
  out << "<dl class=\"facts\">\n";
  if (e.kind == Kind::kError) {
    out << "<dt>Category</dt><dd><a href=\"" << root_of(from) << url_path(category_path(e.category))
        << "\">" << escape(e.category) << "</a></dd>\n";
    if (auto f = c.families.find(e.id); f != c.families.end())
      out << "<dt>Family</dt><dd><a href=\"" << root_of(from) << url_path(family_path(f->second))
          << "\">" << escape(family_label(f->second)) << "</a></dd>\n";
    if (!e.codes.empty()) {
      out << "<dt>Codes</dt><dd><ul class=\"codes\">";
      for (const std::string& code : e.codes) out << "<li><code>" << escape(code) << "</code></li>";
      out << "</ul></dd>\n";
    }
    out << "<dt>Poisons the CUDA context</dt><dd>"
        << (e.poisons_context ? "yes: later CUDA errors in the process are a cascade" : "no")
        << "</dd>\n<dt>Hardware</dt><dd>" << escape(e.hardware);
    if (!e.hardware_evidence.empty()) out << ": " << inline_html(e.hardware_evidence);
    out << "</dd>\n";
    if (!e.role.empty()) out << "<dt>In a log</dt><dd>" << escape(e.role) << "</dd>\n";
  } else if (e.kind == Kind::kEnv) {
    out << "<dt>Variable</dt><dd><code>" << escape(e.env_name) << "</code></dd>\n";
    if (!e.env_values.empty())
      out << "<dt>Values</dt><dd>" << inline_html(e.env_values) << "</dd>\n";
    if (!e.env_default.empty())
      out << "<dt>Default</dt><dd>" << inline_html(e.env_default) << "</dd>\n";
  }
  out << "<dt>Id</dt><dd><code>" << escape(e.id) << "</code>";
  if (!e.layer.empty() && e.layer != "bundled") out << " (from " << escape(e.layer) << ")";
  out << "</dd>\n</dl>\n";
  return out.str();
}

std::string examples(const Entry& e) {
  if (e.examples.empty()) return "";
  std::string out = "<section>\n<h2>Example messages</h2>\n";
  for (const Example& x : e.examples) {
    out += "<figure class=\"example\"><pre><code>" + escape(x.text) + "</code></pre>";
    if (const std::string url = external_url(x.source); !url.empty())
      out += "<figcaption>Seen in <a href=\"" + escape(url) + "\">" + escape(url) +
             "</a></figcaption>";
    else if (x.source.empty())
      out += "<figcaption>Assembled from the documented wording, not copied from a public "
             "log</figcaption>";
    out += "</figure>\n";
  }
  return out + "</section>\n";
}

std::string sources(const Entry& e) {
  if (e.sources.empty()) return "";
  std::string out = "<section>\n<h2>Sources</h2>\n<ul class=\"sources\">\n";
  for (const Source& s : e.sources) {
    const std::string url = external_url(s.url);
    const std::string title = escape(s.title.empty() ? s.url : s.title);
    out += url.empty() ? "<li>" + title + "</li>\n"
                       : "<li><a href=\"" + escape(url) + "\">" + title + "</a></li>\n";
  }
  return out + "</ul>\n</section>\n";
}

std::string signatures(const Entry& e) {
  if (e.signatures.empty()) return "";
  std::string out =
      "<details class=\"signatures\"><summary>Message shapes matched</summary>\n<ul>\n";
  for (const std::string& s : e.signatures) out += "<li><code>" + escape(s) + "</code></li>\n";
  return out + "</ul>\n</details>\n";
}

Page entry_page(const Entry& e, const Catalogue& c, const Links& links) {
  Page page{entry_path(e.id), e.title, "", true, ""};
  std::string& b = page.body;
  // First actions first: on a phone they are what fits on the first screen.
  b += first_actions(e);
  b += facts(e, c, page.path);
  // body_html was rendered by cmark at index time in its safe mode: raw HTML and
  // javascript: links were dropped there, so it goes in as it is.
  b +=
      "<section class=\"explanation\" aria-label=\"Explanation\">\n" + e.body_html + "</section>\n";
  b += examples(e);
  b += signatures(e);
  std::vector<std::string> related_errors, related_other;
  for (const std::string& id : e.related) {
    auto it = links.by_id.find(id);
    (it != links.by_id.end() && it->second->kind == Kind::kEnv ? related_other : related_errors)
        .push_back(id);
  }
  b += link_list("Related entries", related_errors, links, page.path);
  b += link_list("Related variables", related_other, links, page.path);
  if (auto it = c.referenced_by.find(e.id); it != c.referenced_by.end())
    b += link_list("Referenced by", it->second, links, page.path);
  b += sources(e);
  return page;
}

// A table of entries: title (linked), id and codes.
std::string entry_table(const std::vector<const Entry*>& entries, const std::string& from) {
  std::string out =
      "<table>\n<thead><tr><th scope=\"col\">Entry</th><th scope=\"col\">Codes</th>"
      "</tr></thead>\n<tbody>\n";
  for (const Entry* e : entries) {
    out += "<tr><td><a href=\"" + root_of(from) + url_path(entry_path(e->id)) + "\">" +
           escape(e->title) + "</a></td><td>";
    for (size_t i = 0; i < e->codes.size(); ++i)
      out += (i ? " " : "") + std::string("<code>") + escape(e->codes[i]) + "</code>";
    out += "</td></tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

using Groups = std::map<std::string, std::vector<const Entry*>>;

Groups errors_by(const Catalogue& c, bool by_family) {
  Groups out;
  for (const Entry& e : c.entries) {
    if (e.kind != Kind::kError) continue;
    auto f = c.families.find(e.id);
    out[by_family ? (f == c.families.end() ? "other" : f->second) : e.category].push_back(&e);
  }
  return out;
}

// The page listing groups (categories or families), and one page per group.
void group_pages(const Groups& groups, bool families, std::vector<File>& pages,
                 const Footer& footer) {
  const std::string list_path = families ? "families.html" : "categories.html";
  Page list{list_path, families ? "Error families" : "Error categories", "", true, ""};
  list.body = families ? "<p>Errors grouped by the table their codes come from (CUDA runtime and "
                         "driver, Xid, NCCL, each math library); errors whose codes belong to "
                         "none are grouped by category.</p>\n"
                       : "<p>Errors grouped by where the fault usually lies.</p>\n";
  list.body += "<ul class=\"groups\">\n";
  for (const auto& [name, entries] : groups) {
    const std::string path = families ? family_path(name) : category_path(name);
    const std::string label = families ? family_label(name) : name;
    list.body += "<li><a href=\"" + url_path(path) + "\">" + escape(label) +
                 "</a> <span class=\"count\">" + std::to_string(entries.size()) + "</span></li>\n";
    Page group{path, (families ? "Family: " : "Category: ") + label, "", true, ""};
    group.body =
        "<p>" + std::to_string(entries.size()) + " entries.</p>\n" + entry_table(entries, path);
    pages.push_back({path, render(group, footer)});
  }
  list.body += "</ul>\n";
  pages.push_back({list_path, render(list, footer)});
}

Page env_page(const Catalogue& c) {
  Page page{"env.html", "Environment variables", "", true, ""};
  page.body =
      "<p>Variables that change how CUDA, NCCL and the frameworks behave, and that the "
      "error entries point to.</p>\n<table>\n<thead><tr><th scope=\"col\">Variable</th>"
      "<th scope=\"col\">Values</th><th scope=\"col\">Default</th></tr></thead>\n<tbody>\n";
  for (const Entry& e : c.entries)
    if (e.kind == Kind::kEnv)
      page.body += "<tr><td><a href=\"" + url_path(entry_path(e.id)) + "\"><code>" +
                   escape(e.env_name.empty() ? e.title : e.env_name) + "</code></a></td><td>" +
                   inline_html(e.env_values) + "</td><td>" + inline_html(e.env_default) +
                   "</td></tr>\n";
  page.body += "</tbody>\n</table>\n";
  return page;
}

Page faq_page(const Catalogue& c) {
  Page page{"faq.html", "Questions", "", true, ""};
  page.body = "<ul class=\"links\">\n";
  for (const Entry& e : c.entries)
    if (e.kind == Kind::kFaq)
      page.body +=
          "<li><a href=\"" + url_path(entry_path(e.id)) + "\">" + escape(e.title) + "</a></li>\n";
  page.body += "</ul>\n";
  return page;
}

Page home_page(const Catalogue& c, const Groups& categories) {
  Page page{"index.html", "GPU and CUDA error catalogue", "", false, "search-index.js search.js"};
  int counts[3] = {0, 0, 0};
  for (const Entry& e : c.entries) ++counts[static_cast<int>(e.kind)];
  std::string& b = page.body;
  b += "<section class=\"search\" aria-labelledby=\"search-h\">\n"
       "<h2 id=\"search-h\">Find the entry for an error</h2>\n"
       "<form id=\"search-form\" role=\"search\" action=\"index.html\" method=\"get\">\n"
       "<label for=\"q\">Paste an error message or the end of a log</label>\n"
       "<textarea id=\"q\" name=\"q\" rows=\"4\" spellcheck=\"false\" autocomplete=\"off\" "
       "placeholder=\"RuntimeError: CUDA error: an illegal memory access was encountered\">"
       "</textarea>\n<button type=\"submit\">Search</button>\n</form>\n"
       "<noscript><p>Search needs JavaScript; the lists below work without it.</p></noscript>\n"
       "<p id=\"search-status\" class=\"status\" role=\"status\"></p>\n"
       "<ol id=\"results\" class=\"results\"></ol>\n"
       "<div id=\"see-also\" hidden>\n<h3>Questions and variables about these words</h3>\n"
       "<ul id=\"see-also-list\" class=\"links\"></ul>\n</div>\n</section>\n";
  b += "<section aria-labelledby=\"browse-h\">\n<h2 id=\"browse-h\">Browse</h2>\n<p>" +
       std::to_string(counts[0]) + " errors, " + std::to_string(counts[1]) +
       " environment variables and " + std::to_string(counts[2]) +
       " questions. Every page works offline, from a USB stick or any static web server.</p>\n"
       "<ul class=\"groups\">\n";
  for (const auto& [name, entries] : categories)
    b += "<li><a href=\"" + url_path(category_path(name)) + "\">" + escape(name) +
         "</a> <span class=\"count\">" + std::to_string(entries.size()) + "</span></li>\n";
  b += "</ul>\n<p><a href=\"families.html\">Errors by family</a> · <a href=\"env.html\">"
       "Environment variables</a> · <a href=\"faq.html\">Questions</a></p>\n</section>\n";
  return page;
}

}  // namespace

std::vector<File> html_pages(const Catalogue& c) {
  const Links links(c);
  const Groups categories = errors_by(c, false);
  std::vector<File> pages;
  pages.push_back({"index.html", render(home_page(c, categories), c.footer)});
  group_pages(categories, false, pages, c.footer);
  group_pages(errors_by(c, true), true, pages, c.footer);
  pages.push_back({"env.html", render(env_page(c), c.footer)});
  pages.push_back({"faq.html", render(faq_page(c), c.footer)});
  for (const Entry& e : c.entries) {
    const Page page = entry_page(e, c, links);
    pages.push_back({page.path, render(page, c.footer)});
  }
  return pages;
}

std::string sitemap(const std::vector<File>& pages, const std::string& base_url) {
  std::string base = base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const File& f : pages)
    out += "<url><loc>" + escape(base.empty() ? url_path(f.path) : base + "/" + url_path(f.path)) +
           "</loc></url>\n";
  return out + "</urlset>\n";
}

}  // namespace gpuerr::site
