// Whole-command behaviour of the gpuerr binary: exit codes, the JSON contract, error lines.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace gpuerr::cli {

using test::run_gpuerr;

namespace {

std::vector<std::string> with_index(std::vector<std::string> args) {
  args.insert(args.begin(), {"--index", test::bundled_index().string()});
  return args;
}

}  // namespace

TEST_SUITE("cli") {

TEST_CASE("exit codes: 0 answered, 1 no confident match, 2 error") {
  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::string stdin_text;
    int exit_code;
  };
  const Case cases[] = {
      {"confident match", with_index({"CUDA error: an illegal memory access was encountered"}), "", 0},
      {"lookup subcommand", with_index({"lookup", "CUDA error: misaligned address"}), "", 0},
      {"message on stdin", with_index({"lookup"}), "CUDA error: misaligned address\n", 0},
      {"dash reads stdin", with_index({"lookup", "-"}), "CUDA error: misaligned address\n", 0},
      {"python KeyError", with_index({"KeyError: 'label'"}), "", 1},
      {"OOM killer", with_index({"Out of memory: Killed process 4242 (python3)"}), "", 1},
      {"empty message", with_index({"lookup", ""}), "", 1},
      {"empty stdin", with_index({"lookup"}), "", 1},
      {"unknown option", with_index({"--bogus"}), "", 2},
      {"missing index", {"--index", "/nonexistent/gpuerr", "anything"}, "", 2},
      {"unknown id", with_index({"show", "no-such-entry"}), "", 2},
      {"known id", with_index({"show", "misaligned-address"}), "", 0},
      {"env variable", with_index({"env", "cuda_launch_blocking=1"}), "", 0},
      {"unknown variable", with_index({"env", "NO_SUCH_VARIABLE"}), "", 2},
      {"unknown category", with_index({"list", "--category", "nonsense"}), "", 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(run_gpuerr(c.args, c.stdin_text).exit_code == c.exit_code);
  }
}

TEST_CASE("every subcommand the help lists runs as itself, never as a lookup of its name") {
  // main.cc builds only the subcommand a command line names; a subcommand missing from its list
  // would be read as the default command's message.
  const test::Run help = run_gpuerr({"--help"});
  REQUIRE(help.exit_code == 0);
  const size_t list = help.out.find("Subcommands:\n");
  REQUIRE(list != std::string::npos);
  std::vector<std::string> names;
  for (size_t at = list + 13; at < help.out.size();) {
    const size_t end = std::min(help.out.find('\n', at), help.out.size());
    const std::string line = help.out.substr(at, end - at);
    if (line.starts_with("  ") && line.size() > 2 && line[2] != ' ')
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    at = end + 1;
  }
  CHECK(names.size() >= 12);
  for (const std::string& name : names) {
    CAPTURE(name);
    const test::Run r = run_gpuerr(with_index({"--json", name}));
    CHECK(r.out.find("\"query\":\"" + name + "\"") == std::string::npos);
  }
  // And the default command still takes a message that is no subcommand's name.
  const test::Run lookup = run_gpuerr(with_index({"--json", "triage failed"}));
  CHECK(lookup.out.find("\"query\":\"triage failed\"") != std::string::npos);
}

TEST_CASE("lookup --json prints the documented shape, confident matches only") {
  const test::Run r = run_gpuerr(
      with_index({"lookup", "--json", "RuntimeError: CUDA error: device-side assert triggered"}));
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["query"] == "RuntimeError: CUDA error: device-side assert triggered");
  REQUIRE(j["matches"].is_array());
  REQUIRE(!j["matches"].empty());
  const nlohmann::json& m = j["matches"][0];
  CHECK(m["id"] == "device-side-assert");
  for (const char* key : {"title", "category", "first_action"}) CHECK(m[key].is_string());
  for (const char* key : {"actions", "codes"}) CHECK(m[key].is_array());
  CHECK(m["score"].is_number());
  CHECK(m["confidence"].get<double>() >= 0.5);
  CHECK(m["confidence"].get<double>() <= 1.0);
  CHECK(m["first_action"] == m["actions"][0]);

  const test::Run none = run_gpuerr(with_index({"--json", "KeyError: 'x'"}));
  CHECK(none.exit_code == 1);
  CHECK(nlohmann::json::parse(none.out)["matches"].empty());
}

TEST_CASE("when a message's figures decide the case, the first action is theirs") {
  const test::Run r = run_gpuerr(with_index(
      {"lookup", "--json",
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
       "capacity of 23.65 GiB of which 1.10 GiB is free. Including non-PyTorch memory, this "
       "process has 22.54 GiB memory in use. Of the allocated memory 22.20 GiB is allocated by "
       "PyTorch, and 40.00 MiB is reserved by PyTorch but unallocated."}));
  REQUIRE(r.exit_code == 0);
  const nlohmann::json m = nlohmann::json::parse(r.out)["matches"][0];
  CHECK(m["id"] == "cuda-out-of-memory");
  CHECK(m["analysis"]["finding"] == "exhaustion");
  const std::string first = m["first_action"];
  CHECK(first.starts_with("The message's figures point to exhaustion: reduce the memory"));
  CHECK(first != m["actions"][0]);  // the entry's own actions are still listed
}

TEST_CASE("text output puts the first action and the show command on screen") {
  const test::Run r = run_gpuerr(with_index({"CUDA error: misaligned address"}));
  CHECK(r.out.starts_with("1. CUDA error: misaligned address"));
  CHECK(r.out.find("   First: ") != std::string::npos);
  CHECK(r.out.find("gpuerr show misaligned-address") != std::string::npos);
}

TEST_CASE("stats --json lists families with their counts and missing codes") {
  const test::Run r = run_gpuerr(with_index({"stats", "--json"}));
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["families"].is_array());
  bool saw_xid = false;
  for (const nlohmann::json& f : j["families"]) {
    CHECK(f["entries"].is_number());
    CHECK(f["missing"].is_array());
    CHECK(f["thinly_sourced"].is_array());
    saw_xid = saw_xid || f["family"] == "xid";
  }
  CHECK(saw_xid);
}

TEST_CASE("env finds an allocator option's own entry before the variable's") {
  CHECK(run_gpuerr(with_index({"env", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"}))
            .out.find("id: pytorch-alloc-expandable-segments") != std::string::npos);
  CHECK(run_gpuerr(with_index({"env", "PYTORCH_CUDA_ALLOC_CONF"}))
            .out.find("id: pytorch-cuda-alloc-conf") != std::string::npos);
}

TEST_CASE("--brief prints one tab-separated line per match and --explain says why") {
  const test::Run brief = run_gpuerr(with_index({"--brief", "CUDA error: misaligned address"}));
  CHECK(brief.out == "misaligned-address\t0.97\tCUDA error: misaligned address\tbundled\n");
  const test::Run why =
      run_gpuerr(with_index({"lookup", "--explain", "CUDA error: misaligned address (error 716)"}));
  CHECK(why.out.find("   Why:   code cuda:716; signature 'misaligned address'; ") !=
        std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(
      run_gpuerr(with_index({"--json", "CUDA error: misaligned address (error 716)"})).out);
  CHECK(j["matches"][0]["evidence"]["code"] == "cuda:716");
  CHECK(j["matches"][0]["evidence"]["signature"] == "misaligned address");
}

TEST_CASE("doctor says what works and what to fix, with exit 0 or 2") {
  const test::Run good = run_gpuerr(with_index({"doctor"}));
  CHECK(good.exit_code == 0);
  CHECK(good.out.find("ok    a test lookup answers") != std::string::npos);
  const test::Run bad = run_gpuerr({"--index", "/nonexistent/gpuerr", "doctor"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("FAIL  no index at '/nonexistent/gpuerr'") != std::string::npos);
}

TEST_CASE("--version names the program and the index it uses") {
  const std::string command = "GPUERR_INDEX='" + test::bundled_index().string() + "' '" +
                              GPUERR_BINARY + "' --version";
  const test::Run r = test::run_shell(command);
  CHECK(r.exit_code == 0);
  CHECK(r.out.starts_with("gpuerr "));
  CHECK(r.out.find(" entries, built ") != std::string::npos);
}

TEST_CASE("errors are one line on stderr, with the fix") {
  CHECK(run_gpuerr({"--index", "/nonexistent/gpuerr", "x"}).err ==
        "gpuerr: error: no index at '/nonexistent/gpuerr': not a directory (rebuild it with "
        "'gpuerr index --kb kb --out /nonexistent/gpuerr')\n");
  CHECK(run_gpuerr(with_index({"show", "misaligned-adress"})).err ==
        "gpuerr: error: no entry 'misaligned-adress' in the index (did you mean "
        "'misaligned-address'?)\n");
}

TEST_CASE("GPUERR_INDEX points at the index when --index is not given") {
  const std::string command = "GPUERR_INDEX='" + test::bundled_index().string() + "' '" +
                              GPUERR_BINARY + "' 'CUDA error: misaligned address' >/dev/null";
  CHECK(std::system(command.c_str()) == 0);
}

TEST_CASE("lint prints file:line problems and exits 1 and index then refuses to write") {
  const auto kb = test::temp_dir();
  test::write_file(kb / "faq" / "q.md", "---\nid: q\ntitle: Why?\n---\nBecause.\n");
  const test::Run lint = run_gpuerr({"lint", "--kb", kb.string()});
  CHECK(lint.exit_code == 1);
  CHECK(lint.err == (kb / "faq" / "q.md").string() +
                        ":1: missing required field 'sources'\ngpuerr: 1 problem in the kb\n");
  const auto out = test::temp_dir() / "index";
  CHECK(run_gpuerr({"index", "--kb", kb.string(), "--out", out.string()}).exit_code == 1);
  CHECK(!std::filesystem::exists(out));

  test::write_file(kb / "faq" / "q.md", "---\nid: q\ntitle: Why?\nsources: [{title: T, url: "
                                        "\"https://e.org\"}]\n---\nBecause.\n");
  CHECK(run_gpuerr({"lint", "--kb", kb.string()}).exit_code == 0);
  CHECK(run_gpuerr({"index", "--kb", kb.string(), "--out", out.string()}).exit_code == 0);
  CHECK(run_gpuerr({"--index", out.string(), "faq"}).out.find("Why?") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
