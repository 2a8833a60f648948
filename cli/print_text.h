// Plain-text output for people at a terminal: the first action before anything else.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/answer.h"
#include "cli/terminal.h"

namespace gpuerr::cli {

/// Numbered confident answers, each with its first action and the `gpuerr show` line; or, when
/// there is none, "no confident match" and the closest candidates.
void print_lookup_text(std::ostream& out, const std::vector<Answer>& confident,
                       const std::vector<Answer>& closest, bool explain = false,
                       const Style& style = {});

/// One line per confident answer, tab-separated: id, confidence (0..1), title.
void print_lookup_brief(std::ostream& out, const std::vector<Answer>& confident);

/// The whole entry, as `gpuerr show` prints it, with the ids of the entries that link to it.
void print_entry_text(std::ostream& out, const Entry& entry,
                      const std::vector<std::string>& referenced_by = {}, const Style& style = {});

/// One line per entry: id, category or kind, title.
void print_entry_list_text(std::ostream& out, const std::vector<Entry>& entries);

}  // namespace gpuerr::cli
