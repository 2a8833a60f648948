#include "indexer/body.h"

#include <cstdlib>
#include <memory>

#include <cmark.h>

namespace gpuerr::indexer {
namespace {
// cmark hands out C pointers; these free each one exactly once.
struct FreeNode {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
struct FreeText {
  void operator()(char* s) const { std::free(s); }
};
}  // namespace

RenderedBody render_body(std::string_view file, int first_line, std::string_view markdown) {
  RenderedBody out;
  std::unique_ptr<cmark_node, FreeNode> doc(
      cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT));
  for (cmark_node* n = cmark_node_first_child(doc.get()); n; n = cmark_node_next(n)) {
    if (cmark_node_get_type(n) == CMARK_NODE_HEADING && cmark_node_get_heading_level(n) == 1)
      out.problems.push_back({std::string(file), first_line + cmark_node_get_start_line(n) - 1,
                              "level-1 heading in the body; the title comes from front matter"});
  }
  std::unique_ptr<char, FreeText> html(cmark_render_html(doc.get(), CMARK_OPT_DEFAULT));
  out.html = html.get();
  return out;
}

}  // namespace gpuerr::indexer
