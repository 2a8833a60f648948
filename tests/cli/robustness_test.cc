// Hostile and odd input, one case per row of docs/robustness.md: never a crash, never unbounded
// memory, always a clear answer or a one-line error.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace gpuerr::cli {

using test::run_gpuerr;
using test::run_shell;

namespace {

std::string index_flag() { return "--index '" + test::bundled_index().string() + "' "; }

bool answered(int exit_code) { return exit_code == 0 || exit_code == 1; }

}  // namespace

TEST_SUITE("robustness") {

TEST_CASE("odd lookups are answered, never crash") {
  struct Case {
    std::string name, input;
    int exit_code;  // -1: 0 or 1, whichever, as long as it is an answer
  };
  const Case cases[] = {
      {"empty input", "", 1},
      {"whitespace only", " \t\n\r\n   ", 1},
      {"NUL bytes around a message", std::string("\0\0CUDA error: misaligned address\0x", 35), 0},
      {"invalid UTF-8", "\xff\xfe CUDA error: misaligned address \xc3\x28 \xed\xa0\x80", 0},
      {"search syntax around a message",
       "\"an illegal memory access was encountered\" AND prefix:x* NEAR OR", 0},
      {"only search syntax", "AND OR NOT NEAR \"\" * prefix: ( ) +", -1},
      {"SQL metacharacters", "'; DROP TABLE entries; -- \" OR 1=1 --", 1},
      {"control characters", "\x01\x02\x03\x1b[999999999999m\x7f", -1},
      // a JSON record nested deeper than a logger writes: read as the plain line it is
      {"deeply nested JSON record",
       "{\"a\":" + std::string(200000, '[') + "\"CUDA error: misaligned address\"" +
           std::string(200000, ']') + "}",
       0},
      {"broken JSON record", "{\"log\": \"CUDA error: misaligned address\\", 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const test::Run r = run_gpuerr({"--index", test::bundled_index().string(), "lookup", "--json"},
                                   c.input);
    CHECK(answered(r.exit_code));
    if (c.exit_code >= 0) CHECK(r.exit_code == c.exit_code);
    CHECK(nlohmann::json::accept(r.out));  // valid JSON, even from invalid UTF-8
  }
  // The SQL above did nothing to the index.
  CHECK(run_gpuerr({"--index", test::bundled_index().string(), "show", "misaligned-address"})
            .exit_code == 0);
}

TEST_CASE("a binary file on standard input is answered") {
  const test::Run r =
      run_shell("head -c 262144 /dev/urandom | @gpuerr@ " + index_flag() + "lookup -");
  CHECK(answered(r.exit_code));
}

TEST_CASE("a 100 MB single line is refused with a one-line error") {
  const test::Run r = run_shell("head -c 100000000 /dev/zero | tr '\\0' a | @gpuerr@ " +
                                index_flag() + "lookup");
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("gpuerr: error: the message is larger than 1024 KiB; lookup reads one "
                          "paste"));
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("1 GB on standard input is refused in bounded memory") {
  const test::Run r = run_shell("yes 'CUDA error: misaligned address' | head -c 1000000000 | "
                                "@gpuerr@ " + index_flag() + "lookup");
  CHECK(r.exit_code == 2);
#ifndef GPUERR_SANITIZED  // ASan's shadow memory and quarantine say nothing about ours
  CHECK(test::max_child_rss_kib() < 100 * 1024);  // every child so far, gpuerr included
#endif
}

TEST_CASE("a damaged index gives a one-line error with the fix and exit 2") {
  struct Case {
    std::string name;
    std::string damage;  // a shell command run in the copied index directory
  };
  const Case cases[] = {
      {"truncated records", "truncate -s 4096 kb.sqlite"},
      {"records overwritten", "head -c 65536 /dev/urandom > kb.sqlite"},
      {"search index missing", "rm -r xapian"},
      {"search index truncated", "for f in xapian/*.glass; do truncate -s 100 \"$f\"; done"},
      {"empty directory", "rm -r kb.sqlite xapian"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const auto dir = test::temp_dir() / "index";
    std::filesystem::copy(test::bundled_index(), dir, std::filesystem::copy_options::recursive);
    REQUIRE(std::system(("cd '" + dir.string() + "' && " + c.damage).c_str()) == 0);
    const test::Run r =
        run_gpuerr({"--index", dir.string(), "CUDA error: an illegal memory access was encountered"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with("gpuerr: error: "));
    CHECK(r.err.find("(rebuild it with 'gpuerr index") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
  }
}

TEST_CASE("a lookup writes nothing into the index directory") {
  const auto dir = test::temp_dir() / "index";
  std::filesystem::copy(test::bundled_index(), dir, std::filesystem::copy_options::recursive);
  const auto listing = [&] {
    std::string out;
    for (const auto& f : std::filesystem::recursive_directory_iterator(dir))
      out += f.path().string() + " " +
             std::to_string(f.last_write_time().time_since_epoch().count()) + "\n";
    return out;
  };
  const std::string before = listing();
  // Read-only permissions as well: a non-root run would fail on any attempt to write.
  REQUIRE(std::system(("chmod -R a-w '" + dir.string() + "'").c_str()) == 0);
  CHECK(run_gpuerr({"--index", dir.string(), "CUDA error: misaligned address"}).exit_code == 0);
  CHECK(run_gpuerr({"--index", dir.string(), "stats"}).exit_code == 0);
  CHECK(listing() == before);  // no journal, no lock file, no changed time
  REQUIRE(std::system(("chmod -R u+w '" + dir.string() + "'").c_str()) == 0);
}

TEST_CASE("lookups work from a read-only file system") {
  // A read-only bind mount in a private mount namespace: no privileges needed where user
  // namespaces are allowed, as on Debian 12.
  const auto dir = test::temp_dir();
  std::filesystem::copy(test::bundled_index(), dir / "index", std::filesystem::copy_options::recursive);
  const std::string d = "'" + dir.string() + "'";
  const test::Run probe = run_shell("unshare --user --map-root-user --mount true");
  if (probe.exit_code != 0) {
    MESSAGE("unshare is not permitted here; the no-writes test above still covers this");
    return;
  }
  const test::Run r = run_shell(
      "unshare --user --map-root-user --mount sh -c \"mount --bind " + d + " " + d +
      " && mount -o remount,ro,bind " + d + " && ! touch " + d + "/probe 2>/dev/null && " +
      "@gpuerr@ --index " + d + "/index 'CUDA error: misaligned address' && @gpuerr@ --index " +
      d + "/index stats\"");
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("misaligned-address") != std::string::npos);
}

TEST_CASE("two index runs into one place at once leave one complete index") {
  const auto dir = test::temp_dir();
  const std::string out = (dir / "index").string();
  const std::string kb = test::bundled_kb().string();
  const test::Run r = run_shell("@gpuerr@ index --kb '" + kb + "' --out '" + out + "' & " +
                                "@gpuerr@ index --kb '" + kb + "' --out '" + out + "' & wait");
  CHECK(r.exit_code == 0);
  CHECK(run_gpuerr({"--index", out, "CUDA error: misaligned address"}).exit_code == 0);
  const auto entries = std::distance(std::filesystem::directory_iterator(dir),
                                     std::filesystem::directory_iterator());
  CHECK(entries == 1);  // no temporary directory left behind
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
