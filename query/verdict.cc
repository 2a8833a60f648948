// Judging what triage read: the first fault, what it explains, code or hardware, and whether
// the last checkpoint can be trusted.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <re2/re2.h>

#include "query/analyse.h"
#include "query/log_events.h"
#include "query/log_line.h"
#include "query/triage_facts.h"

namespace gpuerr::query {
namespace {

constexpr double kHardwareWindow = 600;  // seconds around a fault in which a hardware line counts
constexpr double kBeforeJobLogs = 3600;  // seconds before the job's logs begin (see set_aside)
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

std::string where(const LogEvent& e) { return e.file + ":" + std::to_string(e.line); }

// Does `text` hold `word` as a word of its own (not inside a longer name)?
bool says_word(std::string_view text, std::string_view word) {
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
bool is_fault(const std::string& role) {
  return role == "cause" || role == "memory-error" || role == "exception";
}

bool hardware_like(const Facts& f) {
  return f.role == "memory-error" || f.category == "hardware" || f.hardware == "yes";
}

// Hosts that may be one: either unknown, or the same name up to its first dot (NCCL prints the
// full name a host gives itself, syslog the short one).
bool may_be_same_host(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || short_host(a) == short_host(b);
}

// The letters a host's name starts with: "node" of "node-b7", "gke" of "gke-pool-1-x2".
std::string name_stem(const std::string& host) {
  size_t n = 0;
  while (n < host.size() && std::isalpha(static_cast<unsigned char>(host[n]))) ++n;
  return host.substr(0, n);
}

bool same_place(const LogEvent& a, const LogEvent& b) {
  if (a.rank && b.rank) return *a.rank == *b.rank;
  // (a rank's line and a line of no rank in a file of several, srun's "Node failure on ..."
  // beside a rank's MPI error, are not known to be of one place)
  if (a.rank.has_value() != b.rank.has_value() && a.host.empty() && b.host.empty()) return false;
  return short_host(a.host) == short_host(b.host) && a.local_rank == b.local_rank &&
         (a.host.size() || a.file == b.file);
}

// Two events on GPUs known to be different ones (an Xid's PCI address against the GPU NCCL gave
// a rank's process). Hosts are compared apart.
bool other_gpu(const LogEvent& a, const LogEvent& b) { return a.gpu && b.gpu && *a.gpu != *b.gpu; }

std::string pci_address(long bus_id) {  // 0xb7000 -> "0000:b7:00"
  char out[32];
  std::snprintf(out, sizeof out, "%04lx:%02lx:%02lx", bus_id >> 20, (bus_id >> 12) & 0xff,
                (bus_id >> 4) & 0xff);
  return out;
}

// The span of time in which `e` happened: its time, or for an undated line (a traceback's) from
// the dated line above it to the next dated line read in its file.
std::pair<double, double> span(const LogEvent& e) {
  if (!e.time_inherited) return {*e.time, *e.time};
  return {*e.time, e.latest.value_or(HUGE_VAL)};
}

// (`shift_b`: seconds added to b's time, to read it in another zone)
bool near_in_time(const LogEvent& a, const LogEvent& b, double shift_b = 0) {
  if (!a.time || !b.time) return true;
  const auto [a_from, a_to] = span(a);
  const auto [b_from, b_to] = span(b);
  return b_from + shift_b - a_to <= kHardwareWindow &&
         a_from - (b_to + shift_b) <= kHardwareWindow;
}

// "VAR=value" pairs an action asks for; an action is in effect when the log shows them all.
bool in_effect(const std::string& action, const std::set<std::string>& settings) {
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

// Seconds a job's log was silent before Slurm's time limit ended it: from the last dated line
// above the limit's line in its file (the time the line inherited) to the time Slurm printed in
// it ("CANCELLED AT 2024-10-24T05:49:21 DUE TO TIME LIMIT"). Both are the cluster's local time.
std::optional<double> quiet_before_limit(const LogEvent& f) {
  static const RE2 limit(R"(CANCELLED AT (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d) DUE TO TIME LIMIT)");
  std::string at;
  if (!f.time_inherited || !f.time || !RE2::PartialMatch(f.text, limit, &at)) return std::nullopt;
  const ParsedLine printed = parse_line(at, 0);
  if (!printed.origin.time || (f.zone && *f.zone != 0)) return std::nullopt;
  return *printed.origin.time - *f.time;
}

class Judge {
 public:
  Judge(const TriageFacts& facts, const Store& store) : in_(facts), store_(store) {
    std::set<std::string> dated;
    for (const std::vector<LogEvent>* list : {&in_.events, &in_.kills})
      for (const LogEvent& e : *list) (e.time ? dated : clock_.clockless).insert(e.file);
    for (const std::string& f : dated) clock_.clockless.erase(f);
    for (const std::vector<LogEvent>* list : {&in_.events, &in_.kills})
      for (const LogEvent& e : *list)
        clock_.timed = clock_.timed && (e.time || clock_.clockless.contains(e.file));
    // Local times printed without their zone beside times printed with one offset (Python's
    // logging beside journalctl -o short-iso): one cluster keeps one clock, so that offset is
    // likely the local times' too.
    std::set<double> zones;
    bool local = false;
    for (const LogEvent& e : in_.events) {
      if (!e.time) continue;
      if (e.zone) zones.insert(*e.zone);
      else local = true;
    }
    if (local && zones.size() == 1 && *zones.begin() != 0) local_zone_ = *zones.begin();
    // The kernel's lines of one host, named unlike every host NCCL printed (Kubernetes: NCCL
    // names the pod, "trainer-0", the kernel its node, "gke-pool-1-x2"): that host may be any
    // of the job's. Names alike ("node-a" beside "node-b") are two hosts of one cluster.
    const JobPlacement& job = in_.placement;
    if (job.kernel_hosts.size() == 1 && !job.hosts.empty()) {
      const std::string& kernel_host = *job.kernel_hosts.begin();
      if (std::none_of(job.hosts.begin(), job.hosts.end(), [&](const std::string& h) {
            return name_stem(h) == name_stem(kernel_host);
          }))
        lone_kernel_host_ = kernel_host;
    }
    job_logs_begin_ = job_logs_begin();
    for (const LogEvent& e : in_.events) set_aside_.push_back(set_aside(e));
  }

  TriageReport run() {
    TriageReport r;
    r.lines = in_.lines;
    r.bytes = in_.bytes;
    r.settings.assign(in_.settings.begin(), in_.settings.end());
    r.launcher_first_failure = in_.launcher_summary;
    find_hang(r);
    find_first_fault(r);
    sort_out_the_rest(r);
    decide_verdict(r);
    judge_checkpoint(r);
    choose_first_action(r);
    list_faults(r);
    return r;
  }

 private:
  const Facts& facts(const std::string& id) {
    auto it = facts_.find(id);
    if (it != facts_.end()) return it->second;
    Facts f;
    if (std::optional<Entry> e = store_.entry(id))
      f = {triage_role(*e), e->category, e->hardware, e->poisons_context, e->first_actions};
    return facts_.emplace(id, std::move(f)).first->second;
  }

  std::vector<LogEvent> sorted(bool (*keep)(const std::string& role)) {
    std::vector<LogEvent> out;
    for (size_t i = 0; i < in_.events.size(); ++i)
      if (keep(in_.events[i].role)) {
        out.push_back(in_.events[i]);
        out.back().set_aside = set_aside_[i];
      }
    std::stable_sort(out.begin(), out.end(),
                     [&](const LogEvent& a, const LogEvent& b) { return clock_.before(a, b); });
    return out;
  }

  // In a hang every rank that reached the collective times out; the one that never issued it
  // has the lowest sequence number. Sequence numbers count per process group.
  void find_hang(TriageReport& r) {
    if (find_desync_named(r)) return;
    for (const auto& [group, ranks] : in_.watchdog)
      if (find_hang_in(group, ranks, r)) return;
    find_silent_rank(r);
  }

  // PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG, on by default in recent releases) asks
  // every rank, through the store, which collective it reached: the rank it names as lagging,
  // dead or mismatched is the one to read, whatever the sequence numbers printed say. Of
  // several reports, the rank most lines name.
  bool find_desync_named(TriageReport& r) {
    if (in_.desync_named.empty()) return false;
    const auto most =
        std::max_element(in_.desync_named.begin(), in_.desync_named.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    r.hang_suspect_rank = most->first;
    r.hang_reason = "PyTorch's desync report names rank " + std::to_string(most->first) +
                    " as the rank that did not join or did not finish the collective the others "
                    "timed out in";
    return true;
  }

  // Every rank in the input but one waited for a peer and said so (a collective's timeout, each
  // in a collective of its own group, as tensor and data parallel groups wait on different ones;
  // a connection a peer closed): the one whose log reports nothing never reached its
  // collective. Of two ranks, the silent one is the only peer the other can have waited for.
  void find_silent_rank(TriageReport& r) {
    std::set<int> waited, reported;
    for (const auto& [group, ranks] : in_.watchdog)
      for (const auto& [rank, p] : ranks)
        if (p.timed_out_seq) waited.insert(rank);
    for (const LogEvent& e : in_.events) {
      if (!e.rank) continue;
      if (e.role == "consequence") waited.insert(*e.rank);
      if (is_fault(e.role)) reported.insert(*e.rank);
    }
    for (const LogEvent& e : in_.kills)
      if (e.rank) reported.insert(*e.rank);
    std::vector<int> silent;
    for (const auto& [rank, seen] : in_.ranks_present)
      if (!waited.contains(rank) && !reported.contains(rank)) silent.push_back(rank);
    const bool pair = waited.size() == 1 && in_.ranks_present.size() == 2;
    if (silent.size() != 1 || (waited.size() < 2 && !pair)) return;
    const std::string s = std::to_string(silent.front());
    const std::string gave_up =
        " waited for a peer until it gave up (a collective's timeout, a closed connection); ";
    r.hang_suspect_rank = silent.front();
    r.hang_reason =
        pair ? "rank " + std::to_string(*waited.begin()) + gave_up + "rank " + s +
                   ", the only other rank in the input, reported nothing: it never reached the "
                   "collective (a hang or a fault before it)"
             : "every rank in the input but rank " + s + " (" + std::to_string(waited.size()) +
                   " of them)" + gave_up + "rank " + s +
                   " reported nothing: it never reached its collective (a hang or a fault before "
                   "it)";
  }

  bool find_hang_in(int group, const std::map<int, RankProgress>& ranks, TriageReport& r) {
    std::optional<int> suspect;
    long lowest = 0, highest = 0;
    auto consider = [&](int rank, long seq) {
      if (!suspect || seq < lowest) suspect = rank, lowest = seq;
      highest = std::max(highest, seq);
    };
    for (const auto& [rank, p] : ranks)
      if (p.last_enqueued) consider(rank, *p.last_enqueued);
    if (!suspect)
      for (const auto& [rank, p] : ranks)
        if (p.timed_out_seq) consider(rank, *p.timed_out_seq);
    if (!suspect) return false;
    const std::string in_group = group ? " of process group " + std::to_string(group) : "";
    if (lowest < highest) {
      r.hang_suspect_rank = suspect;
      r.hang_reason = "rank " + std::to_string(*suspect) + in_group +
                      " issued collectives only up to #" + std::to_string(lowest) +
                      " while others reached #" + std::to_string(highest) +
                      ": it stopped issuing collectives (a hang or a fault before the collective)";
      return true;
    }
    // All waited at the same sequence number, but one rank in another kind of collective (a
    // BROADCAST where the others ALLREDUCE): the ranks took different code paths (a batch one
    // rank skipped), and the odd one out is where to look.
    if (const std::optional<int> odd = odd_collective(ranks)) {
      const RankProgress& p = ranks.at(*odd);
      r.hang_suspect_rank = odd;
      r.hang_reason = "rank " + std::to_string(*odd) + in_group + " waited in " + p.op_type +
                      " #" + std::to_string(*p.timed_out_seq) + " while the other " +
                      std::to_string(ranks.size() - 1) +
                      " ranks waited in another collective at that number: the ranks issued "
                      "different collectives (a code path only some ranks took, such as a "
                      "skipped step), a bug in the program";
      collective_mismatch_ = true;
      return true;
    }
    // All waited in the same collective. In the default group, which holds every rank, the one
    // rank between 0 and the highest that reported nothing never issued it.
    const int top = ranks.rbegin()->first;
    if (group != 0 || top < 3 || ranks.size() != static_cast<size_t>(top)) return false;
    int silent = 0;
    while (ranks.contains(silent)) ++silent;
    long waited = highest;  // the collective they timed out in, when their lines say
    for (const auto& [rank, p] : ranks)
      if (p.timed_out_seq) waited = std::min(waited, *p.timed_out_seq);
    r.hang_suspect_rank = silent;
    r.hang_reason = "every rank from 0 to " + std::to_string(top) + " but rank " +
                    std::to_string(silent) + " reported a timeout in collective #" +
                    std::to_string(waited) + "; rank " + std::to_string(silent) +
                    (reported_fault(silent)
                         ? " reported a fault of its own instead: it never issued that collective"
                         : " reported nothing: it never issued that collective (a hang or a "
                           "fault before it)");
    return true;
  }

  // Of ranks that all timed out at one sequence number, the one whose collective's OpType
  // differs from that of all the others (at least two of them), if there is exactly one.
  static std::optional<int> odd_collective(const std::map<int, RankProgress>& ranks) {
    std::map<std::string, std::vector<int>> by_op;
    std::set<long> seqs;
    for (const auto& [rank, p] : ranks) {
      if (!p.timed_out_seq || p.op_type.empty()) return std::nullopt;
      by_op[p.op_type].push_back(rank);
      seqs.insert(*p.timed_out_seq);
    }
    if (by_op.size() != 2 || seqs.size() != 1) return std::nullopt;
    const std::vector<int>& a = by_op.begin()->second;
    const std::vector<int>& b = by_op.rbegin()->second;
    if (a.size() == 1 && b.size() >= 2) return a.front();
    if (b.size() == 1 && a.size() >= 2) return b.front();
    return std::nullopt;
  }

  bool reported_fault(int rank) const {
    const auto of_rank = [&](const LogEvent& e) { return e.rank == rank; };
    return std::any_of(in_.kills.begin(), in_.kills.end(), of_rank) ||
           std::any_of(in_.events.begin(), in_.events.end(),
                       [&](const LogEvent& e) { return of_rank(e) && is_fault(e.role); });
  }

  // Why `e` is not this job's, or "" when it may be: it happened on a host, or on a GPU of a
  // host, that none of the job's processes used, and NCCL's counts (nNodes, localRanks) show
  // that the input named every one of them.
  std::string outside_job(const LogEvent& e) const {
    const JobPlacement& job = in_.placement;
    const std::string host = job.host_of(e.host);
    if (host.empty()) return "";
    if (!job.hosts.contains(host)) {
      // (only where the kernel's lines name hosts as NCCL's do: in Kubernetes NCCL names the
      // pod, the kernel the node)
      const bool same_names =
          std::any_of(job.kernel_hosts.begin(), job.kernel_hosts.end(),
                      [&](const std::string& h) { return job.hosts.contains(h); });
      return same_names && job.nodes > 0 && job.hosts.size() >= static_cast<size_t>(job.nodes)
                 ? "host " + e.host + " is none of the " + std::to_string(job.nodes) +
                       " hosts NCCL counted for this job"
                 : "";
    }
    const auto processes = job.gpus.find(host);
    const auto counted = job.local_ranks.find(host);
    if (!e.gpu || processes == job.gpus.end() || counted == job.local_ranks.end() ||
        processes->second.size() < static_cast<size_t>(counted->second))
      return "";
    // (the process an Xid names, when it is one of the job's, makes the GPU the job's too)
    const std::optional<long> named = read_xid_place(e.text).pid;
    for (const auto& [pid, gpus] : processes->second)
      if (gpus.empty() || gpus.contains(*e.gpu) || named == pid) return "";
    return "GPU " + pci_address(*e.gpu) + " is none of the GPUs NCCL named for this job's " +
           std::to_string(counted->second) + " processes on " +
           (e.host.empty() ? "its host" : e.host);
  }

  // A cause after which a save completed minutes later, in any file (a job whose rank failed
  // completes no saves): the job went on past it (a caught and retried out-of-memory, an elastic
  // restart, another tenant's Xid). That save, if there is one.
  const CheckpointEvent* survived(const LogEvent& e) const {
    if ((e.role != "cause" && e.role != "exception") || !e.time) return nullptr;
    const double ended = span(e).second;
    for (const CheckpointEvent& c : in_.checkpoints)
      if (c.completed && c.time &&
          *c.time - ended >= kSurvivedAfter)
        return &c;
    return nullptr;
  }

  // When the job's own logs begin: the earliest first date of the files that name a rank (a
  // rank's file, a line with a rank prefix or a ranked fault), not of a node's kernel log or
  // syslog, which go back to its boot.
  std::optional<double> job_logs_begin() const {
    std::set<std::string> job_files;
    for (const auto& [rank, seen] : in_.ranks_present) job_files.insert(seen.file);
    for (const LogEvent& e : in_.events)
      if (e.rank || e.local_rank) job_files.insert(e.file);
    std::optional<double> begin;
    for (const auto& [file, time] : in_.first_dated_of_file)
      if (job_files.contains(file)) begin = std::min(begin.value_or(time), time);
    return begin;
  }

  // Why `e` is not to be taken for the first fault, or "".
  std::string set_aside(const LogEvent& e) const {
    if (std::string why = outside_job(e); !why.empty()) return "not this job's: " + why;
    // An Xid that a program's own fault raises (13, 31, 43), an hour or more before the job's
    // own logs begin: another program's, in a kernel log that goes back to the node's boot.
    // (A hardware Xid before the job still counts: the GPU may have been broken when it began.)
    if (e.entry_id.starts_with("xid-") && e.category == "application" && e.time &&
        job_logs_begin_ && *e.time < *job_logs_begin_ - kBeforeJobLogs)
      return "not this job's: a program's fault that the kernel logged " +
             std::to_string(static_cast<long>((*job_logs_begin_ - *e.time) / 3600)) +
             " hours before this job's logs begin";
    if (e.role == "memory-notice")
      return "no fault by itself: a repair the GPU's memory recorded (saves after it are suspect)";
    if (!e.chained_into.empty())
      return "its traceback goes on to " + e.chained_into + ", which says what happened";
    if (const CheckpointEvent* save = survived(e))
      return "the job went on past it: a save completed " +
             std::to_string(static_cast<long>((*save->time - span(e).second) / 60)) +
             " minutes later (" + save->file + ":" + std::to_string(save->line) + ")";
    if ((e.role == "cause" || e.role == "exception") && e.went_on_after)
      return "the job went on past it: its rank's work goes on " +
             std::to_string(static_cast<long>(*e.went_on_after / 60)) + " minutes later (" +
             e.file + ":" + std::to_string(e.went_on_line) + ")";
    return "";
  }

  void find_first_fault(TriageReport& r) {
    std::vector<LogEvent> faults = sorted([](const std::string& role) { return is_fault(role); });
    // (they are listed, never taken for the first)
    std::erase_if(faults, [](const LogEvent& e) { return !e.set_aside.empty(); });
    const std::optional<LogEvent> kill = first_kill();
    if (!faults.empty()) {
      r.first_fault = first_of(faults);
      if (const LogEvent* cause = named_cause(*r.first_fault, faults)) r.first_fault = *cause;
      // A network error first, and a hardware fault on another host reported within minutes
      // after it (Slurm's "Node failure on <node>" comes only once the controller gives the node
      // up): the peers lost contact with the failed node, which is the first fault.
      if (facts(r.first_fault->entry_id).category == "communication")
        for (const LogEvent& e : faults)
          if (hardware_like(facts(e.entry_id)) && !same_place(e, *r.first_fault) &&
              clock_.before(*r.first_fault, e) && near(e, *r.first_fault)) {
            r.first_fault = e;
            break;
          }
      // a rank killed before its peers' network errors is what they lost contact with (before
      // an undated one's bound, the next dated line of its file: see first_of)
      const LogEvent& f = *r.first_fault;
      const bool killed_first =
          kill && (clock_.before(*kill, f) || (f.time_inherited && kill->time &&
                                               *kill->time <= span(f).second));
      // an uncaught exception near the out-of-memory killer's kill on its host: the kill took
      // a process it needed (a DataLoader worker), and the exception is its echo (the kernel's
      // clock and the program's may be seconds apart)
      const bool killed_near = kill && f.role == "exception" && kill->category == "resource" &&
                               near(*kill, f) && may_be_on_one_host(*kill, f);
      if ((killed_first && facts(f.entry_id).category == "communication") || killed_near) {
        r.first_fault = kill;
        name_rank_from_launcher(*r.first_fault);
      } else
        name_rank(*r.first_fault);
      name_rank_of_gpu_fault(*r.first_fault);
      if (!name_odd_rank(*r.first_fault)) note_ranks_alike(*r.first_fault);
      return;
    }
    if (kill) {  // the timeouts of the others are its echo
      r.first_fault = kill;
      name_rank_from_launcher(*r.first_fault);
      return;
    }
    std::vector<LogEvent> echoes =
        sorted([](const std::string& role) { return role == "consequence"; });
    if (echoes.empty()) return;
    r.first_fault = echoes.front();
    if (!r.hang_suspect_rank) return;
    for (const LogEvent& e : echoes)  // the suspect's own line, not the first rank to time out
      if (e.rank == r.hang_suspect_rank) {
        r.first_fault = e;
        // (its timeout's own reading, which sends one to the lowest sequence number, does not
        // apply when all stopped at one number in different collectives)
        if (collective_mismatch_) r.first_fault->reading = r.hang_reason;
        return;
      }
    // The suspect printed no timeout: it stands for itself, at the last line of its own log
    // (where it stopped) when a file is named for it, else at the first line that named it (no
    // line, file "", when its log is not in the input), dated by the first timeout of the others
    // (it hung before that). The first victim to time out is not the answer either way.
    const auto seen = in_.ranks_present.find(*r.hang_suspect_rank);
    const auto stopped = in_.last_line_of_rank.find(*r.hang_suspect_rank);
    hang_entry_ = echoes.front().entry_id;
    LogEvent silent;
    silent.role = "hang";
    silent.category = facts(hang_entry_).category;
    silent.rank = r.hang_suspect_rank;
    silent.time = echoes.front().time;
    if (seen != in_.ranks_present.end())
      silent.file = seen->second.file, silent.line = seen->second.line;
    silent.text = "(no line of its own: " + r.hang_reason + ")";
    if (stopped != in_.last_line_of_rank.end()) {
      silent.file = stopped->second.file, silent.line = stopped->second.line;
      silent.text = stopped->second.text;
      silent.reading = "the last line of its log: it stopped after this; " + r.hang_reason;
    }
    silent.order = echoes.front().order;
    r.first_fault = silent;
  }

  // The first of `faults`, sorted by the earliest time each may have happened. A network error
  // on an undated line (an NCCL WARN, which takes the time of a dated line above it) happened
  // any time up to the next dated line of its file: another rank's fault of another kind that
  // may have happened within that span (dated in it, or undated with a span that overlaps it: a
  // traceback's error after the last dated line of its file) is more likely what the network
  // error lost contact with.
  // Likewise a hardware fault dated within an undated error's span, on the GPU that error's
  // process used: the GPU failing is more likely the error's cause (a rank's "unspecified launch
  // failure" after the last dated line of its file, and its GPU's Xid 79 in the kernel log).
  const LogEvent& first_of(const std::vector<LogEvent>& faults) {
    const LogEvent& front = faults.front();
    const bool network = facts(front.entry_id).category == "communication";
    // With no time to order them by, input order across files is a guess: a network error
    // first then says only that a peer went away, and another rank's fault of another kind,
    // also without a time, is the better guess for what it lost contact with.
    if (!front.time && network)
      for (const LogEvent& e : faults)
        if (!e.time && !same_place(e, front) && facts(e.entry_id).category != "communication")
          return e;
    if (!front.time_inherited) return front;
    const double by = span(front).second;  // (infinite when no dated line came after it)
    const bool hardware = hardware_like(facts(front.entry_id));
    for (const LogEvent& e : faults) {
      if (!e.time || span(e).first > by) continue;
      if (network && std::isfinite(by) && !same_place(e, front) &&
          facts(e.entry_id).category != "communication")
        return e;
      if (e.time_inherited) continue;
      if (!hardware && hardware_like(facts(e.entry_id)) && e.gpu && e.gpu == front.gpu &&
          may_be_on_one_host(e, front))
        return e;
    }
    return front;
  }

  // The cause that NCCL named under "Last error:" in the same report as `f` (below it in its
  // file, of its rank), which f's generic result stands for; or nullptr.
  static const LogEvent* named_cause(const LogEvent& f, const std::vector<LogEvent>& faults) {
    for (const LogEvent& e : faults)
      if (e.last_error && reports_cause(f, e)) return &e;
    return nullptr;
  }

  // Is `cause`, read after NCCL's "Last error:", the cause of `e`, another error a few lines
  // above it in the same report? (The same cause printed before as a warning is not.)
  static bool reports_cause(const LogEvent& e, const LogEvent& cause) {
    // (an uncaught exception above it is another report's: NCCL's are an entry's)
    return cause.last_error && !e.entry_id.empty() && e.entry_id != cause.entry_id &&
           e.file == cause.file &&
           e.line < cause.line && cause.line - e.line <= kSameReportLines &&
           same_place(e, cause);
  }

  // Every rank reports PyTorch's collective mismatch, each naming the first rank whose collective
  // differs from its own: the rank that most reports name, when more than half do, is the one
  // in another collective (it names another), and the first fault is its.
  bool name_odd_rank(LogEvent& f) {
    if (in_.mismatch_named.size() < 2) return false;
    std::map<int, size_t> named;
    for (const auto& [reporter, other] : in_.mismatch_named) ++named[other];
    const auto odd = std::max_element(named.begin(), named.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    });
    if (2 * odd->second <= in_.mismatch_named.size()) return false;
    if (f.rank != odd->first) {
      // (its own report, when the input holds it; else the first fault's line, for its rank)
      const auto own = std::find_if(in_.events.begin(), in_.events.end(), [&](const LogEvent& e) {
        return e.entry_id == f.entry_id && e.rank == odd->first;
      });
      if (own != in_.events.end()) f = *own;
      f.rank = odd->first, f.local_rank.reset(), f.rank_line = 0, f.rank_file.clear();
      if (own == in_.events.end()) f.host.clear();
    }
    f.reading = std::to_string(odd->second) + " of the " +
                std::to_string(in_.mismatch_named.size()) + " ranks that reported the mismatch "
                "name rank " + std::to_string(odd->first) + " as running another collective "
                "than theirs: that rank took another code path";
    return true;
  }

  // A fault of the program or its settings that nearly every rank of the input reported alike
  // and at once ("invalid device ordinal" on 56 of 64 ranks, every rank's AssertionError on the
  // parallel sizes at start-up) is no one rank's: the rank that printed first only printed
  // first. (Not a GPU's fault, which is its own, nor a lost connection, which is an echo.)
  void note_ranks_alike(LogEvent& f) {
    constexpr size_t kFewestRanks = 3;
    constexpr double kAtOnce = 120;  // seconds
    const std::string& category = f.entry_id.empty() ? f.category : facts(f.entry_id).category;
    if (f.role == "killed" || hardware_like(facts(f.entry_id)) || category == "communication")
      return;
    std::set<int> ranks;
    for (const LogEvent& e : in_.events)
      if (e.rank && e.entry_id == f.entry_id && e.role == f.role &&
          (!f.entry_id.empty() || e.reading == f.reading) &&
          (!e.time || !f.time || std::abs(*e.time - *f.time) <= kAtOnce))
        ranks.insert(*e.rank);
    if (ranks.size() < kFewestRanks || 4 * ranks.size() < 3 * in_.ranks_present.size()) return;
    f.ranks_alike = ranks.size();
    f.rank.reset(), f.local_rank.reset(), f.rank_line = 0, f.rank_file.clear();
  }

  // The earliest kill, the out-of-memory killer's before a bare SIGKILL (which a launcher also
  // sends in teardown); with the rank another line about the same kill gives (srun's task).
  std::optional<LogEvent> first_kill() {
    std::vector<LogEvent> kills = in_.kills;
    std::stable_sort(kills.begin(), kills.end(),
                     [&](const LogEvent& a, const LogEvent& b) { return clock_.before(a, b); });
    // (then a crash, which no launcher sends in teardown)
    std::stable_partition(kills.begin(), kills.end(),
                          [](const LogEvent& k) { return k.finding == kSegfault; });
    std::stable_partition(kills.begin(), kills.end(),
                          [](const LogEvent& k) { return k.category == "resource"; });
    if (kills.empty()) return std::nullopt;
    LogEvent k = kills.front();
    // The same process in another report of its kill (the kernel's "Killed process 366850",
    // torchrun's "failed (exitcode: -9) local_rank: 5 (pid: 366850)", whose agent's summary in
    // that file names its rank) is the same rank.
    if (!k.rank && k.pid)
      for (const LogEvent& other : kills) {
        if (&other == &kills.front() || other.pid != k.pid) continue;
        LogEvent named = other;
        name_rank_from_launcher(named);
        if (!named.rank) continue;
        k.rank = named.rank, k.local_rank = named.local_rank;
        k.rank_line = named.rank_line ? named.rank_line : named.line;
        k.rank_file = named.file != k.file ? named.file : "";
        break;
      }
    if (!k.rank && !k.local_rank)
      for (const LogEvent& other : kills)
        if ((other.rank || other.local_rank) && other.category == k.category &&
            other.finding == k.finding &&
            may_be_same_host(k.host, other.host)) {
          k.rank = other.rank, k.local_rank = other.local_rank, k.rank_line = other.line;
          if (k.host.empty()) k.host = other.host;
          break;
        }
    return k;
  }

  // A line with no rank of its own (the GPU's "Assertion ... failed", printed without the
  // launcher's prefix) takes the rank of the same fault's report a few lines below it in the
  // same file ("[rank1]: RuntimeError: CUDA error: device-side assert triggered").
  void name_rank(LogEvent& f) {
    if (f.rank) return;
    if (!f.local_rank)
      for (const LogEvent& e : in_.events)
        if (e.entry_id == f.entry_id && e.file == f.file && e.line > f.line &&
            e.line - f.line <= kSameReportLines && (e.rank || e.local_rank) &&
            may_be_same_host(f.host, e.host)) {
          f.rank = e.rank, f.local_rank = e.local_rank, f.rank_line = e.line;
          if (f.host.empty()) f.host = e.host;
          return;
        }
    // The launcher's report of the first process to fail, below it in its file, if any.
    const auto root = in_.launcher_root_by_file.find(f.file);
    const bool root_below =
        root != in_.launcher_root_by_file.end() && root->second.line >= f.line;
    // Failing that, the one rank the lines just below it in its file name, whatever their error
    // (a pod's log: NVML's mismatch, then "[rank1]: RuntimeError ... Error 803"); not when they
    // name two, nor past the launcher's report (the lines after it are its teardown's).
    if (!f.local_rank) {
      const LogEvent* named = nullptr;
      for (const LogEvent& e : in_.events) {
        if (e.file != f.file || e.line <= f.line || e.line - f.line > kSameReportLines ||
            !e.rank || !may_be_same_host(f.host, e.host) ||
            (root_below && e.line > root->second.line))
          continue;
        if (named && named->rank != e.rank) {
          named = nullptr;
          break;
        }
        if (!named || e.line < named->line) named = &e;
      }
      if (named) {
        f.rank = named->rank, f.rank_line = named->line;
        if (f.host.empty()) f.host = named->host;
        return;
      }
    }
    name_rank_from_launcher(f);
  }

  // A fault printed without a rank (a traceback in a node's output, which torchrun's agent
  // writes unprefixed; torchrun's own "failed (exitcode: -11) local_rank: 1"), then that agent's
  // failure summary, or srun's report of a task's exit, below it in the same file: the process
  // the launcher saw fail first is the one that printed it.
  void name_rank_from_launcher(LogEvent& f) const {
    if (f.rank) return;
    const auto root = in_.launcher_root_by_file.find(f.file);
    if (root == in_.launcher_root_by_file.end() || root->second.line < f.line) return;
    if (f.local_rank && f.local_rank != root->second.local_rank) return;
    f.rank = root->second.rank, f.local_rank = root->second.local_rank;
    f.rank_line = root->second.line;
    if (!root->second.host.empty()) f.host = root->second.host;
  }

  // A GPU's fault in the kernel's log that no NCCL line tied to a process (an Xid 79 with no
  // rank) is the rank's whose own fault follows it near in time on that host, when that is one
  // rank only: rank 5's "unspecified launch failure" a second after the Xid, while the other
  // ranks only time out waiting for it. Not when the fault names a process (pid=) that is none
  // of those NCCL named on the host: then it hit another program's GPU.
  void name_rank_of_gpu_fault(LogEvent& f) {
    if (f.rank || f.local_rank || !hardware_like(facts(f.entry_id))) return;
    if (const std::optional<long> pid = read_xid_place(f.text).pid) {
      bool known = false, ours = false;
      for (const auto& [host, processes] : in_.placement.gpus)
        if (may_be_same_host(f.host, host)) known = true, ours = ours || processes.contains(*pid);
      if (known && !ours) return;
    }
    bool several = false;
    const LogEvent* named = rank_fault_near(f, several);
    // Failing that, the rank of a later report of the same GPU's (a DBE's Xid 48, then the Xid 95
    // twenty minutes on, a second before rank 5's "uncorrectable ECC error encountered").
    if (!named && !several && f.gpu)
      for (const LogEvent& g : in_.events)
        if (&g != &f && g.gpu == f.gpu && g.entry_id.starts_with("xid-") &&
            may_be_same_host(f.host, g.host) && !clock_.before(g, f))
          if ((named = rank_fault_near(g, several)) || several) break;
    if (!named) return;
    f.rank = named->rank, f.rank_line = named->line;
    if (named->file != f.file) f.rank_file = named->file;
    if (f.host.empty()) f.host = named->host;
  }

  // The one rank whose own fault is near `f` in time on its host (its earliest such line), or
  // none; `several` says two ranks' were, and then which GPU it was is not known. A lost
  // connection is no rank's report of its GPU: its peers print those.
  const LogEvent* rank_fault_near(const LogEvent& f, bool& several) const {
    const LogEvent* named = nullptr;
    for (const LogEvent& e : in_.events) {
      if (!e.rank || !is_fault(e.role) || !may_be_on_one_host(f, e) || !near(f, e) ||
          e.category == "communication")
        continue;
      if (named && *named->rank != *e.rank) {
        several = true;
        return nullptr;
      }
      if (!named || clock_.before(e, *named)) named = &e;
    }
    return named;
  }

  // Whether `e` is explained by the first fault `f`.
  bool explained(const LogEvent& e, const LogEvent& f) {
    // (a repair recorded after a GPU's memory error is part of that error's cascade)
    if (!e.set_aside.empty() && e.role != "memory-notice") return false;
    if (e.role == "consequence") return true;
    // a program's own exception after the first fault: its echo (a peer's lost connection, a
    // chained exception of the same rank)
    if (e.role == "exception" && !clock_.before(e, f)) return true;
    if (f.role == "killed")  // its peers lose contact with it
      return facts(e.entry_id).category == "communication";
    if (e.entry_id == f.entry_id) return true;  // the same fault seen by other ranks
    if (reports_cause(e, f)) return true;  // NCCL's generic result, whose cause f names
    // (or whose cause, named under it, is f's fault seen again or explained by f)
    if (const LogEvent* cause = named_cause(e, in_.events))
      if (cause->entry_id == f.entry_id || explained(*cause, f)) return true;
    // (an undated line, `e`, may have come any time up to the next dated line of its file)
    const bool maybe_after = e.time_inherited && f.time && *f.time <= span(e).second;
    if (!clock_.before(f, e) && !maybe_after) return false;
    const Facts& ff = facts(f.entry_id);
    const Facts& ef = facts(e.entry_id);
    // a poisoned context explains the rank's later CUDA errors, not the GPU's own reports
    if (same_place(e, f) && ff.poisons_context && !hardware_like(ef)) return true;
    const bool same_host = may_be_on_one_host(f, e);
    if (hardware_like(ff) && same_host && (near(e, f) || hardware_like(ef)) &&
        (!other_gpu(e, f) || ef.category == "communication"))
      return true;  // the GPU failed, and everything on it, and its peers' links, follow
    // the kernel's own report of an application fault (Xid 13, 31, 43 after the CUDA error),
    // and the program's CUDA error that breaks its context after the kernel's report of it
    if (!same_host || !near(e, f) || other_gpu(e, f)) return false;
    return (e.entry_id.starts_with("xid-") && !hardware_like(ef)) ||
           (f.entry_id.starts_with("xid-") && !hardware_like(ff) && ef.poisons_context &&
            !hardware_like(ef));
  }

  void sort_out_the_rest(TriageReport& r) {
    r.cascade_count = in_.teardown_lines;
    if (!r.first_fault) {  // then only faults set aside, if any
      r.faults = sorted([](const std::string& role) {
        return is_fault(role) || role == "memory-notice";
      });
      return;
    }
    for (const LogEvent& e : sorted([](const std::string& role) { return role != "warning"; })) {
      if (e.order == r.first_fault->order && e.role == r.first_fault->role) continue;
      if (explained(e, *r.first_fault)) {
        if (!counted_in(e, r.cascade)) r.cascade.push_back(e);
        r.cascade_count += e.count;
      } else if (!counted_in(e, r.faults)) {
        r.faults.push_back(e);
      }
    }
    r.cascade_count += r.first_fault->count - 1;
  }

  // A cause named after "Last error:" that is the same cause seen before at the same place (its
  // warning) is counted in that event of `listed` rather than listed again. Whether it was.
  static bool counted_in(const LogEvent& e, std::vector<LogEvent>& listed) {
    if (!e.last_error) return false;
    for (LogEvent& f : listed)
      if (f.entry_id == e.entry_id && !f.last_error && same_place(f, e)) {
        f.count += e.count;
        return true;
      }
    return false;
  }

  void list_faults(TriageReport& r) {
    if (r.first_fault) r.faults.insert(r.faults.begin(), *r.first_fault);
  }

  void decide_verdict(TriageReport& r) {
    if (!r.first_fault) {
      r.verdict_reason = "no fault found in the log";
      return;
    }
    const LogEvent& f = *r.first_fault;
    for (size_t i = 0; i < in_.events.size(); ++i) {
      const LogEvent& e = in_.events[i];
      // (not a failure: Xid 93, an InfoROM notice; Xid 63, a repair recorded)
      if (e.role == "warning" || e.role == "memory-notice") continue;
      const bool same_host = may_be_on_one_host(f, e);
      // (a GPU's failure is another GPU's cause only through their links: NCCL's errors)
      const bool same_gpu = !other_gpu(e, f) || facts(f.entry_id).category == "communication";
      if (hardware_like(facts(e.entry_id)) && same_host && same_gpu && near(e, f) &&
          set_aside_[i].empty()) {
        hardware_event_ = e;
        r.verdict = "hardware";
        r.verdict_reason = "a hardware error (" + e.entry_id + ") on that host near the fault";
        r.verdict_evidence.push_back({e.file, e.line, e.text});
        return;
      }
    }
    if (collective_mismatch_ && f.rank == r.hang_suspect_rank) {
      r.verdict = "code";
      r.verdict_reason = r.hang_reason;
      r.verdict_evidence.push_back({f.file, f.line, f.text});
      return;
    }
    const bool no_entry = f.entry_id.empty();  // a kill, a hang, an uncaught exception
    const std::string& category = no_entry ? f.category : facts(f.entry_id).category;
    const std::string name = !no_entry            ? f.entry_id
                             : f.role == "hang"   ? "a hang"
                             : f.role == "killed"
                                 ? (f.finding == kSegfault ? "a segmentation fault" : "a kill")
                                                  : "an uncaught exception";
    r.verdict_evidence.push_back({f.file, f.line, f.text});
    // The GPU's driver reporting its own failure (an Xid of the driver class: its firmware timed
    // out, the GPU stopped) is the node's fault, to be reset or drained, not the job's settings.
    const bool node_driver = category == "driver" && f.entry_id.starts_with("xid-");
    // A GPU out of memory because another process holds most of it (a stale run, another
    // tenant): the job's setting, not its code.
    const bool held_elsewhere = category == "resource" && f.finding == "another process";
    // A rank the kernel's out-of-memory killer (or Slurm's memory limit) took: the host's memory
    // ran out, which the job's settings size (its memory request, DataLoader workers, batch).
    const bool host_memory = f.role == "killed" && category == "resource";
    // A time limit that ended a job silent for half an hour or more ended a hang.
    const std::optional<double> quiet = quiet_before_limit(f);
    hung_until_limit_ = quiet && *quiet >= kQuietBeforeLimit;
    if (hung_until_limit_) {
      r.verdict_reason = "the job printed nothing for " + std::to_string(std::lround(*quiet / 60)) +
                         " minutes before its time limit ended it: it hung, and the limit only "
                         "ended the wait; what stopped it is not in the log";
      return;
    }
    if (held_elsewhere || host_memory) r.verdict = "configuration";
    else if (category == "application" || category == "resource" || category == "framework")
      r.verdict = "code";
    else if (node_driver)
      r.verdict = "hardware";
    else if (category == "configuration" || category == "driver")
      r.verdict = "configuration";
    // (a lost connection or a collective's timeout first, and no fault of a peer in the input:
    // the peer stopped or never reached the collective, for a reason its own log holds, or the
    // network between them failed)
    const bool lost_peer =
        r.verdict == "unknown" && category == "communication" && f.role != "hang";
    r.verdict_reason = [&]() -> std::string {
      const std::string first = "the first fault is " + name;
      if (lost_peer && f.role == "consequence")
        return "the first fault (" + name + ") is what a rank reports when a peer stops, never "
               "reaches the collective, or the network between them fails: the other ranks' "
               "logs tell which";
      if (lost_peer)
        return "the first fault (" + name + ") is a lost connection, which a peer that stopped "
               "and a failing network both give: the peer's log tells which";
      if (r.verdict == "unknown")
        return "the first fault (" + name + ") does not tell code from hardware";
      if (node_driver) return first + " (the GPU's driver or firmware failed on that node)";
      if (held_elsewhere) return first + " (another process held most of the GPU's memory)";
      if (host_memory)
        return first + " for memory (the host's memory ran out: the job's memory request, "
               "DataLoader workers, batch size)";
      return first + " (" + category + ")";
    }();
  }

  // A part of `c`'s checkpoint that started before it and never completed, if any: another
  // rank's shard of the same step's folder. A save line that names no path ("Checkpoint
  // global_step9 is ready now!") belongs to a folder whose name it says.
  const CheckpointEvent* missing_part(const CheckpointEvent& c) const {
    for (const CheckpointEvent& part : in_.unfinished_parts) {
      if (part.group.empty() || !clock_.before(part, c)) continue;
      if (c.group.empty() ? says_word(c.text, part.group.substr(part.group.rfind('/') + 1))
                          : c.group == part.group)
        return &part;
    }
    return nullptr;
  }

  // The save under way when the first fault came, when the fault's traceback passes through
  // code that saves: the last save its own file reported above it, or else the last one
  // reported before it.
  const CheckpointEvent* cut_short_save(const TriageReport& r) const {
    if (!r.first_fault || !r.first_fault->during_save) return nullptr;
    const LogEvent& f = *r.first_fault;
    const CheckpointEvent *in_file = nullptr, *before = nullptr;
    for (const CheckpointEvent& c : in_.checkpoints) {
      if (c.file == f.file && c.line < f.line)
        in_file = &c;
      else if (c.file != f.file && !c.time == !f.time && clock_.before(c, f))
        before = &c;
    }
    return in_file ? in_file : before;
  }

  // Is `c` a part of the save `cut_short` (see cut_short_save): that save's line or one after
  // it of the same checkpoint, or another rank's part of it. (An earlier line of the same log
  // naming the same folder, "run19/step_250.pt" before "run19/step_500.pt", is another save.)
  static bool part_of(const CheckpointEvent& c, const CheckpointEvent& cut_short) {
    if (&c == &cut_short) return true;
    return !c.group.empty() && c.group == cut_short.group &&
           (c.order >= cut_short.order || c.file != cut_short.file);
  }

  void judge_checkpoint(TriageReport& r) {
    std::vector<LogEvent> memory = sorted([](const std::string& role) {
      return role == "memory-error" || role == "memory-notice";
    });
    // (a GPU or host the job did not use says nothing of its saves)
    std::erase_if(memory, [&](const LogEvent& m) { return !outside_job(m).empty(); });
    const CheckpointEvent* last = nullptr;
    const CheckpointEvent* unfinished = nullptr;
    const CheckpointEvent* unordered = nullptr;  // a save with no date to set against the fault's
    // An undated first fault (a traceback's error) happened by the next dated line of its file:
    // a save in another file completed before then was most likely written before the fault,
    // as a job that has failed completes no saves.
    // Failing that line, it happened before the first of its echoes with a date of their own
    // (the other ranks' collective timeouts).
    std::optional<LogEvent> fault_by = r.first_fault;
    if (fault_by && fault_by->time_inherited) {
      std::optional<double> by = fault_by->latest;
      for (const LogEvent& e : r.cascade)
        if (e.time && !e.time_inherited && !e.year_guessed && *e.time >= *fault_by->time &&
            e.file != fault_by->file)
          by = std::min(by.value_or(*e.time), *e.time);
      if (by) fault_by->time = by;
    }
    const CheckpointEvent* cut_short = cut_short_save(r);
    for (const CheckpointEvent& c : in_.checkpoints) {
      if (cut_short && part_of(c, *cut_short)) {
        if (!unfinished || unfinished->group != c.group) unfinished = &c;
        continue;
      }
      if (r.first_fault && c.file != r.first_fault->file && !c.time != !r.first_fault->time) {
        // No clock to compare them by; but an error of the incident later in the save's own file
        // (the cascade's CUDA error after the Xid in the kernel's log) came after the save, and
        // a job that has failed completes no saves.
        if (c.completed && error_after(c)) last = &c, unfinished = nullptr;
        else if (c.completed) unordered = &c;
        continue;
      }
      const bool before_fault =
          !r.first_fault ||
          clock_.before(c, c.file == r.first_fault->file ? *r.first_fault : *fault_by);
      if (!before_fault) {
        if (c.completed && r.first_fault && r.first_fault->role == "memory-error")
          r.checkpoints_after_fault.push_back(c);
        continue;
      }
      const bool settled = !c.completed && c.end_unlogged && c.own_time && fault_by &&
                           fault_by->time && *fault_by->time - *c.time >= kSaveSettled;
      if (const CheckpointEvent* part = c.completed ? missing_part(c) : nullptr)
        unfinished = part;
      else if (c.completed || settled)
        last = &c, unfinished = nullptr;
      else unfinished = &c;
    }
    if (!last && unordered) {
      r.last_checkpoint = *unordered;
      r.checkpoint_reason = "unknown: this save and the first fault are in different files and "
                            "only one of them is dated, so which came first is unknown";
      return;
    }
    // With no save of its own before the fault, the checkpoint the job resumed from is the one
    // to go back to: it was written before this run and read back without an error.
    const std::optional<CheckpointEvent>& resumed = in_.resumed_from;
    const auto read_before_fault = [&](const CheckpointEvent& c) {
      if (!r.first_fault) return true;
      const bool same_file = c.file == r.first_fault->file;
      if (!same_file && !c.time != !r.first_fault->time) return false;  // no order to tell
      return clock_.before(c, same_file ? *r.first_fault : *fault_by);
    };
    if (!last && !unordered && resumed && read_before_fault(*resumed)) {
      r.last_checkpoint = *resumed;
      r.safe_to_resume = true;
      r.checkpoint_reason = "the checkpoint this run resumed from, read back before the first "
                            "fault; the run completed no save of its own before it";
      if (unfinished)
        r.checkpoint_reason += "; the save begun at " + unfinished->file + ":" +
                               std::to_string(unfinished->line) + " never completed: do not use it";
      return;
    }
    if (!last) {
      r.checkpoint_reason = r.first_fault ? "no completed checkpoint save before the first fault"
                                          : "no completed checkpoint save in the log";
      if (unfinished)
        r.checkpoint_reason += "; the save begun at " + unfinished->file + ":" +
                               std::to_string(unfinished->line) + " never completed";
      return;
    }
    r.last_checkpoint = *last;
    for (const LogEvent& m : memory) {
      // An undated report of an error that a dated line of its host also reports (nvidia-smi
      // -q's "Remapping Failure Occurred: Yes" after the kernel's Xid 64) is that error: the
      // dated one is set against the save.
      const bool dated_twin =
          !m.time && std::any_of(memory.begin(), memory.end(), [&](const LogEvent& d) {
            return d.time && d.entry_id == m.entry_id && may_be_same_host(d.host, m.host);
          });
      if (dated_twin) continue;
      if (m.file != last->file && !m.time != !last->time) {  // different clocks: no order
        r.safe_to_resume.reset();
        r.checkpoint_reason = "unknown: the GPU memory error (" + m.entry_id + " at " + where(m) +
                              ") has no date to set against this save's (a kernel uptime, or a "
                              "status report); for a kernel log, give the host's boot time with "
                              "--boot-time (`uptime -s` on that host)";
        return;
      }
      if (clock_.before(m, *last)) {
        resume_before(m, *last, r);
        return;
      }
    }
    r.safe_to_resume = true;
    r.checkpoint_reason = r.first_fault ? "completed before the first fault, with no GPU memory "
                                          "error before it"
                                        : "no fault and no GPU memory error in the log";
    if (unfinished)
      r.checkpoint_reason += "; a later save (" + unfinished->file + ":" +
                             std::to_string(unfinished->line) + ") never completed: do not use it";
  }

  // Is there an error later in `c`'s own file than `c` (a fault or an echo of one, not set
  // aside as another job's or one the job went on past)?
  bool error_after(const CheckpointEvent& c) const {
    for (size_t i = 0; i < in_.events.size(); ++i) {
      const LogEvent& e = in_.events[i];
      if (e.file == c.file && e.line > c.line && set_aside_[i].empty() &&
          (is_fault(e.role) || e.role == "consequence"))
        return true;
    }
    return false;
  }

  // The last save before the first fault came after a GPU memory error `m`: the saves since `m`
  // are suspect, and the one to resume from is the last completed before it, if there is one.
  void resume_before(const LogEvent& m, const CheckpointEvent& last, TriageReport& r) {
    const CheckpointEvent* safe = nullptr;
    for (const CheckpointEvent& c : in_.checkpoints) {
      if (!c.completed || missing_part(c)) continue;
      const bool comparable = c.file == m.file || !c.time == !m.time;
      if (comparable && clock_.before(c, m)) safe = &c;
      else if (comparable && !clock_.before(last, c) && &c != &last)
        r.checkpoints_after_fault.push_back(c);  // (written after m, before `last`)
    }
    const std::string error = "a GPU memory error (" + m.entry_id + " at " + where(m) + ")";
    if (!safe) {
      r.safe_to_resume = false;
      r.checkpoint_reason = "written after " + error + ", and no save was completed before it";
      return;
    }
    r.checkpoints_after_fault.push_back(last);
    r.last_checkpoint = *safe;
    r.safe_to_resume = true;
    r.checkpoint_reason = "the last save completed before " + error +
                          "; the saves written after it are suspect";
  }

  void choose_first_action(TriageReport& r) {
    if (!r.first_fault) return;
    if (collective_mismatch_ && r.verdict == "code") {
      r.first_action = kCollectiveMismatchAction;
      return;
    }
    if (hung_until_limit_) {
      r.first_action = kHungUntilLimitAction;
      return;
    }
    std::string& reading = r.first_fault->reading;
    if (!reading.empty() && in_effect(reading, in_.settings))
      reading += " (already set in this log, so that alone did not prevent it)";
    // When another line made the verdict hardware (an Xid beside a rank's CUDA error), the
    // action is that hardware's: the node comes first, the application's error is its echo.
    // (a silent rank's action is that of the timeouts that named it)
    std::string id = r.first_fault->role == "hang" ? hang_entry_ : r.first_fault->entry_id;
    if (r.verdict == "hardware" && !hardware_like(facts(id)) && hardware_event_) {
      id = hardware_event_->entry_id;
      r.first_action_note = "the action for " + id + " at " + where(*hardware_event_) +
                            ", which makes this hardware";
    } else if (r.first_fault->role == "killed") {
      r.first_action = r.first_fault->category == "resource" ? kHostMemoryKillAction
                       : r.first_fault->finding == kSegfault ? kSegfaultAction
                                                              : kSigkillAction;
      return;
    } else if (r.first_fault->role == "exception") {
      r.first_action = r.first_fault->category == "configuration" ? kEnvironmentExceptionAction
                                                                   : kExceptionAction;
      return;
    }
    if (r.first_fault->role == "hang")
      r.first_action_note = "the suspect is rank " + std::to_string(*r.first_fault->rank) +
                            ", which reported no timeout: read its log first";
    // The figures in the message decided between the cases the entry's actions weigh (an
    // out-of-memory report: fragmentation, exhaustion, another process): their advice is the
    // action, unless the log already follows it.
    const std::string& action = r.first_fault->action;
    if (id == r.first_fault->entry_id && !action.empty() && !in_effect(action, in_.settings)) {
      r.first_action = action_from_figures(r.first_fault->finding, action);
      r.first_action_note = "`gpuerr show " + id + "` has the entry's other actions";
      return;
    }
    const std::vector<std::string>& actions = facts(id).first_actions;
    for (const std::string& a : actions) {
      if (!in_effect(a, in_.settings)) {
        r.first_action = a;
        return;
      }
      r.first_action_note = "skipped an action already in effect in the log: " + a.substr(0, 120);
    }
  }

  // Whether `a` and `b` may have happened on one host (see may_be_same_host and
  // lone_kernel_host_).
  bool may_be_on_one_host(const LogEvent& a, const LogEvent& b) const {
    if (may_be_same_host(a.host, b.host)) return true;
    if (lone_kernel_host_.empty()) return false;
    const std::string ha = short_host(a.host), hb = short_host(b.host);
    return (ha == lone_kernel_host_ && in_.placement.hosts.contains(hb)) ||
           (hb == lone_kernel_host_ && in_.placement.hosts.contains(ha));
  }

  // Near in time as printed, or reading a local time printed without its zone in the zone the
  // other lines gave (see local_zone_).
  bool near(const LogEvent& a, const LogEvent& b) const {
    if (near_in_time(a, b)) return true;
    if (!local_zone_ || !a.time || !b.time || !a.zone == !b.zone) return false;
    return a.zone ? near_in_time(a, b, -*local_zone_) : near_in_time(b, a, -*local_zone_);
  }

  const TriageFacts& in_;
  const Store& store_;
  Clock clock_;
  std::optional<double> local_zone_;  // the one UTC offset the zoned times of the input gave
  std::string lone_kernel_host_;  // the one host of the kernel's lines, not named by NCCL
  std::string hang_entry_;  // the entry of the timeouts that named a silent rank
  std::vector<std::string> set_aside_;  // set_aside() of each of in_.events, in their order
  std::optional<double> job_logs_begin_;  // see job_logs_begin()
  bool collective_mismatch_ = false;       // the hang is ranks in different collectives
  bool hung_until_limit_ = false;  // a time limit ended a job that had hung (quiet_before_limit)
  std::map<std::string, Facts> facts_;
  std::optional<LogEvent> hardware_event_;  // the line that made the verdict hardware
};

}  // namespace

TriageReport judge(const TriageFacts& facts, const Store& store) {
  return Judge(facts, store).run();
}

}  // namespace gpuerr::query
