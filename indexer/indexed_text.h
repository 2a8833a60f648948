// The text of an entry that the full-text index holds, field by field with its weight: one list
// shared by the indexer (Xapian) and the site's search index, so the two weigh words alike.
#pragma once

#include <functional>
#include <string>

#include "indexer/entry.h"

namespace gpuerr {

/// The words of a signature without its placeholders ("CUDA error: {*}" gives "CUDA error: ");
/// a raw pattern ("re:...") gives none.
std::string signature_words(const std::string& signature);

/// Calls `field(text, weight)` for each field of `e` the full-text index holds, in order:
/// title, variable name, signatures' words, codes that are names, examples, body.
void for_each_indexed_field(const Entry& e,
                            const std::function<void(const std::string&, unsigned)>& field);

}  // namespace gpuerr
