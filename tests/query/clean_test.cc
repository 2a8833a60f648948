#include "query/clean.h"

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("terminal cleaning keeps what the terminal showed") {
  struct Case {
    std::string name, input, shown;
  };
  const Case cases[] = {
      {"colour", "\x1b[31mCUDA error\x1b[0m: misaligned address", "CUDA error: misaligned address"},
      {"progress redraw", "epoch 1:  10%\repoch 1: 100%\rCUDA error: x", "CUDA error: x"},
      {"windows line ends", "a\r\nb\r\n", "a\nb\n"},
      {"NUL bytes", std::string("a\0b", 3), "a b"},
      {"plain text", "nothing to do", "nothing to do"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(strip_terminal(c.input) == c.shown);
  }
}

TEST_CASE("long lines are joined to the next one, short ones are left alone") {
  const std::string long_line(kWrappedWidth, 'x');
  CHECK(unwrap_long_lines(long_line + "\nyy\nshort\nz") == long_line + "yy\nshort\nz");
  CHECK(unwrap_long_lines("a\nb\n") == "a\nb\n");
  CHECK(unwrap_long_lines("") == "");
}

TEST_CASE("search text drops what varies between two occurrences of one failure") {
  struct Case {
    std::string name, input, gone, kept;
  };
  const Case cases[] = {
      {"ISO timestamp", "2024-05-01T12:00:00.123Z error here", "2024", "error here"},
      {"torchrun rank prefix", "[rank3]: RuntimeError: boom", "rank3", "RuntimeError: boom"},
      {"srun prefix", "12: RuntimeError: boom", "12", "RuntimeError: boom"},
      {"address", "at 0x7f00deadbeef failed", "0x7f", "failed"},
      {"path", "File /usr/lib/python3/site-packages/torch/nn.py, line 5", "site-packages", "File"},
      {"numbers", "GPU 3 has 79.10 GiB", "79", "GiB"},
      {"kernel uptime", "[ 1234.567890] NVRM: Xid", "1234", "NVRM: Xid"},
      // generic wrappers go, so the specific line decides the full-text layer
      {"python frame", "Traceback (most recent call last):\n  File \"train.py\", line 5, in main\n"
       "    loss.backward()\nRuntimeError: CUDA error: misaligned address", "backward",
       "RuntimeError: CUDA error: misaligned address"},
      {"terminate", "terminate called after throwing an instance of 'c10::Error'\n  what():  "
       "CUDA error: misaligned address", "terminate", "CUDA error: misaligned address"},
      {"async trailer", "CUDA error: misaligned address\nCUDA kernel errors might be asynchronously "
       "reported at some other API call, so the stacktrace below might be incorrect.",
       "asynchronously", "CUDA error: misaligned address"},
      {"C++ frames", "CUDA error: misaligned address\nframe #0: c10::Error::Error(...) + 0x96",
       "c10::Error", "CUDA error: misaligned address"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string s = search_text(c.input);
    CAPTURE(s);
    CHECK(s.find(c.gone) == std::string::npos);
    CHECK(s.find(c.kept) != std::string::npos);
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::query
