// Fuzzes the kb loader: any bytes as a kb file must give an entry or diagnostics, never a crash,
// and every signature it yields must be checkable.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "indexer/kb_loader.h"
#include "indexer/signature.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuerr;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Diagnostic> problems;
  const indexer::ParsedEntry p = indexer::parse_entry("kb/errors/fuzz.md", Kind::kError, text, problems);
  for (const std::string& s : p.entry.signatures) {
    if (!signature_problem(s).empty()) continue;
    (void)SignatureSet({s}).match(text);
  }
  indexer::parse_coverage("kb/coverage/fuzz.tsv", text, problems);
  return 0;
}
