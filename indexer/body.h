// Renders an entry's Markdown body to HTML with cmark, once, at index time. Raw HTML in the
// Markdown is never passed through (cmark's safe default).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "indexer/entry.h"

namespace gpuerr::indexer {

struct RenderedBody {
  std::string html;
  std::vector<Diagnostic> problems;  // e.g. a level-1 heading, at its line in the file
};

/// Pure: `first_line` is the file line the body starts on, so diagnostics point at real lines.
RenderedBody render_body(std::string_view file, int first_line, std::string_view markdown);

}  // namespace gpuerr::indexer
