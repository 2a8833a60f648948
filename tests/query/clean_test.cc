#include "query/clean.h"

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("cleaning keeps what the program printed") {
  struct Case {
    std::string name, input, shown;
  };
  const Case cases[] = {
      {"colour", "\x1b[31mCUDA error\x1b[0m: misaligned address", "CUDA error: misaligned address"},
      {"progress redraw", "epoch 1:  10%\repoch 1: 100%\rCUDA error: x", "CUDA error: x"},
      {"windows line ends", "a\r\nb\r\n", "a\nb\n"},
      {"NUL bytes", std::string("a\0b", 3), "a b"},
      {"plain text", "nothing to do", "nothing to do"},
      // copied through an editor, a chat client or a web page
      {"curly quotes", "it couldn\xe2\x80\x99t load \xe2\x80\x9cx\xe2\x80\x9d",
       "it couldn't load \"x\""},
      {"Unicode spaces", "CUDA\xc2\xa0" "error:\xe2\x80\x89x\xe2\x80\x8b", "CUDA error: x"},
      {"dashes and ellipsis", "a \xe2\x80\x94 b\xe2\x80\xa6", "a - b..."},
      {"byte-order mark", "\xef\xbb\xbf" "CUDA error", "CUDA error"},
      // escaped for HTML or XML (a page's source, a JUnit report), once or twice
      {"character references", "Cuda failure &#x27;out of memory&#x27; &quot;x&quot; -&gt; 2",
       "Cuda failure 'out of memory' \"x\" -> 2"},
      {"escaped twice, unescaped once", "a &amp;lt; b &amp; c", "a &lt; b & c"},
      {"an ampersand of its own", "a & b &c; &#1234;", "a & b &c; &#1234;"},
      // a structured logger's records: Docker's json-file driver, journald, nested fields
      {"docker json-file",
       "{\"log\":\"CUDA error: x\\nnext \\\"q\\\"\\n\",\"stream\":\"stderr\",\"n\":3}",
       "CUDA error: x\nnext \"q\"\n\nstderr"},
      {"records among plain lines", "a\n  {\"msg\": {\"text\": \"b\\u2019c\"}}\nd", "a\nb'c\nd"},
      {"not a record", "{not json}\n{\"unclosed\": \"x\"", "{not json}\n{\"unclosed\": \"x\""},
      {"a record without strings", "{\"a\": [[[[[[[[[[\"deep\"]]]]]]]]]], \"n\": 1}",
       "{\"a\": [[[[[[[[[[\"deep\"]]]]]]]]]], \"n\": 1}"},
      {"journald record",
       "{\"__REALTIME_TIMESTAMP\":\"1709633521123456\",\"_BOOT_ID\":\"4f3b2a1c\","
       "\"_HOSTNAME\":\"node7\",\"SYSLOG_IDENTIFIER\":\"python3\",\"_PID\":\"991\","
       "\"MESSAGE\":\"CUDA error: x\"}",
       "2024-03-05T10:12:01.123456Z node7 python3[991]: CUDA error: x"},
      {"journald record, bare", "{\"__REALTIME_TIMESTAMP\":\"5\",\"MESSAGE\":\"y\"}",
       "1970-01-01T00:00:00.000005Z localhost journal: y"},
      {"escape inside a record", "{\"log\":\"\\u001b[31mCUDA error\\u001b[0m\"}", "CUDA error"},
      {"other UTF-8 kept", "4 \xc2\xb5s, caf\xc3\xa9 \xe2\x86\x92",
       "4 \xc2\xb5s, caf\xc3\xa9 \xe2\x86\x92"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(as_printed(c.input) == c.shown);
  }
}

TEST_CASE("long lines are joined to the next one, short ones are left alone") {
  const std::string long_line(kWrappedWidth, 'x');
  CHECK(unwrap_long_lines(long_line + "\nyy\nshort\nz") == long_line + "yy\nshort\nz");
  CHECK(unwrap_long_lines("a\nb\n") == "a\nb\n");
  CHECK(unwrap_long_lines("") == "");
  // every line carries the same prefix (srun -l, torchrun): the next line is not a continuation
  CHECK(unwrap_long_lines("3: " + long_line + "\n3: yy") == "3: " + long_line + "\n3: yy");
  CHECK(unwrap_long_lines("3: " + long_line + "\nyy") == "3: " + long_line + "yy");
  // a wrap at a word's end dropped the blank, which the glue puts back, unless one is there
  CHECK(unwrap_long_lines(long_line + "\nyy", " ") == long_line + " yy");
  CHECK(unwrap_long_lines(long_line + " \nyy", " ") == long_line + " yy");
  // at a word's end a line may be shorter than kWrappedWidth when the next word did not fit
  const std::string words_69 = std::string(60, 'w') + " run some";  // 69 characters
  CHECK(unwrap_long_lines(words_69 + "\nNumCudaDevices() that", " ") ==
        words_69 + " NumCudaDevices() that");
  CHECK(unwrap_long_lines(words_69 + "\nshort", " ") == words_69 + "\nshort");  // would have fit
  CHECK(unwrap_long_lines(words_69 + "\nNumCudaDevices() that") ==
        words_69 + "\nNumCudaDevices() that");  // mid-word wraps fill the line
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
      // launcher and logger prefixes
      {"kubernetes log file", "2024-05-01T12:00:00.1Z stderr F boom", "stderr", "boom"},
      {"journal program", "May  1 12:00:00 node7 python3[1234]: boom", "python3", "boom"},
      {"mpirun tag", "[1,3]<stderr>:boom", "stderr", "boom"},
      {"kubectl prefix", "[pod/trainer-0/pytorch] boom", "trainer", "boom"},
      {"ray worker", "(RayWorkerWrapper pid=14390, ip=10.0.0.7) boom", "RayWorker", "boom"},
      {"glog", "E1203 10:11:12.123456 12345 worker.cc:42] boom", "worker", "boom"},
      {"docker compose", "trainer-1  | boom\ntrainer-1  | bang", "trainer", "bang"},
      {"docker compose v1", "job_trainer_1 | boom", "trainer", "boom"},
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
      // a log's informational lines, beside a line at an error level
      {"logfmt info beside fatal", "time=\"x\" level=info msg=\"Collecting DCP Metrics\"\n"
       "time=\"x\" level=fatal msg=\"Error getting device cpu affinity\"", "Collecting",
       "cpu affinity"},
      {"Python logging INFO beside ERROR", "12:00:01 INFO loading shards\n12:00:02 ERROR "
       "RuntimeError: boom", "loading shards", "RuntimeError: boom"},
      {"glog I beside E", "I0527 08:53:58.1 12 a.cc:1] starting the engine\nE0527 08:53:59.1 12 "
       "a.cc:2] boom", "starting the engine", "boom"},
      {"info lines alone stay", "level=info msg=\"DCGM successfully initialized\"",
       "level=fatal", "DCGM successfully initialized"},
      {"a line at no level stays, and NCCL's INFO trace",
       "12:00:01 INFO loading\nsome words here\nNCCL INFO Call to connect returned Connection "
       "refused\nNCCL WARN boom", "loading", "some words here"},
      {"NCCL's INFO trace is kept beside its WARN", "NCCL INFO Call to connect returned "
       "Connection refused\nNCCL WARN Connect failed", "level=", "Call to connect returned"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string s = search_text(c.input);
    CAPTURE(s);
    CHECK(s.find(c.gone) == std::string::npos);
    CHECK(s.find(c.kept) != std::string::npos);
  }
}

TEST_CASE("a table's wrapped cells are joined to their row") {
  // dcgmi diag and Triton server draw tables and wrap a long cell at the column's width
  const std::string table =
      "+---------------+----------------------------+\n"
      "| Memory        | GPU 0 Error: CUDA-capable  |\n"
      "|               | device(s) is/are busy or u |\n"
      "|               | navailable                 |\n"
      "| Info          | ok                         |\n"
      "+---------------+----------------------------+";
  CHECK(unwrap_table_cells(table, true) ==
        "+---------------+----------------------------+\n"
        "Memory | GPU 0 Error: CUDA-capabledevice(s) is/are busy or unavailable\n"
        "Info | ok\n"
        "+---------------+----------------------------+\n");
  CHECK(unwrap_table_cells(table, false).find(
            "CUDA-capable device(s) is/are busy or u navailable") != std::string::npos);
  CHECK(unwrap_table_cells("no table | here\n| one cell |", true).empty());
}

}  // TEST_SUITE

}  // namespace gpuerr::query
