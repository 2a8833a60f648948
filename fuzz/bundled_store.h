// The bundled catalogue indexed once into a temporary directory, for the fuzz targets that
// query it.
#pragma once

#include <cstdlib>
#include <string>

#include "indexer/index_writer.h"
#include "indexer/lint.h"
#include "query/store.h"

namespace gpuerr::fuzz {

inline const query::Store& bundled_store() {
  static const query::Store s = [] {
    char dir[] = "/tmp/gpuerr-fuzz-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    const auto catalogue = indexer::read_catalogue({GPUERR_SOURCE_DIR "/kb"});
    const std::string index = std::string(dir) + "/index";
    indexer::write_index(catalogue.entries, index, catalogue.documented);
    return query::Store(index);
  }();
  return s;
}

}  // namespace gpuerr::fuzz
