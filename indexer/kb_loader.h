// Reads kb/ directories into entries: splits front matter from body, checks each file on its
// own (fields, types, values) and renders the body. Cross-entry checks live in lint.h; writing
// the index lives in index_writer.h.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/entry.h"

namespace gpuerr::indexer {

/// An entry as read from its file, with the file line of each field so that the lint can point
/// at the line that is wrong.
struct ParsedEntry {
  Entry entry;
  std::map<std::string, int> field_lines;  // "id" -> 2; 0 when the field is absent
  std::vector<int> signature_lines;        // one per entry.signatures
  std::vector<int> example_lines;          // one per entry.examples
  std::vector<int> related_lines;          // one per entry.related
};

/// The entries read from kb/ directories and every problem found in them on the way.
struct KbContent {
  std::vector<ParsedEntry> entries;  // files with problems are still here, as far as they parsed
  std::vector<DocumentedCode> documented;  // from coverage/*.tsv
  std::vector<Diagnostic> problems;
};

/// Parses one kb file given its text. `file` names it in diagnostics and its stem is the id the
/// front matter must declare. Problems go to `problems`; the entry comes back as far as it
/// could be read (its id empty when the front matter could not be parsed at all).
ParsedEntry parse_entry(const std::string& file, Kind kind, std::string_view text,
                        std::vector<Diagnostic>& problems);

/// Parses one coverage file (`code<TAB>name` lines, `#` comments); the family is the file's
/// stem. A line without a tab is a problem.
std::vector<DocumentedCode> parse_coverage(const std::string& file, std::string_view text,
                                           std::vector<Diagnostic>& problems);

/// Reads every `*.md` under `dir`/errors, `dir`/env and `dir`/faq, in name order, and tags each
/// entry with `layer`; and every `dir`/coverage/*.tsv. A directory with none of those folders is a problem, not an exception.
/// Throws gpuerr::Error only when a file cannot be read.
KbContent load_kb(const std::string& dir, const std::string& layer);

/// The name of the layer `dir` holds: the first line of `dir`/layer when that file exists
/// ("bundled" for the catalogue gpuerr ships), else the directory's own name. A name that is
/// empty or not of a-z, 0-9, '.', '_', '-' is a problem, reported and replaced by the folder name.
std::string layer_name(const std::string& dir, std::vector<Diagnostic>& problems);

}  // namespace gpuerr::indexer
