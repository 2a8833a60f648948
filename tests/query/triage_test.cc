// Triage on fixture logs (tests/data/triage/) built from real message formats: torchrun,
// srun -l, c10d watchdog lines, NCCL WARN lines, syslog and journal kernel lines.
#include "query/triage.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "indexer/error.h"
#include "query/log_line.h"
#include "tests/support.h"

namespace gpuerr::query {
namespace {

std::string fixture(const std::string& name) {
  return std::string(GPUERR_SOURCE_DIR) + "/tests/data/triage/" + name;
}

TriageReport triage_files(const std::vector<std::string>& names,
                          std::vector<std::string> patterns = {}) {
  Triage t(test::bundled_store(), std::move(patterns));
  for (const std::string& name : names) {
    std::ifstream in(fixture(name));
    REQUIRE(in);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) t.add_line(name, ++n, line);
  }
  return t.report();
}

// `text` read into `t` as the lines of "r.log", one add_line() each; returns the last line's
// number.
size_t add_line_by_line(Triage& t, std::string_view text) {
  size_t line = 1, start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string_view::npos; start = end + 1)
    t.add_line("r.log", line++, text.substr(start, end - start));
  t.add_line("r.log", line, text.substr(start));
  return line;
}

// `text` read into `t` as the lines of `name`, one add_line() each.
void add_file(Triage& t, const std::string& name, std::string_view text) {
  size_t n = 0;
  for_each_line(text, [&](std::string_view l) { t.add_line(name, ++n, l); });
}

// srun -l output of each of `ranks` reporting a watchdog timeout in collective #`seq`.
std::string watchdog_timeouts(std::initializer_list<int> ranks, int seq) {
  std::string log;
  for (int rank : ranks)
    log += std::to_string(rank) + ": [rank" + std::to_string(rank) +
           "]:[E601 20:34:00.000000123 ProcessGroupNCCL.cpp:616] [Rank " + std::to_string(rank) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" +
           std::to_string(seq) +
           ", OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800321 "
           "milliseconds before timing out.\n";
  return log;
}

// ProcessGroupNCCL's watchdog line of `rank`, without a launcher's prefix, for collective #1040.
std::string watchdog_line(int rank) {
  return "[E1120 03:12:05.000000 40 ProcessGroupNCCL.cpp:616] [Rank " + std::to_string(rank) +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1040, "
         "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 "
         "milliseconds before timing out.";
}

// NCCL's INFO lines of a rank's process: its host and pid, its GPU, and the job's counts.
std::string nccl_init(int rank, const std::string& host, int pid, const std::string& bus,
                      int nodes, int local_ranks) {
  const std::string prefix = "[rank" + std::to_string(rank) + "]:" + host + ":" +
                             std::to_string(pid) + ":" + std::to_string(pid) + " [0] NCCL INFO ";
  return prefix + "comm 0x55d1 rank " + std::to_string(rank) + " nRanks 4 nNodes " +
         std::to_string(nodes) + " localRanks " + std::to_string(local_ranks) +
         " localRank 0 MNNVL 0\n" + prefix + "ncclCommInitRank comm 0x55d1 rank " +
         std::to_string(rank) + " nranks 4 cudaDev 0 nvmlDev 0 busId " + bus +
         " commId 0x9a1 - Init COMPLETE\n";
}

}  // namespace

TEST_SUITE("query") {

TEST_CASE("an illegal access on one rank: that rank first, the timeouts of the others cascade") {
  const TriageReport r = triage_files({"illegal-access-cascade.log"});
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.first_fault->rank == 2);
  CHECK(r.first_fault->line == 8);
  CHECK(r.verdict == "code");
  CHECK(r.faults.size() == 1);  // everything else is explained by it
  CHECK(r.cascade_count >= 6);  // three timeouts, the abort, SIGTERMs, ChildFailedError
  // torchrun's summary names rank 1, the first *it* saw exit: recorded, but as weak evidence
  REQUIRE(r.launcher_first_failure);
  CHECK(r.launcher_first_failure->text.find("rank 1") != std::string::npos);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);  // Lightning's save at 11:59, before the fault
  CHECK(r.safe_to_resume == true);
  CHECK_FALSE(r.first_action.empty());
  // PyTorch's "For debugging consider passing CUDA_LAUNCH_BLOCKING=1" suggests it, no more
  CHECK(std::find(r.settings.begin(), r.settings.end(), "CUDA_LAUNCH_BLOCKING=1") ==
        r.settings.end());
  CHECK(r.first_action_note.empty());
}

TEST_CASE("a hang: the rank whose collectives stopped is the suspect, not the first to time out") {
  const TriageReport r = triage_files({"nccl-hang.log"});
  REQUIRE(r.hang_suspect_rank);
  CHECK(*r.hang_suspect_rank == 2);
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 2);
  CHECK(r.first_fault->entry_id == "nccl-watchdog-timeout");
  CHECK(r.last_checkpoint);  // Hugging Face Trainer's save
  CHECK(std::find(r.settings.begin(), r.settings.end(), "NCCL_DEBUG=WARN") != r.settings.end());
}

TEST_CASE("Xid 79 in the kernel log makes the rank's CUDA errors the hardware's cascade") {
  const TriageReport r = triage_files({"xid79-rank5.log", "xid79-dmesg.log"});  // any file order
  REQUIRE(r.first_fault);
  // The kernel logged the uncorrected PCIe error at the GPU's port 3 s before the Xid 79.
  CHECK(r.first_fault->entry_id == "pcie-aer-error");
  CHECK(r.first_fault->host == "gpu-node-7");
  CHECK(r.first_fault->rank == 5);  // the rank whose GPU fell off the bus
  CHECK(r.verdict == "hardware");
  CHECK(r.faults.size() == 1);
  bool rank5_in_cascade = false, xid79_in_cascade = false;
  for (const LogEvent& e : r.cascade) {
    rank5_in_cascade |= e.rank == 5 && !e.entry_id.starts_with("xid-");
    xid79_in_cascade |= e.entry_id == "xid-79";
  }
  CHECK(rank5_in_cascade);
  CHECK(xid79_in_cascade);
}

TEST_CASE("the same rank log alone blames nobody's hardware without kernel evidence") {
  const TriageReport r = triage_files({"xid79-rank5.log"});
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "unspecified-launch-failure");
  CHECK(r.verdict != "hardware");
}

TEST_CASE("corrected PCIe errors in the kernel log neither lead nor blame the hardware") {
  // Chipsets log corrected AER errors by the thousand; the link retried and nothing was lost.
  Triage t(test::bundled_store());
  add_file(t, "dmesg.txt",
           "[Thu Dec  4 10:00:01 2026] pcieport 0000:00:03.1: AER: Corrected error received: "
           "0000:00:03.1\n"
           "[Thu Dec  4 10:00:01 2026] pcieport 0000:00:03.1: PCIe Bus Error: severity=Corrected, "
           "type=Physical Layer, (Receiver ID)\n");
  add_file(t, "rank0.log",
           "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.verdict == "code");
}

TEST_CASE("an ECC error: the save before it is safe, the save after it is not") {
  const TriageReport r = triage_files({"ecc-checkpoints.log"});
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-48");
  CHECK(r.verdict == "hardware");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
  CHECK(r.safe_to_resume == true);
  REQUIRE(r.checkpoints_after_fault.size() == 1);
  CHECK(r.checkpoints_after_fault[0].line == 5);
}

TEST_CASE("an unprefixed traceback takes its rank from the failure summary torchrun prints below it") {
  const std::string node1 =
      "2024-02-09 12:41:20,000 INFO step 300 loss 1.9\n"
      "Traceback (most recent call last):\n"
      "  File \"/mnt/code/main.py\", line 161, in train\n"
      "    loss = model(**batch).loss\n"
      "RuntimeError: Expected all tensors to be on the same device, but found at least two "
      "devices, cuda:3 and cuda:0!\n"
      "[2024-02-09 12:41:31,910] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending "
      "process 357848 closing signal SIGTERM\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2024-02-09_12:41:29\n"
      "  host      : dgx221\n"
      "  rank      : 7 (local_rank: 3)\n"
      "  exitcode  : 1 (pid: 357851)\n";
  Triage t(test::bundled_store());
  add_file(t, "dgx221.log", node1);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "pytorch-tensors-on-different-devices");
  CHECK(r.first_fault->rank == 7);
  CHECK(r.first_fault->local_rank == 3);
  CHECK(r.first_fault->rank_line == 11);  // the summary's rank line
}

TEST_CASE("a program's Xid days before the job's logs begin is another program's") {
  // A node's kernel log goes back to its boot; the Xid 43 (which follows a program's own fault)
  // is from three days before this job started.
  // (a node's syslog too: its first line is no kernel's, and still not the job's)
  const std::string dmesg =
      "2024-12-25T21:30:04.470909+00:00 node3 sshd[76742]: Accepted publickey for ops\n"
      "2024-12-25T21:32:33.916271+00:00 node3 kernel: [536755.621229] NVRM: Xid (PCI:0000:18:00): "
      "43, pid=16450, name=python3, Ch 00000010\n";
  const std::string job =
      "2024-12-28T22:49:19.262102729Z INFO starting\n"
      "2024-12-28T22:49:45.016627934Z [rank1]: RuntimeError: CUDA error: an illegal memory "
      "access was encountered\n";
  Triage t(test::bundled_store());
  add_file(t, "syslog-node3.log", dmesg);
  add_file(t, "worker-0.log", job);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.first_fault->rank == 1);
}

TEST_CASE("an undated save before the incident's error in its own file is before a dated Xid") {
  Triage t(test::bundled_store());
  add_file(t, "syslog-node148.log",
           "2024-06-15T13:16:35.303986+00:00 node148 kernel: [1639311.306872] NVRM: Xid "
           "(PCI:0000:5d:00): 79, pid=165675, name=python3, GPU has fallen off the bus.\n");
  add_file(t, "run.log",
           "[rank3]: Epoch 1, global step 9500: 'val_loss' reached 2.52734 (best 2.47400), saving "
           "model to '/ckpt/epoch=1-step=9500.ckpt' as top 3\n"
           "[rank3]: Epoch 1: 100%|##########| 500/500 [02:01<00:00,  4.11it/s]\n"
           "[rank3]: RuntimeError: CUDA error: unspecified launch failure\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-79");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->file == "run.log");
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("a save begun under torchrun's [default0] prefix ends when progress follows, not teardown") {
  const std::string save =
      "[default0]:Epoch 1, global step 9500: 'val_loss' reached 2.52734, saving model to "
      "'/ckpt/epoch=1-step=9500.ckpt' as top 3\n";
  const std::string fault = "[default3]:RuntimeError: CUDA error: an illegal memory access was "
                            "encountered\n";
  {  // its progress bar goes on: the save completed (the prefix holds no cue word)
    Triage t(test::bundled_store());
    add_file(t, "run.log", save +
                               "[default0]:Epoch 1:  92%|#########| 4600/5000 [2:48:40<14:40, "
                               "0.45it/s, train_loss=2.373]\n" + fault);
    CHECK(t.report().safe_to_resume == true);
  }
  {  // the launcher tears the job down, then prints its failure summary: it never completed
    Triage t(test::bundled_store());
    add_file(t, "run.log",
             save + fault +
                 "W0613 08:21:07.345000 26193 torch/distributed/elastic/multiprocessing/api.py:897] "
                 "Sending process 26219 closing signal SIGTERM\n"
                 "============================================================\n"
                 "[0]:\n");
    CHECK_FALSE(t.report().safe_to_resume == true);
  }
}

TEST_CASE("ranks that time out at one sequence number in different collectives: the odd one") {
  const auto timeout = [](int rank, const char* op) {
    return "[rank" + std::to_string(rank) + "]:[E ProcessGroupNCCL.cpp:523] [Rank " +
           std::to_string(rank) + "] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=242746, OpType=" + op + ", NumelIn=1, NumelOut=1, "
           "Timeout(ms)=1800000) ran for 1800027 milliseconds before timing out.\n";
  };
  for (const char* odd : {"BROADCAST", "ALLREDUCE"}) {
    CAPTURE(odd);
    Triage t(test::bundled_store());
    for (int rank = 0; rank < 4; ++rank)
      add_file(t, "rank_" + std::to_string(rank) + ".log",
               "2025-06-16 12:44:02,797 INFO step 2073\n" +
                   timeout(rank, rank == 2 ? odd : "ALLREDUCE"));
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    const bool mismatch = std::string(odd) == "BROADCAST";
    CHECK((r.hang_suspect_rank == 2) == mismatch);
    CHECK((r.verdict == "code") == mismatch);
    if (mismatch) CHECK(r.first_fault->reading.find("different collectives") != std::string::npos);
  }
}

TEST_CASE("a run that saved nothing before its fault resumes from the checkpoint it loaded") {
  const std::string start =
      "+ srun python train.py --config run.yaml --resume_from_checkpoint /ckpt/exp3/global_step750\n"
      "2025-03-04 10:00:00,000 INFO step 751 loss 2.0\n";
  const std::string fault =
      "2025-03-04 10:05:00,000 ERROR RuntimeError: CUDA error: an illegal memory access was "
      "encountered\n";
  {
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log", start + fault);
    const TriageReport r = t.report();
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 1);
    CHECK(r.safe_to_resume == true);
  }
  {  // a save of its own before the fault is the one to resume from
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log",
             start + "2025-03-04 10:02:00,000 INFO Checkpoint global_step800 is ready now!\n" + fault);
    const TriageReport r = t.report();
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 3);
  }
  {  // a load that failed is no checkpoint to go back to
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log",
             "2025-03-04 10:00:00,000 ERROR Failed to load checkpoint from /ckpt/exp3/global_step750\n" +
                 fault);
    CHECK_FALSE(t.report().last_checkpoint);
  }
}

TEST_CASE("an out-of-memory on one rank: the job's settings, with its reading, and no advice already taken") {
  const TriageReport r = triage_files({"oom-one-rank.log"});
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
  CHECK(r.first_fault->local_rank == 1);
  CHECK(r.verdict == "configuration");
  CHECK(r.verdict_reason.find("batch size") != std::string::npos);
  CHECK(r.first_fault->reading.starts_with("exhaustion:"));
  // the log already sets expandable_segments, so the action that says to set it is skipped;
  // the figures found exhaustion, so the action is theirs: use less memory
  CHECK(r.first_action.find("expandable_segments:True") == std::string::npos);
  CHECK(r.first_action.find("smaller batch") != std::string::npos);
  CHECK_FALSE(r.first_action_note.empty());
}

TEST_CASE("a clean log has no fault and a checkpoint that is safe") {
  const TriageReport r = triage_files({"clean.log"});
  CHECK_FALSE(r.first_fault);
  CHECK(r.verdict == "unknown");
  CHECK(r.cascade_count == 0);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("sixteen ranks of two jobs interleaved on one stdout: the asserting rank is found") {
  const TriageReport r = triage_files({"interleaved-two-jobs.log"});
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "device-side-assert");
  CHECK(r.first_fault->rank == 13);
  CHECK(r.verdict == "code");
  CHECK(r.faults.size() == 1);
}

TEST_CASE("a site's own checkpoint pattern is read, and a bad one is refused") {
  Triage t(test::bundled_store(), {"ckpt-writer: wrote \\S+"});
  t.add_line("a.log", 1, "2024-01-01T00:00:00Z ckpt-writer: wrote /ckpt/step-9");
  t.add_line("a.log", 2, "2024-01-01T00:01:00Z RuntimeError: CUDA error: misaligned address");
  const TriageReport r = t.report();
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 1);
  CHECK_THROWS_AS(Triage(test::bundled_store(), {"unclosed("}), Error);
}

TEST_CASE("an Xid on another host does not make a rank's error hardware") {
  Triage t(test::bundled_store());
  // rank 3 lives on node-b: its NCCL lines say so
  t.add_line("rank3.log", 1, "node-b:4242:4300 [3] NCCL INFO Bootstrap : Using ib0:10.0.0.2<0>");
  t.add_line("rank3.log", 2, "2024-03-05T10:12:03Z RuntimeError: CUDA error: misaligned address");
  t.add_line("dmesg-a.log", 1, "Mar  5 10:12:01 node-a kernel: NVRM: Xid (PCI:0000:3b:00): 79, "
                               "pid=1, name=python3, GPU has fallen off the bus.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-79");  // the earliest fault of the job
  bool rank3_separate = false;
  for (const LogEvent& e : r.faults) rank3_separate |= e.rank == 3 && e.host == "node-b";
  CHECK(rank3_separate);  // not swallowed into node-a's cascade
}

TEST_CASE("a hardware warning near the fault does not make it hardware") {
  Triage t(test::bundled_store());
  t.add_line("node.log", 1, "Mar  5 10:12:00 node-a kernel: NVRM: Xid (PCI:0000:3b:00): 93, pid=1, "
                            "name=python3, Non-fatal violation of provisioned InfoROM wear limit");
  t.add_line("node.log", 2, "Mar  5 10:12:03 node-a python3[1]: RuntimeError: CUDA error: misaligned address");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "misaligned-address");
  CHECK(r.verdict == "code");
}

TEST_CASE("repeats collapse into one event with a count") {
  Triage t(test::bundled_store());
  for (size_t i = 1; i <= 1000; ++i)
    t.add_line("r.log", i, "[rank4]:RuntimeError: CUDA error: misaligned address");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->count == 1000);
  CHECK(r.faults.size() == 1);
  CHECK(r.lines == 1000);
}

TEST_CASE("a block of lines counts its lines and bytes as line by line does") {
  const std::string block =
      "step 1 loss 2.0\n[rank4]:RuntimeError: CUDA error: misaligned address\nstep 2\n\nstep 3";
  std::string crlf;
  for (const char c : block) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  // Without and with a site's own save pattern: the second reads every line one by one.
  for (const std::vector<std::string>& saves : {std::vector<std::string>{}, {"my save done"}}) {
    for (const std::string& text : {block, block + "\n", "\n" + block, crlf}) {
      CAPTURE(text);
      CAPTURE(saves.size());
      Triage whole(test::bundled_store(), saves), by_line(test::bundled_store(), saves);
      whole.add_lines("r.log", 1, text);
      const size_t line = add_line_by_line(by_line, text);
      const TriageReport a = whole.report(), b = by_line.report();
      CHECK(a.lines == b.lines);
      CHECK(a.lines == line);
      CHECK(a.bytes == b.bytes);
      CHECK(a.bytes == text.size() + 1);
      REQUIRE(a.first_fault);
      CHECK(a.first_fault->line == b.first_fault->line);
    }
  }
}

TEST_CASE("torchrun's failure summary is read the same in one block as line by line") {
  std::ifstream in(fixture("illegal-access-cascade.log"));
  REQUIRE(in);
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // As written, and with empty lines inside the summary.
  std::string spaced = log;
  spaced.insert(spaced.find("\n", spaced.find("Root Cause")) + 1, "\n\n");
  for (const std::string& text : {log, spaced}) {
    Triage whole(test::bundled_store(), {}), by_line(test::bundled_store(), {});
    whole.add_lines("r.log", 1, text);
    add_line_by_line(by_line, text);
    const TriageReport a = whole.report(), b = by_line.report();
    CHECK(a.lines == b.lines);
    CHECK(a.bytes == b.bytes);
    CHECK(a.bytes == text.size() + 1);
    // The field lines ("host      : gpu-node-4", "rank      : 1 ...") hold no cue word.
    REQUIRE(a.launcher_first_failure);
    REQUIRE(b.launcher_first_failure);
    CHECK(a.launcher_first_failure->text == b.launcher_first_failure->text);
    CHECK(a.launcher_first_failure->text.find("rank 1") != std::string::npos);
  }
}

TEST_CASE("a log of JSON records (Docker's json-file driver) triages as the plain log") {
  std::ifstream in(fixture("illegal-access-cascade.log"));
  REQUIRE(in);
  std::string plain, records, line;
  for (size_t n = 0; std::getline(in, line); ++n) {
    plain += line + '\n';
    const std::string time = "2024-05-01T12:00:" + std::to_string(10 + n) + ".000000000Z";
    records += nlohmann::json{{"log", line + "\n"}, {"stream", "stderr"}, {"time", time}}.dump();
    records += '\n';
  }
  Triage ref(test::bundled_store(), {});
  ref.add_lines("r.log", 1, plain);
  const TriageReport want = ref.report();
  Triage whole(test::bundled_store(), {}), by_line(test::bundled_store(), {});
  whole.add_lines("r.log", 1, records);
  add_line_by_line(by_line, records);
  for (const TriageReport& got : {whole.report(), by_line.report()}) {
    REQUIRE(got.first_fault);
    CHECK(got.first_fault->entry_id == want.first_fault->entry_id);
    CHECK(got.first_fault->rank == want.first_fault->rank);
    CHECK(got.first_fault->line == want.first_fault->line);
    CHECK(got.first_fault->text == want.first_fault->text);  // the message, not the record
    CHECK(got.verdict == want.verdict);
    CHECK(got.faults.size() == want.faults.size());
    CHECK(got.cascade_count == want.cascade_count);
    REQUIRE(got.launcher_first_failure);
    CHECK(got.launcher_first_failure->text == want.launcher_first_failure->text);
    REQUIRE(got.last_checkpoint);
    CHECK(got.last_checkpoint->line == want.last_checkpoint->line);
    CHECK(got.safe_to_resume == want.safe_to_resume);
  }
}

TEST_CASE("a JSON record's own time field dates its message") {
  // The message holds no time; Docker's "time" field, after it in the record, does.
  Triage t(test::bundled_store(), {});
  t.add_line("r.log", 1, R"({"log":"step 1\n","stream":"stdout","time":"2024-05-01T12:00:01Z"})");
  t.add_line("r.log", 2,
             R"({"log":"[rank1]:RuntimeError: CUDA error: misaligned address\n","stream":"stderr",)"
             R"("time":"2024-05-01T12:00:05Z"})");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 1);
  REQUIRE(r.first_fault->time);
  CHECK(*r.first_fault->time == doctest::Approx(utc_seconds(2024, 5, 1, 12, 0, 5)));
}

TEST_CASE("a loop that logs only its saves' starts: a later start shows the one before ended") {
  Triage t(test::bundled_store());
  add_line_by_line(t,
                   "2026-12-01 03:05:00 | INFO | Saving checkpoint to /ckpt/step_12000\n"
                   "2026-12-01 03:05:01 | INFO | Saving checkpoint to /ckpt/step_12000 (rank 1)\n"
                   "2026-12-01 03:20:00 | INFO | step 12500 | loss 2.101\n"
                   "2026-12-01 03:25:00 | INFO | Saving checkpoint to /ckpt/step_12500\n"
                   "2026-12-01 03:25:31 | ERROR | RuntimeError: CUDA error: an illegal memory "
                   "access was encountered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);  // the save at 03:05; the one at 03:25 never ended
  CHECK(r.safe_to_resume == true);
  CHECK(r.checkpoint_reason.find(":4) never completed") != std::string::npos);
}

TEST_CASE("a rank PyTorch's desync report names is the hang's suspect, not the lowest number") {
  std::string log;
  for (int rank : {0, 3, 12}) {
    const std::string r = std::to_string(rank);
    const std::string seq = rank == 3 ? "2503" : "2506";
    log += "[rank" + r + "]:[E1129 12:38:11.950886964 ProcessGroupNCCL.cpp:607] [Rank " + r +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2503, "
           "OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=1800000) ran for "
           "1800009 milliseconds before timing out.\n"
           "[rank" +
           r + "]:[E1129 12:38:11.953431606 ProcessGroupNCCL.cpp:1664] [PG 0 Rank " + r +
           "] Exception (either an error or timeout) detected by watchdog at work: 2503, last "
           "enqueued NCCL work: " +
           seq +
           ", last completed NCCL work: 2502.\n"
           "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the "
           "desync are:\n"
           "             [11] finished collective #2502, but didn't join collective #2503 (count "
           "from 1)\n";
  }
  Triage t(test::bundled_store());
  t.add_lines("job.out", 1, log);
  const TriageReport r = t.report();
  REQUIRE(r.hang_suspect_rank);
  CHECK(*r.hang_suspect_rank == 11);
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 11);
  CHECK(r.hang_reason.find("desync report") != std::string::npos);
}

TEST_CASE("a hang's checkpoint is the last save above the timeouts that point to it") {
  // (the hang has no line of its own; the saves and the timeouts print no date)
  std::string log =
      "0: iter 1000 | loss 2.6941 | 13:38:41\n"
      "0: => saved checkpoint '/gpfs/u/ckpt/iter_0001000' (iteration 1000)\n"
      "0: iter 1050 | loss 2.6630 | 13:40:14\n";
  for (int rank : {0, 3})
    log += "0: [rank" + std::to_string(rank) + "]:[E ProcessGroupNCCL.cpp:475] [Rank " +
           std::to_string(rank) + "] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=131258, OpType=ALLREDUCE, NumelIn=4194304, NumelOut=4194304, "
           "Timeout(ms)=1800000) ran for 1800923 milliseconds before timing out.\n"
           "0: [rank" + std::to_string(rank) + "]:         - To our best knowledge, the "
           "lagging/dead/mismatched ranks that caused the desync are:\n"
           "0: [rank" + std::to_string(rank) + "]:             [7] joined but didn't finish "
           "collective #131258 (count from 1)\n";
  Triage t(test::bundled_store());
  add_file(t, "slurm-9566260.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "hang");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("times printed without an offset are in the one offset the input's dated lines print") {
  // (rank 0's Python logging prints -08:00; the agent of another node prints glog's local time)
  const std::string rank0 =
      "[rank0]:2025-06-20T17:30:00.000-08:00 INFO step=950 loss=2.81\n"
      "[rank0]:2025-06-20T17:37:12.916-08:00 INFO saved checkpoint /ckpt/exp45/ckpt_step1000\n"
      "[rank0]:2025-06-20T17:40:00.000-08:00 INFO step=1050 loss=2.79\n";
  const std::string agent =
      "E0620 17:41:59.544540 142000 torch/distributed/elastic/multiprocessing/api.py:869] "
      "failed (exitcode: -9) local_rank: 7 (pid: 168134) of binary: /usr/bin/python\n";
  Triage t(test::bundled_store());
  add_file(t, "node0/torchrun.log", rank0);
  add_file(t, "node2/torchrun.log", agent);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.first_fault->time);
  CHECK(*r.first_fault->time == doctest::Approx(*parse_line("2025-06-21T01:41:59Z", 0)
                                                     .origin.time));
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("Slurm's preemption is the job's first fault, configuration, of no rank") {
  const std::string log =
      "[INFO|trainer.py:3478] 2024-01-19 13:10:05,278 >> Saving model checkpoint to "
      "/ckpt/sft/checkpoint-800\n"
      "[INFO|modeling_utils.py:2793] 2024-01-19 13:10:44,438 >> Model weights saved in "
      "/ckpt/sft/checkpoint-800/model.safetensors\n"
      "{'loss': 1.8181, 'grad_norm': 1.6105, 'learning_rate': 1.2867e-05, 'epoch': 0.36}\n"
      "slurmstepd: error: *** JOB 6247300 ON gpu084 CANCELLED AT 2024-01-19T13:15:09 DUE TO "
      "PREEMPTION ***\n"
      "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
      "[rank1]: torch.distributed.DistBackendError: NCCL error in: "
      "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, remote process exited or there "
      "was a network error, NCCL version 2.19.3\n";
  Triage t(test::bundled_store());
  add_file(t, "slurm-6247300.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "slurm-job-preempted");
  CHECK(!r.first_fault->rank);
  CHECK(r.verdict == "configuration");
}

TEST_CASE("a fault whose traceback passes through a save leaves that save incomplete") {
  const std::string saves =
      "0: 2026-12-01 04:00:00 INFO saving checkpoint to /ckpt/run19/step_250.pt\n"
      "0: 2026-12-01 04:00:40 INFO checkpoint saved: /ckpt/run19/step_250.pt\n"
      "0: 2026-12-01 04:10:00 INFO step 400 loss 3.01\n"
      "0: 2026-12-01 04:20:00 INFO saving checkpoint to /ckpt/run19/step_500.pt\n";
  const std::string traceback =
      "3: Traceback (most recent call last):\n"
      "3:   File \"train.py\", line 261, in train\n"
      "3:     save_checkpoint(model, opt, step, args.save)\n"
      "3:   File \"/opt/conda/lib/python3.11/site-packages/torch/serialization.py\", line 628, in "
      "save\n"
      "3:     with _open_zipfile_writer(f) as opened_zipfile:\n"
      "3: OSError: [Errno 28] No space left on device: '/ckpt/run19/step_500.pt'\n";
  SUBCASE("the save the fault was in is not the one to resume from") {
    Triage t(test::bundled_store());
    t.add_lines("job.out", 1, saves + traceback);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->during_save);
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 2);  // step_250, not the step_500 the error cut short
    CHECK(r.safe_to_resume == true);
  }
  SUBCASE("a traceback through training code alone says nothing of the save") {
    std::string plain = traceback;
    plain.replace(plain.find("in train\n"), 9, "in step\n");
    plain.replace(plain.find("in save\n"), 8, "in forward\n");
    Triage t(test::bundled_store());
    t.add_lines(
        "job.out", 1,
        saves + "0: 2026-12-01 04:21:00 INFO checkpoint saved: /ckpt/run19/step_500.pt\n" + plain);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK_FALSE(r.first_fault->during_save);
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 5);
  }
}

TEST_CASE("Hugging Face's weights are the first part of its save: complete once work goes on") {
  const std::string save =
      "[INFO|trainer.py:3705] 2026-12-01 10:38:56,711 >> Saving model checkpoint to "
      "out/checkpoint-3450\n"
      "[INFO|modeling_utils.py:2627] 2026-12-01 10:40:09,262 >> Model weights saved in "
      "out/checkpoint-3450/model.safetensors\n";
  const std::string kill =
      "[2026-12-01 10:40:26,008] torch.distributed.elastic.multiprocessing.api: [WARNING] "
      "Sending process 394302 closing signal SIGTERM\n"
      "[2026-12-01 10:40:31,180] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
      "(exitcode: -9) local_rank: 0 (pid: 394301) of binary: /usr/bin/python\n";
  SUBCASE("killed before anything else: the save never completed") {
    Triage t(test::bundled_store());
    t.add_lines("node0.log", 1, save + kill);
    const TriageReport r = t.report();
    CHECK_FALSE(r.safe_to_resume == true);
  }
  SUBCASE("training went on, then the kill: the save completed") {
    Triage t(test::bundled_store());
    t.add_lines("node0.log", 1,
                save + "{'loss': 2.7237, 'grad_norm': 2.264297, 'epoch': 4.54}\n" +
                    " 48%|####8     | 3460/7200 [33:15<3:58:11,  0.26it/s]\n" + kill);
    const TriageReport r = t.report();
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 2);
    CHECK(r.safe_to_resume == true);
  }
}

TEST_CASE("a time limit that ends a job silent for an hour ended a hang") {
  auto job = [](const std::string& cancelled_at) {
    Triage t(test::bundled_store());
    t.add_lines("slurm-77.out", 1,
                "2026-12-01 03:50:00 INFO step 280 loss 3.02\n"
                "slurmstepd: error: *** JOB 77 ON node-3 CANCELLED AT " +
                    cancelled_at + " DUE TO TIME LIMIT ***\n");
    return t.report();
  };
  const TriageReport hung = job("2026-12-01T05:49:21");
  REQUIRE(hung.first_fault);
  CHECK(hung.first_fault->entry_id == "slurm-time-limit");
  CHECK(hung.verdict == "unknown");
  CHECK(hung.verdict_reason.find("printed nothing for 119 minutes") != std::string::npos);
  CHECK(hung.first_action.find("hang") != std::string::npos);
  const TriageReport working = job("2026-12-01T03:52:00");  // two minutes after its last step
  CHECK(working.verdict == "configuration");
}

TEST_CASE("a time limit in the launcher's file is set against the ranks' own files") {
  auto job = [](const std::string& last_step_at) {
    Triage t(test::bundled_store());
    t.add_lines("logs/train-7712-0.out", 1,
                "2026-12-01 03:40:00 INFO step 270 loss 3.05\n" + last_step_at +
                    " INFO step 280 loss 3.02\n");
    t.add_lines("slurm-77.out", 1,
                "slurmstepd: error: *** JOB 77 ON node-3 CANCELLED AT 2026-12-01T05:49:21 DUE TO "
                "TIME LIMIT ***\n");
    return t.report();
  };
  CHECK(job("2026-12-01 03:50:00").verdict == "unknown");        // two hours of silence
  CHECK(job("2026-12-01 05:48:30").verdict == "configuration");  // working until the limit
}

TEST_CASE("a node's launcher output is the job's: an Xid days before it is not the job's") {
  Triage t(test::bundled_store());
  t.add_lines("logs/node-a.log", 1,
              "[2024-04-10 05:21:35,282] torch.distributed.elastic.agent.server.api: [INFO] "
              "[default] Rendezvous'ing worker group\n"
              "Traceback (most recent call last):\n"
              "  File \"/usr/lib/python3/site-packages/torch/distributed/elastic/rendezvous/"
              "dynamic_rendezvous.py\", line 648, in run\n"
              "    raise RendezvousTimeoutError\n"
              "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n");
  t.add_lines("journalctl-k-node-a.log", 1,
              "Apr 06 18:30:56 node-a kernel: NVRM: Xid (PCI:0000:07:00): 13, pid=55449, "
              "name=python, Graphics SM Warp Exception on (GPC 4, TPC 1, SM 0): Out Of Range "
              "Address\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id != "xid-13");
}

TEST_CASE("a save whose end is never logged ended when its rank's work goes on after it") {
  // Lightning prints "saving model to" before it writes, and nothing when it is done.
  const std::string save =
      "[rank0]:2026-12-01 04:00:00 Epoch 3, global step 4000: 'val_loss' reached 0.51234 (best "
      "0.51234), saving model to '/ckpt/epoch=3-step=4000.ckpt' as top 1\n";
  const std::string crash =
      "[rank0]:Traceback (most recent call last):\n"
      "[rank0]:  File \"train.py\", line 40, in <module>\n"
      "[rank0]:    trainer.fit(model)\n"
      "[rank0]:RuntimeError: CUDA error: an illegal memory access was encountered\n";
  SUBCASE("its rank's progress line follows: the save ended") {
    Triage t(test::bundled_store());
    add_line_by_line(t, save + "[rank0]:Epoch 4:  12%|#2  | 120/1000 [00:30<03:40, 4.00it/s]\n" +
                            crash);
    const TriageReport r = t.report();
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 1);
    CHECK(r.safe_to_resume == true);
  }
  SUBCASE("only another rank's line and a traceback follow: the save never ended") {
    Triage t(test::bundled_store());
    add_line_by_line(t, save + "[rank1]:Epoch 3: 100%|##########| 1000/1000\n" + crash);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK_FALSE(r.last_checkpoint);
    CHECK(r.checkpoint_reason.find("r.log:1 never completed") != std::string::npos);
  }
  SUBCASE("in a structured logger's records, a traceback's record shows no work") {
    auto record = [](const std::string& line) {
      return nlohmann::json{{"log", line + "\n"}, {"stream", "stderr"}}.dump() + "\n";
    };
    Triage t(test::bundled_store());
    t.add_lines("r.log", 1,
                record(save.substr(0, save.size() - 1)) +
                    record("[rank0]:  File \"train.py\", line 40, in <module>") +
                    record("[rank0]:RuntimeError: CUDA error: an illegal memory access was "
                           "encountered"));
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK_FALSE(r.last_checkpoint);
  }
}

TEST_CASE("an undated error takes the time of the dated line just above it, not of the last cue") {
  const std::string rank0 =
      "2026-12-01 10:00:00 INFO checkpoint saved to /ckpt/step_100\n"
      "2026-12-01 10:20:00 INFO step 300 loss 1.1\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "RuntimeError: CUDA error: an illegal memory access was encountered";
  const std::string rank1 =
      "2026-12-01 10:10:00 ERROR RuntimeError: CUDA error: misaligned address";
  for (const bool in_blocks : {true, false}) {
    CAPTURE(in_blocks);
    Triage t(test::bundled_store());
    for (const auto& [name, text] : {std::pair{"rank0.log", rank0}, {"rank1.log", rank1}}) {
      if (in_blocks) {
        t.add_lines(name, 1, text);
        continue;
      }
      size_t n = 0;
      for_each_line(text, [&](std::string_view l) { t.add_line(name, ++n, l); });
    }
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->rank == 1);  // rank 0's traceback ended at about 10:20, after it
    CHECK(r.first_fault->entry_id == "misaligned-address");
    REQUIRE(r.faults.size() == 2);
    REQUIRE(r.faults[1].time);
    CHECK(*r.faults[1].time == utc_seconds(2026, 12, 1, 10, 20, 0));
  }
}

TEST_CASE("an assertion printed without a rank takes the rank of its traceback just below") {
  const std::string assertion =
      "../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: "
      "[0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.\n";
  const std::string traceback =
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"/work/train.py\", line 88, in <module>\n"
      "[rank1]: RuntimeError: CUDA error: device-side assert triggered\n";
  {
    Triage t(test::bundled_store());
    add_line_by_line(t, assertion + traceback);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "device-side-assert");
    CHECK(r.first_fault->line == 1);
    CHECK(r.first_fault->rank == 1);
    CHECK(r.first_fault->rank_line == 4);
  }
  {  // a report of it far below is another matter
    Triage t(test::bundled_store());
    std::string progress;
    for (int i = 0; i < 60; ++i) progress += "step " + std::to_string(i) + " loss 1.0\n";
    add_line_by_line(t, assertion + progress + traceback);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK_FALSE(r.first_fault->rank);
    CHECK(r.first_fault->rank_line == 0);
  }
}

TEST_CASE("a journald JSON record is dated and placed as journalctl -o short-iso prints it") {
  Triage t(test::bundled_store());
  t.add_line("journal.json", 1,
             R"({"__REALTIME_TIMESTAMP":"1709633521123456","_HOSTNAME":"node7",)"
             R"("SYSLOG_IDENTIFIER":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:3b:00): 79, )"
             R"(pid=1234, name=python3, GPU has fallen off the bus."})");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-79");
  CHECK(r.first_fault->host == "node7");
  REQUIRE(r.first_fault->time);
  CHECK(*r.first_fault->time == doctest::Approx(1709633521.123456));
}

TEST_CASE("an Xid beside a rank's CUDA error: verdict and first action are the hardware's") {
  Triage t(test::bundled_store());
  add_file(t, "rank6.log",
           "2024-04-11 14:22:06,900 ERROR RuntimeError: CUDA error: unknown error");
  add_file(t, "journal-node12.log",
           "Apr 11 14:22:07 node12 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=4410, "
           "name=python3, GPU has fallen off the bus.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.verdict == "hardware");
  const std::optional<Entry> xid = test::bundled_store().entry("xid-79");
  REQUIRE(xid);
  CHECK(r.first_action == xid->first_actions.front());
  CHECK(r.first_action_note.find("xid-79") != std::string::npos);
}

TEST_CASE("a memory error with only a kernel uptime leaves a save in another file unjudged") {
  Triage t(test::bundled_store());
  add_file(t, "train.log",
           "2024-10-02 10:00:30,000 INFO Checkpoint saved: /ckpt/step_2000.pt\n"
           "2024-10-02 10:20:02,000 ERROR RuntimeError: CUDA error: uncorrectable ECC error "
           "encountered");
  add_file(t, "dmesg.txt",
           "[33012.551201] NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, name=python, Ch 00000010, "
           "DBE (double bit error) ECC error");
  const TriageReport r = t.report();
  REQUIRE(r.last_checkpoint);
  CHECK_FALSE(r.safe_to_resume.has_value());  // neither "yes" nor "no": the order is unknown
  CHECK(r.checkpoint_reason.find("--boot-time") != std::string::npos);
}

TEST_CASE("a dmesg of uptimes alone does not stop the rank logs being ordered by time") {
  for (const bool dmesg_first : {true, false}) {
    CAPTURE(dmesg_first);
    Triage t(test::bundled_store());
    const std::string dmesg =
        "[51234.100201] NVRM: Xid (PCI:0000:1b:00): 31, pid=4410, name=python, Ch 00000010";
    if (dmesg_first) add_file(t, "dmesg.txt", dmesg);
    add_file(t, "rank0.log",
             "2024-10-03 10:00:40,000 ERROR RuntimeError: CUDA error: an illegal memory access "
             "was encountered");
    add_file(t, "rank1.log",
             "2024-10-03 10:00:00,000 ERROR RuntimeError: CUDA error: an illegal memory access "
             "was encountered");
    if (!dmesg_first) add_file(t, "dmesg.txt", dmesg);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->rank == 1);
    CHECK(r.verdict == "code");
  }
}

TEST_CASE("a traceback's error is dated from below only: an Xid minutes after its date counts") {
  Triage t(test::bundled_store());
  add_file(t, "node7-train.log",
           "2024-03-05 10:00:00,004 - INFO - [rank0] step 4500 loss 2.1\n"
           "[rank0]: Traceback (most recent call last):\n"
           "[rank0]:   File \"train.py\", line 12, in <module>\n"
           "[rank0]: RuntimeError: CUDA error: unspecified launch failure");
  add_file(t, "kern.log",
           "Mar  5 10:11:58 gpu-node-7 kernel: [ 8810.402117] NVRM: Xid (PCI:0000:3b:00): 79, "
           "pid=4410, name=python3, GPU has fallen off the bus.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.verdict == "hardware");
  // the GPU's own report is not the echo of the application's poisoned context
  for (const LogEvent& e : r.cascade) CHECK(e.entry_id != "xid-79");
}

TEST_CASE("a date printed without its year takes the year nearest the log's full dates") {
  Triage t(test::bundled_store());
  add_file(t, "kern.log",
           "Dec 31 23:59:58 node4 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=77, name=python3, "
           "GPU has fallen off the bus.");
  add_file(t, "rank1.log",
           "2025-01-01 00:00:03,000 ERROR RuntimeError: CUDA error: unspecified launch failure");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-79");
  REQUIRE(r.first_fault->time);
  CHECK(*r.first_fault->time == utc_seconds(2024, 12, 31, 23, 59, 58));
  CHECK(r.verdict == "hardware");
}

TEST_CASE("Xid 92, corrected single-bit errors, neither faults a job nor spoils its saves") {
  Triage t(test::bundled_store());
  add_file(t, "journal.log",
           "Dec  2 08:57:01 node30 kernel: NVRM: Xid (PCI:0000:3b:00): 92, pid=1, name=python3");
  add_file(t, "worker-0.log",
           "2024-12-02 08:58:30,000 INFO checkpoint saved to /ckpt/step_500\n"
           "2024-12-02 09:00:04,000 ERROR RuntimeError: CUDA error: an illegal memory access was "
           "encountered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.verdict == "code");
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("the year of a syslog date comes from the full dates of lines the filter passes over") {
  Triage t(test::bundled_store());
  t.add_lines("train.log", 1,
              "[2024-06-01 03:00:00] iteration  900 | loss 2.0\n"
              "  successfully saved checkpoint from iteration 1000 to /ckpt\n"
              "[2024-06-01 03:30:00] iteration 1900 | loss 1.9\n"
              "  successfully saved checkpoint from iteration 2000 to /ckpt\n");
  t.add_lines("kern.log", 1,
              "Jun  1 03:20:05 gpu-d07 kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=1, "
              "name=python, Ch 00000010, DBE (double bit error) ECC error");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-48");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);  // iteration 1000, before the error
  REQUIRE(r.checkpoints_after_fault.size() == 1);
  CHECK(r.checkpoints_after_fault[0].line == 4);
}

TEST_CASE("an error at the end of a very long line is found") {
  Triage t(test::bundled_store());
  add_line_by_line(t, "2024-06-01 10:00:00,000 ERROR step 1234 failed for batch sample_ids=[" +
                          std::string(6000, '7') +
                          "]: CUDA error: an illegal memory access was encountered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
}

TEST_CASE("a rank killed for host memory is the first fault, and its peers' errors its echo") {
  Triage t(test::bundled_store());
  add_file(t, "slurm-552210.out",
           "0: 2024-06-01 16:03:45,000 INFO step 800 loss 1.2\n"
           "slurmstepd: error: Detected 1 oom_kill event in StepId=552210.0. Some of the step "
           "tasks have been OOM Killed.\n"
           "srun: error: gpu-a02: task 6: Out Of Memory\n"
           "2: gpu-a01:31122:31190 [2] NCCL WARN NET/IB : Got completion from peer "
           "10.3.0.22<39110> with status=12 opcode=0 len=0 vendor err 129 (Send)\n"
           "2: [rank2]: ncclRemoteError: A call failed possibly due to a network error or a "
           "remote process exiting prematurely.\n"
           "srun: error: gpu-a01: tasks 0-3: Exited with exit code 1");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->rank == 6);
  CHECK(r.first_fault->host == "gpu-a02");
  CHECK(r.verdict == "configuration");  // the host's memory, which the job's settings size
  CHECK(r.first_action.find("sacct") != std::string::npos);
  CHECK(r.faults.size() == 1);  // the network warning and the remote error are its echo
}

TEST_CASE("a rank that died by SIGKILL with nothing else to say is still a fault") {
  Triage t(test::bundled_store());
  add_file(t, "job.log",
           "[2024-06-01 07:30:00] INFO step 100 loss 1.0\n"
           "E0601 07:32:48.441000 5531 torch/distributed/elastic/multiprocessing/api.py:833] "
           "failed (exitcode: -9) local_rank: 1 (pid: 5541) of binary: /opt/conda/bin/python");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->local_rank == 1);
  CHECK(r.verdict == "unknown");
  CHECK(r.first_action.find("SIGKILL") != std::string::npos);
}

TEST_CASE("an error the job went on past (a save completed long after it) is not its first fault") {
  Triage t(test::bundled_store());
  add_file(t, "slurm-fairseq.out",
           "2: 2024-06-01 02:03:00 | WARNING | fairseq.trainer | OOM: Ran out of memory with "
           "exception: CUDA out of memory. Tried to allocate 2.00 GiB\n"
           "0: 2024-06-01 03:00:00 | INFO | fairseq.checkpoint_utils | Saved checkpoint "
           "checkpoints/checkpoint_4_34000.pt (epoch 4 @ 34000 updates)\n"
           "3: 2024-06-01 04:28:20 | ERROR | RuntimeError: CUDA error: an illegal memory access "
           "was encountered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.first_fault->rank == 3);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("a hang where one rank says nothing: the default group's silent rank is the suspect") {
  Triage t(test::bundled_store());
  add_line_by_line(t, watchdog_timeouts({0, 1, 2, 3, 4, 6, 7}, 88213));
  const TriageReport r = t.report();
  CHECK(r.hang_suspect_rank == 5);
  CHECK(r.hang_reason.find("#88213") != std::string::npos);
  // Rank 5's log is not in the input: it is still the first fault, with no line of its own,
  // and not rank 0, the first victim to time out.
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 5);
  CHECK(r.first_fault->role == "hang");
  CHECK(r.first_fault->file.empty());
}

TEST_CASE("a silent rank with a log of its own is placed at that log's last line") {
  // rank 2's file stops in the middle of reading a shard; ranks 0, 1 and 3 time out in #512
  Triage t(test::bundled_store());
  for (int rank : {0, 1, 2, 3}) {
    std::string log = "2026-06-01 10:00:00,000 INFO rank=" + std::to_string(rank) +
                      " step 100 loss 2.0\n";
    if (rank == 2) {
      log += "2026-06-01 10:00:05,000 DEBUG rank=2 opening shard /data/shard-0031.jsonl\n\n";
    } else {
      log += "[rank" + std::to_string(rank) + "]:[E601 10:30:00.000000123 ProcessGroupNCCL.cpp:616] "
             "[Rank " + std::to_string(rank) + "] Watchdog caught collective operation timeout: "
             "WorkNCCL(SeqNum=512, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) "
             "ran for 1800321 milliseconds before timing out.\n2026-06-01 10:30:01,000 INFO bye\n";
    }
    t.add_lines("rank_" + std::to_string(rank) + ".log", 1, log);
  }
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "hang");
  CHECK(r.first_fault->rank == 2);
  CHECK(r.first_fault->file == "rank_2.log");
  CHECK(r.first_fault->line == 2);
  CHECK(r.first_fault->text.find("opening shard") != std::string::npos);
  CHECK(r.first_fault->reading.find("last line of its log") != std::string::npos);
}

TEST_CASE("sequence numbers of different process groups are not compared, nor their group ranks") {
  Triage t(test::bundled_store());
  // TP groups {0,1} and {2,3}: each process calls its own TP group "PG ID 1"; the GUIDs differ
  add_file(t, "rank_1.log",
           "[E601 23:12:11.000000000 ProcessGroupNCCL.cpp:632] [PG ID 1 PG GUID 3(TP) Rank 1] "
           "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=18241, "
           "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600031 "
           "milliseconds before timing out.");
  add_file(t, "rank_3.log",
           "[E601 23:12:13.000000000 ProcessGroupNCCL.cpp:632] [PG ID 1 PG GUID 4(TP) Rank 1] "
           "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=18240, "
           "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600031 "
           "milliseconds before timing out.");
  const TriageReport r = t.report();
  CHECK_FALSE(r.hang_suspect_rank);
  REQUIRE(r.first_fault);
  // the first to time out, with no suspect: no rank is named for it
  CHECK(r.first_fault->file == "rank_1.log");
  CHECK_FALSE(r.first_fault->rank);
  bool rank3 = false;
  for (const LogEvent& e : r.cascade) rank3 |= e.rank == 3;
  CHECK(rank3);  // rank_3.log's line stays rank 3's
}

TEST_CASE("a rank's error takes the host its own NCCL lines named, in a file of several hosts") {
  Triage t(test::bundled_store());
  add_file(t, "slurm.out",
           "3: node-a:4001:4100 [3] NCCL INFO Bootstrap : Using ib0:10.0.0.1<0>\n"
           "11: node-b:5003:5100 [3] NCCL INFO Bootstrap : Using ib0:10.0.0.2<0>\n"
           "11: 2024-03-05T10:12:03Z RuntimeError: CUDA error: misaligned address");
  add_file(t, "kern-node-a.log",
           "Mar  5 10:12:01 node-a kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python3, "
           "GPU has fallen off the bus.");
  const TriageReport r = t.report();
  bool rank11_on_b = false;
  for (const LogEvent& e : r.faults) rank11_on_b |= e.rank == 11 && e.host == "node-b";
  CHECK(rank11_on_b);  // so node-a's Xid is not its hardware
}

TEST_CASE("an undated save and a dated memory error in another file: safe to resume is unknown") {
  for (const bool dmesg_first : {true, false}) {
    CAPTURE(dmesg_first);
    Triage t(test::bundled_store());
    const std::string dmesg = "[Sat Jun  1 04:51:30 2024] NVRM: Xid (PCI:0000:4e:00): 48, pid=1, "
                              "name=python, Ch 00000010, DBE (double bit error) ECC error";
    if (dmesg_first) add_file(t, "node-dmesg.log", dmesg);
    add_file(t, "train.log", "checkpoint saved to /ckpt/step_1000.pt\nstep 1100 loss 1.0");
    if (!dmesg_first) add_file(t, "node-dmesg.log", dmesg);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-48");
    REQUIRE(r.last_checkpoint);
    CHECK_FALSE(r.safe_to_resume.has_value());
  }
}

TEST_CASE("of three ranks, two timed out and one said nothing: the silent one is the suspect") {
  Triage t(test::bundled_store());
  add_line_by_line(t, "2: [rank2]: 2026-06-01 20:03:58,000 INFO step 41: loading the next shard\n" +
                          watchdog_timeouts({0, 1}, 88));
  const TriageReport r = t.report();
  CHECK(r.hang_suspect_rank == 2);
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "hang");
  CHECK(r.first_fault->rank == 2);
}

TEST_CASE("of two ranks, the one that said nothing is the peer the other waited for") {
  const std::string timeout =
      "[default0]:[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/"
      "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete\n";
  const std::string progress = "[default1]:2026-12-04 17:55:27,478 INFO [rank1] step 3\n";
  // torchrun's summary names both ranks: rank 1 was stopped by the teardown's SIGTERM
  const std::string summary =
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
      "============================================================\n"
      "train.py FAILED\n"
      "------------------------------------------------------------\n"
      "Failures:\n"
      "[1]:\n"
      "  time      : 2026-12-04_17:55:48\n"
      "  host      : localhost\n"
      "  rank      : 1 (local_rank: 1)\n"
      "  exitcode  : -15 (pid: 712)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal 15 (SIGTERM) received by PID 712\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2026-12-04_17:55:48\n"
      "  host      : localhost\n"
      "  rank      : 0 (local_rank: 0)\n"
      "  exitcode  : 1 (pid: 711)\n"
      "  error_file: <N/A>\n"
      "============================================================\n";
  {
    Triage t(test::bundled_store());
    add_line_by_line(t, progress + timeout + summary);
    const TriageReport r = t.report();
    CHECK(r.hang_suspect_rank == 1);
    CHECK(r.hang_reason.find("the only other rank") != std::string::npos);
  }
  {  // both waited: no suspect
    Triage t(test::bundled_store());
    std::string other = timeout;
    for (const std::string from : {"default0]:[rank0"})
      other.replace(other.find(from), from.size(), "default1]:[rank1");
    add_line_by_line(t, progress + timeout + other + summary);
    CHECK_FALSE(t.report().hang_suspect_rank);
  }
}

TEST_CASE("two ranks and one silent name no hang suspect: too few to tell a gap from a missing log") {
  Triage t(test::bundled_store());
  add_line_by_line(t, "1: [rank1]:[E601 20:34:00.0 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog "
                      "caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
                      "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600321 milliseconds "
                      "before timing out.");
  CHECK_FALSE(t.report().hang_suspect_rank);
}

TEST_CASE("coloured lines give their time and host as plain ones do") {
  for (const bool coloured : {false, true}) {
    CAPTURE(coloured);
    auto paint = [&](const std::string& s) { return coloured ? "\x1b[32m" + s + "\x1b[0m" : s; };
    Triage t(test::bundled_store());
    add_file(t, "rank_3.log",
             paint("gpu-node-a:2303:2303 [3] NCCL INFO cudaDriverVersion 12040") + "\n" +
                 paint("2024-06-01T12:10:00.123Z") + " | INFO | step 2100\n" +
                 "RuntimeError: CUDA error: an illegal memory access was encountered");
    add_file(t, "kern.log",
             paint("Jun  1 12:10:01 gpu-node-a kernel: [86400.000000] NVRM: Xid "
                   "(PCI:0000:3b:00): 79, pid=1, name=python, GPU has fallen off the bus."));
    const TriageReport r = t.report();
    REQUIRE(r.faults.size() + r.cascade.size() >= 2);
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->host == "gpu-node-a");
    REQUIRE(r.first_fault->time);
    CHECK(*r.first_fault->time == doctest::Approx(utc_seconds(2024, 6, 1, 12, 10, 0.123)));
    CHECK(r.verdict == "hardware");
  }
}


TEST_CASE("an Xid on another GPU of the rank's host is neither its cascade nor its verdict") {
  for (const std::string xid_bus : {"0000:86:00", "0000:3b:00"}) {
    CAPTURE(xid_bus);
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             nccl_init(2, "node-a", 4402, "3b000", 1, 4) +
                 "[rank2]:2024-05-02 10:00:00,100 ERROR RuntimeError: CUDA error: an illegal "
                 "memory access was encountered");
    add_file(t, "kern.log",
             "May  2 10:01:00 node-a kernel: NVRM: Xid (PCI:" + xid_bus +
                 "): 48, pid=9001, name=python3, An uncorrectable double bit error (DBE) has "
                 "been detected on GPU in the framebuffer at partition 1, subpartition 0.");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "illegal-memory-access");
    REQUIRE(r.first_fault->gpu);
    CHECK(*r.first_fault->gpu == 0x3b000);
    CHECK(r.verdict == (xid_bus == "0000:3b:00" ? "hardware" : "code"));
  }
}

TEST_CASE("a GPU's uncorrectable ECC error beside another rank's launch failure is the cause") {
  auto rank_log = [](int rank, int pid, const std::string& bus, const std::string& error) {
    return nccl_init(rank, "node-a", pid, bus, 1, 2) + "[rank" + std::to_string(rank) +
           "]:2025-02-26 16:42:51,000 INFO step 2800 loss 1.9\n" + "[rank" + std::to_string(rank) +
           "]:Traceback (most recent call last):\n" + "[rank" + std::to_string(rank) +
           "]:  File \"train.py\", line 40, in <module>\n" + "[rank" + std::to_string(rank) +
           "]:RuntimeError: CUDA error: " + error + "\n";
  };
  Triage t(test::bundled_store());
  add_file(t, "rank_01.log", rank_log(1, 8752, "43000", "unspecified launch failure"));
  add_file(t, "rank_05.log", rank_log(5, 8775, "c3000", "uncorrectable ECC error encountered"));
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "uncorrectable-ecc");
  CHECK(r.first_fault->rank == 5);
  CHECK(r.verdict == "hardware");
}

TEST_CASE("a segmentation fault the kernel places in a Python extension is the program's") {
  for (const std::string module :
       {"fused_moe_cuda.cpython-311-x86_64-linux-gnu.so", "libcuda.so.1"}) {
    CAPTURE(module);
    Triage t(test::bundled_store());
    t.add_lines("train.out", 1,
                "node-a: 2025-04-08 17:28:20,100 INFO step 40 loss 2.1\n"
                "node-a: Fatal Python error: Segmentation fault\n");
    t.add_lines("journalctl-k-node-a.log", 1,
                "Apr  8 17:28:29 node-a kernel: python[3761292]: segfault at 8 ip 00007fb817e305 "
                "sp 00007ff813eb3383 error 4 in " +
                    module + "[7f2a3ab49c+b8ddb]\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->role == "killed");
    CHECK(r.verdict == (module.starts_with("fused") ? "code" : "unknown"));
  }
}

TEST_CASE("without NCCL's per-host counts, a world whose every rank is named places the job") {
  std::string log;
  for (int rank : {0, 1}) {
    const std::string r = std::to_string(rank);
    log += r + ": nid000252:2641" + r + ":26627 [" + r + "] NCCL INFO comm 0x55f2e742b935 rank " +
           r + " nranks 2 cudaDev " + r + " nvmlDev " + r + " busId " + (rank ? "ab000" : "9a000") +
           " commId 0xc6b9ac6f92ea5edd - Init COMPLETE\n";
  }
  log +=
      "0: 2024-01-10 17:45:00,100 ERROR torch.cuda.OutOfMemoryError: CUDA out of memory. "
      "Tried to allocate 2.00 GiB\n";
  Triage t(test::bundled_store());
  t.add_lines("slurm-4722917.out", 1, log);
  t.add_lines("dmesg-T.txt", 1,
              "[Wed Jan 10 17:42:15 2024] NVRM: Xid (PCI:0000:3a:00): 13, pid=601970, "
              "name=python3, Graphics SM Warp Exception on (GPC 6, TPC 3, SM 0): Out Of Range "
              "Address\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");  // 3a:00 is none of the job's GPUs
}

TEST_CASE("an application Xid naming none of the job's processes is another program's") {
  for (const std::string pid : {"7777", "4400"}) {
    CAPTURE(pid);
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             nccl_init(0, "node-a", 4400, "3b000", 1, 1) +
                 "[rank0]:2024-05-02 10:05:00,100 ERROR RuntimeError: CUDA error: an illegal "
                 "memory access was encountered");
    add_file(t, "kern.log",
             "May  2 10:01:00 node-a kernel: NVRM: Xid (PCI:0000:3b:00): 31, pid=" + pid +
                 ", name=VLLM::Worker, channel 0x00000018, intr 00000000. MMU Fault: ENGINE "
                 "GRAPHICS GPC0 GPCCLIENT_T1_7 faulted @ 0x7f53_04ac7000. Fault is of type "
                 "FAULT_PDE ACCESS_TYPE_VIRT_READ");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == (pid == "4400" ? "xid-31" : "illegal-memory-access"));
  }
}

TEST_CASE("a fault on a host outside the job's counted hosts is listed, not taken first") {
  // nodes 3: a host the input did not name may be node-c; kubernetes: NCCL names pods, the
  // kernel nodes, so no kernel line names a host of NCCL's and node-c may be the job's
  for (const std::string setting : {"all named", "nodes 3", "kubernetes"}) {
    CAPTURE(setting);
    const int nodes = setting == "nodes 3" ? 3 : 2;
    Triage t(test::bundled_store());
    add_file(t, "ranks.log",
             nccl_init(0, "node-a.cluster", 4400, "3b000", nodes, 2) +
                 nccl_init(3, "node-b.cluster", 5503, "5d000", nodes, 2) +
                 "[rank3]:2024-05-02 10:02:10,400 ERROR RuntimeError: CUDA error: an illegal "
                 "memory access was encountered");
    const std::string node_b = setting == "kubernetes" ? "node-x" : "node-b";
    add_file(t, "cluster-kern.log",
             "May  2 10:00:07 node-c kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=88001, "
             "name=python, GPU has fallen off the bus.\n"
             "May  2 10:02:10 " + node_b + " kernel: NVRM: Xid (PCI:0000:5d:00): 43, pid=5503, "
             "name=python, Ch 00000010");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    if (setting != "all named") {
      CHECK(r.first_fault->entry_id == "xid-79");
      continue;
    }
    CHECK(r.first_fault->host.starts_with("node-b"));  // the error, or the kernel's Xid 43 for it
    CHECK(r.verdict == "code");
    const auto xid = std::find_if(r.faults.begin(), r.faults.end(),
                                  [](const LogEvent& e) { return e.entry_id == "xid-79"; });
    REQUIRE(xid != r.faults.end());
    CHECK(xid->set_aside.find("node-c") != std::string::npos);
  }
}

TEST_CASE("an Xid on a GPU none of the job's processes on that host used is not its first fault") {
  for (const int local_ranks : {2, 4}) {  // 4: two processes unnamed, the GPU may be theirs
    CAPTURE(local_ranks);
    Triage t(test::bundled_store());
    add_file(t, "ranks.log",
             nccl_init(0, "node-a", 4400, "3b000", 1, local_ranks) +
                 nccl_init(1, "node-a", 4401, "5d000", 1, local_ranks) +
                 "[rank0]:2024-05-02 10:01:00,000 INFO checkpoint saved to /ckpt/step_900.pt\n"
                 "[rank1]:2024-05-02 10:02:10,400 ERROR RuntimeError: CUDA error: an illegal "
                 "memory access was encountered");
    add_file(t, "dmesg.log",
             "[Thu May  2 10:00:11 2024] NVRM: Xid (PCI:0000:1b:00): 94, pid=9001, "
             "name=vllm-worker, Contained: SM (0x1). RST: No, D-RST: No");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == (local_ranks == 2 ? "illegal-memory-access" : "xid-94"));
    if (local_ranks == 2) {
      CHECK(r.verdict == "code");
      // nor does it make the save after it suspect
      REQUIRE(r.last_checkpoint);
      CHECK(r.last_checkpoint->text.find("step_900") != std::string::npos);
      CHECK(r.safe_to_resume == true);
    }
  }
}

TEST_CASE("a checkpoint saved in parts is unfinished when one part's end never came") {
  // DeepSpeed logs each rank's part: "[Torch] Saving FILE..." and "[Torch] Saved FILE."
  auto part = [](int rank, int step, const std::string& time, bool end) {
    const std::string file = "/ckpt/global_step" + std::to_string(step) + "/zero_pp_rank_" +
                             std::to_string(rank) + "_mp_rank_00_optim_states.pt";
    return std::to_string(rank) + ": [2024-06-01 " + time + "] [INFO] [Torch] " +
           (end ? "Saved " + file + "." : "Saving " + file + "...") + "\n";
  };
  auto ready = [](int rank, int step, const std::string& time) {
    return std::to_string(rank) + ": [2024-06-01 " + time + "] [INFO] [Torch] Checkpoint " +
           "global_step" + std::to_string(step) + " is ready now!\n";
  };
  const std::string step500 = part(0, 500, "22:50:01,100", false) +
                              part(1, 500, "22:50:01,101", false) +
                              part(0, 500, "22:50:09,100", true) + ready(0, 500, "22:50:09,200") +
                              part(1, 500, "22:50:09,101", true) + ready(1, 500, "22:50:09,201");
  const std::string step1000 = part(0, 1000, "23:40:01,100", false) +
                               part(1, 1000, "23:40:01,101", false) +
                               part(0, 1000, "23:40:09,100", true) + ready(0, 1000, "23:40:09,200");
  Triage t(test::bundled_store());
  add_file(t, "ds.log",
           step500 + step1000 +
               "1: [2024-06-01 23:40:09,900] [ERROR] torch.OutOfMemoryError: CUDA out of memory. "
               "Tried to allocate 2.25 GiB. GPU 1 has a total capacity of 79.15 GiB of which 1.02 "
               "GiB is free.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->text.find("global_step500") != std::string::npos);
  CHECK(r.checkpoint_reason.find("never completed") != std::string::npos);
}

TEST_CASE("an undated first fault comes after another file's save made before its bound") {
  // The error has the time of rank 11's last dated line (08:00:07) and was printed by the
  // launcher's next line (09:13:58): rank 0's save at 08:52 was made while the job still ran.
  Triage t(test::bundled_store());
  add_file(t, "rank0.log",
           "2026-11-09 08:00:05,000 INFO rank 0 ready\n"
           "2026-11-09 08:52:14,000 INFO checkpoint saved to /ckpt/step_3000.pt\n");
  add_file(t, "rank11.log",
           "2026-11-09 08:00:07,000 INFO rank 11 ready\n"
           "Traceback (most recent call last):\n"
           "  File \"train.py\", line 88, in <module>\n"
           "RuntimeError: CUDA error: device-side assert triggered\n"
           "W1109 09:13:58.100000 4242 torch/distributed/elastic/multiprocessing/api.py:897] "
           "Sending process 4255 closing signal SIGTERM\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->file == "rank11.log");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->file == "rank0.log");
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("a save announced ('is about to be saved!') is a start, not a completed save") {
  auto line = [](const std::string& time, const std::string& message) {
    return "[2024-06-01 " + time + "] [INFO] [logging.py:128:log_dist] [Rank 0] " + message + "\n";
  };
  Triage t(test::bundled_store());
  add_file(t, "ds.log",
           line("22:50:01,100", "[Torch] Checkpoint global_step500 is about to be saved!") +
               line("22:50:09,200", "[Torch] Checkpoint global_step500 is ready now!") +
               line("23:10:00,000", "step=900, skipped=0, lr=[0.0000096500]") +
               line("23:40:01,100", "[Torch] Checkpoint global_step1000 is about to be saved!") +
               "RuntimeError: CUDA error: an illegal memory access was encountered\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
  CHECK(r.checkpoint_reason.find("ds.log:4) never completed") != std::string::npos);
}

TEST_CASE("a framework that logs a part's start but not its end leaves its saves complete") {
  // DeepSpeed before its checkpoint engines: the model file's start only, then the rest's ends
  Triage t(test::bundled_store());
  add_file(t, "ds.log",
           "[2024-06-01 22:50:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] Saving model "
           "checkpoint: /ckpt/global_step500/mp_rank_00_model_states.pt\n"
           "[2024-06-01 22:50:09,200] [INFO] [engine.py:3488:_save_zero_checkpoint] zero "
           "checkpoint saved /ckpt/global_step500/zero_pp_rank_0_mp_rank_00_optim_states.pt\n"
           "[2024-06-01 22:50:09,300] [INFO] [Torch] Checkpoint global_step500 is ready now!\n"
           "[2024-06-01 22:55:00,000] [ERROR] RuntimeError: CUDA error: an illegal memory access "
           "was encountered");
  const TriageReport r = t.report();
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->text.find("global_step500") != std::string::npos);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("the one rank in the input with no timeout, when the others' are in different groups") {
  for (const bool rank2_timed_out : {false, true}) {
    CAPTURE(rank2_timed_out);
    // (tensor parallel pairs {0,1} and {2,3}, data parallel pairs {0,2} and {1,3}: each group
    // has its own GUID)
    auto timeout = [](int group, int guid, int group_rank, int seq) {
      return "[E601 23:12:1" + std::to_string(group_rank) +
             ".000000000 ProcessGroupNCCL.cpp:632] [PG ID " + std::to_string(group) + " PG GUID " + std::to_string(guid) +
             " Rank " + std::to_string(group_rank) + "] Watchdog caught collective operation " +
             "timeout: WorkNCCL(SeqNum=" + std::to_string(seq) + ", OpType=ALLREDUCE, NumelIn=8, " +
             "NumelOut=8, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.";
    };
    const std::string progress = "2024-06-01 23:01:30,000 - INFO - iteration 1503 done\n";
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log", progress + timeout(2, 5, 0, 1520));
    add_file(t, "rank_1.log", progress + timeout(1, 3, 1, 18241));
    add_file(t, "rank_2.log", progress + (rank2_timed_out ? timeout(1, 4, 0, 18240) : ""));
    add_file(t, "rank_3.log", progress + timeout(1, 4, 1, 18240));
    const TriageReport r = t.report();
    if (rank2_timed_out) {
      CHECK_FALSE(r.hang_suspect_rank);
    } else {
      REQUIRE(r.hang_suspect_rank);
      CHECK(*r.hang_suspect_rank == 2);
      REQUIRE(r.first_fault);  // it stands for itself, at its own log
      CHECK(r.first_fault->rank == 2);
      CHECK(r.first_fault->role == "hang");
      CHECK(r.first_fault->file == "rank_2.log");
      CHECK(r.cascade.size() == 3);
    }
  }
}

TEST_CASE("an out-of-memory the loop caught, with saves after it, is no fault: it is listed") {
  for (const std::string saved_at : {"08:12:00", "08:06:30"}) {  // 6 minutes, 30 s later
    CAPTURE(saved_at);
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             "2024-06-01 08:06:00,000 - train - WARNING - OOM on batch 1207 (CUDA out of memory. "
             "Tried to allocate 1.20 GiB. GPU 0 has a total capacity of 79.15 GiB of which 842.00 "
             "MiB is free.), skipping batch\n"
             "2024-06-01 " + saved_at +
                 ",000 - train - INFO - saved checkpoint to /ckpt/step_2000.pt");
    const TriageReport r = t.report();
    if (saved_at == "08:06:30") {  // too soon to tell from a save made as the job went down
      REQUIRE(r.first_fault);
      CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
      continue;
    }
    CHECK_FALSE(r.first_fault);
    REQUIRE(r.faults.size() == 1);
    CHECK(r.faults[0].entry_id == "cuda-out-of-memory");
    CHECK(r.faults[0].set_aside.find("went on past it") != std::string::npos);
    CHECK(r.safe_to_resume == true);
  }
}

TEST_CASE("a kernel log named for one of the job's hosts is that host's") {
  for (const std::string name : {"dmesg-T_node-b.txt", "node-b7.dmesg", "node-a_node-b.txt"}) {
    CAPTURE(name);
    Triage t(test::bundled_store());
    add_file(t, "ranks.log",
             nccl_init(0, "node-a", 4400, "3b000", 2, 1) +
                 nccl_init(1, "node-b", 5501, "5d000", 2, 1));
    add_file(t, name,
             "[Thu May  2 10:00:11 2024] NVRM: Xid (PCI:0000:5d:00): 79, pid=5501, name=python, "
             "GPU has fallen off the bus.");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    // "node-b7" is not node-b, and a name holding both hosts names neither
    CHECK(r.first_fault->host == (name == "dmesg-T_node-b.txt" ? "node-b" : ""));
  }
}

TEST_CASE("Slurm's cancel for a time limit is a cause, a cancel that names no reason teardown") {
  for (const std::string reason : {" DUE TO TIME LIMIT", ""}) {
    CAPTURE(reason);
    Triage t(test::bundled_store());
    add_file(t, "slurm-88123.out",
             "2026-11-10 05:40:00,000 INFO checkpoint saved to /ckpt/iter_11000\n"
             "2026-11-10 05:59:15,000 INFO iteration 11990 loss 2.01\n"
             "slurmstepd: error: *** JOB 88123 ON gpu-d11 CANCELLED AT 2026-11-10T06:00:12" +
                 reason + " ***\n");
    const TriageReport r = t.report();
    if (reason.empty()) {
      CHECK_FALSE(r.first_fault);
      continue;
    }
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "slurm-time-limit");
    CHECK(r.verdict == "configuration");
    REQUIRE(r.last_checkpoint);
    CHECK(r.last_checkpoint->line == 1);
  }
}

TEST_CASE("the cause NCCL names under 'Last error:' is the first fault, not the generic result") {
  // PyTorch prints NCCL's generic result, then "Last error:", then the warning that caused it
  // in its own words: a line that holds none of the filter's words.
  const std::string log =
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"train.py\", line 40, in <module>\n"
      "[rank1]:     dist.barrier()\n"
      "[rank1]: torch.distributed.DistBackendError: NCCL error in: "
      "../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, internal error - please report this "
      "issue to the NCCL developers, NCCL version 2.20.5\n"
      "[rank1]: ncclInternalError: Internal check failed.\n"
      "[rank1]: Last error:\n"
      "[rank1]: Bootstrap : no socket interface found\n"
      "[rank0]: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
      "OpType=BARRIER, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600010 milliseconds "
      "before timing out.\n";
  for (bool by_block : {false, true}) {
    CAPTURE(by_block);
    Triage t(test::bundled_store());
    if (by_block) t.add_lines("r.log", 1, log);
    else add_line_by_line(t, log);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "nccl-no-socket-interface");
    CHECK(r.first_fault->line == 7);
    CHECK(r.first_fault->rank == 1);
    CHECK(r.verdict == "configuration");
    CHECK(std::ranges::any_of(r.cascade, [](const LogEvent& e) {
      return e.entry_id == "nccl-internal-error";
    }));
  }
  struct Case {
    const char* name;
    std::string lines;
    std::string first;  // the first fault's entry
    size_t first_line;
  };
  const Case cases[] = {
      // With NCCL_DEBUG=WARN the warning comes first, from the process's own prefix; the
      // exception's generic result, whose named cause is that warning's entry, is its cascade.
      {"warning first",
       "node1: node1:3021:3021 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface "
       "found\n"
       "node1: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
       "internal error - please report this issue to the NCCL developers, NCCL version 2.20.5\n"
       "node1: ncclInternalError: Internal check failed.\n"
       "node1: Last error:\n"
       "node1: Bootstrap : no socket interface found\n",
       "nccl-no-socket-interface", 1},
      // The same with the launcher's rank prefix on every line: the named cause is an event of
      // its own, not a repeat of the warning's, and the generic result is still its cascade.
      {"rank prefixes",
       "[rank3]:node1:3021:3021 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface "
       "found\n"
       "[rank3]: ncclInternalError: Internal check failed.\n"
       "[rank3]: Last error:\n"
       "[rank3]: Bootstrap : no socket interface found\n",
       "nccl-no-socket-interface", 1},
      // "Last error:" over a line that names nothing leaves the generic result first.
      {"nothing named",
       "[rank1]: ncclInternalError: Internal check failed.\n"
       "[rank1]: Last error:\n"
       "[rank1]: \n",
       "nccl-internal-error", 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Triage t(test::bundled_store());
    add_line_by_line(t, c.lines);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == c.first);
    CHECK(r.first_fault->line == c.first_line);
    CHECK(r.faults.size() == 1);
  }
}

TEST_CASE("a network port's link going down is read, though its line holds no error word") {
  Triage t(test::bundled_store());
  add_file(t, "kern.log",
           "Nov 22 10:16:22 gpu-j02 kernel: mlx5_core 0000:5e:00.0 ens5f0np0: Link down\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "mlx5-link-down");
  CHECK(r.verdict == "hardware");
}

TEST_CASE("a save in any file minutes after an error shows the job went on past it") {
  // Another tenant's Xid (no NCCL lines tell the job's GPUs), and a rank's NCCL error before an
  // elastic restart: the job saved twice after both, then failed for its own reason.
  Triage t(test::bundled_store());
  add_file(t, "kern.log",
           "Dec  4 10:02:11 node-2 kernel: NVRM: Xid (PCI:0000:2a:00): 79, pid=60127, "
           "name=python3, GPU has fallen off the bus.\n");
  add_file(t, "rank_1.log",
           "2026-12-04 10:02:30,000 ERROR RuntimeError: NCCL error: remote process exited or "
           "there was a network error, NCCL version 2.20.5\n"
           "ncclRemoteError: A call failed possibly due to a network error or a remote process "
           "exiting prematurely.\n");
  add_file(t, "rank_0.log",
           "2026-12-04 10:20:00,000 INFO checkpoint saved to /ckpt/step_4500.pt\n"
           "2026-12-04 10:35:00,000 INFO checkpoint saved to /ckpt/step_5000.pt\n"
           "2026-12-04 10:40:06,000 ERROR RuntimeError: CUDA error: an illegal memory access was "
           "encountered\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "illegal-memory-access");
  CHECK(r.verdict == "code");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);
}

TEST_CASE("a rank killed before an undated network error's bound is what its peers lost") {
  Triage t(test::bundled_store());
  add_file(t, "rank_0.log",
           "2026-11-29 11:21:10,000 INFO step 900 loss 2.0\n"
           "node1:38810:38871 [0] NCCL WARN NET/IB : Got completion from peer 10.1.0.12<45813> "
           "with status=12 opcode=129 len=0 vendor err 129 (Recv)\n"
           "2026-11-29 11:22:40,000 INFO exiting\n");
  add_file(t, "kern.log",
           "Nov 29 11:22:11 node2 kernel: Out of memory: Killed process 51234 (python) "
           "total-vm:412873216kB, anon-rss:201334512kB, file-rss:102400kB, shmem-rss:8388608kB, "
           "UID:1000 pgtables:402112kB oom_score_adj:0\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
}

TEST_CASE("an application's Xid and the program's CUDA error after it are one fault") {
  for (const std::string at : {"10:00:05", "10:00:01"}) {  // the CUDA error after, or before
    CAPTURE(at);
    Triage t(test::bundled_store());
    add_file(t, "dmesg.log",
             "[Tue Mar  4 10:00:03 2025] NVRM: Xid (PCI:0000:3b:00): 31, pid=4242, name=python, "
             "Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_3 faulted @ "
             "0x7f3c_8a000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ\n");
    add_file(t, "train.log",
             "2025-03-04 " + std::string(at) +
                 ",000 ERROR RuntimeError: CUDA error: an illegal memory access was encountered\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.verdict == "code");
    CHECK(r.faults.size() == 1);  // the other is its cascade
    CHECK(r.cascade.size() == 1);
  }
}

TEST_CASE("an undated network error is not first before another rank's fault dated in its span") {
  // The NCCL WARN takes 10:00:00 from the line above it; it was printed by 10:00:50.
  const std::string rank0 =
      "2025-03-04 10:00:00,000 INFO step 100 loss 2.0\n"
      "node1:1234:1290 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<46107> with "
      "status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 vendor err 129\n"
      "2025-03-04 10:00:50,000 INFO exiting\n";
  for (const std::string at : {"10:00:30", "10:01:30"}) {
    CAPTURE(at);
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log", rank0);
    add_file(t, "rank_5.log",
             "2025-03-04 10:00:00,000 INFO step 100 loss 2.1\n2025-03-04 " + std::string(at) +
                 ",000 ERROR RuntimeError: CUDA error: an illegal memory access was encountered\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    // After 10:00:50 the network error was surely first.
    CHECK(r.first_fault->entry_id ==
          (at == std::string("10:00:30") ? "illegal-memory-access" : "nccl-warn-net"));
    // A lost connection first tells neither code nor hardware, and says where to look.
    if (r.first_fault->entry_id == "nccl-warn-net") {
      CHECK(r.verdict == "unknown");
      CHECK(r.verdict_reason.find("the peer's log tells which") != std::string::npos);
    }
  }
}

TEST_CASE("an undated network error is not first before another rank's undated fault in its span") {
  // Both lines are undated. The NCCL WARN came after 10:00:00 and by 10:00:50; the traceback's
  // error after its file's last dated line and by the launcher's teardown line after it.
  const std::string rank0 =
      "2025-03-04 10:00:00,000 INFO step 100 loss 2.0\n"
      "node1:1234:1290 [0] NCCL WARN socketProgress: Connection closed by remote peer node2<39412>\n"
      "2025-03-04 10:00:50,000 INFO exiting\n";
  // (the last dated line of rank 5 before its error, and whether that error may have come first)
  for (const auto& [from, may_be_first] : {std::pair{"10:00:10", true}, {"10:01:10", false}}) {
    CAPTURE(from);
    Triage t(test::bundled_store());
    add_file(t, "rank_0.log", rank0);
    add_file(t, "rank_5.log",
             "2025-03-04 " + std::string(from) + ",000 INFO step 100 loss 2.1\n"
             "[rank5]: Traceback (most recent call last):\n"
             "[rank5]:   File \"train.py\", line 362, in train\n"
             "[rank5]:     assert T <= limit\n"
             "[rank5]: AssertionError: sequence length 4560 exceeds 4096\n"
             "2025-03-04 10:01:30,000 WARNING Sending process 11005 closing signal SIGTERM\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK((r.first_fault->role == "exception") == may_be_first);
    CHECK((r.first_fault->rank == 5) == may_be_first);
  }
}

TEST_CASE("with no times at all, a peer's lost connection read first gives way to another fault") {
  Triage t(test::bundled_store());
  add_file(t, "rank_0.log",
           "node1:728802:729167 [0] misc/socket.cc:752 NCCL WARN Net : Connection closed by remote "
           "peer 10.10.199.15<51129>\n");
  add_file(t, "rank_5.log",
           "Traceback (most recent call last):\n"
           "  File \"/opt/app/data/packing.py\", line 83, in pack_sequences\n"
           "    buf[pos:pos + n] = seq\n"
           "ValueError: could not broadcast input array from shape (706,) into shape (472,)\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->rank == 5);
  CHECK(r.verdict == "code");
}

TEST_CASE("an echo first (a collective's timeout) names a peer that stopped or never arrived") {
  Triage t(test::bundled_store());
  add_file(t, "rank_0.log",
           "2025-03-04 10:00:00,000 INFO step 100 loss 2.1\n"
           "[rank0]:[E304 10:10:00.000000000 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught "
           "collective operation timeout: WorkNCCL(SeqNum=201, OpType=ALLREDUCE, NumelIn=1, "
           "NumelOut=1, Timeout(ms)=600000) ran for 600007 milliseconds before timing out.\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "nccl-watchdog-timeout");
  CHECK(r.verdict == "unknown");
  CHECK(r.verdict_reason.find("never reaches the collective") != std::string::npos);
  CHECK(r.verdict_reason.find("lost connection") == std::string::npos);
}

TEST_CASE("an exception no entry names, chained into one an entry names, is set aside for it") {
  // Python prints the chain oldest first; the store's error says what the reset meant
  const std::string log =
      "2025-03-04 10:00:00,000 INFO step 100 loss 2.1\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/venv/lib/python3.12/site-packages/torch/distributed/store.py\", line 40, "
      "in get\n"
      "    return self._recv()\n"
      "ConnectionResetError: [Errno 104] Connection reset by peer\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 88, in <module>\n"
      "    dist.barrier()\n"
      "torch.distributed.DistNetworkError: failed to recv, got 0 bytes. Connection was likely "
      "closed. Did the remote server shutdown or crash?\n";
  Triage t(test::bundled_store());
  add_file(t, "rank_3.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "torch-distributed-store-connection-reset");
  const auto reset = std::find_if(r.faults.begin(), r.faults.end(), [](const LogEvent& e) {
    return e.role == "exception";
  });
  REQUIRE(reset != r.faults.end());  // (listed, never taken for the first)
  CHECK(reset->set_aside.find("goes on to torch-distributed-store-connection-reset") !=
        std::string::npos);

  // An exception that is not chained to the named one stays a fault of its own.
  Triage alone(test::bundled_store());
  add_file(alone, "rank_3.log",
           log.substr(0, log.find("\nThe above")) + "\n2025-03-04 10:05:00,000 INFO retrying\n");
  REQUIRE(alone.report().first_fault);
  CHECK(alone.report().first_fault->role == "exception");
}

TEST_CASE("a rank's work going on minutes after its error shows the job went on past it") {
  // A traceback's error is undated: it happened by the first dated line after it.
  const std::string oom =
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 80, in step\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total "
      "capacity of 79.15 GiB of which 1.20 GiB is free.\n";
  const std::string before = "2025-03-04 10:00:00 INFO step 1000 loss 2.1\n";
  const std::string retried = "2025-03-04 10:02:00 INFO retrying with a smaller micro-batch\n";
  const std::string later = "2025-03-04 10:30:00 INFO step 1500 loss 1.9\n";
  SUBCASE("in the rank's own file, in blocks and line by line") {
    for (bool by_line : {false, true}) {
      CAPTURE(by_line);
      Triage t(test::bundled_store());
      const std::string log = before + oom + retried + later;
      if (by_line) add_file(t, "rank_3.log", log);
      else t.add_lines("rank_3.log", 1, log);
      const TriageReport r = t.report();
      CHECK_FALSE(r.first_fault);
      REQUIRE(r.faults.size() == 1);
      CHECK(r.faults[0].set_aside.find("work goes on 28 minutes later (rank_3.log:6)") !=
            std::string::npos);
    }
  }
  SUBCASE("only minutes of no work, or another rank's lines: the error stands") {
    for (const std::string& after :
         {retried + "2025-03-04 10:03:00 INFO exiting\n",
          retried + "2025-03-04 10:30:00 [rank0]: step 1500 loss 1.9\n"}) {
      Triage t(test::bundled_store());
      t.add_lines("rank_3.log", 1, before + oom + after);
      const TriageReport r = t.report();
      REQUIRE(r.first_fault);
      CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
    }
  }
  SUBCASE("in a file of all ranks whose last line is another rank's, as line by line") {
    const std::string log = "3: " + before + "3: 2025-03-04 10:00:02 RuntimeError: CUDA error: "
                            "out of memory\n3: " + later + "0: " + later;
    for (bool by_line : {false, true}) {
      CAPTURE(by_line);
      Triage t(test::bundled_store());
      if (by_line) add_file(t, "train.log", log);
      else t.add_lines("train.log", 1, log);
      const TriageReport r = t.report();
      CHECK_FALSE(r.first_fault);
      REQUIRE(r.faults.size() == 1);
      CHECK(r.faults[0].set_aside.find("(train.log:3)") != std::string::npos);
    }
  }
  SUBCASE("far above the region's last lines, as line by line") {
    std::string log = "3: " + before + "3: 2025-03-04 10:00:02 RuntimeError: CUDA error: "
                      "out of memory\n3: " + later;
    for (int i = 0; i < 100; ++i) log += "0: 2025-03-04 10:31:00 INFO step 1501 loss 1.9\n";
    for (bool by_line : {false, true}) {
      CAPTURE(by_line);
      Triage t(test::bundled_store());
      if (by_line) add_file(t, "train.log", log);
      else t.add_lines("train.log", 1, log);
      const TriageReport r = t.report();
      CHECK_FALSE(r.first_fault);
    }
  }
  SUBCASE("the same error again after the work went on, and no work after it: it stands") {
    Triage t(test::bundled_store());
    t.add_lines("rank_3.log", 1, before + oom + retried + later + oom);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
  }
}

TEST_CASE("a row marked for remapping alone is no fault, but the saves after it are suspect") {
  Triage t(test::bundled_store());
  add_file(t, "kern.log",
           "Jan 09 18:02:10 node21 kernel: NVRM: Xid (PCI:0000:4f:00): 63, pid='<unknown>', "
           "name=<unknown>, Row Remapper: New row (0x00000000001f0a20) is marked for remapping, "
           "reset gpu to activate.");
  add_file(t, "rank4.log",
           "2024-01-09 17:30:00,000 INFO node21 Checkpoint saved to /ckpt/step_9000\n"
           "2024-01-09 18:03:00,000 INFO node21 Checkpoint saved to /ckpt/step_9100\n"
           "2024-01-09 18:04:12,000 ERROR node21 torch.OutOfMemoryError: CUDA out of memory. "
           "Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.91 GiB "
           "is free.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
  CHECK(r.verdict == "configuration");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 1);  // step_9000, before the remap
  CHECK(r.safe_to_resume == true);
  REQUIRE(r.checkpoints_after_fault.size() == 1);
  CHECK(r.checkpoints_after_fault[0].line == 2);  // step_9100, after it
}

TEST_CASE("a local time printed without its zone is also read in the zone the kernel log gave") {
  // journalctl -o short-iso prints the offset; Python's logging prints local time without it
  for (const std::string kernel_time : {"2024-02-06T09:14:07-0500", "2024-02-06T14:14:07Z"}) {
    CAPTURE(kernel_time);
    Triage t(test::bundled_store());
    add_file(t, "rank0.log",
             "2024-02-06 09:10:00,000 INFO step 300 loss 2.2\n"
             "2024-02-06 09:14:08,020 ERROR RuntimeError: CUDA error: unspecified launch failure");
    add_file(t, "journal-node6.log",
             kernel_time + " node6 kernel: NVRM: Xid (PCI:0000:86:00): 79, pid=15500, "
                           "name=python, GPU has fallen off the bus.");
    const TriageReport r = t.report();
    // (with "Z" the local times are read as UTC too: the Xid is five hours after the error)
    CHECK(r.verdict == (kernel_time.ends_with("-0500") ? "hardware" : "code"));
  }
}

TEST_CASE("a host's full name in NCCL's lines and its short name in syslog are one host") {
  Triage t(test::bundled_store());
  add_file(t, "rank3.log",
           "[rank3]:gpu-node-a.cluster.local:4403:4403 [3] NCCL INFO Bootstrap : Using ib0\n"
           "[rank3]:2024-06-01 12:10:00,100 ERROR RuntimeError: CUDA error: an illegal memory "
           "access was encountered");
  add_file(t, "kern.log",
           "Jun  1 12:10:01 gpu-node-a kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=4403, "
           "name=python, GPU has fallen off the bus.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.verdict == "hardware");
}

TEST_CASE("a node's kernel log beside a pod's NCCL lines: the node may be the pod's") {
  // Kubernetes: NCCL prints the pod's name, the node's kernel log the node's
  for (const std::string node : {"gke-gpu-pool-1-x2", "trainer-worker-7"}) {
    CAPTURE(node);  // the second is named like the pods: another host of the job's kind
    Triage t(test::bundled_store());
    add_file(t, "trainer-worker-0.log",
             "trainer-worker-0:41:41 [0] NCCL INFO Bootstrap : Using eth0:10.4.0.12<0>\n"
             "2024-06-01T12:10:00.100Z RuntimeError: CUDA error: unspecified launch failure");
    add_file(t, "node-journal.log",
             "2024-06-01T12:10:01+0000 " + node + " kernel: NVRM: Xid (PCI:0000:3b:00): 79, "
             "pid=41, name=python, GPU has fallen off the bus.");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.verdict == (node.starts_with("gke") ? "hardware" : "code"));
  }
}

TEST_CASE("a date without its year that bounds an undated line is moved with the others") {
  // torchrun's agent logs glog dates ("W0120 ..."); the rest of the file has full 2025 dates
  Triage t(test::bundled_store());
  add_file(t, "train.log",
           "2025-01-20 14:00:16,000 - train - INFO - saved checkpoint to /ckpt/step_1000.pt\n"
           "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB.\n"
           "W0120 14:10:24.301000 3311 torch/distributed/elastic/multiprocessing/api.py:897] "
           "Sending process 3402 closing signal SIGTERM\n"
           "2025-01-20 14:41:06,000 - train - INFO - saved checkpoint to /ckpt/step_1500.pt\n"
           "2025-01-20 15:20:00,000 - train - INFO - step 2400\n"
           "[rank1]: RuntimeError: CUDA error: device-side assert triggered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "device-side-assert");  // the job went on past the OOM
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 4);
}

TEST_CASE("an Xid takes the rank whose process or GPU NCCL named") {
  for (const std::string pid : {"91234", "55555"}) {  // 55555: no process of the job's
    CAPTURE(pid);
    Triage t(test::bundled_store());
    add_file(t, "rank_4.log",
             "dgx-h07:91234:91438 [4] NCCL INFO comm 0x55dc rank 4 nRanks 8 nNodes 1 localRanks "
             "8 localRank 4 MNNVL 0\n"
             "2025-09-02 11:20:28,100 ERROR RuntimeError: CUDA error: uncorrectable ECC error "
             "encountered");
    add_file(t, "dmesg.log",
             "[Tue Sep  2 11:20:27 2025] NVRM: Xid (PCI:0000:9d:00): 48, pid=" + pid +
             ", name=python, An uncorrectable double bit error (DBE) has been detected on GPU in "
             "the framebuffer at partition 6, subpartition 0.");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-48");
    if (pid == "91234") {
      CHECK(r.first_fault->rank == 4);
      CHECK(r.first_fault->host == "dgx-h07");
    } else {
      CHECK_FALSE(r.first_fault->rank);
    }
  }
}

TEST_CASE("a rank's error with no dated line above it happened by the dated lines below it") {
  // A console log that opens with a rank's device-side assert (its prefix carries no time) and
  // goes on with torchrun's glog lines; the rank's saves are dated in the trainer's own log. The
  // error happened by the launcher's report of the exit: a save completed before that report was
  // written before the error, one after it was not.
  const std::string console =
      "[rank3]:/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:365: operator(): "
      "block: [1,0,0], thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && "
      "\"index out of bounds\"` failed.\n"
      "[rank3]: RuntimeError: CUDA error: device-side assert triggered\n"
      "E0302 17:39:15.778221 268724 torch/distributed/elastic/multiprocessing/api.py:869] failed "
      "(exitcode: 1) local_rank: 3 (pid: 329525) of binary: /usr/bin/python\n";
  for (const auto& [save_time, safe] : {std::pair{"17:20:01", true}, {"17:45:07", false}}) {
    CAPTURE(save_time);
    Triage t(test::bundled_store());
    add_file(t, "console.log", console);
    add_file(t, "train.log",
             "[2025-03-02 17:01:12,003][trainer][INFO] - step 1900: loss=3.31\n"
             "[2025-03-02 " + std::string(save_time) +
                 ",588][trainer][INFO] - saved checkpoint /ckpt/ckpt-002000\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "device-side-assert");
    CHECK(r.last_checkpoint.has_value() == safe);
    CHECK((r.safe_to_resume == true) == safe);
  }
}

TEST_CASE("the checkpoint a run resumed from is read before an undated fault in another file") {
  // Rank 0's log times its lines by the clock alone ("[08:53:04]", no date); rank 3's error log
  // has no times at all. A run loads its checkpoint as it starts, before anything fails.
  Triage t(test::bundled_store());
  add_file(t, "rank_0.log",
           "[08:52:24] rank=0 local_rank=0 world_size=4 host=cn-g0068\n"
           "[08:53:04] loaded checkpoint /ckpt/ner-457/step_006000 (model+optimizer) -> resuming "
           "at step 6000\n"
           "[08:55:10] step 6050 loss 1.92\n");
  add_file(t, "rank_3.err",
           "../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: "
           "[206,0,0], thread: [92,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
           "RuntimeError: CUDA error: device-side assert triggered\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->text.find("step_006000") != std::string::npos);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("an exception whose message ends with a colon is told by the details below it") {
  // TensorFlow's "ResourceExhaustedError: Graph execution error:" names no failure; the "OOM
  // when allocating tensor" a few lines below it does.
  Triage t(test::bundled_store());
  add_file(t, "worker-1.log",
           "2024-07-01 17:37:32.101 I step 8100 loss 0.412\n"
           "Traceback (most recent call last):\n"
           "  File \"/app/train.py\", line 181, in <module>\n"
           "    model.fit(train_ds, epochs=30)\n"
           "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n"
           "\n"
           "Detected at node model/block6a_expand_conv/Conv2D defined at (most recent call last):\n"
           "  File \"/app/train.py\", line 181, in <module>\n"
           "\n"
           "OOM when allocating tensor with shape[341,96,192,192] and type float on "
           "/job:worker/replica:0/task:1/device:GPU:0 by allocator GPU_0_bfc\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "tensorflow-oom");
  CHECK(r.verdict == "configuration");
}

TEST_CASE("a rank's traceback quoted in torch.distributed.checkpoint's exception is that rank's") {
  // Every rank raises CheckpointException naming the rank whose write failed, and quotes that
  // rank's traceback under "(RANK 22)": its error is rank 22's, on a host this file is not.
  Triage t(test::bundled_store());
  add_file(t, "node0.out",
           "[rank3]: [2024-12-15 04:18:40] step 1250 loss 1.02\n"
           "[rank3]: Traceback (most recent call last):\n"
           "[rank3]:   File \"/workspace/fsdp_train.py\", line 329, in main\n"
           "[rank3]:     dcp.save(state_dict, checkpoint_id=ckpt_dir)\n"
           "[rank3]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
           "ranks:dict_keys([22])\n"
           "[rank3]: Traceback (most recent call last): (RANK 22)\n"
           "[rank3]:   File \"/opt/conda/lib/python3.11/site-packages/torch/serialization.py\", "
           "line 652, in save\n"
           "[rank3]:     torch.save(data, stream)\n"
           "[rank3]: OSError: [Errno 122] Disk quota exceeded\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "disk-full");
  CHECK(r.first_fault->rank == 22);
  CHECK(r.first_fault->host.empty());
  CHECK(r.verdict == "configuration");
}

TEST_CASE("a GPU's firmware that stops answering is the cause of its node's undated launch failure") {
  // The rank's "unspecified launch failure" came after the last dated line of its log; seconds
  // later the kernel of the same node logged Xid 119, the GPU's GSP not answering.
  Triage t(test::bundled_store());
  add_file(t, "a3-mega-41.out",
           "[2024-12-14 04:37:17] iteration     4927/  500000 | consumed samples: 7567872\n"
           "Traceback (most recent call last):\n"
           "  File \"/opt/megatron-lm/megatron/training/training.py\", line 784, in train_step\n"
           "    update_successful, grad_norm, num_zeros_in_grad = optimizer.step()\n"
           "RuntimeError: CUDA error: unspecified launch failure\n"
           "srun: error: a3-mega-41: task 38: Exited with exit code 1\n");
  add_file(t, "a3-mega-41-journalctl-k.txt",
           "2024-12-14T04:30:02.100000+0000 a3-mega-41 kernel: nvidia-nvswitch3: open (major=509)\n"
           "2024-12-14T04:37:21.136039+0000 a3-mega-41 kernel: NVRM: Xid (PCI:0000:ba:00): 119, "
           "pid=215296, name=python, Timeout after 6s of waiting for RPC response from GPU6 GSP! "
           "Expected function 76 (GSP_RM_CONTROL) (0x2080014b 0x5).\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-119");
  CHECK(r.first_fault->rank == 38);  // the one rank of that node whose error it explains
  CHECK(r.verdict == "hardware");
}

TEST_CASE("a pod's kubectl describe saved beside the pod's log is the rank that log names") {
  // One process per pod: each pod's log prints the environment its launcher set; the describe
  // of the pod whose container was OOMKilled is saved as describe-pod-<pod>.txt.
  Triage t(test::bundled_store());
  for (const auto& [pod, rank] : {std::pair{"clip-train-master-0", 0}, {"clip-train-worker-0", 1},
                                  {"clip-train-worker-1", 2}})
    add_file(t, "logs/" + std::string(pod) + ".log",
             "2024-07-23T07:03:02.102698728Z RANK=" + std::to_string(rank) +
                 " WORLD_SIZE=3 MASTER_ADDR=clip-train-master-0 MASTER_PORT=23456 LOCAL_RANK=0\n");
  add_file(t, "describe-pod-clip-train-worker-0.txt",
           "Name:             clip-train-worker-0\n"
           "Containers:\n"
           "  pytorch:\n"
           "    State:          Terminated\n"
           "      Reason:       OOMKilled\n"
           "      Exit Code:    137\n"
           "      Finished:     Tue, 23 Jul 2024 07:27:43 +0000\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->rank == 1);
  CHECK(r.verdict == "configuration");
}

}  // TEST_SUITE

TEST_CASE("the GPU's driver failing on a node is the node's fault, a driver mismatch a setting") {
  SUBCASE("Xid 119: the driver lost its GPU's firmware") {
    Triage t(test::bundled_store());
    add_file(t, "dmesg.txt",
             "[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, "
             "name=python, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected "
             "function 103 (GSP_RM_ALLOC) (0x2081 0x4).");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-119");
    CHECK(r.verdict == "hardware");
  }
  SUBCASE("NVML's driver/library version mismatch: the node's setup") {
    Triage t(test::bundled_store());
    add_file(t, "rank0.log",
             "2025-02-23 16:24:18,000 ERROR Failed to initialize NVML: Driver/library version "
             "mismatch");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "nvml-driver-library-mismatch");
    CHECK(r.verdict == "configuration");
  }
}

TEST_CASE("an Xid's pid is the rank torchrun's failure summary gave that process on that host") {
  // no NCCL lines: only the node's launcher output ties process 7790 to rank 7, in the third
  // block of the list of failures above the root cause
  const std::string launcher =
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
      "============================================================\n"
      "train.py FAILED\n"
      "------------------------------------------------------------\n"
      "Failures:\n"
      "[1]:\n"
      "  time      : 2026-11-30_09:14:03\n"
      "  host      : gpu-b07.cluster\n"
      "  rank      : 5 (local_rank: 1)\n"
      "  exitcode  : -6 (pid: 7788)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal 6 (SIGABRT) received by PID 7788\n"
      "[2]:\n"
      "  time      : 2026-11-30_09:14:03\n"
      "  host      : gpu-b07.cluster\n"
      "  rank      : 6 (local_rank: 2)\n"
      "  exitcode  : -6 (pid: 7789)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal 6 (SIGABRT) received by PID 7789\n"
      "[3]:\n"
      "  time      : 2026-11-30_09:14:03\n"
      "  host      : gpu-b07.cluster\n"
      "  rank      : 7 (local_rank: 3)\n"
      "  exitcode  : -6 (pid: 7790)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal 6 (SIGABRT) received by PID 7790\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2026-11-30_09:14:02\n"
      "  host      : gpu-b07.cluster\n"
      "  rank      : 4 (local_rank: 0)\n"
      "  exitcode  : 1 (pid: 7787)\n"
      "  error_file: <N/A>\n"
      "============================================================\n";
  // the same output as Docker's json-file driver keeps it, one record per line
  std::string records;
  for (size_t at = 0, end; at < launcher.size(); at = end + 1) {
    end = launcher.find('\n', at);
    records += nlohmann::json{{"log", launcher.substr(at, end - at + 1)}, {"stream", "stderr"}}
                   .dump() +
               "\n";
  }
  for (const std::string pid : {"7790", "9999"})  // 9999: no process the summary named
  for (const std::string& output : {launcher, records}) {
    CAPTURE(pid);
    CAPTURE(output.substr(0, 40));
    Triage t(test::bundled_store());
    add_file(t, "launcher-node1.log", output);
    add_file(t, "gpu-b07-dmesg.txt",
             "[Mon Nov 30 09:13:58 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=" + pid +
                 ", name=python, GPU has fallen off the bus.\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-79");
    CHECK(r.first_fault->host == "gpu-b07");
    if (pid == "7790") CHECK(r.first_fault->rank == 7);
    else CHECK_FALSE(r.first_fault->rank);
    REQUIRE(r.launcher_first_failure);  // the root cause's block, not the list's
    CHECK(r.launcher_first_failure->text == "rank 4 (local_rank: 0)");
  }
}

TEST_CASE("a lost peer reported seconds before another host's own fault: the hosts' clocks differ") {
  const auto first = [](const std::string& oom_time) {
    Triage t(test::bundled_store());
    add_file(t, "node202.log",
             "2025-12-10T23:13:41.214Z [default1]:node202:2452079:2452177 [1] "
             "transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
             "10.132.0.217<56156> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 vendor err "
             "129 (Recv)\n");
    add_file(t, "node225.log",
             "2025-12-10T" + oom_time + "Z [default6]:node225:1191728:1191800 [6] NCCL INFO "
             "cudaDev 6 busId ba000\n"
             "2025-12-10T" + oom_time + "Z [default6]:torch.OutOfMemoryError: CUDA out of memory. "
             "Tried to allocate 1.00 GiB. GPU 6 has a total capacity of 139.80 GiB of which 0.83 "
             "GiB is free.\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    return r.first_fault->entry_id;
  };
  CHECK(first("23:13:44.814") == "cuda-out-of-memory");  // 3.6 s later: skew
  CHECK(first("23:15:44.814") == "nccl-warn-net");  // two minutes later: not the same moment
}

TEST_CASE("a rank killed on another host moments after its peer's network error's bound is the cause") {
  // the network error is undated, by 23:34:18 (its file's next date); the launcher on dgx223
  // noticed the kill at 23:34:21: the hosts' clocks and the launcher's polling differ by seconds
  Triage t(test::bundled_store());
  add_file(t, "dgx228/stderr.log",
           "2025-11-03 22:22:00,068 - INFO - __main__ - step 100\n"
           "dgx228:3485398:3485495 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion "
           "from peer 10.134.0.221<39373> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 "
           "vendor err 129 (Recv)\n"
           "2025-11-03 23:34:18,515 - INFO - __main__ - shutting down\n");
  add_file(t, "dgx223/launcher.log",
           "E1103 23:34:21.305876 198364 torch/distributed/elastic/multiprocessing/api.py:869] "
           "failed (exitcode: -9) local_rank: 1 (pid: 1399820) of binary: /usr/bin/python3\n"
           "Root Cause (first observed failure):\n"
           "[0]:\n"
           "  time      : 2025-11-03_23:34:20\n"
           "  host      : dgx223\n"
           "  rank      : 57 (local_rank: 1)\n"
           "  exitcode  : -9 (pid: 1399820)\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->rank == 57);
  CHECK(r.first_fault->host == "dgx223");
}

TEST_CASE("the files `tail` printed under '==> name <==' are read as files of their own") {
  // node1's exception is undated after its file's only date; node0's save came before its
  // echoes there, which a job that has failed does not reach: in one file it would not
  const std::string all =
      "==> node0.log <==\n"
      "2024-06-12 13:57:27,000 - INFO - step 1000: loss=0.5763\n"
      "2024-06-12 13:57:35,000 - INFO - Checkpoint saved to /outputs/step_1000\n"
      "2024-06-12 14:47:57,000 - ERROR - [rank0]:[E612 14:47:57.000 ProcessGroupNCCL.cpp:616] "
      "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, "
      "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600321 "
      "milliseconds before timing out.\n"
      "\n"
      "==> node1.log <==\n"
      "2024-06-12 13:33:28,000 - INFO - Distributed environment: MULTI_GPU\n"
      "[rank13]: Traceback (most recent call last):\n"
      "[rank13]:   File \"/workspace/finetune_cls.py\", line 298, in evaluate\n"
      "[rank13]:     loss = F.cross_entropy(outputs.logits, batch[\"labels\"])\n"
      "[rank13]: ValueError: Expected input batch_size (5) to match target batch_size (8).\n";
  Triage t(test::bundled_store());
  t.add_lines("all_nodes.log", 1, all);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 13);
  CHECK(r.first_fault->file == "all_nodes.log/node1.log");
  CHECK(r.first_fault->line == 11);  // its line in the whole file
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->file == "all_nodes.log/node0.log");
  CHECK(r.last_checkpoint->line == 3);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("a job script's date names the zone its log's local times are in, against UTC kernel lines") {
  // the row marked for remapping at 02:18 UTC is 11:18 in Seoul: after checkpoint-2000's save at
  // 11:07 there, before checkpoint-2500's at 11:32
  const std::string job =
      "Starting job 4152826 on gpu-n89 at Sat Jul 20 09:29:34 KST 2024\n"
      "2024-07-20 11:07:58,217 INFO Checkpoint saved to /outputs/checkpoint-2000\n"
      "2024-07-20 11:32:08,905 INFO Checkpoint saved to /outputs/checkpoint-2500\n"
      "2024-07-20 11:51:59,000 ERROR [rank2]: RuntimeError: CUDA error: uncorrectable ECC error "
      "encountered\n";
  for (const bool dated : {true, false}) {
    CAPTURE(dated);
    Triage t(test::bundled_store());
    add_file(t, "slurm-4152826.out", dated ? job : job.substr(job.find('\n') + 1));
    add_file(t, "journalctl-k.txt",
             "2024-07-20T02:18:50+0000 gpu-n89 kernel: NVRM: Xid (PCI:0000:4c:00): 63, "
             "pid='<unknown>', name=<unknown>, Row Remapper: New row (0x00000001b515d799) marked "
             "for remapping, reset gpu to activate.\n"
             "2024-07-20T02:51:59+0000 gpu-n89 kernel: NVRM: Xid (PCI:0000:4c:00): 94, "
             "pid=339727, name=python, Contained: SM (0x1). RST: No, D-RST: No\n");
    const TriageReport r = t.report();
    if (dated) {
      REQUIRE(r.last_checkpoint);
      CHECK(r.last_checkpoint->line == 2);  // checkpoint-2000
    } else {  // read as UTC, the remap came before every save
      CHECK_FALSE(r.last_checkpoint);
    }
  }
}

TEST_CASE("a failure the program says it will retry is a warning, the one it gives up on a cause") {
  const std::string retry =
      "[default5]:2025-02-16 16:20:13,665 dgx168:1339153:1339255 [5] misc/socket.cc:568 NCCL "
      "WARN Call to connect returned Connection refused, retrying\n";
  const std::string quota =
      "[default7]:2025-02-16 16:32:10,000 OSError: [Errno 122] Disk quota exceeded\n";
  Triage t(test::bundled_store());
  add_file(t, "dgx168.log", retry);
  add_file(t, "dgx165.log", quota);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "disk-full");
  // given up on, with nothing else: the network error is the cause
  Triage gave_up(test::bundled_store());
  std::string final_try = retry;
  final_try.replace(final_try.find(", retrying"), 10, "");
  add_file(gave_up, "dgx168.log", retry + final_try);
  const TriageReport g = gave_up.report();
  REQUIRE(g.first_fault);
  CHECK(g.first_fault->entry_id == "nccl-warn-net");
}

TEST_CASE("a GPU's fault logged before its node booted again is not the job's, when the job began after") {
  const std::string xid =
      "Feb 08 12:15:31 hgx-067 kernel: NVRM: Xid (PCI:0000:87:00): 79, pid=322920, "
      "name=python3, GPU has fallen off the bus.\n";
  const std::string boot =
      "-- Boot d16a8fc6f21a8294726c43808c7d881f --\n"
      "Feb 08 14:01:50 hgx-067 kernel: Linux version 5.15.0-104-generic (buildd@lcy02-amd64-076)\n";
  const std::string job =
      "2025-02-08 22:00:14,919 INFO train: step=25 loss=10.2411\n"
      "[rank5]: Traceback (most recent call last):\n"
      "[rank5]:   File \"/workspace/train.py\", line 88, in apply_rope\n"
      "[rank5]:     q = q * cos[:, :seq]\n"
      "[rank5]: RuntimeError: The size of tensor a (8193) must match the size of tensor b (8192) "
      "at non-singleton dimension 1\n";
  for (const bool rebooted : {true, false}) {
    CAPTURE(rebooted);
    Triage t(test::bundled_store(), {}, 2025);
    add_file(t, "journal-k_hgx-067.txt", rebooted ? xid + boot : xid);
    add_file(t, "job.out", job);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    if (rebooted) {
      CHECK(r.first_fault->rank == 5);
      CHECK(r.verdict == "code");
    } else {
      CHECK(r.first_fault->entry_id == "xid-79");  // the GPU may have been broken all along
    }
  }
}

TEST_CASE("a setting half the ranks failed on alike is no one rank's, a program's error is") {
  const auto first = [](const std::string& error) {
    Triage t(test::bundled_store());
    std::string log;
    for (int rank = 0; rank < 16; ++rank) {
      const std::string r = std::to_string(rank);
      if (rank % 8 >= 4)  // local ranks 4-7 of each node
        log += "2025-03-01 10:00:0" + std::to_string(rank % 8) + ",000 [rank" + r + "]: " + error +
               "\n";
      else
        log += "2025-03-01 10:10:00,000 [rank" + r + "]:[E301 10:10:00.000 "
               "ProcessGroupNCCL.cpp:616] [Rank " + r + "] Watchdog caught collective operation "
               "timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
               "Timeout(ms)=600000) ran for 600321 milliseconds before timing out.\n";
    }
    add_file(t, "job.log", log);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    return r.first_fault->rank;
  };
  // CUDA_VISIBLE_DEVICES listed four GPUs for eight processes per node
  CHECK_FALSE(first("RuntimeError: CUDA error: invalid device ordinal"));
  CHECK(first("RuntimeError: CUDA error: an illegal memory access was encountered") == 4);
}

TEST_CASE("a pod kubectl describe shows OOMKilled is dated by its Finished line") {
  Triage t(test::bundled_store());
  add_file(t, "kubectl-describe-pods.txt",
           "Name:             llama-ft-worker-0\n"
           "    State:          Terminated\n"
           "      Reason:       OOMKilled\n"
           "      Exit Code:    137\n"
           "      Started:      Thu, 02 May 2024 17:09:14 +0000\n"
           "      Finished:     Thu, 02 May 2024 17:55:44 +0000\n"
           "  Warning  OOMKilling  5m   kernel-monitor  Memory cgroup out of memory: Killed "
           "process 251 (python) total-vm:334136073kB, anon-rss:29360128kB\n");
  add_file(t, "llama-ft-master-0.log",
           "2024-05-02T17:37:39.697Z INFO:train:saving checkpoint to s3://ckpt/step_001000\n"
           "2024-05-02T17:38:56.267Z INFO:train:step 1050/40000 loss=5.5356\n"
           "2024-05-02T17:55:55.415Z [rank5]:llama-ft-master-0:61:290 [5] NCCL WARN "
           "socketProgressOpt: Connection closed by remote peer 192.168.87.20<47619>\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->line == 3);
  CHECK(r.verdict == "configuration");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 1);
}

TEST_CASE("a kernel log collected with uptime -s dates its uptimes from that boot") {
  Triage t(test::bundled_store());
  add_file(t, "dgx318/dmesg.txt",
           "$ uptime -s\n"
           "2024-07-10 07:21:05\n"
           "$ sudo dmesg\n"
           "[    4.140329] Linux version 5.15.0-111-generic (buildd@lcy02-amd64-076)\n"
           "[2810493.758935] NVRM: Xid (PCI:0000:3a:00): 94, pid=2798780, name=python3, "
           "Contained: SM (0x1). RST: No, D-RST: No\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-94");
  REQUIRE(r.first_fault->time);
  CHECK(*r.first_fault->time == doctest::Approx(utc_seconds(2024, 7, 10, 7, 21, 5) + 2810493.758935));
}

TEST_CASE("a line dated without its year does not show work going on past a fault dated with one") {
  Triage t(test::bundled_store());
  add_file(t, "slurm-4684754.out",
           "2024-08-02 06:25:23,000 ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to "
           "allocate 3.91 GiB. GPU 7 has a total capacity of 79.11 GiB of which 1.20 GiB is free.\n"
           "I0802 06:40:00.000000 2576001 train.py:88] step 4410 loss 2.25\n"
           "2024-08-02 06:55:35,000 ERROR [rank1]:[E802 06:55:35.000 ProcessGroupNCCL.cpp:616] "
           "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, "
           "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600321 "
           "milliseconds before timing out.\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
}

TEST_CASE("a fault in another, unlogged save leaves the whole save logged before it intact") {
  const auto last_saved = [](const std::string& saved) {
    Triage t(test::bundled_store());
    add_file(t, "rank0.log",
             "rank0 | 2024-09-02 17:02:41,375 | sharded checkpoint step-1000 saved (16 ranks)\n"
             "rank0 | 2024-09-02 17:13:35,878 | saving sharded state dict to /ckpt/sharded/step-1500\n" +
                 saved +
                 "rank0 | 2024-09-02 17:20:00,000 | exporting the full model\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/workspace/train.py\", line 310, in export_full_state_dict\n"
                 "    state = model.state_dict()\n"
                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.00 GiB. GPU 0 "
                 "has a total capacity of 79.11 GiB of which 1.20 GiB is free.\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->during_save);
    REQUIRE(r.last_checkpoint);
    return r.last_checkpoint->line;
  };
  // step-1500's end was logged: the export that failed is another save
  CHECK(last_saved("rank0 | 2024-09-02 17:13:58,696 | sharded checkpoint step-1500 saved (16 "
                   "ranks)\n") == 3);
}

TEST_CASE("an Xid's GPU is nvidia-smi's index, the local rank of that number, the rank it named") {
  // no NCCL lines and no pid: nvidia-smi gives the GPU at ba:00 index 6, and the ranks' own
  // start-up lines say which rank local rank 6 of that host is
  const std::string ranks =
      "[default5]:2024-11-04 14:54:04,701 - INFO - __main__ - hostname=gpu-n1 rank=13 "
      "local_rank=5 world_size=32 pid=2104171 device=cuda:5\n"
      "[default6]:2024-11-04 14:54:04,757 - INFO - __main__ - hostname=gpu-n1 rank=14 "
      "local_rank=6 world_size=32 pid=2104172 device=cuda:6\n"
      "[default6]:[rank14]:[E1104 15:48:47.000 ProcessGroupNCCL.cpp:616] [Rank 14] Watchdog "
      "caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
      "NumelOut=1, Timeout(ms)=600000) ran for 600321 milliseconds before timing out.\n";
  for (const std::string listing :
       {"index, name, pci.bus_id, serial\n"
        "5, NVIDIA H100 80GB HBM3, 00000000:AB:00.0, 165236887364\n"
        "6, NVIDIA H100 80GB HBM3, 00000000:BA:00.0, 165233555645\n",
        "|   6  NVIDIA H100 80GB HBM3          On  |   00000000:BA:00.0 Off |                    0 |\n",
        ""}) {
    CAPTURE(listing);
    Triage t(test::bundled_store());
    add_file(t, "gpu-n1/torchrun.log", ranks);
    if (!listing.empty()) add_file(t, "gpu-n1/nvidia-smi.txt", listing);
    add_file(t, "gpu-n1/journalctl-k.txt",
             "Nov  4 15:38:46 gpu-n1 kernel: NVRM: Xid (PCI:0000:ba:00): 79, pid='<unknown>', "
             "name=<unknown>, GPU has fallen off the bus.\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-79");
    if (listing.empty()) CHECK_FALSE(r.first_fault->rank);  // no index for that GPU
    else CHECK(r.first_fault->rank == 14);
  }
}

TEST_CASE("an Xid's rank from NCCL's communicator lines, when no line names a rank") {
  // DeepSpeed's launcher runs pdsh with the hosts' addresses; NCCL's lines say each process's
  // rank in the job's communicator (and in smaller ones, which do not count)
  Triage t(test::bundled_store());
  add_file(t, "deepspeed.log",
           "10.0.1.22: trn-a22:45001:45001 [0] NCCL INFO comm 0x55d0c8a08000 rank 8 nranks 16 "
           "cudaDev 0 nvmlDev 0 busId 18000 commId 0x8d3c5f2e1a7b9c41 - Init COMPLETE\n"
           "10.0.1.22: trn-a22:45002:45002 [1] NCCL INFO comm 0x55d0c8a09000 rank 9 nranks 16 "
           "cudaDev 1 nvmlDev 1 busId 3b000 commId 0x8d3c5f2e1a7b9c41 - Init COMPLETE\n"
           "10.0.1.22: trn-a22:45002:45002 [1] NCCL INFO comm 0x55d0c8b00000 rank 1 nranks 8 "
           "cudaDev 1 nvmlDev 1 busId 3b000 commId 0x11 - Init COMPLETE\n"
           "10.0.1.22: [rank8]:[E1206 04:11:09.461000 ProcessGroupNCCL.cpp:627] [Rank 8] To "
           "avoid data inconsistency, we are taking the entire process down.\n");
  add_file(t, "dmesg-T_10.0.1.22_trn-a22.txt",
           "[Sun Dec  6 03:41:07 2026] NVRM: Xid (PCI:0000:3b:00): 119, pid=45002, name=python, "
           "Timeout after 6s of waiting for RPC response from GPU1 GSP! Expected function 76 "
           "(GSP_RM_CONTROL) (0x20800a4c 0x0).");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-119");
  CHECK(r.first_fault->host == "trn-a22");
  CHECK(r.first_fault->rank == 9);
}

TEST_CASE("a rank's uncaught exception that no entry names is its fault: code, or the setup's") {
  // torchrun's prefix takes the source lines' indent away: a source line is known by its frame
  const std::string traceback =
      "2026-08-12 04:45:20,100 - INFO - step 3410 loss 1.25\n"
      "[rank6]:Traceback (most recent call last):\n"
      "[rank6]:  File \"/workspace/train.py\", line 97, in compute_loss\n"
      "[rank6]:    loss = loss_sum / n_tokens\n";
  const std::string timeout =
      "2026-08-12 04:55:22,000 - ERROR - [rank2]:[E812 04:55:22.000 ProcessGroupNCCL.cpp:607] "
      "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=33071, "
      "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 "
      "milliseconds before timing out.\n";
  {
    Triage t(test::bundled_store());
    add_file(t, "train.log", traceback + "[rank6]:ZeroDivisionError: division by zero\n" + timeout);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->role == "exception");
    CHECK(r.first_fault->rank == 6);
    CHECK(r.first_fault->line == 5);
    CHECK(r.verdict == "code");
    CHECK(r.cascade_count >= 1);  // the peer's timeout is its echo
  }
  {  // a module missing, or built for other versions: the setup
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             traceback + "[rank6]:ImportError: /env/libfoo.so: undefined symbol: _ZN5boost6system\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->role == "exception");
    CHECK(r.verdict == "configuration");
  }
  {  // the same words outside a traceback are a log line, not a fault
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             "2026-08-12 04:45:20,100 - INFO - step 3410 loss 1.25\n"
             "ValueError: bad sample 17, skipped\n");
    CHECK_FALSE(t.report().first_fault);
  }
}

TEST_CASE("a kill naming a process that a rank's NCCL lines named is that rank's") {
  // dmesg names neither host nor rank; its file is named for the host, and NCCL named the pid
  for (const std::string kernel_file : {"dmesg-T_gpu-d02.txt", "kern.log"}) {
    CAPTURE(kernel_file);
    Triage t(test::bundled_store());
    add_file(t, "rank_6.log",
             nccl_init(6, "gpu-d02", 61236, "3b000", 1, 8) +
                 "[rank6]:2026-12-04 08:15:00,000 INFO step 1200 loss 1.9\n");
    add_file(t, "rank_0.log",
             nccl_init(0, "gpu-d02", 61230, "1b000", 1, 8) +
                 "[rank0]:2026-12-04 08:15:00,000 INFO step 1200 loss 1.9\n");
    add_file(t, kernel_file,
             "[Fri Dec  4 08:16:05 2026] Memory cgroup out of memory: Killed process 61236 "
             "(python) total-vm:98732112kB, anon-rss:61203344kB, file-rss:412880kB, "
             "shmem-rss:1048576kB, UID:4012 pgtables:132344kB oom_score_adj:0\n");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->role == "killed");
    CHECK(r.first_fault->rank == 6);  // (kern.log: the job's one host)
    CHECK(r.first_fault->host == "gpu-d02");
    CHECK(r.verdict == "configuration");
  }
}

TEST_CASE("a DataLoader worker killed near the out-of-memory killer's kill: the kill is first") {
  // the kernel's clock and the program's are seconds apart: the exception reads earlier
  Triage t(test::bundled_store());
  add_file(t, "train.log",
           "2026-03-14 04:52:13,000 - INFO - step 7010\n"
           "[rank3]:Traceback (most recent call last):\n"
           "[rank3]:  File \"/usr/lib/python3/torch/utils/data/dataloader.py\", line 1133, in "
           "_try_get_data\n"
           "[rank3]:    data = self._data_queue.get(timeout=timeout)\n"
           "[rank3]:RuntimeError: DataLoader worker (pid 402381) is killed by signal: Killed.\n");
  add_file(t, "gpu-p11_journalctl-k.txt",
           "Mar 14 04:52:35 gpu-p11 kernel: Out of memory: Killed process 402381 (pt_main_thread) "
           "total-vm:71244080kB, anon-rss:38113244kB, file-rss:67412kB, shmem-rss:1048576kB");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->category == "resource");
  CHECK(r.verdict == "configuration");
}

TEST_CASE("an undated error after a stale date, and its GPU's Xid dated within its span") {
  // the rank's last dated line is half an hour before its NCCL WARN: the WARN happened any time
  // after it, and the Xid on its GPU is more likely its cause than its echo
  Triage t(test::bundled_store());
  add_file(t, "train.log",
           nccl_init(2, "node-a", 4402, "3b000", 1, 4) +
               "[rank2]:2024-05-02 10:00:00,100 INFO step 4000\n"
               "[rank2]:Epoch 0: 4250/50000 [1:12:14<12:08:10, loss=3.41]\n"
               "[rank2]:node-a:4402:4410 [0] NCCL WARN Cuda failure 'unspecified launch failure'");
  add_file(t, "kern.log",
           "May  2 10:31:00 node-a kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=4402, "
           "name=python3, GPU has fallen off the bus.");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-79");
  CHECK(r.verdict == "hardware");
  CHECK(std::any_of(r.cascade.begin(), r.cascade.end(), [](const LogEvent& e) {
    return e.entry_id == "unspecified-launch-failure";
  }));
}

TEST_CASE("NeMo's asynchronous save is complete only when its end is logged") {
  Triage t(test::bundled_store());
  add_file(t, "slurm.out",
           " 0: Epoch 0, global step 5000: 'val_loss' reached 2.13, saving model to "
           "'/results/ckpt/step=4999.ckpt' as top 3\n"
           " 0: [NeMo I 2026-07-22 03:30:00 model_checkpoint:497] Scheduled async checkpoint save "
           "for /results/ckpt/step=4999.ckpt\n"
           " 0: Training epoch 0, iteration 5009/99999 | reduced_train_loss: 2.203\n"
           " 0: [NeMo I 2026-07-22 03:34:06 model_checkpoint:522] Async checkpoint save for step "
           "5000 (/results/ckpt/step=4999.ckpt) finalized successfully.\n"
           " 0: Training epoch 0, iteration 5999/99999 | reduced_train_loss: 2.251\n"
           " 0: Epoch 0, global step 6000: 'val_loss' reached 2.17, saving model to "
           "'/results/ckpt/step=5999.ckpt' as top 3\n"
           " 0: [NeMo I 2026-07-22 04:13:07 model_checkpoint:497] Scheduled async checkpoint save "
           "for /results/ckpt/step=5999.ckpt\n"
           " 0: Training epoch 0, iteration 6009/99999 | reduced_train_loss: 2.249\n"
           " 0: Training epoch 0, iteration 6019/99999 | reduced_train_loss: 2.247\n"
           " 0: [NeMo E 2026-07-22 04:13:40 nemo_logging:393] RuntimeError: CUDA error: an "
           "illegal memory access was encountered");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 4);  // step 4999's finalized save, not step 5999's start
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("a GPU out of memory because another process holds it is the job's setting") {
  // PyTorch names each process on the GPU, then "this process": what the GPU holds beyond this
  // process and the free memory is another's
  const auto verdict = [](const std::string& other, const std::string& own) {
    Triage t(test::bundled_store());
    add_file(t, "train.log",
             "[rank3]:2026-01-29 19:23:10,000 ERROR torch.OutOfMemoryError: CUDA out of memory. "
             "Tried to allocate 1.95 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.06 "
             "GiB is free. Process 2291847 has " + other + " memory in use. Including "
             "non-PyTorch memory, this process has " + own + " memory in use. Of the allocated "
             "memory 712.00 MiB is allocated by PyTorch, and 21.87 MiB is reserved by PyTorch "
             "but unallocated.");
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
    CHECK(r.verdict == "configuration");
    return r.verdict_reason;
  };
  CHECK(verdict("76.87 GiB", "1.16 GiB").find("another process") != std::string::npos);
  // its own use: exhaustion, which the job's settings size
  CHECK(verdict("1.16 GiB", "76.87 GiB").find("another process") == std::string::npos);
}

TEST_CASE("a node that died silently, reported minutes after its peers' network errors") {
  Triage t(test::bundled_store());
  add_file(t, "slurm-81920.out",
           "2026-12-08 03:36:14,000 15: node-b:702972:703201 [7] transport/net_ib.cc:2244 NCCL "
           "WARN NET/IB : Got completion from peer 10.30.0.13<60412> with status=12 opcode=0 "
           "len=0 vendor err 129 (Send)\n"
           "2026-12-08 03:38:40,000 srun: error: Node failure on node-c");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "slurm-node-failure");
  CHECK(r.verdict == "hardware");
}

TEST_CASE("a GPU's Xid with no rank takes the rank whose own fault follows it, if one rank") {
  // Lightning's prefixes, no NCCL lines: nothing ties the Xid's GPU to a process
  const auto job = [](bool second_rank_fails) {
    std::string log;
    for (int rank = 0; rank < 4; ++rank)
      log += "[rank: " + std::to_string(rank) + "] 2026-11-20 03:01:30,000 INFO step 102\n";
    log += "[rank: 2] 2026-11-20 03:02:05,000 ERROR RuntimeError: CUDA error: unspecified launch "
           "failure\n";
    if (second_rank_fails)
      log += "[rank: 3] 2026-11-20 03:02:06,000 ERROR RuntimeError: CUDA error: unspecified "
             "launch failure\n";
    for (const int rank : {0, 1, 3})
      log += "[rank: " + std::to_string(rank) + "] " + watchdog_line(rank) + "\n";
    return log;
  };
  const std::string xid = "[Fri Nov 20 03:02:04 2026] NVRM: Xid (PCI:0000:1d:00): 79, "
                          "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.";
  SUBCASE("one rank failed after it: the Xid is that rank's") {
    Triage t(test::bundled_store());
    add_file(t, "job.log", job(false));
    add_file(t, "dmesg.log", xid);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-79");
    CHECK(r.first_fault->rank == 2);
    CHECK(r.first_fault->rank_file == "job.log");
    CHECK(r.first_fault->rank_line == 5);
    CHECK(r.verdict == "hardware");
    // rank 2 timed out in no collective, but it was not silent
    CHECK(r.hang_reason.find("rank 2 reported a fault of its own") != std::string::npos);
  }
  SUBCASE("two ranks failed after it: which GPU it was is not known") {
    Triage t(test::bundled_store());
    add_file(t, "job.log", job(true));
    add_file(t, "dmesg.log", xid);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-79");
    CHECK_FALSE(r.first_fault->rank);
    CHECK(r.verdict == "hardware");
  }
}


// One job's log in the prefix formats launchers and training scripts write, with a fault planted
// on rank 2 of 4: the rank and the verdict must come out the same in every format.
TEST_CASE("a planted fault is found on its rank whatever prefix each line carries") {
  struct Format {
    const char* name;
    std::string (*line)(int rank, const std::string& text);
  };
  const Format formats[] = {
      {"torchrun",
       [](int r, const std::string& t) { return "[rank" + std::to_string(r) + "]:" + t; }},
      {"srun -l", [](int r, const std::string& t) { return std::to_string(r) + ": " + t; }},
      {"mpirun --tag-output",
       [](int r, const std::string& t) { return "[1," + std::to_string(r) + "]<stderr>:" + t; }},
      {"Lightning",
       [](int r, const std::string& t) { return "[rank: " + std::to_string(r) + "] " + t; }},
      {"a logger's rank column",
       [](int r, const std::string& t) {
         return "2026-11-20 03:02:05,000 - ERROR - [rank" + std::to_string(r) + "] " + t;
       }},
  };
  struct Scenario {
    const char* name;
    std::string fault;             // rank 2's line, "" for a rank that falls silent
    std::string dmesg;             // the kernel's line, if any
    std::set<std::string> first;   // the first fault's entry (a cause or its echo), or "hang"
    std::string verdict;
  };
  const Scenario scenarios[] = {
      {"the program's fault", "RuntimeError: CUDA error: an illegal memory access was encountered",
       "", {"illegal-memory-access"}, "code"},
      {"the GPU's fault, named by the kernel only",
       "RuntimeError: CUDA error: unspecified launch failure",
       "[Fri Nov 20 03:02:04 2026] NVRM: Xid (PCI:0000:1a:00): 79, pid='<unknown>', "
       "name=<unknown>, GPU has fallen off the bus.",
       // (an undated line after the last dated one may be the Xid's echo or come before it)
       {"xid-79", "unspecified-launch-failure"}, "hardware"},
      {"a rank that falls silent", "", "", {"hang"}, "unknown"},
  };
  for (const Format& f : formats)
    for (const Scenario& sc : scenarios) {
      CAPTURE(std::string(f.name));
      CAPTURE(std::string(sc.name));
      std::string log;
      for (int rank = 0; rank < 4; ++rank)
        log += f.line(rank, "2026-11-20 03:01:30,000 INFO step 102 loss 1.9") + "\n";
      if (!sc.fault.empty()) log += f.line(2, sc.fault) + "\n";
      for (const int rank : {0, 1, 3})
        log += f.line(rank, watchdog_line(rank)) + "\n";
      Triage t(test::bundled_store());
      add_file(t, "job.log", log);
      if (!sc.dmesg.empty()) add_file(t, "dmesg.log", sc.dmesg);
      const TriageReport r = t.report();
      REQUIRE(r.first_fault);
      CHECK(sc.first.contains(r.first_fault->entry_id.empty() ? r.first_fault->role
                                                              : r.first_fault->entry_id));
      CHECK(r.first_fault->rank == 2);
      CHECK(r.verdict == sc.verdict);
    }
}

TEST_CASE("a kernel log in a folder named for its host is that host's") {
  // NCCL names the processes of two hosts; the dmesg excerpt names neither, its folder does
  std::string job;
  job += nccl_init(0, "node17", 4100, "1b000", 2, 1);
  job += nccl_init(1, "node18", 5200, "2a000", 2, 1);
  job += "[rank1]: 2026-03-02 10:00:05,000 ERROR RuntimeError: CUDA error: an illegal memory "
         "access was encountered\n";
  const std::string xid = "[Mon Mar  2 10:00:04 2026] NVRM: Xid (PCI:0000:2a:00): 31, pid=5200, "
                          "name=python, Ch 00000018, intr 00000000. MMU Fault: ENGINE GRAPHICS "
                          "GPCCLIENT_T1_0 faulted @ 0x7fc4_78386000. Fault is of type FAULT_PDE "
                          "ACCESS_TYPE_VIRT_READ";
  SUBCASE("its folder names the host: the Xid is that host's process, rank 1") {
    Triage t(test::bundled_store());
    add_file(t, "job/train.out", job);
    add_file(t, "job/node-logs/node18/dmesg.txt", xid);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-31");
    CHECK(r.first_fault->rank == 1);
    CHECK(r.first_fault->host == "node18");
  }
  SUBCASE("no name of a host in its path: no rank is guessed") {
    Triage t(test::bundled_store());
    add_file(t, "job/train.out", job);
    add_file(t, "job/node-logs/dmesg.txt", xid);
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK(r.first_fault->entry_id == "xid-31");
    CHECK_FALSE(r.first_fault->rank);
  }
}

TEST_CASE("a GPU's earlier Xid takes the rank that the same GPU's later Xid is tied to") {
  // a DBE (Xid 48) twenty minutes before the GPU's Xid 95, which rank 5's own ECC error follows
  // by a second; the peers only lose their connections
  std::string job;
  for (int rank = 0; rank < 8; ++rank)
    job += std::to_string(rank) + ": 2024-03-14 10:54:43,000 INFO [R" + std::to_string(rank) +
           "] step 100\n";
  job += "5: [rank5]:[E314 11:28:47.287188082 ProcessGroupNCCL.cpp:998] [PG ID 0 PG GUID "
         "0(default_pg) Rank 5] Process group watchdog thread terminated with exception: CUDA "
         "error: uncorrectable ECC error encountered\n";
  job += "2: [rank2]:[E314 11:28:48.000000000 ProcessGroupNCCL.cpp:1266] [PG 0 Rank 2] Process "
         "group watchdog thread terminated with exception: NCCL error: remote process exited or "
         "there was a network error, NCCL version 2.21.5\n";
  const std::string kernel =
      "Mar 14 11:07:08 gpu13 kernel: NVRM: Xid (PCI:0000:90:00): 48, pid='<unknown>', "
      "name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the "
      "framebuffer at partition 7, subpartition 0.\n"
      "Mar 14 11:28:46 gpu13 kernel: NVRM: Xid (PCI:0000:90:00): 95, pid=3181656, name=python, "
      "Uncontained: FBHUB. RST: Yes, D-RST: No\n";
  Triage t(test::bundled_store());
  add_file(t, "train.out", job);
  add_file(t, "journal-gpu13.log", kernel);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "xid-48");
  CHECK(r.first_fault->rank == 5);
  CHECK(r.verdict == "hardware");
}

TEST_CASE("pdsh's host prefix before a traceback and before any line of a host it named") {
  // DeepSpeed's launcher runs each node's output through pdsh: "node07: " before every line
  const std::string log =
      "node07: [2025-11-05 20:26:55,916] [INFO] [launch.py:145:main] WORLD INFO DICT: "
      "{'node07': [0, 1], 'node08': [0, 1]}\n"
      "node08: [2025-11-05 20:27:01,536] [INFO] [launch.py:145:main] WORLD INFO DICT: "
      "{'node07': [0, 1], 'node08': [0, 1]}\n"
      "node07: [2025-11-05 21:52:24,889] [INFO] [logging.py:96:log_dist] [Rank 0] step=860\n"
      "node07: Traceback (most recent call last):\n"
      "node07:   File \"/code/train.py\", line 723, in <module>\n"
      "node07:     main(args)\n"
      "node07: ZeroDivisionError: float division by zero\n"
      "node08: node08:1676869:1677225 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed "
      "by remote peer node07<35164>\n"
      "node08: [2025-11-05 21:54:19,000] [INFO] [launch.py:316:sigkill_handler] Killing "
      "subprocess 1676869\n";
  Triage t(test::bundled_store());
  add_file(t, "deepspeed.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->host == "node07");
  CHECK(r.verdict == "code");
}

TEST_CASE("a segmentation fault is a crash of its own, its peers' lost connections its echo") {
  const std::string log =
      "node07: [2024-03-28 09:53:11,072] [INFO] [logging.py:96:log_dist] [Rank 0] step=700\n"
      "node07: Fatal Python error: Segmentation fault\n"
      "node07: \n"
      "node07: Thread 0x0d7dcc1724f2 (most recent call first):\n"
      "node07:   File \"/venv/lib/python3.10/site-packages/torch/autograd/graph.py\", line 768 "
      "in _engine_run_backward\n"
      "node08: node08:3163946:3164408 [0] misc/socket.cc:538 NCCL WARN Net : Connection closed "
      "by remote peer node07<50574>\n"
      "node08: [2024-03-28 09:54:35,648] [INFO] [launch.py:316:sigkill_handler] Killing "
      "subprocess 3163946\n";
  Triage t(test::bundled_store());
  add_file(t, "deepspeed.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->host == "node07");
  CHECK(r.first_fault->reading.find("segmentation fault") != std::string::npos);
  CHECK(r.verdict == "unknown");
  CHECK(r.first_action.find("faulthandler") != std::string::npos);
}

TEST_CASE("srun's first failed task names the rank of a traceback printed without one") {
  // srun without --label: the traceback has no rank; srun reports task 10 right after it, then
  // its teardown kills the rest, and rank 2's watchdog names NCCL's cause under "Last error:"
  const std::string log =
      "[2024-06-01 13:01:08] ERROR: shard missing, traceback follows\n"
      "Traceback (most recent call last):\n"
      "  File \"/src/train.py\", line 672, in <module>\n"
      "    main(args)\n"
      "FileNotFoundError: [Errno 2] No such file or directory: '/local_nvme/data/shard_00010.bin'\n"
      "srun: error: node21: task 10: Exited with exit code 1\n"
      "srun: Job step aborted: Waiting up to 122 seconds for job step to finish.\n"
      "node19:471057:471637 [2] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote "
      "peer node21.cluster<51629>\n"
      "[rank2]:[E ProcessGroupNCCL.cpp:880] [PG 0 Rank 2] Process group watchdog thread "
      "terminated with exception: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO "
      "for details), NCCL version 2.21.5\n"
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
      "device error.\n"
      "Last error:\n"
      "socketProgress: Connection closed by remote peer 10.10.44.99<51629>\n"
      "srun: error: node19: tasks 0-3: Killed\n";
  Triage t(test::bundled_store());
  add_file(t, "slurm-2503884.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->rank == 10);
  CHECK(r.first_fault->host == "node21");
  CHECK(r.verdict == "configuration");
}

TEST_CASE("a task-numbered file whose launcher names another rank first is a node's file") {
  // srun ran torchrun once per node, with --output=torchrun_%j_%t.log: task 1 is node 1, whose
  // agent names rank 6 as the first failure
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"/opt/app/pretrain_gpt.py\", line 363, in <module>\n"
      "    main(args)\n"
      "ZeroDivisionError: float division by zero\n"
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
      "============================================================\n"
      "pretrain_gpt.py FAILED\n"
      "------------------------------------------------------------\n"
      "Failures:\n"
      "  <NO_OTHER_FAILURES>\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2025-02-11_09:14:22\n"
      "  host      : gpu013\n"
      "  rank      : 6 (local_rank: 2)\n"
      "  exitcode  : 1 (pid: 3345534)\n";
  Triage t(test::bundled_store());
  add_file(t, "torchrun_1799683_1.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->rank == 6);
}

TEST_CASE("a kill torchrun's agent reports takes the rank of its summary, not srun's task label") {
  // srun -l ran one torchrun per node: "1: " is node 1's task; its agent lost local rank 1 to a
  // SIGKILL and its summary names global rank 5
  const std::string log =
      "1: [2024-03-18 11:50:00,000] INFO step 590\n"
      "1: [2024-03-18 11:54:02,400] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
      "(exitcode: -9) local_rank: 1 (pid: 2651) of binary: /venv/bin/python\n"
      "1: torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
      "1: ============================================================\n"
      "1: train.py FAILED\n"
      "1: ------------------------------------------------------------\n"
      "1: Root Cause (first observed failure):\n"
      "1: [0]:\n"
      "1:   time      : 2024-03-18_11:54:02\n"
      "1:   host      : dgx030\n"
      "1:   rank      : 5 (local_rank: 1)\n"
      "1:   exitcode  : -9 (pid: 2651)\n"
      "1:   error_file: <N/A>\n"
      "1:   traceback : Signal 9 (SIGKILL) received by PID 2651\n";
  Triage t(test::bundled_store());
  add_file(t, "slurm-5978403.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->rank == 5);
  CHECK(r.verdict == "unknown");
}

TEST_CASE("the kernel's out-of-memory kill takes the rank of the process torchrun lost") {
  const std::string kernel =
      "2024-07-08T13:21:44.606224+00:00 node-ztei kernel: [1229919.266344] Memory cgroup out of "
      "memory: Killed process 366850 (python) total-vm:1200000000kB, anon-rss:700000000kB\n";
  const std::string worker =
      "E0708 13:21:48.212000 366818 torch/distributed/elastic/multiprocessing/api.py:869] failed "
      "(exitcode: -9) local_rank: 5 (pid: 366850) of binary: /venv/bin/python\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2024-07-08_13:21:48\n"
      "  host      : worker-1\n"
      "  rank      : 21 (local_rank: 5)\n"
      "  exitcode  : -9 (pid: 366850)\n";
  Triage t(test::bundled_store());
  add_file(t, "syslog-node-ztei.log", kernel);
  add_file(t, "trainer-worker-1.log", worker);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->category == "resource");
  CHECK(r.first_fault->rank == 21);
  CHECK(r.first_fault->rank_file == "trainer-worker-1.log");
  CHECK(r.verdict == "configuration");
}

TEST_CASE("an undated fault happened before its echoes: a save dated before them came first") {
  // rank 5's device-side assert is undated after its file's last dated line (23:06:15); rank 0
  // saved at 00:39 and went on; rank 0's watchdog timed out at 01:09, the assert's echo
  const std::string rank0 =
      "2025-08-05 00:38:41,747 | INFO    | rank 0/8 | saving checkpoint to /ckpt/step_0008000.pt\n"
      "2025-08-05 00:39:41,626 | INFO    | rank 0/8 | checkpoint saved: /ckpt/step_0008000.pt\n"
      "2025-08-05 00:58:31,916 | INFO    | rank 0/8 | step 8625/500000 loss=2.3562\n"
      "2025-08-05 01:09:02,000 | ERROR   | rank 0/8 | [rank0]:[E805 01:09:02.000000 40 "
      "ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=80001, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran "
      "for 600021 milliseconds before timing out.\n";
  const std::string rank5 =
      "2025-08-04 23:06:15,623 | INFO    | rank 5/8 | resumed from step 5000\n"
      "../aten/src/ATen/native/cuda/Indexing.cu:1292: indexSelectLargeIndex: block: [593,0,0], "
      "thread: [69,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n";
  Triage t(test::bundled_store());
  add_file(t, "job-0.out", rank0);
  add_file(t, "job-5.out", rank5);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "device-side-assert");
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->text.find("checkpoint saved: /ckpt/step_0008000.pt") !=
        std::string::npos);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("an undated status report of a memory error the kernel dated is that error") {
  // nvidia-smi -q taken after the incident says a row remapping failed; the kernel's Xid 64 is
  // dated after the save, so the save stands
  const std::string job =
      "[2025-12-16 19:50:20] rank0: checkpoint saved to /ckpt/step_500.pt\n"
      "[2025-12-16 19:56:05] rank0: step 510\n";
  const std::string kernel =
      "Dec 16 19:56:04 gpu185 kernel: NVRM: Xid (PCI:0000:18:00): 64, pid=77, name=python, "
      "Failed to persist row remap.\n";
  const std::string smi =
      "    Remapped Rows\n"
      "        Correctable Error                 : 0\n"
      "        Uncorrectable Error               : 9\n"
      "        Pending                           : No\n"
      "        Remapping Failure Occurred        : Yes\n";
  Triage t(test::bundled_store());
  add_file(t, "job.log", job);
  add_file(t, "kern-gpu185.log", kernel);
  add_file(t, "gpu185-nvidia-smi-q.txt", smi);
  const TriageReport r = t.report();
  REQUIRE(r.last_checkpoint);
  CHECK(r.safe_to_resume == true);
}

TEST_CASE("the rank most collective-mismatch reports name is the one in another collective") {
  // TORCH_DISTRIBUTED_DEBUG=DETAIL: each rank names the first rank whose collective differs from
  // its own; ranks 0, 1 and 3 name rank 2, and rank 2 names rank 0
  const auto report = [](int self, int other, const char* self_op, const char* other_op) {
    return std::to_string(self) + ": RuntimeError: Detected mismatch between collectives on "
           "ranks. Rank " + std::to_string(self) + " is running collective: "
           "CollectiveFingerPrint(SequenceNumber=20289, OpType=" + self_op + "), but Rank " +
           std::to_string(other) + " is running collective: CollectiveFingerPrint("
           "SequenceNumber=20289, OpType=" + other_op + ").\n";
  };
  const std::string log = report(0, 2, "ALLREDUCE", "BROADCAST") +
                          report(1, 2, "ALLREDUCE", "BROADCAST") +
                          report(3, 2, "ALLREDUCE", "BROADCAST") +
                          report(2, 0, "BROADCAST", "ALLREDUCE");
  Triage t(test::bundled_store());
  add_file(t, "slurm-9634828.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "torch-distributed-collective-mismatch");
  CHECK(r.first_fault->rank == 2);
  CHECK(r.first_fault->line == 4);  // its own report
  CHECK(r.first_fault->ranks_alike == 0);
  CHECK(r.first_fault->reading.find("name rank 2") != std::string::npos);
  CHECK(r.verdict == "code");
}

TEST_CASE("srun's node failure is not the place of a rank's lost connection in the same file") {
  // no line is dated; rank 17's MPI error comes first in the file, srun's report of the node
  // that failed comes later: the node is what rank 17 lost
  const std::string log =
      "17: Rank 17 [Wed Dec  4 00:14:49 2024] [c0-2c1s10n2] Fatal error in PMPI_Allreduce: Other "
      "MPI error, error stack:\n"
      "srun: error: nid006897: task 25: Killed\n"
      "srun: error: Node failure on nid006879\n";
  Triage t(test::bundled_store());
  add_file(t, "slurm-8118621.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "slurm-node-failure");
  CHECK(r.verdict == "hardware");
}

TEST_CASE("Ray Train's worker table ties a worker's pid and address to its rank") {
  const std::string log =
      "(TorchTrainer pid=67336) Started distributed worker processes: \n"
      "(TorchTrainer pid=67336) - (node_id=2153, ip=10.1.121.93, pid=3634234) world_rank=0, "
      "local_rank=0, node_rank=0\n"
      "(TorchTrainer pid=67336) - (node_id=57c6, ip=10.1.121.93, pid=3634254) world_rank=3, "
      "local_rank=3, node_rank=0\n"
      "(RayTrainWorker pid=3634254, ip=10.1.121.93) Traceback (most recent call last):\n"
      "(RayTrainWorker pid=3634254, ip=10.1.121.93)   File \"/app/train.py\", line 88, in step\n"
      "(RayTrainWorker pid=3634254, ip=10.1.121.93)     x = batch[idx]\n"
      "(RayTrainWorker pid=3634254, ip=10.1.121.93) IndexError: list index out of range\n";
  Triage t(test::bundled_store());
  add_file(t, "job-driver.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->rank == 3);
  CHECK(r.verdict == "code");
}

TEST_CASE("Ray's task error names the worker whose unprefixed traceback follows it") {
  const std::string log =
      "- (node_id=2153, ip=10.1.121.93, pid=3634234) world_rank=0, local_rank=0, node_rank=0\n"
      "- (node_id=57c6, ip=10.1.121.94, pid=83211) world_rank=9, local_rank=1, node_rank=1\n"
      "ray.exceptions.RayTaskError(ValueError): ray::_RayTrainWorker__execute.get_next() "
      "(pid=83211, ip=10.1.121.94, actor_id=6c47, repr=<ray.train._internal.worker_group."
      "RayTrainWorker object at 0x7f>)\n"
      "Traceback (most recent call last):\n"
      "  File \"/app/train_ray.py\", line 118, in train_loop_per_worker\n"
      "    loss = criterion(outputs, labels)\n"
      "ValueError: Expected input batch_size (64) to match target batch_size (63).\n";
  Triage t(test::bundled_store());
  add_file(t, "ray_driver.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "exception");
  CHECK(r.first_fault->rank == 9);
  CHECK(r.first_fault->host == "10.1.121.94");
}

TEST_CASE("a line of no rank in one JAX process's log is that process's, as Orbax names it") {
  const std::string process1 =
      "I1214 06:59:13.818202 103487 checkpoint_manager.py:1283] [process=1][thread=MainThread] "
      "Saving checkpoint at step 2000\n"
      "I1214 07:00:09.245143 103487 async_checkpointer.py:229] [process=1][thread=save_finalize] "
      "Finished asynchronous save (blocking + background) in 31.22 seconds to "
      "gs://runs/run39/checkpoints/2000\n"
      "E1214 07:23:43.393139 103487 pjrt_stream_executor_client.cc:3084] Execution of replica 0 "
      "failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 16557396480 bytes.\n";
  Triage t(test::bundled_store());
  add_file(t, "host-1.log", process1);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "jax-resource-exhausted");
  CHECK(r.first_fault->rank == 1);
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 2);

  // (a file that several processes' lines name is no one process's)
  Triage both(test::bundled_store());
  add_file(both, "job.log",
           "I1214 06:59:13.818202 1 checkpoint_manager.py:1283] [process=0][thread=MainThread] "
           "Saving checkpoint at step 2000\n" + process1);
  const TriageReport r2 = both.report();
  REQUIRE(r2.first_fault);
  CHECK(!r2.first_fault->rank);
}

TEST_CASE("an undated peer's network error gives way to a fault seconds after its bound") {
  // (dgx157's warning happened between 21:34:20 and 21:35:22; dgx153's rank ran out of memory
  // at 21:35:26: its clock may be seconds ahead, and its peers' links failed as it stopped)
  const std::string peer =
      "[default1]:2025-10-03 21:34:20,835 - INFO - data - [rank17] step=363\n"
      "[default1]:dgx157:1243134:1243232 [1] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got "
      "completion from peer 10.4.0.155<55635> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 "
      "vendor err 129 (Recv) localGid ::ffff:10.4.0.157 remoteGids::ffff:10.4.0.155 hca mlx5_8\n"
      "W1003 21:35:22.481515 2782104 torch/distributed/elastic/multiprocessing/api.py:897] "
      "Sending process 1243134 closing signal SIGTERM\n";
  const std::string oom =
      "[default0]:2025-10-03 21:12:01,278 - INFO - __main__ - hostname=dgx153 rank=0 "
      "local_rank=0 world_size=32 pid=1258347\n"
      "[default0]:2025-10-03 21:35:26,984 - ERROR - __main__ - [rank0] training step failed\n"
      "[default0]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.81 GiB. GPU 0 "
      "has a total capacity of 79.11 GiB of which 3.77 GiB is free.\n"
      "W1003 21:35:27.481515 2782104 torch/distributed/elastic/multiprocessing/api.py:897] "
      "Sending process 1390269 closing signal SIGTERM\n";
  Triage t(test::bundled_store());
  add_file(t, "dgx157/torchrun.log", peer);
  add_file(t, "dgx153/torchrun.log", oom);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
}

TEST_CASE("a setting every pod's local ranks fail on alike names no rank") {
  // (pods print only their local ranks, "[default6]:"; one line names rank 15 of one of them)
  Triage t(test::bundled_store());
  for (const std::string pod : {"worker-0", "worker-1", "worker-2"}) {
    std::string log;
    for (const std::string local : {"4", "5", "6", "7"})
      log += "2024-04-01T23:50:39.896599797Z [default" + local +
             "]:RuntimeError: CUDA error: invalid device ordinal\n";
    add_file(t, "pt-train-" + pod + ".log", log);
  }
  add_file(t, "pt-train-worker-9.log",
           "2024-04-01T23:50:40.000000000Z [default7]:[rank15]: RuntimeError: CUDA error: "
           "invalid device ordinal\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "invalid-device-ordinal");
  CHECK(!r.first_fault->rank);
  CHECK(r.first_fault->ranks_alike >= 3);
}

TEST_CASE("a file of torchrun's --log-dir is its folder's local rank on the host above it") {
  Triage t(test::bundled_store());
  add_file(t, "node0020/tlogs/3cdc/attempt_0/0/stdout.log",
           "2025-08-10 06:00:19,938 - INFO - __main__ - hostname=node0020 rank=96 local_rank=0 "
           "world_size=128 pid=268644\n"
           "2025-08-10 06:03:07,265 - INFO - data - [rank96] step=24\n");
  add_file(t, "node0020/tlogs/3cdc/attempt_0/0/stderr.log",
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.81 GiB. GPU 0 has a "
           "total capacity of 79.11 GiB of which 2.74 GiB is free.\n");
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
  CHECK(r.first_fault->rank == 96);
}

TEST_CASE("Ray's memory monitor kills a worker for host memory: its rank, configuration") {
  const std::string log =
      "(TorchTrainer pid=67336) - (node_id=8e5e, ip=10.128.77.42, pid=1818290) world_rank=1, "
      "local_rank=1, node_rank=0\n"
      "(raylet, ip=10.128.77.42) [2024-03-17 00:49:39,750] Memory on the node (IP: "
      "10.128.77.42, ID: 9cf8) where the task (actor ID: 8e5e, name=RayTrainWorker.__init__, "
      "pid=1818290, memory used=77.07GB) was running was 177.26GB / 186.00GB (0.953000), which "
      "exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: e0e3) because it "
      "was the most recently scheduled task\n";
  Triage t(test::bundled_store());
  add_file(t, "driver.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->role == "killed");
  CHECK(r.first_fault->category == "resource");
  CHECK(r.first_fault->rank == 1);
  CHECK(r.verdict == "configuration");
}

TEST_CASE("c10d's warning-level connect failures are retries, not the job's first fault") {
  // (a worker node started before the store was up; the job trained, then a rank ran out of
  // memory)
  const std::string log =
      "[W socket.cpp:697] [c10d] The client socket has failed to connect to [node16]:29500 "
      "(errno: 111 - Connection refused).\n"
      "W0519 20:29:56.054455 41395 torch/distributed/run.py:793] \n"
      "[rank18]: Traceback (most recent call last):\n"
      "[rank18]:   File \"/app/train.py\", line 88, in <module>\n"
      "[rank18]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 16.00 GiB. GPU 2 "
      "has a total capacity of 79.15 GiB of which 614.31 MiB is free.\n"
      "W0519 21:53:34.523613 41395 torch/distributed/elastic/multiprocessing/api.py:858] "
      "Sending process 41423 closing signal SIGTERM\n";
  Triage t(test::bundled_store());
  add_file(t, "node18.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->entry_id == "cuda-out-of-memory");
  CHECK(r.first_fault->rank == 18);
}

TEST_CASE("a start-up line's 'global rank 2/16 local rank 2' ties the local rank to rank 2") {
  const std::string log =
      "[default2]:2024-08-10 20:50:52,124 | global rank 2/16 local rank 2 host gpu-a100-058 pid "
      "91436\n"
      "[default2]:2024-08-10 21:44:53,000 | step 400 loss 2.1\n"
      "[default2]:RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  Triage t(test::bundled_store());
  add_file(t, "gpu-a100-058-torchrun.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 2);
}

TEST_CASE("torchrun's rendezvous result gives a local rank its rank, as of its restart") {
  const auto result = [](int restart, const std::string& ranks) {
    return "[2024-08-10 20:50:40,000] torch.distributed.elastic.agent.server.api: [INFO] "
           "[default] Rendezvous complete for workers. Result:\n"
           "  restart_count=" + std::to_string(restart) + "\n"
           "  group_rank=1\n"
           "  local_ranks=[0, 1, 2, 3]\n"
           "  global_ranks=[" + ranks + "]\n";
  };
  const std::string log = result(0, "4, 5, 6, 7") +
                          "[default1]:2024-08-10 21:00:00,000 | step 100 loss 2.3\n" +
                          result(1, "0, 1, 2, 3") +
                          "[default1]:2024-08-10 21:30:00,000 | step 200 loss 2.1\n"
                          "[default1]:RuntimeError: CUDA error: an illegal memory access was "
                          "encountered\n";
  Triage t(test::bundled_store());
  add_file(t, "node7.log", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->rank == 1);  // the restart's ranks, not the first start's (5)

  // Two nodes' agents in one file, unprefixed: their results of one start differ, so neither
  // names a rank
  Triage both(test::bundled_store());
  add_file(both, "job.log", result(0, "0, 1, 2, 3") + result(0, "4, 5, 6, 7") +
                                "[default1]:RuntimeError: CUDA error: an illegal memory access "
                                "was encountered\n");
  const TriageReport r2 = both.report();
  REQUIRE(r2.first_fault);
  CHECK(!r2.first_fault->rank);
}

TEST_CASE("the exit warning right below an unprefixed traceback names its rank") {
  // (Accelerate prints the traceback unprefixed; the dying process's exit warning carries its
  // rank; other ranks' timeouts follow within the lines name_rank reads)
  std::string log =
      "08/05/2025 15:59:39 - INFO - __main__ - Running evaluation at step 4500\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/u/proj/train.py\", line 401, in <module>\n"
      "RuntimeError: The size of tensor a (2049) must match the size of tensor b (2048) at "
      "non-singleton dimension 1\n"
      "[rank0]:[W0805 15:59:56.322447] ProcessGroupNCCL.cpp:1168] Warning: WARNING: process "
      "group has NOT been destroyed before we destruct ProcessGroupNCCL.\n";
  for (const std::string rank : {"4", "7"})
    log += "[rank" + rank + "]:[E0805 16:29:56.328388000 ProcessGroupNCCL.cpp:616] [Rank " + rank +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=73818, "
           "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800282 "
           "milliseconds before timing out.\n";
  Triage t(test::bundled_store());
  add_file(t, "accel-node0.out", log);
  const TriageReport r = t.report();
  REQUIRE(r.first_fault);
  CHECK(r.first_fault->line == 4);
  CHECK(r.first_fault->rank == 0);
}

TEST_CASE("a progress bar's carriage returns show work, other ranks' c10 errors do not") {
  // Lightning logs "saving model to" before it writes; tqdm redraws each progress line with '\r'
  // (a leading '\r' had been read as a traceback's indent, so the step-80 save never completed);
  // the step-160 save is cut short by the kill, and the other ranks' "[E ...]" lines after the
  // launcher's teardown are no work that would complete it
  const std::string log =
      "[2025-05-17 05:24:13,955] torch.distributed.run: [WARNING] start\n"
      "\rEpoch 0:  19%| | 80/410 [06:13<25:39,  0.21it/s, v_num=4, train_loss=2.924]\n"
      "Epoch 0, global step 80: 'val_loss' reached 2.92173 (best 2.92173), saving model to "
      "'/ck/epoch=0-step=80.ckpt' as top 3\n"
      "\rEpoch 0:  21%| | 90/410 [06:59<24:52,  0.21it/s, v_num=4, train_loss=2.936]\n"
      "\rEpoch 0:  39%| | 160/410 [12:26<19:25,  0.21it/s, v_num=4, train_loss=2.981]\n"
      "Epoch 0, global step 160: 'val_loss' reached 2.92241 (best 2.92241), saving model to "
      "'/ck/epoch=0-step=160.ckpt' as top 3\n"
      "[2025-05-17 05:41:01,577] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending "
      "process 1905963 closing signal SIGTERM\n"
      "[2025-05-17 05:41:26,733] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
      "(exitcode: -9) local_rank: 0 (pid: 1905962) of binary: /usr/bin/python\n"
      "[E ProcessGroupNCCL.cpp:495] To avoid data inconsistency, we are taking the entire process "
      "down.\n"
      "[E ProcessGroupNCCL.cpp:495] To avoid data inconsistency, we are taking the entire process "
      "down.\n";
  const std::string kernel =
      "May 17 05:40:58 hgx-b117 kernel: Out of memory: Killed process 1905962 (python) "
      "total-vm:420638902kB, anon-rss:352321536kB\n";
  Triage t(test::bundled_store());
  add_file(t, "run-6872354.out", log);
  add_file(t, "journalctl-k-hgx-b117.log", kernel);
  const TriageReport r = t.report();
  REQUIRE(r.last_checkpoint);
  CHECK(r.last_checkpoint->line == 3);  // step 80
  CHECK(r.safe_to_resume == true);
  CHECK(r.checkpoint_reason.find("never completed") != std::string::npos);
}

}  // namespace gpuerr::query
