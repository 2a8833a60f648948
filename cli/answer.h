// What the printers receive: a lookup match together with the entry it names.
#pragma once

#include <vector>

#include "indexer/entry.h"
#include "query/lookup.h"

namespace gpuerr::cli {

struct Answer {
  query::Match match;
  Entry entry;
};

}  // namespace gpuerr::cli
