// Fuzzes input cleaning and lookup over the bundled catalogue: any bytes, any length, must give
// a ranked answer (possibly empty) with confidences in [0, 1], never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/bundled_store.h"
#include "query/clean.h"
#include "query/identifiers.h"
#include "query/lookup.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuerr::query;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)search_text(text);
  (void)code_keys(text);
  for (const Match& m : lookup(gpuerr::fuzz::bundled_store(), text))
    if (m.confidence < 0 || m.confidence > 1) std::abort();
  return 0;
}
