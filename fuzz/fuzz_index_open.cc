// Fuzzes opening a damaged index: the input replaces kb.sqlite next to a valid xapian/, cut or
// padded with zeros to the size the index recorded for it (a file of another size is refused at
// open, before SQLite reads it). Opening and reading must either work or throw gpuerr::Error,
// never crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "indexer/error.h"
#include "indexer/index_writer.h"
#include "indexer/lint.h"
#include "query/lookup.h"

namespace {

namespace fs = std::filesystem;

// A small valid index to damage: the seed entries only, so each run copies little.
const fs::path& pristine() {
  static const fs::path dir = [] {
    char tmp[] = "/tmp/gpuerr-fuzz-XXXXXX";
    if (!mkdtemp(tmp)) std::abort();
    const auto catalogue = gpuerr::indexer::read_catalogue({GPUERR_SOURCE_DIR "/kb"});
    std::vector<gpuerr::Entry> few(catalogue.entries.begin(), catalogue.entries.begin() + 20);
    for (gpuerr::Entry& e : few) e.related.clear();
    gpuerr::indexer::write_index(few, std::string(tmp) + "/index");
    return fs::path(tmp) / "index";
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path work = pristine().parent_path() / "damaged";
  static bool copied = false;
  if (!copied) {
    fs::copy(pristine(), work, fs::copy_options::recursive);
    copied = true;
  }
  static const uintmax_t records_size = fs::file_size(pristine() / "kb.sqlite");
  {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    bytes.resize(records_size, '\0');
    std::ofstream out(work / "kb.sqlite", std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  try {
    const gpuerr::query::Store store(work.string());
    (void)store.info();
    (void)store.entries();
    (void)store.documented_codes();
    (void)gpuerr::query::lookup(store, "CUDA error: an illegal memory access was encountered");
  } catch (const gpuerr::Error&) {
    // a clear error is the right outcome for a damaged index
  }
  return 0;
}
