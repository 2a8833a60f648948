#include "query/log_line.h"

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("prefixes give rank, host, process and time, and leave the message") {
  struct Case {
    std::string name, line;
    std::optional<int> rank, local_rank;
    std::string host;
    std::optional<long> pid;
    std::string message_starts;
  };
  const Case cases[] = {
      {"PyTorch rank", "[rank3]:[E501 12:10:02.7 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog",
       3, {}, "", {}, "[Rank 3] Watchdog"},
      {"torchrun --tee", "[default1]:RuntimeError: boom", {}, 1, "", {}, "RuntimeError: boom"},
      {"srun -l", "12: 2024-06-10 09:00:00,000 INFO x", 12, {}, "", {}, "INFO x"},
      {"mpirun --tag-output", "[1,7]<stderr>:CUDA error: x", 7, {}, "", {}, "CUDA error: x"},
      {"horovodrun with Gloo", "[7]<stdout>:CUDA error: x", 7, {}, "", {}, "CUDA error: x"},
      {"kubectl --prefix", "[pod/trainer-worker-3/pytorch] RuntimeError: x", {}, {},
       "trainer-worker-3", {}, "RuntimeError: x"},
      {"NCCL", "node7:1234:1290 [3] NCCL WARN Cuda failure 'x'", {}, 3, "node7", 1234,
       "NCCL WARN Cuda failure"},
      {"syslog kernel", "Mar  5 10:12:01 gpu-node-7 kernel: [ 8812.402117] NVRM: Xid", {}, {},
       "gpu-node-7", {}, "NVRM: Xid"},
      {"journal short-iso", "2024-03-05T10:12:01+0000 node3 kernel: NVRM: Xid (PCI:0000:3b:00)", {},
       {}, "node3", {}, "NVRM: Xid"},
      {"glog", "E0502 12:00:00.123456  4242 cuda_dnn.cc:12] Could not create cudnn handle", {},
       {}, "", 4242, "Could not create cudnn handle"},
      {"c10d names the rank in the message", "[PG 0 Rank 5] Timeout at NCCL work: 3", 5, {}, "",
       {}, "[PG 0 Rank 5]"},
      {"no prefix", "RuntimeError: CUDA error: x", {}, {}, "", {}, "RuntimeError: CUDA error: x"},
      {"docker compose", "trainer-1  | RuntimeError: x", {}, {}, "trainer-1", {}, "RuntimeError"},
      {"pdsh", "node8: [Tue Mar 19 15:31:02 2024] NVRM: Xid", {}, {}, "node8", {}, "NVRM: Xid"},
      {"an error's name is no pdsh host", "RuntimeError: [x] y", {}, {}, "", {}, "RuntimeError"},
      {"pdsh by address", "10.0.1.22: Traceback (most recent call last):", {}, {}, "10.0.1.22",
       {}, "Traceback"},
      {"Ray's raylet", "(raylet, ip=10.128.77.42) [2024-03-17 00:49:39,750] Memory on the node",
       {}, {}, "10.128.77.42", {}, "Memory on the node"},
      {"pdsh before a traceback's frame", "node07:   File \"/x/train.py\", line 7, in <module>",
       {}, {}, "node07", {}, "File"},
      {"pdsh before an exception", "node07: ZeroDivisionError: float division by zero", {}, {},
       "node07", {}, "ZeroDivisionError"},
      {"a label with a digit before a message is no pdsh host", "step3: loss 2.1", {}, {}, "", {},
       "step3: loss"},
      {"pdsh before NCCL's prefix", "gpu8: gpu8:4500:4500 [1] NCCL INFO comm", {}, 1, "gpu8",
       4500, "NCCL INFO"},
      {"a logger's level column is no compose service",
       "2024-06-01 12:20:00,204 | ERROR | step 5 failed", {}, {}, "", {}, "ERROR | step 5"},
      {"Lightning", "[rank: 2] 2024-06-01 12:20:00,204 RuntimeError: x", 2, {}, "", {},
       "RuntimeError"},
      {"a script's own format", "2024-06-01 12:20:00,204 INFO [rank1] step 3", 1, {}, "", {},
       "INFO [rank1]"},
      {"a script's own format, in capitals and of the world", "[RANK 5/8] step 3", 5, {}, "", {},
       "[RANK 5/8]"},
      {"a rank first on the line", "rank 3: step 3", 3, {}, "", {}, "rank 3: step"},
      {"a rank column", "2024-06-01 12:20:00,204 | Rank 4 | step 3", 4, {}, "", {}, "Rank 4 |"},
      {"a rank as key and value first", "[2024-09-14 07:03:25] rank=11 ERROR: unhandled exception",
       11, {}, "", {}, "rank=11 ERROR"},
      {"a rank's key without a blank after it names none", "rank=11,step=3", {}, {}, "", {},
       "rank=11"},
      {"a message about another rank names no rank", "waiting for rank 3 to join", {}, {}, "", {},
       "waiting"},
      {"nor does a rank far into the message",
       "RuntimeError: the collective timed out after 600 seconds of waiting (rank 7)", {}, {}, "",
       {}, "RuntimeError"},
      {"a group other than the default names a rank of that group only",
       "[PG 3 Rank 5] Timeout at NCCL work: 3 (rank 5)", {}, {}, "", {}, "[PG 3"},
      {"nor is any column after the line's time (loguru's SUCCESS level)",
       "2026-11-19 16:05:06.026 | SUCCESS  | __main__:save:61 - Saved", {}, {}, "", {},
       "SUCCESS  | __main__"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const ParsedLine p = parse_line(c.line, 2024);
    CHECK(p.origin.rank == c.rank);
    CHECK(p.origin.local_rank == c.local_rank);
    CHECK(p.origin.host == c.host);
    CHECK(p.origin.pid == c.pid);
    CHECK(std::string(p.message).starts_with(c.message_starts));
  }
}

TEST_CASE("srun's task number before torchrun's local rank is a node's, not a rank") {
  const ParsedLine p = parse_line("1: [default5]:[E0310 04:12:08.869 f.cpp:1] x", 2024);
  CHECK_FALSE(p.origin.rank);
  CHECK(p.origin.local_rank == 5);
  CHECK(parse_line("1: [rank13]: x", 2024).origin.rank == 13);
  CHECK(parse_line("13: RuntimeError: x", 2024).origin.rank == 13);
}

TEST_CASE("times of every common format become seconds since the epoch") {
  const double expected = utc_seconds(2024, 3, 5, 10, 12, 1);
  for (const char* line : {"2024-03-05T10:12:01Z x", "2024-03-05 10:12:01,000 - root - ERROR - x",
                           "[2024-03-05 10:12:01,000] x", "[Tue Mar  5 10:12:01 2024] NVRM: x",
                           "Mar  5 10:12:01 node7 kernel: x", "2024-03-05T12:12:01+02:00 x",
                           "E0305 10:12:01.000000  99 f.cc:1] x", "[E305 10:12:01.0 f.cpp:1] x",
                           "03/05/2024 10:12:01 - INFO - transformers.trainer - x",
                           "kern  :warn  : 2024-03-05T10:12:01,000000+00:00 NVRM: Xid x",
                           "[INFO|trainer.py:3042] 2024-03-05 10:12:01,000 >> x",
                           "[2024-03-05 10:12:01,000][src.callbacks][INFO] - x",
                           "[titan] 2024-03-05 10:12:01,000 - root - INFO - x",
                           "[NeMo I 2024-03-05 10:12:01 model_checkpoint:522] x"}) {
    CAPTURE(line);
    const ParsedLine p = parse_line(line, 2024);
    REQUIRE(p.origin.time);
    CHECK(*p.origin.time == doctest::Approx(expected));
  }
  CHECK(parse_line("[2024-03-05 10:12:01,000][src.callbacks][INFO] - x", 2024).message ==
        "[src.callbacks][INFO] - x");
  CHECK(parse_line(" 0: [NeMo E 2024-03-05 10:12:01 nemo_logging:393] x", 2024).message == "x");
  CHECK_FALSE(parse_line("[INFO|trainer.py:3042] no date here", 2024).origin.time);
  CHECK_FALSE(parse_line("2024-03-05 10:12:01x", 2024).origin.time);  // not a time's end
  const ParsedLine uptime = parse_line("[ 8812.402117] NVRM: Xid", 2024);
  CHECK_FALSE(uptime.origin.time);
  REQUIRE(uptime.origin.uptime);
  CHECK(*uptime.origin.uptime == doctest::Approx(8812.402117));
  CHECK(utc_seconds(1970, 1, 1, 0, 0, 0) == 0);
  CHECK(utc_seconds(2000, 3, 1, 0, 0, 0) == 951868800);
}

TEST_CASE("a per-rank file's name gives its rank") {
  CHECK(rank_from_file_name("logs/rank_3.log") == 3);
  CHECK(rank_from_file_name("/x/worker-12.out") == 12);
  CHECK(rank_from_file_name("train.rank7.txt") == 7);
  CHECK(rank_from_file_name("logs/process_2.log") == 2);  // JAX's process index
  CHECK(rank_from_file_name("logs/train-7712-6.out") == 6);  // srun --output=train-%j-%t.out
  CHECK(rank_from_file_name("job_884213_12.err") == 12);
  CHECK(rank_from_file_name("logs/train-638136.0-4.out") == 4);  // --output=train-%j.%s-%t.out
  CHECK_FALSE(rank_from_file_name("slurm-7712.out"));  // the job's, not a task's
  CHECK_FALSE(rank_from_file_name("run-2024-03-05.log"));
  CHECK_FALSE(rank_from_file_name("run-20240312-1059.log"));  // a date and a time
  CHECK_FALSE(rank_from_file_name("dmesg.txt"));
  CHECK_FALSE(rank_from_file_name("dmesg_T_ip-10-50-127-116.txt"));  // a host named for its address
  // a Kubernetes pod's log: the pod runs a node's ranks
  CHECK_FALSE(rank_from_file_name("kubectl-logs_llm-ft-worker-0.txt"));
  CHECK_FALSE(rank_from_file_name("mpijob-worker-3.log"));
  CHECK_FALSE(rank_from_file_name("rank/train.log"));  // a folder, not the file
}

TEST_CASE("a file torchrun's --log-dir wrote gives its local rank and its log folder") {
  const auto d = in_log_dir("./node0020/tlogs/3cdc7c19/attempt_0/5/stderr.log");
  REQUIRE(d);
  CHECK(d->local_rank == 5);
  CHECK(d->dir == "./node0020/tlogs");
  CHECK(in_log_dir("logs/2bbd/attempt_1/0/stdout.log")->dir == "logs");
  CHECK_FALSE(in_log_dir("runs/attempt_0/5/train.log"));
  CHECK_FALSE(in_log_dir("node7/stderr.log"));
}

TEST_CASE("hostile lines parse without harm") {
  const std::string binary("\x00\xff\xfe[rank\x00]:\x1b[31m", 14);
  CHECK_NOTHROW(parse_line(binary, 2024));
  CHECK_NOTHROW(parse_line(std::string(100000, '['), 2024));
  CHECK(parse_line("", 2024).message.empty());
}

TEST_CASE("kubectl describe's Finished line gives a container's end in UTC") {
  CHECK(container_finished("      Finished:     Thu, 02 May 2024 17:55:44 +0000") ==
        utc_seconds(2024, 5, 2, 17, 55, 44));
  CHECK(container_finished("      Finished:     Thu, 02 May 2024 19:55:44 +0200") ==
        utc_seconds(2024, 5, 2, 17, 55, 44));
  CHECK_FALSE(container_finished("Finished: training"));
}

TEST_CASE("the date command's output names the local time zone, a date inside a message does not") {
  CHECK(date_command_zone("Sat Jul 20 09:29:34 KST 2024") == 9 * 3600);
  CHECK(date_command_zone("Job 1499419 started on trn-r06-n00 at Tue Jan  7 00:44:19 PST 2025") ==
        -8 * 3600);
  CHECK(date_command_zone("2025-09-04T18:20:25+01:00") == 3600);
  CHECK(date_command_zone("Tue Mar  4 10:00:00 UTC 2025") == 0);
  CHECK_FALSE(date_command_zone("Tue Mar  4 10:00:00 CST 2025"));  // China's or America's
  CHECK_FALSE(date_command_zone("[Fri Apr 19 12:42:23 2024] NVRM: loading NVIDIA UNIX x86_64 "
                                "Kernel Module  535.161.08  Tue Mar  5 22:42:15 UTC 2024"));
  CHECK_FALSE(date_command_zone("2025-09-04T18:20:25+01:00 INFO step 3"));
}

}  // TEST_SUITE

}  // namespace gpuerr::query
