#include "query/analyse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include <re2/re2.h>

#include "indexer/signature.h"
#include "query/lazy_patterns.h"

namespace gpuerr::query {
namespace {

// A size as the frameworks print it: "20.00 MiB", "1.20GiB", "17179869184 bytes", "4.00G".
constexpr const char* kSize = R"(([0-9]+(?:\.[0-9]+)?)\s*([KMGTP]i?B|[KMGTP]|bytes|B)\b)";

std::optional<double> parse_size(const std::string& number, const std::string& unit) {
  const double value = std::strtod(number.c_str(), nullptr);
  if (unit.empty()) return std::nullopt;
  static const std::string kPrefixes = "KMGTP";
  const size_t power = kPrefixes.find(unit[0]);
  if (power == std::string::npos) return value;  // bytes or B
  const bool binary = unit.size() > 1 && unit[1] == 'i';
  return value * std::pow(binary || unit.size() == 1 ? 1024.0 : 1000.0, double(power + 1));
}

// The sizes an out-of-memory report gives, each found by the words that label it: the first size
// after (or before) the label, in bytes. A label's pattern is compiled only for a report that
// holds its plain words (compiling all of them for every report cost a quarter of a lookup).
enum SizeLabel { kRequested, kTotal, kFree, kInUse, kAllocated, kAllocatedOf, kReservedTotal,
                 kUnallocated, kAllowed };

struct SizeLabelPattern {
  const char* needs;  // lower-case words the label cannot match without ('|': one of them)
  const char* label;  // RE2; its groups non-capturing
  bool size_first;    // the size comes before the label ("6.88 MiB is free")
};

// In SizeLabel's order.
constexpr SizeLabelPattern kSizeLabels[] = {
    {"allocat", R"((?i)(?:Tried to allocate|trying to allocate|allocating))", false},
    {"gpu ", R"((?:GPU \d+ has a total capacity of|GPU \d+ has a total capacty of|GPU \d+;))", false},
    {"free", R"((?:free\b|is free))", true},
    {"this process has", R"(this process has)", false},
    {"is allocated by pytorch|already allocated", R"((?:is allocated by PyTorch|already allocated))", true},
    {"of the allocated memory", R"(Of the allocated memory)", false},
    {"reserved in total by pytorch", R"(reserved in total by PyTorch)", true},
    {"is reserved by pytorch but unallocated", R"(is reserved by PyTorch but unallocated)", true},
    // the cap torch.cuda.set_per_process_memory_fraction put on this process ("1.40 GiB allowed;")
    {"allowed;", R"(allowed;)", true},
};

static_assert(std::size(kSizeLabels) == kAllowed + 1, "one pattern per SizeLabel");

const LazyPatterns& size_patterns() {
  static const auto& patterns = *new LazyPatterns([] {
    std::vector<GuardedPattern> table;
    for (const SizeLabelPattern& l : kSizeLabels)
      table.push_back({l.needs,
                       l.size_first ? std::string(kSize) + R"(\s*)" + l.label
                                    : std::string(l.label) + R"(\s*)" + kSize,
                       true});
    return table;
  }());
  return patterns;
}

// The size labelled `label` in `report`; `lower_report` is the report in lower case.
std::optional<double> labelled_size(std::string_view report, std::string_view lower_report,
                                    SizeLabel label) {
  const LazyPatterns& patterns = size_patterns();
  if (!patterns.may_match(label, lower_report)) return std::nullopt;
  std::string number, unit;
  if (!RE2::PartialMatch(report, patterns[label], &number, &unit)) return std::nullopt;
  return parse_size(number, unit);
}

// The line of `text` that holds position `at`.
std::string line_at(std::string_view text, size_t at) {
  size_t begin = text.rfind('\n', at);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  return std::string(text.substr(begin, end - begin));
}

// Where `lower_word` first occurs in `text`, ignoring case; npos if it does not.
size_t find_ignoring_case(std::string_view text, std::string_view lower_word) {
  auto same = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; };
  const auto at = std::search(text.begin(), text.end(), lower_word.begin(), lower_word.end(), same);
  return at == text.end() ? std::string_view::npos : static_cast<size_t>(at - text.begin());
}

// Reads the sizes of an out-of-memory report (PyTorch's old and new wording, XLA, TensorFlow)
// and tells fragmentation (enough memory is cached but not in one piece) from exhaustion.
std::optional<Analysis> analyse_memory(std::string_view text) {
  // The report starts at the first of these wordings (plain text: compiling a pattern for it
  // cost more than the rest of a lookup's analysis).
  static constexpr std::string_view kStarts[] = {
      "cuda out of memory", "out of memory while trying to allocate", "out of memory allocating",
      "oom when allocating", "ran out of memory trying to allocate"};
  size_t at = std::string_view::npos;
  for (std::string_view start : kStarts) at = std::min(at, find_ignoring_case(text, start));
  if (at == std::string_view::npos) return std::nullopt;
  const std::string line = line_at(text, at);
  // The report may be wrapped over a few lines; read from its start onwards.
  const std::string_view report = text.substr(at, 2000);
  Analysis a{"memory", line, {}, {}, {}, {}};
  const std::string lower = ascii_lower(report);
  const auto size = [&](SizeLabel label) { return labelled_size(report, lower, label); };
  const auto requested = size(kRequested);
  const auto total = size(kTotal);
  const auto free = size(kFree);
  const auto in_use = size(kInUse);
  auto allocated = size(kAllocated);
  if (!allocated) allocated = size(kAllocatedOf);
  const auto reserved_total = size(kReservedTotal);
  std::optional<double> unallocated = size(kUnallocated);
  const auto allowed = size(kAllowed);
  if (!unallocated && reserved_total && allocated) unallocated = *reserved_total - *allocated;
  auto add = [&](const char* name, const std::optional<double>& bytes) {
    if (bytes) a.figures.emplace_back(name, human_size(*bytes));
  };
  add("requested", requested);
  add("total", total);
  add("free", free);
  add("process in use", in_use);
  add("allocated", allocated);
  add("reserved but unallocated", unallocated);
  add("allowed", allowed);
  if (requested && total && *requested > *total)
    a.finding = "a request larger than the GPU",
    a.action = "check the shape and dtype of the tensor the traceback points at: one allocation "
               "larger than the whole GPU never fits, whatever the allocator's settings (look for "
               "a length, vocabulary or batch size read from the wrong field, an unintended "
               "broadcast or outer product); if it is meant to be that large, split or shard it "
               "across GPUs",
    a.verdict = "one request of " + human_size(*requested) + " is larger than the GPU's total " +
                human_size(*total) + "; look at the shape of the tensor being allocated";
  else if (requested && allowed && total && *allowed < *total &&
           *requested + allocated.value_or(0) > *allowed)
    a.finding = "the process's memory limit",
    a.action = "this process may use only " + human_size(*allowed) + " of the GPU "
               "(torch.cuda.set_per_process_memory_fraction, or per_process_memory_fraction in "
               "PYTORCH_CUDA_ALLOC_CONF): raise or remove that limit if the GPU is not shared, "
               "else reduce the memory the job needs",
    a.verdict = "the process's memory limit: " + human_size(*allowed) + " allowed, and the " +
                human_size(*requested) + " requested does not fit in it; the GPU itself has " +
                (free ? human_size(*free) + " free" : "more");
  else if (requested && unallocated && *unallocated >= *requested)
    a.finding = "fragmentation",
    a.action = "relaunch with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
    a.verdict = "fragmentation: " + human_size(*unallocated) + " is reserved but unallocated, more "
                "than the " + human_size(*requested) + " requested; try "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True";
  else if (total && in_use && free && *total - *in_use - *free > 0.25 * *total)
    a.finding = "another process",
    a.action = "find the other processes on that GPU with nvidia-smi (a stale run, another job) "
               "and stop them or move the job",
    a.verdict = "another process: " + human_size(*total - *in_use - *free) + " of the " +
                human_size(*total) + " is held outside this process; look at nvidia-smi";
  else if (requested && unallocated)
    a.finding = "exhaustion",
    a.action = "reduce the memory the job needs (a smaller batch or sequence length, activation "
               "checkpointing, bf16/fp16, sharded optimizer state)",
    a.verdict = "exhaustion: only " + human_size(*unallocated) + " is cached and free; reduce "
                "memory use (batch size, activation checkpointing, lower precision)";
  else if (requested)
    a.verdict = "the figures do not tell fragmentation from exhaustion; reduce memory use, or "
                "compare the allocator's statistics with the " + human_size(*requested) + " requested";
  if (a.figures.empty()) return std::nullopt;
  return a;
}

// "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus." (older
// drivers write the address without "PCI:")
std::optional<Analysis> analyse_xid(std::string_view text) {
  if (text.find("Xid (") == std::string_view::npos) return std::nullopt;
  static const RE2 xid(R"((Xid \((?:PCI:)?([0-9A-Fa-f]{4}:[0-9A-Fa-f:.]+)\):\s*(\d+)(?:,\s*pid=(\d+|'<unknown>'))?(?:,\s*name=([^,]*))?))");
  re2::StringPiece whole;
  std::string pci, number, pid, name;
  if (!RE2::PartialMatch(text, xid, &whole, &pci, &number, &pid, &name)) return std::nullopt;
  Analysis a{"xid", line_at(text, static_cast<size_t>(whole.data() - text.data())),
             {}, {}, {}, {}};
  a.figures.emplace_back("xid", number);
  a.figures.emplace_back("pci", pci);
  if (!pid.empty()) a.figures.emplace_back("pid", pid);
  if (!name.empty()) a.figures.emplace_back("process", name);
  a.verdict = "the GPU at PCI " + pci + "; find its index and serial with nvidia-smi "
              "--query-gpu=index,pci.bus_id,serial --format=csv";
  return a;
}

// "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE,
// ... Timeout(ms)=600000) ran for 600023 milliseconds before timing out."
std::optional<Analysis> analyse_timeout(std::string_view text) {
  if (text.find("Watchdog caught") == std::string_view::npos) return std::nullopt;
  static const RE2 work(R"((Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(\d+), OpType=(\w+)[^)]*?Timeout\(ms\)=(\d+)\)))");
  re2::StringPiece whole;
  std::string seq, op, timeout;
  if (!RE2::PartialMatch(text, work, &whole, &seq, &op, &timeout)) return std::nullopt;
  const std::string line = line_at(text, static_cast<size_t>(whole.data() - text.data()));
  Analysis a{"collective-timeout", line, {}, {}, {}, {}};
  static const RE2 rank(R"(\[Rank (\d+)\])");
  std::string r;
  if (RE2::PartialMatch(line, rank, &r)) a.figures.emplace_back("rank", r);
  a.figures.emplace_back("collective", op);
  a.figures.emplace_back("sequence", seq);
  a.figures.emplace_back("timeout", std::to_string(std::stoll(timeout) / 1000) + " s");
  a.verdict = "this rank waited in " + op + " #" + seq + "; the suspect is the rank whose last "
              "enqueued collective is below " + seq + " (compare every rank's SeqNum, or dump the "
              "flight recorder), not the first rank to time out";
  return a;
}

}  // namespace

std::string action_from_figures(const std::string& finding, const std::string& action) {
  if (finding.empty() || action.empty()) return "";
  return "The message's figures point to " + finding + ": " + action;
}

std::string human_size(double bytes) {
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (std::fabs(bytes) < 1024) return std::to_string(static_cast<long long>(bytes)) + " bytes";
  int unit = -1;
  while (std::fabs(bytes) >= 1024 && unit < 3) bytes /= 1024, ++unit;
  char out[32];
  std::snprintf(out, sizeof out, "%.2f %s", bytes, kUnits[unit]);
  return out;
}

std::vector<Analysis> analyse(std::string_view text) {
  std::vector<Analysis> out;
  for (auto analyser : {analyse_memory, analyse_xid, analyse_timeout})
    if (std::optional<Analysis> a = analyser(text)) out.push_back(std::move(*a));
  return out;
}

}  // namespace gpuerr::query
