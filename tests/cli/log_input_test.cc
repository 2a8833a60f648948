// Reading logs: runs of whole lines with the right line numbers across blocks, the reading
// thread's errors reach the caller, and a sink that throws stops the reading thread.
#include "cli/log_input.h"

#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "indexer/error.h"
#include "query/log_line.h"
#include "tests/support.h"

namespace gpuerr::cli {

TEST_SUITE("cli") {

namespace {

// A log of `count` numbered lines ("line 1" ...): every thousandth longer, and line 500 3 MB long
// (it spans blocks, so it is cut to kMaxLineBytes).
std::string write_log(size_t count) {
  const std::string path = (test::temp_dir() / "numbered.log").string();
  std::ofstream out(path);
  for (size_t i = 1; i <= count; ++i) {
    const size_t padding = i == 500 ? 3'000'000 : i % 1000 == 0 ? 300 : 0;
    out << "line " << i << std::string(padding, 'x') << '\n';
  }
  return path;
}

}  // namespace

TEST_CASE("read_log numbers lines across blocks as the file does") {
  const std::string path = write_log(600000);  // 11 MB: more blocks than the thread's buffers
  size_t expected = 1, runs = 0;
  read_log(path, [&](size_t first_line, std::string_view lines) {
    ++runs;
    CHECK(first_line == expected);
    query::for_each_line(lines, [&](std::string_view line) {
      if (!line.starts_with("line " + std::to_string(expected) + (expected == 500 ? "x" : "")))
        FAIL_CHECK("line " << expected << " reads '" << line.substr(0, 20) << "'");
      if (line.size() > 1'000'000) FAIL_CHECK("line " << expected << " was not cut");
      ++expected;
    });
  });
  CHECK(expected == 600001);
  CHECK(runs > 4);
}

TEST_CASE("a sink that throws ends read_log with its error, and the reading thread stops") {
  const std::string path = write_log(600000);
  size_t calls = 0;
  const auto stop_at_second = [&](size_t, std::string_view) {
    if (++calls == 2) throw std::runtime_error("sink gave up");
  };
  CHECK_THROWS_WITH(read_log(path, stop_at_second), "sink gave up");
  CHECK(calls == 2);
}

TEST_CASE("read_log names a file it cannot open") {
  CHECK_THROWS_WITH_AS(read_log("/nonexistent/rank0.log", [](size_t, std::string_view) {}),
                       doctest::Contains("/nonexistent/rank0.log"), Error);
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
