// Fuzzes input cleaning and lookup over the bundled catalogue: any bytes, any length, must give
// a ranked answer (possibly empty) with confidences in [0, 1], never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "indexer/index_writer.h"
#include "indexer/lint.h"
#include "query/clean.h"
#include "query/identifiers.h"
#include "query/lookup.h"

namespace {

const gpuerr::query::Store& store() {
  static const gpuerr::query::Store s = [] {
    char dir[] = "/tmp/gpuerr-fuzz-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    const auto catalogue = gpuerr::indexer::read_catalogue({GPUERR_SOURCE_DIR "/kb"});
    const std::string index = std::string(dir) + "/index";
    gpuerr::indexer::write_index(catalogue.entries, index, catalogue.documented);
    return gpuerr::query::Store(index);
  }();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuerr::query;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)search_text(text);
  (void)code_keys(text);
  for (const Match& m : lookup(store(), text))
    if (m.confidence < 0 || m.confidence > 1) std::abort();
  return 0;
}
