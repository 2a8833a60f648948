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

TEST_CASE("a setting a message only suggests is not read as one in effect") {
  using V = std::vector<std::string>;
  CHECK(read_settings("For debugging consider passing CUDA_LAUNCH_BLOCKING=1.") == V{});
  CHECK(read_settings("export NCCL_IB_HCA=mlx5_0,mlx5_3 NCCL_DEBUG=INFO, done") ==
        V{"NCCL_IB_HCA=mlx5_0,mlx5_3", "NCCL_DEBUG=INFO"});
  CHECK(read_settings("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128") ==
        V{"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128"});
  CHECK(read_settings("If reserved but unallocated memory is large try setting "
                      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
                      "fragmentation.") == V{});
  CHECK(read_settings("RuntimeError: NCCL error: unhandled system error (run with "
                      "NCCL_DEBUG=INFO for details), NCCL version 2.19.3") ==
        V{"NCCL version 2.19.3"});
  CHECK(read_settings("disable the heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).") == V{});
  CHECK(read_settings("(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)") == V{});
  CHECK(read_settings("If the cause is memory fragmentation maybe the environment variable "
                      "'TF_GPU_ALLOCATOR=cuda_malloc_async' will improve the situation.") == V{});
  // what a launcher, an environment dump or NCCL itself reports is in effect
  CHECK(read_settings("INFO env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True") ==
        V{"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"});
  CHECK(read_settings("+ NCCL_DEBUG=INFO CUDA_LAUNCH_BLOCKING=1 torchrun train.py") ==
        V{"NCCL_DEBUG=INFO", "CUDA_LAUNCH_BLOCKING=1"});
  CHECK(read_settings("node7:91:95 [3] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ib0") ==
        V{"NCCL_SOCKET_IFNAME=ib0"});
  // an earlier sentence's advice does not reach into the next
  CHECK(read_settings("Try a smaller batch. Running with NCCL_DEBUG=WARN") ==
        V{"NCCL_DEBUG=WARN"});
}

TEST_CASE("an Xid's GPU address is read with or without 'PCI:' before it") {
  const XidPlace now = read_xid_place("NVRM: Xid (PCI:0000:b7:00): 79, pid=4242, name=python");
  const XidPlace old = read_xid_place("NVRM: Xid (0000:b7:00): 13, 0000 00000000 000086b6");
  REQUIRE(now.bus_id);
  CHECK(*now.bus_id == 0xb7000);  // as NCCL reads "0000:b7:00.0"
  CHECK(now.pid == 4242);
  CHECK(old.bus_id == now.bus_id);
  CHECK_FALSE(old.pid);
}

TEST_CASE("saves are read in the words frameworks and training loops use") {
  auto completed = [](std::string_view s) {
    const std::optional<SaveLine> save = read_save(s);
    return save && save->completed;
  };
  auto started = [](std::string_view s) {
    const std::optional<SaveLine> save = read_save(s);
    return save && !save->completed;
  };
  CHECK(completed("Checkpoint global_step500 is ready now!"));
  CHECK(completed("  successfully saved checkpoint from iteration   10000 to /ckpt"));
  CHECK(completed("INFO saved checkpoint step=1000 path=/ckpt/step1000"));
  CHECK(completed("Checkpoint for step 1000 written to /ckpt/step_1000.pt"));
  CHECK(completed("wrote ckpt /data/run3/ckpt-2000"));
  CHECK(completed("checkpoint save complete (12.3 s)"));
  CHECK(completed("[ckpt] wrote /gpfs/projects/nlp/ckpt/step_000900.pt (3.4 GB) in 16.2s"));
  CHECK(completed(">> checkpoint /scratch/svc-train/ckpts/ep1_it1200.pt written"));
  CHECK(completed("checkpoint -> /work/apatel/ckpt/model_00400.pth"));
  CHECK_FALSE(read_save("checkpoint -> ckpt_dir"));  // no path: a setting echoed
  // (the path alone says it is a checkpoint, after "saved")
  CHECK(completed("2025-01-13 17:14:57 | saved /home/u/scratch/ckpt/ckpt_000500.pth"));
  CHECK(completed("[rank0]:[2024-12-15 10:14:07] saved /data/run/step_001000.pt"));
  CHECK_FALSE(read_save("saved /data/run/predictions.csv"));
  CHECK(completed("I1214 07:00:09.245143 308731 async_checkpointer.py:229] [process=7][thread="
                  "save_finalize] Finished asynchronous save (blocking + background) in 29.63 "
                  "seconds to gs://runs/run39/checkpoints/2000"));  // Orbax
  CHECK(completed("(RayTrainWorker pid=3034895, ip=10.3.28.228) Checkpoint successfully created "
                  "at: Checkpoint(filesystem=local, path=/mnt/ray/TorchTrainer/checkpoint_000026)"));
  CHECK_FALSE(read_save("Created checkpoint directory /ckpt/run7"));  // a folder, not a save
  CHECK(started("Saving checkpoint to /lustre/run7/ckpt/step_12500"));
  CHECK(started("Saving model checkpoint to ./out/checkpoint-1000"));  // Hugging Face, before
  // (its optimizer's and trainer's state follow without a line: open until work goes on)
  CHECK(started("Model weights saved in ./out/checkpoint-1000/model.safetensors"));
  CHECK(
      started("The model is bigger than the maximum size per checkpoint (5GB) and is going to "
              "be split in 3 checkpoint shards. You can find where each parameters has been "
              "saved in the index located at out/checkpoint-9/model.safetensors.index.json."));
  CHECK(started("saving checkpoint at iteration   11000 to /ckpt"));
  CHECK(started("[Rank 0] Writing checkpoint shard 3/8"));
  // NeMo's asynchronous save: written in the background until its end is logged
  const std::optional<SaveLine> async = read_save(
      "Scheduled async checkpoint save for /results/ckpt/step=5999-consumed=3072000.ckpt");
  REQUIRE(async);
  CHECK_FALSE(async->completed);
  CHECK(async->end_logged);
  CHECK(completed("Async checkpoint save for step 5000 (/results/ckpt/step=4999-consumed="
                  "2560000.ckpt) finalized successfully."));
  CHECK_FALSE(read_save("Configuration saved in ./out/checkpoint-1000/config.json"));
  // failures and loads are not saves
  CHECK_FALSE(read_save("RuntimeError: failed to save checkpoint to /ckpt: No space left"));
  CHECK_FALSE(read_save("Error saving checkpoint: disk quota exceeded"));
  CHECK_FALSE(read_save("Loading checkpoint shards: 100%"));
  CHECK_FALSE(read_save("Resuming from checkpoint saved at step 900"));
  CHECK_FALSE(read_save("step 100 loss 1.93"));
}

TEST_CASE("the checkpoint a job resumes from, in the words frameworks and job scripts use") {
  const std::pair<const char*, const char*> resumes[] = {
      {"+ srun python finetune.py --resume_from_checkpoint /ckpt/exp-196/epoch=0-step=1750.ckpt",
       "/ckpt/exp-196/epoch=0-step=1750.ckpt"},
      {"INFO - __main__ - Loading checkpoint from /mnt/fsx/ckpt/run62/checkpoint_3",
       "/mnt/fsx/ckpt/run62/checkpoint_3"},
      {"Restored all states from the checkpoint at /data/ckpt/last.ckpt", "/data/ckpt/last.ckpt"},
      {" successfully loaded checkpoint from /lustre/ckpt at iteration 400", "/lustre/ckpt"},
      {"+ RESUME_FROM=/lustre/ckpt/sft-v2/restart_002800.h5",
       "/lustre/ckpt/sft-v2/restart_002800.h5"},
      {"2025-04-18 12:49:32,366 | INFO | ckpt | resuming from /mnt/ckpt/exp12/step_002700.pt",
       "/mnt/ckpt/exp12/step_002700.pt"},
      {"(RayTrainWorker pid=3034895, ip=10.3.28.228) Resuming from Checkpoint(filesystem=local, "
       "path=/mnt/ray/TorchTrainer/checkpoint_000025)",
       "/mnt/ray/TorchTrainer/checkpoint_000025"},
  };
  for (const auto& [line, path] : resumes) {
    CAPTURE(line);
    CHECK(read_resume(line) == std::optional<std::string>(path));
  }
  CHECK_FALSE(read_resume("ERROR Failed to load checkpoint from /ckpt/step_9.pt"));
  CHECK_FALSE(read_resume("Saving checkpoint to /ckpt/step_9.pt"));
  CHECK_FALSE(read_resume("Loading dataset from /data/train.jsonl"));  // not a checkpoint
  CHECK_FALSE(read_resume("resuming from /data/cache failed: no such file"));
  CHECK_FALSE(read_resume("+ OUTPUT_DIR=/lustre/ckpt/sft-v2"));  // where it saves, not resumes
}

TEST_CASE("a save line's path and the checkpoint it is part of") {
  const std::optional<SaveLine> part =
      read_save("[Torch] Saving /ckpt/global_step9/zero_pp_rank_5_mp_rank_00_optim_states.pt...");
  REQUIRE(part);
  CHECK_FALSE(part->completed);
  CHECK(part->path == "/ckpt/global_step9/zero_pp_rank_5_mp_rank_00_optim_states.pt");
  CHECK(part->group == "/ckpt/global_step9");
  const std::optional<SaveLine> end =
      read_save("[Torch] Saved /ckpt/global_step9/zero_pp_rank_5_mp_rank_00_optim_states.pt.");
  REQUIRE(end);
  CHECK(end->completed);
  CHECK(end->path == "/ckpt/global_step9/zero_pp_rank_5_mp_rank_00_optim_states.pt");
  const std::optional<SaveLine> quoted =
      read_save("saving model to '/ckpt/epoch=1-step=2000.ckpt' as top 1");
  REQUIRE(quoted);
  CHECK(quoted->path == "/ckpt/epoch=1-step=2000.ckpt");
  CHECK(quoted->group == quoted->path);  // a file of a folder not named for a step
  CHECK(save_group("out/checkpoint-500/model.safetensors") == "out/checkpoint-500");
  CHECK(save_group("out/checkpoint-500") == "out/checkpoint-500");
  CHECK(save_group("/ckpt/step_100.pt") == "/ckpt/step_100.pt");
  CHECK(read_save("Checkpoint global_step9 is ready now!")->path.empty());
}

TEST_CASE("kills are read from the kernel, Slurm and the launchers") {
  const std::optional<KillLine> kernel = read_kill(
      "Memory cgroup out of memory: Killed process 88213 (python) total-vm:412331232kB");
  REQUIRE(kernel);
  CHECK(kernel->host_memory);
  CHECK(kernel->pid == 88213);
  const std::optional<KillLine> srun = read_kill("srun: error: gpu-a02: task 6: Out Of Memory");
  REQUIRE(srun);
  CHECK(srun->host_memory);
  CHECK(srun->rank == 6);
  CHECK(srun->host == "gpu-a02");
  CHECK(read_kill("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=37205392.0.")
            ->host_memory);
  const std::optional<KillLine> torchrun = read_kill(
      "failed (exitcode: -9) local_rank: 1 (pid: 5541) of binary: /opt/conda/bin/python");
  REQUIRE(torchrun);
  CHECK_FALSE(torchrun->host_memory);  // SIGKILL: who sent it is not said
  CHECK(torchrun->local_rank == 1);
  CHECK(torchrun->pid == 5541);
  CHECK(read_kill("mpirun noticed that process rank 3 with PID 0 on node n7 exited on signal 9 "
                  "(Killed).")
            ->rank == 3);
  // PyTorch's report of a DataLoader worker's SIGKILL (the sender is not named)
  const std::optional<KillLine> worker =
      read_kill("RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.");
  REQUIRE(worker);
  CHECK_FALSE(worker->host_memory);
  CHECK(worker->pid == 19597);
  // an exit, a SIGTERM, or a worker's death by another signal are not kills read here
  CHECK_FALSE(read_kill("srun: error: gpu-a01: tasks 0-3: Exited with exit code 1"));
  CHECK_FALSE(read_kill("failed (exitcode: 1) local_rank: 0 (pid: 5540) of binary: python"));
  CHECK_FALSE(read_kill("DataLoader worker (pid 3216) is killed by signal: Bus error."));
  // DeepSpeed's launcher prints the last command it started, not the dead one's: no local rank
  const std::optional<KillLine> deepspeed = read_kill(
      "[ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
      "'--local_rank=7'] exits with return code = -9");
  REQUIRE(deepspeed);
  CHECK(deepspeed->agent);
  CHECK_FALSE(deepspeed->local_rank);
  CHECK_FALSE(read_kill("['/usr/bin/python', 'train.py'] exits with return code = 1"));
  // Kubernetes: a container over its memory limit
  const std::optional<KillLine> described = read_kill("      Reason:       OOMKilled");
  REQUIRE(described);
  CHECK(described->host_memory);
  const std::optional<KillLine> listed =
      read_kill("sft-gpt-7b-l9lsx-master-0   0/1     OOMKilled   0          33m");
  REQUIRE(listed);
  CHECK(listed->host_memory);
  CHECK(listed->host == "sft-gpt-7b-l9lsx-master-0");
}

TEST_CASE("PyTorch's collective mismatch report names the reporting rank and the other one") {
  CHECK(read_collective_mismatch(
            "RuntimeError: Detected mismatch between collectives on ranks. Rank 7 is running "
            "collective: CollectiveFingerPrint(SequenceNumber=20289, OpType=ALLREDUCE), but Rank "
            "9 is running collective: CollectiveFingerPrint(SequenceNumber=20289, "
            "OpType=BROADCAST).") == std::make_pair(7, 9));
  CHECK_FALSE(read_collective_mismatch("Rank 7 is running collective: x, but Rank 9 is running"));
}

TEST_CASE("PyTorch's desync report names the rank that lagged, when it names one") {
  CHECK(read_desync_named("\t     [11] finished collective #2502, but didn't join collective "
                          "#2503 (count from 1)") == 11);
  CHECK(read_desync_named(
            "\t   - [47] joined but didn't finish collective #41207 (count from 1)") == 47);
  CHECK(read_desync_named(" - To our best knowledge, ranks [5] are the lagging ranks that caused "
                          "this timeout.") == 5);
  // several ranks in one list are no one rank
  CHECK_FALSE(
      read_desync_named("\t     [0, 1, 2] finished collective #41207, but didn't join "
                        "collective #41208 (count from 1)"));
  CHECK_FALSE(read_desync_named("[3] started ALLREDUCE"));
}

TEST_CASE("a segmentation fault is read as a crash, from the process, the kernel and launchers") {
  const std::optional<KillLine> own = read_kill("Fatal Python error: Segmentation fault");
  REQUIRE(own);
  CHECK(own->segfault);
  const std::optional<KillLine> kernel = read_kill(
      "python[61236]: segfault at 8 ip 00007f3a9c2b1e4d sp 00007ffd4c2a1f60 error 4 in "
      "libtorch_cuda.so[7f3a9a000000+3c000000]");
  REQUIRE(kernel);
  CHECK(kernel->segfault);
  CHECK(kernel->pid == 61236);
  CHECK(kernel->module == "libtorch_cuda.so");
  CHECK(read_kill("pt_main_thread[2180734]: segfault at 8 ip 00007fe29601d3 sp 00007ff878876b08 "
                  "error 4 in _sparse_attn_C.cpython-310-x86_64-linux-gnu.so[7f36a58e30+13742] "
                  "likely on CPU 154")
            ->module == "_sparse_attn_C.cpython-310-x86_64-linux-gnu.so");
  const std::optional<KillLine> srun = read_kill("srun: error: gpu-a02: task 6: Segmentation fault");
  REQUIRE(srun);
  CHECK(srun->segfault);
  CHECK(srun->rank == 6);
  const std::optional<KillLine> torchrun = read_kill(
      "failed (exitcode: -11) local_rank: 3 (pid: 5543) of binary: /opt/conda/bin/python");
  REQUIRE(torchrun);
  CHECK(torchrun->segfault);
  CHECK(torchrun->local_rank == 3);
  const std::optional<KillLine> summary =
      read_kill("  traceback : Signal 11 (SIGSEGV) received by PID 5543");
  REQUIRE(summary);
  CHECK(summary->segfault);
  CHECK(summary->pid == 5543);
  CHECK(read_kill("mpirun noticed that process rank 3 with PID 0 on node n7 exited on signal 11 "
                  "(Segmentation fault).")
            ->segfault);
  // a SIGKILL stays one, and a line about segfaults in general is none
  CHECK_FALSE(read_kill("failed (exitcode: -9) local_rank: 1 (pid: 5541) of binary: python")
                  ->segfault);
  CHECK_FALSE(read_kill("Enable faulthandler to debug a Segmentation fault in the workers"));
}

TEST_CASE("torchrun's agent stopped by a signal is teardown, not an exception of the job") {
  CHECK(
      is_teardown("torch.distributed.elastic.multiprocessing.api.SignalException: Process 6155 "
                  "got signal: 15"));
  CHECK_FALSE(is_teardown("RuntimeError: CUDA error: an illegal memory access was encountered"));
  // Slurm's cancel is teardown unless it names a reason that is not the job's own failure
  CHECK(is_teardown("slurmstepd: error: *** STEP 31.0 ON n1 CANCELLED AT 2024-05-13T16:51:18 ***"));
  CHECK_FALSE(is_teardown("slurmstepd: error: *** JOB 3143651 ON n1 CANCELLED AT "
                          "2024-05-13T16:51:18 DUE TO PREEMPTION ***"));
}

TEST_CASE("nvidia-smi's GPUs and their processes, by index, PCI address and pid") {
  const auto table = read_gpu_listing(
      "|   7  NVIDIA H100 80GB HBM3          On  |   00000000:DB:00.0 Off |                    0 |");
  REQUIRE(table);
  CHECK(table->index == 7);
  CHECK(table->bus_id == read_xid_place("NVRM: Xid (PCI:0000:db:00): 79, pid=1").bus_id);
  const auto csv = read_gpu_listing("6, NVIDIA H100 80GB HBM3, 00000000:BA:00.0, 165233555645");
  REQUIRE(csv);
  CHECK(csv->index == 6);
  CHECK(csv->bus_id == 0xba000);
  const auto process = read_gpu_listing(
      "|    2   N/A  N/A   2104172      C   /usr/bin/python3                      72000MiB |");
  REQUIRE(process);
  CHECK(process->index == 2);
  CHECK(process->pid == 2104172);
  CHECK_FALSE(read_gpu_listing("| GPU  Name        Persistence-M | Bus-Id        Disp.A |"));
  CHECK_FALSE(read_gpu_listing("step 7, loss 0.25, lr 3e-4"));
}

TEST_CASE("a script's start-up line names a rank with its local rank, host and pid") {
  const auto n = read_rank_naming("2024-11-04 14:54:04,757 - INFO - __main__ - hostname=node225 "
                                  "rank=110 local_rank=6 world_size=128 pid=1191728 device=cuda:6");
  REQUIRE(n);
  CHECK(n->rank == 110);
  CHECK(n->local_rank == 6);
  CHECK(n->host == "node225");
  CHECK(n->pid == 1191728);
  CHECK_FALSE(read_rank_naming("waiting for local_rank=3"));  // no rank of its own
  // the environment a launcher set, printed at start
  const auto env = read_rank_naming("RANK=5 WORLD_SIZE=8 MASTER_ADDR=job-master-0 LOCAL_RANK=1");
  REQUIRE(env);
  CHECK(env->rank == 5);
  CHECK(env->local_rank == 1);
  const auto words = read_rank_naming("rank 14/16 host gn091 local_rank 6 pid 466723");
  REQUIRE(words);
  CHECK(words->rank == 14);
  CHECK(words->local_rank == 6);
  CHECK(words->host == "gn091");
  CHECK(words->pid == 466723);
  // "local rank" as two words, before or after the rank (whose words it holds: "rank 3")
  const auto spaced = read_rank_naming("local rank 3 of global rank 11/16 pid 73732");
  REQUIRE(spaced);
  CHECK(spaced->rank == 11);
  CHECK(spaced->local_rank == 3);
  CHECK_FALSE(read_rank_naming("local rank 3 is waiting"));
}

TEST_CASE("torchrun's rendezvous result gives its restart, then its workers' ranks") {
  const auto restart = read_rendezvous_field("  restart_count=2");
  REQUIRE(restart);
  CHECK(restart->restart == 2);
  const auto ranks = read_rendezvous_field("  global_ranks=[8, 9, 10, 11]");
  REQUIRE(ranks);
  CHECK(ranks->global_ranks == std::vector<int>{8, 9, 10, 11});
  CHECK_FALSE(read_rendezvous_field("  role_ranks=[8, 9, 10, 11]"));
  CHECK_FALSE(read_rendezvous_field("global_ranks=[8, 9] were restarted"));
}

TEST_CASE("c10d's warning of a failed connect is a retry, its error is not") {
  CHECK(says_retrying("[W socket.cpp:697] [c10d] The client socket has failed to connect to "
                      "[node1]:29500 (errno: 111 - Connection refused)."));
  CHECK(says_retrying("[W1226 15:35:11.626067741 socket.cpp:752] [c10d] The client socket "
                      "cannot be initialized to connect to [h]:8000 (errno: 97 - Address family "
                      "not supported by protocol)."));
  CHECK_FALSE(says_retrying("[E socket.cpp:753] [c10d] The client socket has failed to connect "
                            "to any network address of (node1, 29500)."));
}

}  // TEST_SUITE

}  // namespace gpuerr::query
