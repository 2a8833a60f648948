// Analysers: read the figures some messages carry (an out-of-memory report's sizes, an Xid
// line's PCI address, a collective timeout's sequence number) and say what they mean. Pure
// functions on text; lookup attaches each result to the entries whose signatures match its line.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuerr::query {

/// What one message's figures say.
struct Analysis {
  std::string kind;  // "memory", "xid" or "collective-timeout"
  std::string line;  // the line the figures were read from, as given
  std::vector<std::pair<std::string, std::string>> figures;  // ("requested", "20.00 MiB"), in a fixed order
  std::string verdict;  // one sentence, e.g. "fragmentation: ... try expandable_segments"
  // What the verdict found, for programs: "fragmentation", "another process" (most of the GPU's
  // memory is held outside the failing process), "exhaustion"; empty when undecided.
  std::string finding;
  std::string action;  // what that finding calls for, e.g. "reduce memory use (batch size, ...)"
};

/// Every analysable message in `text`, in order of appearance; empty when none. Expects
/// terminal escapes already removed (as_printed).
std::vector<Analysis> analyse(std::string_view text);

/// The first action when the figures decided the case: "The message's figures point to
/// exhaustion: reduce the memory ...". Empty when they decided nothing (no finding or action).
std::string action_from_figures(const std::string& finding, const std::string& action);

/// `bytes` as "1.50 GiB", "20.00 MiB" or "512 bytes".
std::string human_size(double bytes);

}  // namespace gpuerr::query
