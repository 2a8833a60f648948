// `gpuerr triage` and `gpuerr redact` as whole commands: files, pipes, compressed logs, the JSON
// contract, exit codes and error lines.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace gpuerr::cli {

using test::run_gpuerr;
using test::run_shell;

namespace {

const std::string kFixtures = std::string(GPUERR_SOURCE_DIR) + "/tests/data/triage/";

std::vector<std::string> triage(std::vector<std::string> args) {
  args.insert(args.begin(), {"--index", test::bundled_index().string(), "triage"});
  return args;
}

}  // namespace

TEST_SUITE("cli") {

TEST_CASE("triage --json prints the documented shape") {
  const test::Run run = run_gpuerr(triage({"--json", kFixtures + "ecc-checkpoints.log"}));
  REQUIRE(run.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(run.out);
  CHECK(j["first_fault"]["entry_id"] == "xid-48");
  CHECK(j["first_fault"]["host"] == "node3");
  CHECK(j["first_fault"]["time"] == "2024-07-01T08:20:05Z");
  CHECK(j["first_fault"]["line"] == 3);
  CHECK(j["first_fault"]["pid"].is_null());  // a kernel line: the pid in it is the app's, not a prefix
  CHECK(j["verdict"] == "hardware");
  CHECK(j["checkpoint"]["last_before_fault"]["line"] == 2);
  CHECK(j["checkpoint"]["safe_to_resume"] == true);
  CHECK(j["checkpoint"]["after_fault"].size() == 1);
  CHECK(j["faults"].is_array());
  CHECK(j["cascade_count"].is_number());
  for (const char* key : {"reason"}) CHECK(j["checkpoint"].contains(key));
  CHECK(j["first_fault"]["time_inherited"] == false);
  CHECK(j["first_fault"]["latest"].is_null());
}

TEST_CASE("an undated first fault is given as the span its file's dated lines allow") {
  // the traceback's error takes 12:00:02,500 from the line above it, and 12:00:02,600 bounds it
  const test::Run json = run_gpuerr(triage({"--json", kFixtures + "illegal-access-cascade.log"}));
  REQUIRE(json.exit_code == 0);
  const nlohmann::json f = nlohmann::json::parse(json.out)["first_fault"];
  CHECK(f["line"] == 8);
  CHECK(f["time_inherited"] == true);
  CHECK(f["time"] == "2024-05-01T12:00:02Z");
  CHECK(f["latest"] == "2024-05-01T12:00:02Z");
  const test::Run text = run_gpuerr(triage({kFixtures + "illegal-access-cascade.log"}));
  CHECK(text.out.find(", undated: after 2024-05-01T12:00:02Z, by 2024-05-01T12:00:02Z") !=
        std::string::npos);
}

TEST_CASE("triage exits 0 with a fault, 1 without, 2 on an error") {
  CHECK(run_gpuerr(triage({kFixtures + "clean.log"})).exit_code == 1);
  CHECK(run_gpuerr(triage({kFixtures + "oom-one-rank.log"})).exit_code == 0);
  const test::Run missing = run_gpuerr(triage({"/nonexistent/rank0.log"}));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/nonexistent/rank0.log") != std::string::npos);
  const test::Run bad = run_gpuerr(triage({"--checkpoint-pattern", "(", kFixtures + "clean.log"}));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("checkpoint pattern") != std::string::npos);
}

TEST_CASE("triage reads gzip and zstd files and pipes, and several files at once") {
  const std::string dir = test::temp_dir().string();
  REQUIRE(run_shell("gzip -c " + kFixtures + "xid79-rank5.log > " + dir + "/rank5.log.gz && zstd -q -c " +
                    kFixtures + "xid79-dmesg.log > " + dir + "/dmesg.log.zst").exit_code == 0);
  const test::Run both = run_gpuerr(triage({"--json", dir + "/rank5.log.gz", dir + "/dmesg.log.zst"}));
  REQUIRE(both.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(both.out);
  CHECK(j["first_fault"]["entry_id"] == "pcie-aer-error");  // the PCIe error before the Xid 79
  CHECK(j["verdict"] == "hardware");
  bool nccl_pid = false;  // "gpu-node-7:21877:21990 [5] NCCL WARN ..." names its process
  for (const auto& e : j["cascade"]) nccl_pid |= e["pid"] == 21877;
  CHECK(nccl_pid);
  const test::Run piped = run_shell("gzip -c " + kFixtures + "oom-one-rank.log | @gpuerr@ --index " +
                                    test::bundled_index().string() + " triage --json");
  REQUIRE(piped.exit_code == 0);
  CHECK(nlohmann::json::parse(piped.out)["first_fault"]["entry_id"] == "cuda-out-of-memory");
  REQUIRE(run_shell("head -c 100 " + dir + "/rank5.log.gz > " + dir + "/cut.gz").exit_code == 0);
  const test::Run cut = run_gpuerr(triage({dir + "/cut.gz"}));
  CHECK(cut.exit_code == 2);
  CHECK(cut.err.find("ends early") != std::string::npos);
}

TEST_CASE("a folder given to triage or redact stands for the files under it") {
  // a job's collected logs: the rank's log in the folder, the node's kernel log in a subfolder,
  // and a hidden file that is no log
  const std::string dir = test::temp_dir().string() + "/job-7712";
  REQUIRE(run_shell("mkdir -p " + dir + "/node-logs/gpu-node-7 && cp " + kFixtures +
                    "xid79-rank5.log " + dir + "/ && cp " + kFixtures + "xid79-dmesg.log " + dir +
                    "/node-logs/gpu-node-7/dmesg.log && echo 'RuntimeError: CUDA error: an "
                    "illegal memory access was encountered' > " + dir + "/.notes").exit_code == 0);
  const test::Run folder = run_gpuerr(triage({"--json", dir}));
  const test::Run files = run_gpuerr(triage(
      {"--json", dir + "/node-logs/gpu-node-7/dmesg.log", dir + "/xid79-rank5.log"}));
  REQUIRE(folder.exit_code == 0);
  REQUIRE(files.exit_code == 0);
  CHECK(nlohmann::json::parse(folder.out)["first_fault"] ==
        nlohmann::json::parse(files.out)["first_fault"]);
  CHECK(folder.out.find(".notes") == std::string::npos);
  const test::Run redacted = run_gpuerr({"redact", dir});
  CHECK(redacted.exit_code == 0);
  CHECK(redacted.out.find("NVRM: Xid") != std::string::npos);
  REQUIRE(run_shell("mkdir -p " + dir + "/empty").exit_code == 0);
  const test::Run empty = run_gpuerr(triage({dir + "/empty"}));
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find(dir + "/empty") != std::string::npos);
}

TEST_CASE("a log of many blocks reads the same plain, compressed and piped") {
  // 8 MB: more blocks than the reading thread's buffers; the .gz has two members.
  const std::string dir = test::temp_dir().string();
  REQUIRE(run_shell(
              "cd " + dir +
              " && { yes 'step 1 loss 2.0 tokens/s 1000' | head -n 200000; "
              "echo '[rank3]:RuntimeError: CUDA error: misaligned address'; } > a.log && "
              "yes 'step 2 loss 1.0' | head -n 200000 > b.log && cat a.log b.log > big.log && "
              "{ gzip -c a.log; gzip -c b.log; } > big.log.gz && zstd -q -c big.log > big.log.zst")
              .exit_code == 0);
  const std::string gpuerr =
      "@gpuerr@ --index " + test::bundled_index().string() + " triage --json";
  for (const std::string& command :
       {gpuerr + " big.log", gpuerr + " big.log.gz", gpuerr + " big.log.zst",
        "cat big.log | " + gpuerr, "cat big.log.gz | " + gpuerr}) {
    CAPTURE(command);
    const test::Run r = run_shell("cd " + dir + " && " + command);
    REQUIRE(r.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["lines"] == 400001);
    CHECK(j["first_fault"]["entry_id"] == "misaligned-address");
    CHECK(j["first_fault"]["line"] == 200001);
  }
}

TEST_CASE("triage --redact and redact keep host names and addresses in the cluster") {
  const test::Run report = run_gpuerr(triage({"--redact", kFixtures + "xid79-dmesg.log"}));
  CHECK(report.exit_code == 0);
  CHECK(report.out.find("gpu-node-7") == std::string::npos);
  CHECK(report.out.find("host-1") != std::string::npos);
  const test::Run lines = run_gpuerr({"redact", kFixtures + "xid79-dmesg.log"});
  CHECK(lines.exit_code == 0);
  CHECK(lines.out.find("gpu-node-7") == std::string::npos);
  CHECK(lines.out.find("NVRM: Xid (PCI:0000:3b:00): 79") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
