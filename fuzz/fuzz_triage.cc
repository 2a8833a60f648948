// Fuzzes the log-line parser and triage: any bytes, split into lines, must give a report whose
// first fault (if any) is one of the lines read, never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/bundled_store.h"
#include "query/log_line.h"
#include "query/redact.h"
#include "query/triage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuerr::query;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Triage triage(gpuerr::fuzz::bundled_store());
  Redactor redactor;
  size_t line = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view one = text.substr(start, end - start);
    (void)parse_line(one, 2024);
    (void)redactor.redact(one);
    triage.add_line("fuzz.log", ++line, one);
    start = end + 1;
  }
  const TriageReport r = triage.report();
  if (r.first_fault && (r.first_fault->line == 0 || r.first_fault->line > line)) std::abort();
  if (r.lines != line) std::abort();
  return 0;
}
