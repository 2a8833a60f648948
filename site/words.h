// The words the site's search counts: one definition for the C++ that writes the search index
// and for site/assets/search.js that reads it (tests/site checks they agree).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuerr::site {

/// The words of `text`, in order, lower-cased: runs of ASCII letters, digits and '_', as
/// Xapian's term generator splits them, less those that start with a digit (Xapian gives them
/// no stemmed term, and the engine searches stemmed terms only) and those longer than 64
/// characters. Other bytes, non-ASCII included, separate words. Words are not stemmed.
std::vector<std::string> search_words(std::string_view text);

/// Words dropped from a query (not from the index): the stop list of query/store.cc.
const std::vector<std::string>& stop_words();

}  // namespace gpuerr::site
