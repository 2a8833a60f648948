#include "query/clean.h"

#include <re2/re2.h>

#include "query/lazy_patterns.h"

namespace gpuerr::query {
namespace {

// Patterns for the parts of a line that vary; each is replaced by a space. Order matters:
// timestamps before numbers, paths before words.
const LazyPatterns& noise_patterns() {
  // Built once and never destroyed, like every pattern table here (no exit-time teardown).
  static const auto& patterns = *new LazyPatterns({
      // Generic wrappers around the specific error line. Their words are in every paste, so in
      // the full-text layer they would pull towards whichever entry quotes them in an example.
      // Python tracebacks (the header, each frame and its source line), C++ frames and
      // std::terminate, and PyTorch's asynchronous-error trailer.
      {"Traceback (most recent call last):|File \"", R"((?m)Traceback \(most recent call last\):|^[ \t]*File "[^"\n]*", line \d+[^\n]*(?:\n[ \t]{4,}[^\n]*)?)"},
      {"Exception raised from|frame #|terminate called after|what():", R"((?m)^[^\n]*\bException raised from\b[^\n]*|^\s*frame #\d+:[^\n]*|\bterminate called after throwing an instance of '[^'\n]*'|\bwhat\(\):)"},
      {"asynchronously reported", R"(CUDA kernel errors might be asynchronously reported at some other API call,?\s*so the stacktrace below might be incorrect\.?)"},
      {"CUDA_LAUNCH_BLOCKING=1|TORCH_USE_CUDA_DSA", R"(For debugging consider passing CUDA_LAUNCH_BLOCKING=1\.?|Compile with .TORCH_USE_CUDA_DSA. to enable device-side assertions\.?)"},
      // ISO 8601 and Python logging timestamps: 2024-05-01T12:00:00.123Z, 2024-05-01 12:00:00,123
      {"-", R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)", true},
      // syslog: "May  1 12:00:00 host ", and kernel uptime "[  123.456789]"
      {"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec", R"((?m)^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+ \d\d:\d\d:\d\d \S+ )", true},
      {"[", R"(\[\s*\d+\.\d+\])", true},
      // rank prefixes: torchrun "[rank3]:", "[default0]:", srun -l "12: "
      {"[|: ", R"((?m)\[(?:rank|default)?\d+\]:?|^\s*\d+: )", true},
      // UUIDs, hexadecimal addresses and PCI addresses ("0000:3b:00.0"; a domain without a
      // decimal digit does not occur in practice)
      {"-", R"((?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)"},
      {"0x|0X", R"((?i)\b0x[0-9a-f]+\b)"},
      {":", R"((?i)\b[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]\b)", true},
      // paths with at least two components
      {"/", R"((?:[\w.~-]*/[\w.+@-]+){2,}/?)"},
      // numbers, with a decimal part
      {"", R"(\b\d+(?:\.\d+)?\b)", true},
  });
  return patterns;
}

}  // namespace

std::string strip_terminal(std::string_view text) {
  std::string s(text);
  if (s.find('\x1b') != std::string::npos) {  // compiled only for a text with escapes
    static const RE2 ansi(R"(\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_])");
    RE2::GlobalReplace(&s, ansi, "");
  }
  std::string out;
  out.reserve(s.size());
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::string_view line(s.data() + start, end - start);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF
    const size_t cr = line.rfind('\r');
    if (cr != std::string_view::npos) line.remove_prefix(cr + 1);
    for (char c : line) out += c == '\0' ? ' ' : c;
    if (end == s.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string unwrap_long_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.append(text.substr(start, end - start));
    if (end < text.size() && end - start < kWrappedWidth) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string search_text(std::string_view text) {
  std::string s = strip_terminal(text);
  const LazyPatterns& noise = noise_patterns();
  for (size_t i = 0; i < noise.size(); ++i)
    if (noise.may_match(i, s)) RE2::GlobalReplace(&s, noise[i], " ");
  return s;
}

}  // namespace gpuerr::query
