// Output for people: colour only where asked or on a terminal, wrapping at the terminal's width,
// and a pager for long output on a terminal (tested through a pseudo-terminal from `script`).
#include "cli/terminal.h"

#include <doctest/doctest.h>

#include "tests/support.h"

namespace gpuerr::cli {

TEST_SUITE("cli") {

TEST_CASE("wrapping keeps words whole and indents continuation lines") {
  CHECK(wrap("short text", 80, 0, 4) == "short text");
  CHECK(wrap("one two three four five six seven eight nine ten", 30, 0, 4) ==
        "one two three four five six\n    seven eight nine ten");
  CHECK(wrap("unchanged when width is zero", 0, 0, 4) == "unchanged when width is zero");
  // escape codes take no room on screen
  CHECK(wrap("\x1b[1mbold\x1b[0m words that fit", 30, 0, 2) == "\x1b[1mbold\x1b[0m words that fit");
}

TEST_CASE("colour: never on a pipe by default, always when asked") {
  const std::string index = test::bundled_index().string();
  const test::Run plain = test::run_gpuerr({"--index", index, "CUDA error: misaligned address"});
  CHECK(plain.out.find('\x1b') == std::string::npos);
  const test::Run colour =
      test::run_gpuerr({"--index", index, "--color=always", "CUDA error: misaligned address"});
  CHECK(colour.out.find("\x1b[1;32mFirst:") != std::string::npos);
  CHECK(test::run_gpuerr({"--index", index, "--color=sometimes", "x"}).exit_code == 2);
}

TEST_CASE("on a terminal: NO_COLOR is respected, long output is paged, short is not") {
  if (test::run_shell("command -v script").exit_code != 0) {
    MESSAGE("skipped: no 'script' to make a pseudo-terminal");
    return;
  }
  const std::string index = test::bundled_index().string();
  auto on_tty = [&](const std::string& env, const std::string& args) {
    return test::run_shell("script -qec \"env " + env + " @gpuerr@ --index " + index + " " + args +
                           "\" /dev/null");
  };
  const test::Run coloured = on_tty("PAGER=cat", "'CUDA error: misaligned address'");
  CHECK(coloured.out.find('\x1b') != std::string::npos);
  const test::Run no_color = on_tty("PAGER=cat NO_COLOR=1", "'CUDA error: misaligned address'");
  CHECK(no_color.out.find('\x1b') == std::string::npos);
  const test::Run paged = on_tty("NO_COLOR=1 LINES=10 COLUMNS=80 PAGER='sed s/^/PAGED:/'", "show xid-79");
  CHECK(paged.out.find("PAGED:") != std::string::npos);
  const test::Run short_one =
      on_tty("NO_COLOR=1 LINES=200 PAGER='sed s/^/PAGED:/'", "'CUDA error: misaligned address'");
  CHECK(short_one.out.find("PAGED:") == std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
