// The cue filter in front of triage: Vectorscan and RE2 find the same lines.
#include "query/log_events.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

namespace gpuerr::query {
namespace {

// The start of each line `scanner` stops at, in order, as triage walks a block.
std::vector<size_t> lines_found(CueScanner scanner, std::string_view text) {
  std::vector<size_t> starts;
  for (size_t pos = 0; pos <= text.size();) {
    const size_t hit = scanner.next(text, pos);
    if (hit == std::string_view::npos) break;
    const size_t newline_before = text.rfind('\n', hit);
    starts.push_back(newline_before == std::string_view::npos ? 0 : newline_before + 1);
    const size_t end = text.find('\n', hit);
    pos = end == std::string_view::npos ? text.size() + 1 : end + 1;
  }
  return starts;
}

}  // namespace

TEST_SUITE("query") {

TEST_CASE("the cue scanner stops at the same lines with Vectorscan as with RE2") {
  std::string logs;
  const std::string dir = std::string(GPUERR_SOURCE_DIR) + "/tests/data/triage";
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(f.path());
    logs.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  logs += "two cues on one line: error and warning\nEXIT CODE upper case\nnone here\n"
          "a long s: \xc5\xbf" "aved, a Kelvin sign: \xe2\x84\xaa" "ILLED\nfail";
  const CueScanner vectorscan_at_once(0);
  const CueScanner re2_throughout(std::numeric_limits<size_t>::max());
  const std::vector<size_t> a = lines_found(vectorscan_at_once, logs);
  const std::vector<size_t> b = lines_found(re2_throughout, logs);
  CHECK(a.size() > 40);  // 63 lines of the fixtures hold a cue
  CHECK(a == b);
  // The default switches after its first MiB: the same lines again, across the switch.
  std::string big;
  while (big.size() < 3 * CueScanner::kBytesBeforeVectorscan / 2) big += logs;
  CHECK(lines_found(CueScanner(), big) == lines_found(re2_throughout, big));
}

TEST_CASE("a line without a cue word is not worth reading") {
  CHECK(worth_reading("RuntimeError: CUDA error: an illegal memory access was encountered"));
  CHECK(worth_reading("Saving model checkpoint to /ckpt/step-100"));
  CHECK_FALSE(worth_reading("step 100 loss 1.93 lr 3e-4"));
  CHECK_FALSE(worth_reading(""));
}

}  // TEST_SUITE

}  // namespace gpuerr::query
