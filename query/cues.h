// The cues of triage's line filter (worth_reading, CueScanner in log_events.h): shared by the
// filter and by query/compile_cues.cc, which compiles them for Vectorscan at build time.
#pragma once

#include <array>

namespace gpuerr::query {

// Words that every error, save or setting line of interest contains one of (and a traceback's
// frame in code that saves: "in save_checkpoint", "in _full_post_state_dict_hook"); a training
// log's ordinary progress lines contain none, so most lines stop here. (" fault" with its blank:
// "Segmentation fault", "MMU Fault", but not torchrun's "[default0]:" prefix on every line.)
constexpr std::array kCues{
    "error",
    "fail",
    "xid",
    "warn",
    "exception",
    "assert",
    "terminate",
    "killed",
    "timed out",
    "timeout",
    "out of memory",
    "oom",
    "ecc",
    " fault",
    "abort",
    "sigterm",
    "sigkill",
    "signal",
    "exitcode",
    "exit code",
    "checkpoint",
    "save",
    "state_dict",
    "nccl_",
    "pytorch_",
    "cuda_",
    "torch_",
    "xla_",
    "tf_",
    "version",
    "fallen",
    "illegal",
    "misaligned",
    "exhausted",
    "mismatch",
    "unable",
    "cannot",
    "could not",
    "not enough",
    "invalid",
    "not compatible",
    "no kernel",
    "segmentation",
    "first observed",
    "cancelled",
    "last enqueued",
    "watchdog",
    "heartbeat",
    "ckpt",
    "join collective",
    "finish collective",  // PyTorch's desync report names the rank that lagged
    "nccl info",          // NCCL INFO lines name the host of a rank's log
    "link down",          // a network port's (mlx5_core ... ens5f0np0: Link down)
    "world_rank=",        // Ray Train's table of its workers (pid and address -> rank)
    "local_rank",         // a script's own start-up line: "rank=110 local_rank=6 pid=..."
    "local rank",         // or "global rank 2/16 local rank 2 pid 91436"
    "restart_count=",     // torchrun's rendezvous result: its restart, then the ranks of its
    "global_ranks=",      // workers ("global_ranks=[8, 9, 10, 11]")
    "\\[process=",        // Orbax's JAX process ("[process=1][thread=MainThread] ...")
    "00000000:",          // nvidia-smi's GPUs: "|   7  NVIDIA H100 ... | 00000000:DB:00.0 Off |"
    "mib \\|",           // and the processes on them: "|    2   N/A  N/A  2104172   C ... MiB |"
    "finished: ",         // kubectl describe: when a container (OOMKilled) ended
    "last\\): \\(rank"};  // a failed rank's traceback quoted in torch.distributed.checkpoint's

}  // namespace gpuerr::query
