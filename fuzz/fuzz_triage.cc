// Fuzzes the log-line parser and triage: any bytes, split into lines, must give a report whose
// first fault (if any) is one of the lines read (or a hung rank with no line), never a crash or
// an exception, and the same report read line by line as in one block.
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
  // A first fault is a line read, or a hung rank whose log is not in the input (no file, no line).
  if (r.first_fault) {
    const LogEvent& f = *r.first_fault;
    const bool unseen_hang = f.role == "hang" && f.file.empty() && f.line == 0;
    if (!unseen_hang && (f.line == 0 || f.line > line)) std::abort();
  }
  if (r.lines != line) std::abort();
  // The same text in one block (as the command reads a log) must read the same.
  Triage whole(gpuerr::fuzz::bundled_store());
  whole.add_lines("fuzz.log", 1, text);
  const TriageReport b = whole.report();
  if (b.lines != r.lines || b.bytes != r.bytes) std::abort();
  if (b.first_fault.has_value() != r.first_fault.has_value()) std::abort();
  if (b.first_fault && b.first_fault->line != r.first_fault->line) std::abort();
  return 0;
}
