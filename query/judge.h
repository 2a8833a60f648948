// Triage's judge, shared by the three files that define it: verdict.cc (the first fault, what
// it explains, the verdict and the first action), judge_ranks.cc (a hang's suspect and the rank
// of a fault printed without one) and judge_checkpoint.cc (whether the last save can be
// trusted). Internal to gpuerr_query: its entry point is judge() (triage_facts.h).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "query/analyse.h"
#include "query/log_events.h"
#include "query/log_line.h"
#include "query/triage_facts.h"

namespace gpuerr::query::judging {

constexpr double kHardwareWindow = 600;  // seconds around a fault in which a hardware line counts
constexpr double kBeforeJobLogs = 3600;  // seconds before the job's logs begin (see set_aside)
constexpr double kHostClockSkew = 15;  // seconds two hosts' clocks may differ by (no NTP, skew)
// What to do first about a killed process, which has no catalogue entry: the catalogue is of GPU
// failures, and the kill's own line is a host's or a launcher's.
constexpr const char* kHostMemoryKillAction =
    "Confirm on that node that host memory ran out: `sudo dmesg -T | grep -i -E 'killed "
    "process|oom-kill'` names the process and its resident size; under Slurm, `sacct -j <jobid> "
    "-o JobID,State,MaxRSS,ReqMem` shows OUT_OF_MEMORY and the peak. Then lower host memory per "
    "rank (fewer DataLoader workers, datasets in NumPy arrays or memory-mapped files, no full "
    "unsharded state gathered on every rank to save it) or ask for more (`--mem`, "
    "`--mem-per-gpu`, the container's memory limit).";
constexpr const char* kSigkillAction =
    "Find who sent the SIGKILL: on that node, `sudo dmesg -T | grep -i -E 'killed "
    "process|oom-kill'` (the out-of-memory killer: host memory); under Slurm, `sacct -j <jobid> "
    "-o JobID,State,ExitCode,MaxRSS,Elapsed,Timelimit` (OUT_OF_MEMORY, TIMEOUT or CANCELLED); "
    "otherwise the container runtime or a person. The ranks that failed after it are its echo.";
constexpr const char* kSegfaultAction =
    "Read that process's own output just above the crash: Python's faulthandler prints each "
    "thread's stack after `Fatal Python error: Segmentation fault`, and the kernel logs "
    "`segfault at ... in <library>` (`sudo dmesg -T | grep -i segfault`): both name the module "
    "that crashed (a CUDA extension, a DataLoader worker, a library built for another version). "
    "Check the same node's kernel log for an Xid or a machine check at that time before blaming "
    "the code. If no stack was printed, rerun with `PYTHONFAULTHANDLER=1`.";
// What to do first about an uncaught exception no entry names: the program's own error, or its
// environment's when a module or file was missing.
constexpr const char* kExceptionAction =
    "Read the traceback that ends at this line, on that rank: its last frames in your own code "
    "are where it failed, and the other ranks' errors after it (collective timeouts, lost "
    "connections) are its echo. Fix that and resume from the checkpoint below; rerunning "
    "unchanged fails the same way.";
constexpr const char* kEnvironmentExceptionAction =
    "Compare that node's environment with one that works: the package or file the exception "
    "names (`python -c 'import <module>'`, `pip list`, the container image and its tag, the path "
    "and who may read it). A build of one package for another version of another (an extension "
    "built for a different torch: `undefined symbol`) counts: reinstall it for the versions "
    "present.";
// What to do first when the ranks waited in different collectives at one sequence number.
constexpr const char* kCollectiveMismatchAction =
    "Find why the odd rank took another path at that step: read its log just before its timeout "
    "(a skipped or empty batch, an early return, a condition on the rank or its data), and rerun "
    "with `TORCH_DISTRIBUTED_DEBUG=DETAIL`, which checks every collective across the ranks before "
    "running it and names the ranks and operations that differ.";
constexpr size_t kSameReportLines = 40;  // lines a traceback keeps below its fault's first line
// A save whose end is never logged, this many seconds before the first fault, had ended: the
// program went on that long (a save's last part takes seconds to a few minutes).
constexpr double kSaveSettled = 600;
// A job whose log was silent this long before its time limit ended it had hung: the limit only
// ended the wait.
constexpr double kQuietBeforeLimit = 1800;
constexpr const char* kHungUntilLimitAction =
    "Treat it as a hang, not a short time limit: find where the ranks stopped. Read each rank's "
    "last lines before the silence (the one that stopped first, or never reached the collective "
    "the others wait in, is the suspect) and the nodes' kernel logs around that time (`sudo dmesg "
    "-T | grep -E 'NVRM|Xid'`). Before rerunning, make a hang fail fast with a report: a shorter "
    "`timeout=` in `init_process_group`, `TORCH_NCCL_ASYNC_ERROR_HANDLING=1`, and "
    "`TORCH_NCCL_DUMP_ON_TIMEOUT=1` for the flight recorder; `py-spy dump --pid <pid>` on a hung "
    "rank shows where it waits.";

struct Facts {
  std::string role, category, hardware;
  bool poisons_context = false;
  std::vector<std::string> first_actions;
};

// Events and saves are ordered by time when every one involved has a time, else by input order
// (within one file that is the order things happened; across files without times it is a guess).
// A file with no wall-clock time at all (a dmesg of kernel uptimes, with no boot time known)
// does not stop the others being ordered by time: its lines, which cannot be placed among
// theirs, come after them.
struct Clock {
  bool timed = true;
  std::set<std::string> clockless;  // files none of whose events has a time
  template <typename A, typename B>
  bool before(const A& a, const B& b) const {
    if (!timed) return a.order < b.order;
    const bool a_placed = !clockless.contains(a.file), b_placed = !clockless.contains(b.file);
    if (a_placed != b_placed) return a_placed;
    // (every event placed has a time; a save need not)
    if (a_placed && a.time && b.time && *a.time != *b.time) return *a.time < *b.time;
    return a.order < b.order;
  }
};

inline std::string where(const LogEvent& e) { return e.file + ":" + std::to_string(e.line); }

// Does `text` hold `word` as a word of its own (not inside a longer name)?
inline bool says_word(std::string_view text, std::string_view word) {
  if (word.empty()) return false;
  auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !part_of_name(text[at - 1])) &&
        (end == text.size() || !part_of_name(text[end])))
      return true;
  }
  return false;
}

// (a "memory-notice", a repair the GPU's memory recorded, stops nothing: it is no fault, but
// saves after it are judged as after a memory error)
inline bool is_fault(const std::string& role) {
  return role == "cause" || role == "memory-error" || role == "exception";
}

// Unranked faults near a GPU's failure whose ranks are looked for, at most.
constexpr size_t kFaultsNamedNear = 16;

inline bool hardware_like(const Facts& f) {
  return f.role == "memory-error" || f.category == "hardware" || f.hardware == "yes";
}

// The kernel's report of a GPU failing: a hardware fault, or an Xid of the GPU's driver or
// firmware (119: its GSP stopped answering), which breaks the GPU for its processes as well.
inline bool gpu_failed(const LogEvent& e, const Facts& f) {
  return hardware_like(f) || (e.entry_id.starts_with("xid-") && f.category == "driver");
}

// Hosts that may be one: either unknown, or the same name up to its first dot (NCCL prints the
// full name a host gives itself, syslog the short one).
inline bool may_be_same_host(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || short_host(a) == short_host(b);
}

// The letters a host's name starts with: "node" of "node-b7", "gke" of "gke-pool-1-x2".
inline std::string name_stem(const std::string& host) {
  size_t n = 0;
  while (n < host.size() && std::isalpha(static_cast<unsigned char>(host[n]))) ++n;
  return host.substr(0, n);
}

inline bool same_place(const LogEvent& a, const LogEvent& b) {
  if (a.rank && b.rank) return *a.rank == *b.rank;
  // (a rank's line and a line of no rank in a file of several, srun's "Node failure on ..."
  // beside a rank's MPI error, are not known to be of one place)
  if (a.rank.has_value() != b.rank.has_value() && a.host.empty() && b.host.empty()) return false;
  return short_host(a.host) == short_host(b.host) && a.local_rank == b.local_rank &&
         (a.host.size() || a.file == b.file);
}

// Two events on GPUs known to be different ones (an Xid's PCI address against the GPU NCCL gave
// a rank's process). Hosts are compared apart.
inline bool other_gpu(const LogEvent& a, const LogEvent& b) {
  return a.gpu && b.gpu && *a.gpu != *b.gpu;
}

inline std::string pci_address(long bus_id) {  // 0xb7000 -> "0000:b7:00"
  char out[32];
  std::snprintf(out, sizeof out, "%04lx:%02lx:%02lx", bus_id >> 20, (bus_id >> 12) & 0xff,
                (bus_id >> 4) & 0xff);
  return out;
}

// The span of time in which `e` happened: its time, or for an undated line (a traceback's) from
// the dated line above it to the next dated line read in its file.
inline std::pair<double, double> span(const LogEvent& e) {
  if (!e.time_inherited) return {*e.time, *e.time};
  return {*e.time, e.latest.value_or(HUGE_VAL)};
}

// (`shift_b`: seconds added to b's time, to read it in another zone)
inline bool near_in_time(const LogEvent& a, const LogEvent& b, double shift_b = 0) {
  if (!a.time || !b.time) return true;
  const auto [a_from, a_to] = span(a);
  const auto [b_from, b_to] = span(b);
  return b_from + shift_b - a_to <= kHardwareWindow &&
         a_from - (b_to + shift_b) <= kHardwareWindow;
}

// "VAR=value" pairs an action asks for; an action is in effect when the log shows them all.
inline bool in_effect(const std::string& action, const std::set<std::string>& settings) {
  static const RE2 assignment(R"(\b([A-Z][A-Z0-9_]{2,})=([^\s`'",;)]+))");
  re2::StringPiece in(action);
  std::string name, value;
  bool any = false;
  while (RE2::FindAndConsume(&in, assignment, &name, &value)) {
    any = true;
    const bool seen = std::any_of(settings.begin(), settings.end(), [&](const std::string& s) {
      return s.starts_with(name + "=") && s.find(value) != std::string::npos;
    });
    if (!seen) return false;
  }
  return any;
}

class Judge {
 public:
  Judge(const TriageFacts& facts, const Store& store);

  TriageReport run();

 private:
  const Facts& facts(const std::string& id);

  std::vector<LogEvent> sorted(bool (*keep)(const std::string& role));

  // In a hang every rank that reached the collective times out; the one that never issued it
  // has the lowest sequence number. Sequence numbers count per process group.
  void find_hang(TriageReport& r);

  // PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG, on by default in recent releases) asks
  // every rank, through the store, which collective it reached: the rank it names as lagging,
  // dead or mismatched is the one to read, whatever the sequence numbers printed say. Of
  // several reports, the rank most lines name.
  bool find_desync_named(TriageReport& r);

  // Every rank in the input but one waited for a peer and said so (a collective's timeout, each
  // in a collective of its own group, as tensor and data parallel groups wait on different ones;
  // a connection a peer closed): the one whose log reports nothing never reached its
  // collective. Of two ranks, the silent one is the only peer the other can have waited for.
  void find_silent_rank(TriageReport& r);

  bool find_hang_in(int group, const std::map<int, RankProgress>& ranks, TriageReport& r);

  // Of ranks that all timed out at one sequence number, the one whose collective's OpType
  // differs from that of all the others (at least two of them), if there is exactly one.
  static std::optional<int> odd_collective(const std::map<int, RankProgress>& ranks);

  bool reported_fault(int rank) const;

  // Why `e` is not this job's, or "" when it may be: it happened on a host, or on a GPU of a
  // host, that none of the job's processes used, and NCCL's counts (nNodes, localRanks) show
  // that the input named every one of them.
  std::string outside_job(const LogEvent& e) const;

  // A cause after which a save completed minutes later, in any file (a job whose rank failed
  // completes no saves): the job went on past it (a caught and retried out-of-memory, an elastic
  // restart, another tenant's Xid). That save, if there is one.
  const CheckpointEvent* survived(const LogEvent& e) const;

  // When the job's own logs begin: the earliest first date of the files that name a rank (a
  // rank's file, a line with a rank prefix or a ranked fault) or hold the job's own errors (a
  // node's launcher output), not of a node's kernel log or syslog, which go back to its boot.
  std::optional<double> job_logs_begin() const;
  // The boot of a fault's node logged after it and before the job's logs begin, if any.
  const Evidence* rebooted_after(const LogEvent& e) const;

  // The files the input named a rank in (a rank's file, a line with a rank's prefix).
  std::set<std::string> files_of_ranks() const;

  // Seconds the job's logs were silent before Slurm's time limit ended it (`f`, "CANCELLED AT
  // 2024-10-24T05:49:21 DUE TO TIME LIMIT"; Slurm prints the cluster's local time): from the last
  // dated line above it in its file, or, when none, from the last dated line of the files that
  // name a rank, to that time. None when a rank's file has a dated line after it (the teardown
  // a rank printed tells nothing of when its work stopped).
  std::optional<double> quiet_before_limit(const LogEvent& f) const;

  // Why `e` is not to be taken for the first fault, or "".
  std::string set_aside(const LogEvent& e) const;

  void find_first_fault(TriageReport& r);

  // The first of `faults`, sorted by the earliest time each may have happened. A network error
  // on an undated line (an NCCL WARN, which takes the time of a dated line above it) happened
  // any time up to the next dated line of its file: another rank's fault of another kind that
  // may have happened within that span (dated in it, or undated with a span that overlaps it: a
  // traceback's error after the last dated line of its file) is more likely what the network
  // error lost contact with.
  // Likewise a hardware fault dated within an undated error's span, on the GPU that error's
  // process used: the GPU failing is more likely the error's cause (a rank's "unspecified launch
  // failure" after the last dated line of its file, and its GPU's Xid 79 in the kernel log).
  const LogEvent& first_of(const std::vector<LogEvent>& faults);

  // The cause that NCCL named under "Last error:" in the same report as `f` (below it in its
  // file, of its rank), which f's generic result stands for; or nullptr.
  static const LogEvent* named_cause(const LogEvent& f, const std::vector<LogEvent>& faults);

  // Is `cause`, read after NCCL's "Last error:", the cause of `e`, another error a few lines
  // above it in the same report? (The same cause printed before as a warning is not.)
  static bool reports_cause(const LogEvent& e, const LogEvent& cause);

  // Every rank reports PyTorch's collective mismatch, each naming the first rank whose collective
  // differs from its own: the rank that most reports name, when more than half do, is the one
  // in another collective (it names another), and the first fault is its.
  bool name_odd_rank(LogEvent& f);

  // A fault of the program or its settings that nearly every rank of the input reported alike
  // and at once ("invalid device ordinal" on 56 of 64 ranks, every rank's AssertionError on the
  // parallel sizes at start-up) is no one rank's: the rank that printed first only printed
  // first. (Not a GPU's fault, which is its own, nor a lost connection, which is an echo.)
  void note_ranks_alike(LogEvent& f);

  // The earliest kill, the out-of-memory killer's before a bare SIGKILL (which a launcher also
  // sends in teardown); with the rank another line about the same kill gives (srun's task).
  std::optional<LogEvent> first_kill();

  // A line with no rank of its own (the GPU's "Assertion ... failed", printed without the
  // launcher's prefix) takes the rank of the same fault's report a few lines below it in the
  // same file ("[rank1]: RuntimeError: CUDA error: device-side assert triggered").
  void name_rank(LogEvent& f);

  // A fault printed without a rank (a traceback in a node's output, which torchrun's agent
  // writes unprefixed; torchrun's own "failed (exitcode: -11) local_rank: 1"), then that agent's
  // failure summary, or srun's report of a task's exit, below it in the same file: the process
  // the launcher saw fail first is the one that printed it.
  void name_rank_from_launcher(LogEvent& f) const;

  // A GPU's fault in the kernel's log that no NCCL line tied to a process (an Xid 79 with no
  // rank) is the rank's whose own fault follows it near in time on that host, when that is one
  // rank only: rank 5's "unspecified launch failure" a second after the Xid, while the other
  // ranks only time out waiting for it. Not when the fault names a process (pid=) that is none
  // of those NCCL named on the host: then it hit another program's GPU.
  void name_rank_of_gpu_fault(LogEvent& f);

  // The one rank whose own fault is near `f` in time on its host (its earliest such line), or
  // none; `several` says two ranks' were, and then which GPU it was is not known. A lost
  // connection is no rank's report of its GPU: its peers print those.
  const LogEvent* rank_fault_near(const LogEvent& f, bool& several) const;

  // Whether `e` is explained by the first fault `f`.
  bool explained(const LogEvent& e, const LogEvent& f);

  void sort_out_the_rest(TriageReport& r);

  // A cause named after "Last error:" that is the same cause seen before at the same place (its
  // warning) is counted in that event of `listed` rather than listed again. Whether it was.
  static bool counted_in(const LogEvent& e, std::vector<LogEvent>& listed);

  void list_faults(TriageReport& r);

  // The kernel's report of a segmentation fault in a Python extension module (its category
  // "application", see add_kill) that is `f`'s crash or one on its host near it, if any.
  const LogEvent* extension_crash(const LogEvent& f) const;

  void decide_verdict(TriageReport& r);

  // A part of `c`'s checkpoint that started before it and never completed, if any: another
  // rank's shard of the same step's folder. A save line that names no path ("Checkpoint
  // global_step9 is ready now!") belongs to a folder whose name it says.
  const CheckpointEvent* missing_part(const CheckpointEvent& c) const;

  // The save under way when the first fault came, when the fault's traceback passes through
  // code that saves: the last save its own file reported above it, or else the last one
  // reported before it.
  const CheckpointEvent* cut_short_save(const TriageReport& r) const;

  // Is `c` a part of the save `cut_short` (see cut_short_save): that save's line or one after
  // it of the same checkpoint, or another rank's part of it. (An earlier line of the same log
  // naming the same folder, "run19/step_250.pt" before "run19/step_500.pt", is another save.)
  static bool part_of(const CheckpointEvent& c, const CheckpointEvent& cut_short);

  void judge_checkpoint(TriageReport& r);

  // Is there an error later in `c`'s own file than `c` (a fault or an echo of one, not set
  // aside as another job's or one the job went on past)?
  bool error_after(const CheckpointEvent& c) const;

  // The last save before the first fault came after a GPU memory error `m`: the saves since `m`
  // are suspect, and the one to resume from is the last completed before it, if there is one.
  void resume_before(const LogEvent& m, const CheckpointEvent& last, TriageReport& r);

  void choose_first_action(TriageReport& r);

  // Whether `a` and `b` may have happened on one host (see may_be_same_host and
  // lone_kernel_host_).
  bool may_be_on_one_host(const LogEvent& a, const LogEvent& b) const;

  // Near in time as printed, or reading a local time printed without its zone in the zone the
  // other lines gave (see local_zone_).
  bool near(const LogEvent& a, const LogEvent& b) const;

  const TriageFacts& in_;
  const Store& store_;
  Clock clock_;
  std::optional<double> local_zone_;  // the one UTC offset the zoned times of the input gave
  std::string lone_kernel_host_;  // the one host of the kernel's lines, not named by NCCL
  std::string hang_entry_;  // the entry of the timeouts that named a silent rank
  std::vector<std::string> set_aside_;  // set_aside() of each of in_.events, in their order
  std::optional<double> job_logs_begin_;  // see job_logs_begin()
  size_t processes_named_ = 0;  // the job's processes the input named, on all hosts (NCCL's)
  bool collective_mismatch_ = false;       // the hang is ranks in different collectives
  bool hung_until_limit_ = false;  // a time limit ended a job that had hung (quiet_before_limit)
  std::map<std::string, Facts> facts_;
  std::optional<LogEvent> hardware_event_;  // the line that made the verdict hardware
};

}  // namespace gpuerr::query::judging
