#include "site/layout.h"

#include <algorithm>
#include <sstream>

#include "site/html.h"

namespace gpuerr::site {

std::string entry_path(std::string_view id) { return "e/" + std::string(id) + ".html"; }

std::string category_path(std::string_view category) {
  return "category/" + slug(category) + ".html";
}

std::string family_path(std::string_view family) { return "family/" + slug(family) + ".html"; }

std::string entry_url(std::string_view base_url, std::string_view id) {
  std::string base(base_url);
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/" + url_path(entry_path(id));
}

std::string root_of(std::string_view path) {
  std::string out;
  for (size_t n = std::count(path.begin(), path.end(), '/'); n > 0; --n) out += "../";
  return out;
}

namespace {

void header(std::ostream& out, const Page& page, const std::string& root) {
  out << "<header class=\"site\">\n<a class=\"brand\" href=\"" << root
      << "index.html\">gpuerr <span>GPU error catalogue</span></a>\n";
  if (page.search_box)
    out << "<form class=\"quick\" role=\"search\" action=\"" << root
        << "index.html\" method=\"get\">"
        << "<label for=\"site-q\">Search the catalogue</label> "
        << "<input id=\"site-q\" name=\"q\" type=\"search\" "
           "placeholder=\"Paste an error message\"> "
        << "<button type=\"submit\">Search</button></form>\n";
  out << "</header>\n<nav aria-label=\"Site\"><ul>";
  const std::pair<const char*, const char*> links[] = {{"index.html", "Home"},
                                                       {"categories.html", "Categories"},
                                                       {"families.html", "Families"},
                                                       {"env.html", "Environment variables"},
                                                       {"faq.html", "Questions"}};
  for (const auto& [href, text] : links) {
    out << "<li><a href=\"" << root << href << "\"";
    if (page.path == href) out << " aria-current=\"page\"";
    out << ">" << text << "</a></li>";
  }
  out << "</ul></nav>\n";
}

}  // namespace

std::string render(const Page& page, const Footer& footer) {
  const std::string root = root_of(page.path);
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"color-scheme\" content=\"light dark\">\n"
      << "<title>" << escape(page.title) << " · gpuerr</title>\n"
      << "<link rel=\"stylesheet\" href=\"" << root << "style.css\">\n</head>\n<body>\n"
      << "<a class=\"skip\" href=\"#main\">Skip to content</a>\n";
  header(out, page, root);
  out << "<main id=\"main\" tabindex=\"-1\">\n<h1>" << escape(page.title) << "</h1>\n"
      << page.body << "</main>\n"
      << "<footer class=\"site\"><p>Exported by gpuerr " << escape(footer.gpuerr_version)
      << " from an index of " << footer.entries << " entries built " << escape(footer.built_at)
      << ". Works offline; nothing here loads from the network.</p></footer>\n";
  std::istringstream scripts(page.scripts);
  for (std::string name; scripts >> name;)
    out << "<script src=\"" << root << name << "\"></script>\n";
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace gpuerr::site
