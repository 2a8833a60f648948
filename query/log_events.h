// The non-catalogue lines triage reads: checkpoint saves, settings and versions, collective
// watchdog sequence numbers, launcher teardown and torchrun's failure summary. One function
// per kind of line, each a pure reading of one message. Used by triage's reader (triage_impl.h)
// and judge (judge.h) only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>

namespace gpuerr::query {

/// Does `message` probably say something triage needs (an error, a save, a setting)? A cheap
/// filter in front of the readers below and of lookup.
bool worth_reading(std::string_view message);

/// Finds, in blocks of one log, the places worth_reading() would react to. Scanning a block of
/// many lines at once costs far less than one call per line. It scans with RE2 for the first
/// 64 KiB, then with Vectorscan, several times faster, whose database (compiled when gpuerr was
/// built) takes about 0.13 ms to read and ready, what RE2 takes for about 80 KB: a short log is
/// done before that would pay. The two find the same lines.
class CueScanner {
 public:
  static constexpr size_t kBytesBeforeVectorscan = 64 << 10;
  explicit CueScanner(size_t bytes_before_vectorscan = kBytesBeforeVectorscan)
      : bytes_before_vectorscan_(bytes_before_vectorscan) {}

  /// The position of the first place in `text` at or after `from` that worth_reading() would
  /// react to (a position on its line), or npos.
  size_t next(std::string_view text, size_t from);

 private:
  size_t bytes_before_vectorscan_;
  size_t scanned_with_re2_ = 0;
};

/// A checkpoint save: started (a "saving ..." line) or completed. nullopt when `message` is not
/// about a save.
struct SaveLine {
  bool completed = true;
  bool end_logged = false;  // a start whose framework logs the end (see Triage's open saves)
  std::string path;   // the file or folder it names, if any: "/ckpt/global_step9/rank_3.pt"
  std::string group;  // the checkpoint that path is part of (see save_group), if any
};
std::optional<SaveLine> read_save(std::string_view message);

/// The checkpoint a job says it resumes from: "--resume_from_checkpoint <path>" in the command
/// it echoes, "Loading checkpoint from <path>", Lightning's "Restored all states from the
/// checkpoint at <path>", Megatron's "successfully loaded checkpoint from <path>". The path, or
/// nullopt when `message` is not about resuming (or says loading failed).
std::optional<std::string> read_resume(std::string_view message);

/// Do `lines`, which follow a save begun by `rank` (if known), show that the program went on
/// with its work? A line of that rank (or of none) does, but not a traceback's (its header,
/// frames, source lines, carets) nor a blank one. Looks at the first 64 lines; `year` completes
/// dates (see parse_line).
/// `after_frame`: the line just before `lines` was a traceback's frame, so the first of them may
/// be its source line.
bool shows_work(std::string_view lines, std::optional<int> rank, int year,
                bool after_frame = false);

/// The checkpoint a saved path belongs to: a file in a folder named for a step
/// ("/ckpt/global_step1000/zero_pp_rank_5_model_states.pt", "out/checkpoint-500/model.safetensors")
/// is one part of that folder's checkpoint, saved by many ranks; any other path is a checkpoint
/// of its own ("/ckpt/step_100.pt", "out/checkpoint-500").
std::string save_group(std::string_view path);

/// Settings and versions printed in the log: "NCCL_DEBUG=INFO", "NCCL version 2.19.3",
/// "Driver Version: 535.104.05". Empty when there are none.
std::vector<std::string> read_settings(std::string_view message);

/// What a collective watchdog line says about one rank's progress.
struct WatchdogLine {
  std::optional<long> timed_out_seq;   // "WorkNCCL(SeqNum=12, ..." that timed out
  std::string op_type;                 // and its "OpType=ALLREDUCE", if given
  std::optional<long> last_enqueued;   // "last enqueued NCCL work: 12"
  std::optional<long> last_completed;  // "last completed NCCL work: 11"
  // The process group ("[PG ID 2 PG GUID 5(...)"; its GUID, as IDs are per process): sequence
  // numbers count per group. 0 is the default group, which holds every rank.
  int group = 0;
};
std::optional<WatchdogLine> read_watchdog(std::string_view message);

/// PyTorch's collective fingerprint check (TORCH_DISTRIBUTED_DEBUG=DETAIL): each rank compares
/// its own collective with the others' and names the first that differs, "Rank 7 is running
/// collective: ..., but Rank 9 is running collective: ...". The two ranks, the reporting one
/// first.
std::optional<std::pair<int, int>> read_collective_mismatch(std::string_view message);

/// The rank a line of PyTorch's desync report names as the cause of a collective's timeout
/// ("[11] finished collective #2502, but didn't join collective #2503", "[3] joined but didn't
/// finish collective #17", "ranks [47] are the lagging ranks that caused this timeout"), or
/// nullopt.
std::optional<int> read_desync_named(std::string_view message);

/// A line of torchrun's rendezvous result, which its agent logs as each worker group starts
/// ("Rendezvous complete for workers. Result:" then one field a line): "restart_count=1" gives
/// `restart`, "global_ranks=[8, 9, 10, 11]" gives `global_ranks` (local rank i is rank [i]).
struct RendezvousField {
  std::optional<int> restart;
  std::vector<int> global_ranks;
};
std::optional<RendezvousField> read_rendezvous_field(std::string_view message);

/// Ray Train's table of its workers, logged when they start: "- (node_id=..., ip=10.0.0.7,
/// pid=3634254) world_rank=3, local_rank=3, node_rank=0". The worker's address, pid and rank.
struct RayWorker {
  std::string ip;
  long pid = 0;
  int rank = 0;
};
std::optional<RayWorker> read_ray_worker(std::string_view message);

/// A GPU as nvidia-smi lists it: its index with its PCI address (the table's "|   7  NVIDIA H100
/// 80GB HBM3   On  |   00000000:DB:00.0 Off |", the CSV's "7, NVIDIA H100 80GB HBM3,
/// 00000000:DB:00.0") or with a process on it (the processes table's "|    2   N/A  N/A
/// 2104172      C   python    72000MiB |").
struct GpuListing {
  int index = 0;
  std::optional<long> bus_id;  // as read_xid_place writes it: 0000:db:00.0 is 0xdb000
  std::optional<long> pid;
};
std::optional<GpuListing> read_gpu_listing(std::string_view message);

/// A line that names a process's rank and its local rank together, as training scripts log them
/// at start-up: "hostname=node225 rank=110 local_rank=6 world_size=128 pid=1191728".
struct RankNaming {
  int rank = 0;
  int local_rank = 0;
  std::string host;  // "" when the line names none
  std::optional<long> pid;
};
std::optional<RankNaming> read_rank_naming(std::string_view message);

/// Where NCCL says a process runs, from its INFO lines: "... cudaDev 5 nvmlDev 5 busId b7000 ...
/// Init COMPLETE" (the GPU's PCI address as NCCL prints it) and "comm 0x.. rank 5 nRanks 16
/// nNodes 2 localRanks 8 localRank 5 MNNVL 0" (how many hosts, and processes on this host, the
/// communicator counted). Fields the line does not give are empty.
struct NcclPlacement {
  std::optional<long> bus_id;
  std::optional<int> nodes;
  std::optional<int> local_ranks;
  std::optional<int> rank, ranks;  // "comm 0x... rank 9 nranks 16 ...": in that communicator
};
std::optional<NcclPlacement> read_nccl_placement(std::string_view message);

/// The GPU and the process an Xid line names: "NVRM: Xid (PCI:0000:b7:00): 31, pid=4415, ...".
/// The address is given as NCCL prints a bus id (0xb7000), so the two compare.
struct XidPlace {
  std::optional<long> bus_id;
  std::optional<long> pid;
};
XidPlace read_xid_place(std::string_view message);

/// A process ended by a signal it cannot catch: the kernel's out-of-memory killer, Slurm's memory
/// enforcement, or a SIGKILL a launcher (or PyTorch, of a DataLoader worker) reports. Such a process prints nothing of its own, so
/// these lines are the only trace of it.
struct KillLine {
  bool host_memory = false;       // the OOM killer (host RAM); else SIGKILL, sender unknown
  bool segfault = false;          // SIGSEGV: the process crashed, no one killed it
  std::optional<int> rank;        // srun's task number, mpirun's rank
  std::optional<int> local_rank;  // torchrun's local_rank
  // Printed by torchrun's agent (its "failed (exitcode: -9)" line, its summary's "Signal 9
  // (SIGKILL) received by PID"), not by the process: a rank its line's prefix gives (srun's
  // "1: ") is the task that ran the agent, a node.
  bool agent = false;
  std::optional<long> pid;
  std::string host;               // srun names the node
  std::string module;             // the library a segfault was in, as the kernel's report names it
};
std::optional<KillLine> read_kill(std::string_view message);
/// The finding of a kill that was a segmentation fault (LogEvent::finding).
inline constexpr const char* kSegfault = "segmentation fault";

/// The line that ends a Python traceback: the exception that was not caught ("ZeroDivisionError:
/// division by zero", "torch.distributed.DistBackendError: ..."). Only a name ending in Error or
/// Exception counts: KeyboardInterrupt and SystemExit are raised by a signal or by the program's
/// own exit. A line is such an ending only when the line before it is a traceback's
/// (in_traceback).
struct ExceptionLine {
  std::string type;          // "ZeroDivisionError", "ImportError"
  bool environment = false;  // the environment lacks what was asked for: a module, a file
};
std::optional<ExceptionLine> read_exception(std::string_view message);

/// Is `message` a line of a traceback above its last: its header, a frame, a frame's source
/// line (indented), carets, the words that join two tracebacks, a C++ frame?
bool in_traceback(std::string_view message);

/// Is `message` a traceback's frame in code that saves a checkpoint ("in save_checkpoint", "in
/// _save", "in _full_post_state_dict_hook": a state dict gathered to be written)? Not one that
/// loads it ("in load_state_dict"), nor activation checkpointing ("in checkpoint").
bool is_save_frame(std::string_view message);

/// Launcher teardown around a failure (SIGTERM to peers, ChildFailedError, srun and mpirun
/// exits, `terminate called`, Slurm's cancel, torchrun's agent stopped by a signal): cascade,
/// never a cause. Not a Slurm cancel that names its reason (`DUE TO TIME LIMIT`, `DUE TO NODE
/// FAILURE`): that one is looked up.
bool is_teardown(std::string_view message);

/// Does `message` join two tracebacks of one chain ("During handling of the above exception,
/// another exception occurred:", "The above exception was the direct cause of the following
/// exception:")?
bool chains_exceptions(std::string_view message);

/// Does `message` end in "Last error:"? NCCL's exceptions (through PyTorch, among others) print
/// the generic result ("internal error", "unhandled system error") and then, after that line,
/// the warning that caused it in its own words ("Bootstrap : no socket interface found").
bool says_last_error(std::string_view message);

/// Does `message` end with a colon, announcing details on the lines below ("ResourceExhaustedError:
/// Graph execution error:")? Trailing blanks aside.
bool announces_details(std::string_view message);

/// torchrun's "Root Cause (first observed failure)" block: the agent's observation order, weak
/// evidence of the failing rank. A field line of that block ("rank : 3 (local_rank: 3)").
struct LauncherField {
  std::string name;  // "rank", "host", "time", "exitcode"
  std::string value;
};
/// Does the line say the program will try again ("..., retrying", "Retrying in 5 s", c10d's
/// warning-level "[W socket.cpp:697] [c10d] The client socket has failed to connect to ...")?
bool says_retrying(std::string_view message);
inline const std::string kWarningRole = "warning";

bool opens_failure_summary(std::string_view message);  // "Root Cause (first observed failure):"
bool opens_failures_list(std::string_view message);    // "Failures:", the other ranks' blocks
// A block's first line, "[1]:" (as written: it reads as a rank's prefix), maybe after a prefix.
bool opens_summary_block(std::string_view text);
std::optional<LauncherField> read_failure_summary_field(std::string_view message);

/// A site's own patterns (RE2) for completed saves, compiled once.
class SavePatterns {
 public:
  /// Throws gpuerr::Error naming the first pattern that does not compile.
  explicit SavePatterns(const std::vector<std::string>& patterns);
  bool match(std::string_view message) const;
  bool empty() const { return compiled_.empty(); }

 private:
  std::vector<std::unique_ptr<RE2>> compiled_;
};

}  // namespace gpuerr::query
