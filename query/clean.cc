#include "query/clean.h"

#include <cstdio>
#include <ctime>
#include <vector>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include "query/lazy_patterns.h"
#include "query/log_line.h"

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
      // Build tools' wrappers around a compiler's own error line: gcc's "compilation
      // terminated.", make's "*** [target] Error 2", ninja's stop, CMake's "CMake Error at
      // file:line (message):" heading and gcc's "In file included from".
      {"compilation terminated|make|ninja: build stopped|CMake Error at|In file included from", R"((?m)^[ \t]*compilation terminated\.|^[^\n]*\bmake(?:\[\d+\])?: \*\*\*[^\n]*|^[ \t]*ninja: build stopped[^\n]*|^[ \t]*CMake Error at [^\n]*\(message\):|^[ \t]*In file included from[^\n]*)"},
      // Kubernetes' container log files: "2024-05-01T12:00:00.123456789Z stderr F "
      {"stdout|stderr", R"((?m)^\d{4}-\d\d-\d\dT\S+ (?:stdout|stderr) [FP] )", true},
      // ISO 8601 and Python logging timestamps: 2024-05-01T12:00:00.123Z, 2024-05-01 12:00:00,123
      {"-", R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)", true},
      // syslog and journalctl: "May  1 12:00:00 host ", with the program's "python3[1234]: ",
      // and kernel uptime "[  123.456789]"
      {"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec", R"((?m)^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+ \d\d:\d\d:\d\d \S+ (?:[\w.-]+\[\d+\]: )?)", true},
      {"[", R"(\[\s*\d+\.\d+\])", true},
      // rank prefixes: torchrun "[rank3]:", "[default0]:", srun -l "12: "
      {"[|: ", R"((?m)\[(?:rank|default)?\d+\]:?|^\s*\d+: )", true},
      // launcher and logger prefixes, each word of which every line would repeat: mpirun
      // --tag-output "[1,3]<stderr>:", kubectl logs --prefix "[pod/trainer-0/pytorch] ", Ray
      // "(RayWorkerWrapper pid=14390, ip=10.0.0.7)", glog and c10 "E1203 10:11:12.123456 12345
      // worker.cc:42] ", docker compose's "trainer-1  | " (v1: "job_trainer_1  | "; a guard
      // cannot hold '|', so its guards are the first three replicas' numbers).
      {"]<std", R"(\[\d+,\d+\]<std(?:out|err|diag)>:)", true},
      {"[pod/", R"(\[pod/[^\]\s]*\])"},
      {"pid=", R"(\((?:\w+ )?pid=\d+(?:, ip=[\d.]+)?\))", true},
      {"] ", R"((?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] )", true},
      {"-1 |_1 |-2 |_2 |-3 |_3 ", R"((?m)^[\w.-]+[-_]\d+ +\| )", true},
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

// What editors, chat clients and web pages put in place of plain ASCII when a message is copied
// through them, as UTF-8, with the ASCII the program printed. Catalogue signatures are ASCII.
struct Fold {
  std::string_view from, to;
};
constexpr Fold kTypography[] = {
    {"\xc2\xa0", " "},        // no-break space
    {"\xe2\x80\x80", " "},    // U+2000 to U+200A: en quad to hair space
    {"\xe2\x80\x81", " "},
    {"\xe2\x80\x82", " "},
    {"\xe2\x80\x83", " "},
    {"\xe2\x80\x84", " "},
    {"\xe2\x80\x85", " "},
    {"\xe2\x80\x86", " "},
    {"\xe2\x80\x87", " "},
    {"\xe2\x80\x88", " "},
    {"\xe2\x80\x89", " "},
    {"\xe2\x80\x8a", " "},
    {"\xe2\x80\xaf", " "},    // narrow no-break space
    {"\xe2\x81\x9f", " "},    // medium mathematical space
    {"\xe3\x80\x80", " "},    // ideographic space
    {"\xe2\x80\x8b", ""},     // zero-width space
    {"\xe2\x81\xa0", ""},     // word joiner
    {"\xef\xbb\xbf", ""},     // byte-order mark
    {"\xe2\x80\x90", "-"},    // hyphen
    {"\xe2\x80\x91", "-"},    // non-breaking hyphen
    {"\xe2\x80\x92", "-"},    // figure dash
    {"\xe2\x80\x93", "-"},    // en dash
    {"\xe2\x80\x94", "-"},    // em dash
    {"\xe2\x88\x92", "-"},    // minus sign
    {"\xe2\x80\x98", "'"},    // left single quote
    {"\xe2\x80\x99", "'"},    // right single quote, apostrophe
    {"\xe2\x80\x9a", "'"},    // low single quote
    {"\xe2\x80\x9b", "'"},    // reversed single quote
    {"\xe2\x80\xb2", "'"},    // prime
    {"\xe2\x80\x9c", "\""},   // left double quote
    {"\xe2\x80\x9d", "\""},   // right double quote
    {"\xe2\x80\x9e", "\""},   // low double quote
    {"\xe2\x80\x9f", "\""},   // reversed double quote
    {"\xe2\x80\xb3", "\""},   // double prime
    {"\xe2\x80\xa6", "..."},  // ellipsis
    // HTML's character references, as a page's source, an XML test report (JUnit) or a web
    // tool that escaped the text leaves them
    {"&quot;", "\""},
    {"&#34;", "\""},
    {"&#x22;", "\""},
    {"&apos;", "'"},
    {"&#39;", "'"},
    {"&#x27;", "'"},
    {"&lt;", "<"},
    {"&#60;", "<"},
    {"&gt;", ">"},
    {"&#62;", ">"},
    {"&amp;", "&"},
    {"&#38;", "&"},
    {"&nbsp;", " "},
};

// `s` with every sequence of kTypography replaced by its ASCII form (in one pass: "&amp;lt;"
// becomes "&lt;").
std::string fold_typography(std::string s) {
  // Every sequence starts with one of these bytes; most texts hold none.
  if (s.find_first_of("\xc2\xe2\xe3\xef&") == std::string::npos) return s;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const std::string_view rest = std::string_view(s).substr(i);
    const Fold* fold = nullptr;
    if (static_cast<unsigned char>(s[i]) >= 0xc2 || s[i] == '&')
      for (const Fold& f : kTypography)
        if (rest.starts_with(f.from)) fold = &f;
    out += fold ? fold->to : rest.substr(0, 1);
    i += fold ? fold->from.size() : 1;
  }
  return out;
}

// The strings inside `value` (an object's fields, an array's items, nested), in order, each
// followed by a line break. Nesting deeper than a log record's is not read (a paste of a
// thousand nested arrays must not exhaust the stack).
void append_strings(const nlohmann::ordered_json& value, std::string& out, int depth = 0) {
  constexpr int kMaxDepth = 8;
  if (value.is_string()) {
    out += value.get_ref<const std::string&>();
    out += '\n';
  } else if (value.is_structured() && depth < kMaxDepth) {
    for (const nlohmann::ordered_json& item : value) append_strings(item, out, depth + 1);
  }
}

// A record of journald's JSON export (`journalctl -o json`) as `journalctl -o short-iso` prints
// it: "2024-03-05T10:12:01.123456Z node7 kernel[0]: MESSAGE", dated and placed, instead of its
// thirty-odd fields (boot and machine ids among them), one per line. nullopt for other records.
std::optional<std::string> journal_line(const nlohmann::ordered_json& record) {
  auto field = [&](const char* key) -> std::string {
    const auto it = record.find(key);
    return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string message = field("MESSAGE"), stamp = field("__REALTIME_TIMESTAMP");
  if (message.empty() || stamp.empty() || stamp.size() > 18 ||
      stamp.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const long long micros = std::stoll(stamp);
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  if (!gmtime_r(&seconds, &utc)) return std::nullopt;
  char time[64];
  std::snprintf(time, sizeof time, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                micros % 1000000);
  std::string host = field("_HOSTNAME"), program = field("SYSLOG_IDENTIFIER");
  if (host.empty()) host = "localhost";
  if (program.empty()) program = field("_COMM");
  if (program.empty()) program = "journal";
  const std::string pid = field("_PID");
  return std::string(time) + " " + host + " " + program + (pid.empty() ? "" : "[" + pid + "]") +
         ": " + message;
}

// Every line of `text`, a record replaced by its strings (json_record_strings).
std::string unpack_json_records(std::string_view text) {
  if (text.find('{') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (true) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (std::optional<std::string> strings = json_record_strings(line)) out += *strings;
    else out += line;
    if (end == text.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> json_record_strings(std::string_view line) {
  const size_t open = line.find_first_not_of(" \t");
  const size_t close = line.find_last_not_of(" \t\r");
  if (open == std::string_view::npos || line[open] != '{' || line[close] != '}') return {};
  const nlohmann::ordered_json record =
      nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) return {};
  if (std::optional<std::string> journal = journal_line(record)) return journal;
  std::string strings;
  append_strings(record, strings);
  if (strings.empty()) return {};
  strings.pop_back();  // the last one's line break
  return strings;
}

std::string as_printed(std::string_view text) {
  std::string s = fold_typography(unpack_json_records(text));
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

std::string unwrap_long_lines(std::string_view text, std::string_view glue) {
  // A line's first word, up to the first blank: the launcher's prefix ("3:", "[rank0]:", a
  // container's name) when every line carries one. A wrapped line's continuation does not repeat
  // it, so a next line that starts with the same word is a line of its own.
  const auto first_word = [](std::string_view line) {
    return line.substr(0, line.find_first_of(" \t"));
  };
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    out.append(line);
    if (end < text.size()) {
      const std::string_view next = text.substr(end + 1, text.find('\n', end + 1) - end - 1);
      const std::string_view prefix = first_word(line);
      // Wrapped at a word's end, a line may be shorter: the next word did not fit after it.
      const bool wrapped = line.size() >= kWrappedWidth ||
                           (!glue.empty() && line.size() + 1 + first_word(next).size() > kWordWrapWidth);
      if (!wrapped || (!prefix.empty() && first_word(next) == prefix))
        out += '\n';
      else if (!line.ends_with(' ') && !next.starts_with(' '))
        out += glue;
    }
    start = end + 1;
  }
  return out;
}

std::string unwrap_table_cells(std::string_view text, bool glue) {
  const auto trimmed = [](std::string_view s) {
    const size_t from = s.find_first_not_of(" \t");
    if (from == std::string_view::npos) return std::string_view();
    return s.substr(from, s.find_last_not_of(" \t\r") - from + 1);
  };
  // A row's cells, or none when the line is not a table row ("| a | b |": three bars or more).
  const auto cells_of = [&](std::string_view line) {
    std::vector<std::string_view> cells;
    line = trimmed(line);
    if (line.size() < 2 || line.front() != '|' || line.back() != '|') return cells;
    for (size_t from = 1, bar; (bar = line.find('|', from)) != std::string_view::npos;
         from = bar + 1)
      cells.push_back(trimmed(line.substr(from, bar - from)));
    if (cells.size() < 2) cells.clear();
    return cells;
  };
  std::string out;
  std::vector<std::string> row;  // the logical row being joined
  bool table = false;
  const auto flush = [&] {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? " | " : "") + row[i];
    if (!row.empty()) out += '\n';
    row.clear();
  };
  for_each_line(text, [&](std::string_view line) {
    const std::vector<std::string_view> cells = cells_of(line);
    if (cells.empty()) {
      flush();
      out.append(line).push_back('\n');
      return;
    }
    table = true;
    if (!row.empty() && cells.size() == row.size() && cells[0].empty()) {  // a continuation
      for (size_t i = 0; i < cells.size(); ++i)
        if (!cells[i].empty())
          row[i] += (row[i].empty() || glue ? "" : " ") + std::string(cells[i]);
      return;
    }
    flush();
    for (std::string_view c : cells) row.emplace_back(c);
  });
  flush();
  return table ? out : std::string();
}

namespace {

// A log's lines at an informational level (logfmt's level=info, Python's and glog's INFO) are
// the context of a failure, not its report: a dcgm-exporter's start-up lines are
// in every one of its pastes, whatever the fatal line after them says. In a text that also holds
// a line at an error or warning level they are left out of the words; alone, they are all there
// is and stay. The level is read near the line's start, where loggers put it.
void drop_info_lines(std::string& s) {
  // (the patterns are compiled only for a text that may hold such a line: most lookups never)
  static const RE2 glog_info(R"((?m)^[ID]\d{4} )");
  if (s.find("INFO") == std::string::npos && s.find("DEBUG") == std::string::npos &&
      s.find("level=") == std::string::npos && !RE2::PartialMatch(s, glog_info))
    return;
  // (the level is looked for in a line's first kLevelWithin bytes: a counted repetition in the
  // pattern would cost more to compile than the whole lookup)
  constexpr size_t kLevelWithin = 80;
  static const RE2 info(
      R"(\blevel=(?:info|debug|trace)\b|\[(?:INFO|DEBUG)\]|\b(?:INFO|DEBUG)\b[:\] ]|)"
      R"(^[ID]\d{4} \d\d:\d\d)");
  static const RE2 error(
      R"(\blevel=(?:error|fatal|panic|warn|warning)\b|\[(?:ERROR|FATAL|CRITICAL|WARN|WARNING)\]|)"
      R"(\b(?:ERROR|FATAL|CRITICAL|WARN|WARNING)\b|^[EFW]\d{4} \d\d:\d\d)");
  auto at_level = [&](std::string_view line, const RE2& level) {
    return RE2::PartialMatch(line.substr(0, kLevelWithin), level);
  };
  std::vector<std::string_view> lines;
  bool errors = false;
  for_each_line(s, [&](std::string_view line) {
    lines.push_back(line);
    errors = errors || at_level(line, error);
  });
  if (!errors) return;
  // (NCCL's INFO trace is where NCCL tells what failed: "Call to connect returned Connection
  // refused", "bootstrap.cc:100 -> 2")
  auto context = [&](std::string_view line) {
    return at_level(line, info) && !at_level(line, error) &&
           line.find("NCCL INFO") == std::string_view::npos;
  };
  std::string kept;
  for (std::string_view line : lines)
    if (!context(line)) kept.append(line).push_back('\n');
  s = std::move(kept);
}

}  // namespace

std::string search_text(std::string_view text) {
  std::string s = as_printed(text);
  drop_info_lines(s);
  const LazyPatterns& noise = noise_patterns();
  for (size_t i = 0; i < noise.size(); ++i)
    if (noise.may_match(i, s)) RE2::GlobalReplace(&s, noise[i], " ");
  return s;
}

}  // namespace gpuerr::query
