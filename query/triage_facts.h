// What triage has read from a log, before judging it: the recognised events, checkpoint saves,
// settings, watchdog progress per rank and launcher lines. Shared by the reader (triage_impl.h) and
// the judge (judge.h: verdict.cc, judge_ranks.cc, judge_checkpoint.cc) only.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "query/store.h"
#include "query/triage.h"

namespace gpuerr::query {

/// Seconds from a fault to a later save, or a later line of its rank's work, that show the job
/// went on past it (see Judge::survived, verdict.cc).
constexpr double kSurvivedAfter = 300;

/// One rank's last word on its collectives.
struct RankProgress {
  std::optional<long> timed_out_seq;  // the SeqNum its watchdog gave up on
  std::string op_type;                // that collective's OpType ("ALLREDUCE"), if given
  std::optional<long> last_enqueued;  // the last collective it issued
  std::string file;
  size_t line = 0;
};

/// A host name up to its first dot ("node7.cluster.local" -> "node7"), so a kernel log's short
/// name and NCCL's full one compare; an IP address whole.
inline std::string short_host(std::string_view host) {
  if (host.find_first_not_of("0123456789.") == std::string_view::npos) return std::string(host);
  return std::string(host.substr(0, host.find('.')));
}

/// Where the job ran, as NCCL's INFO lines tell it ("node7:1234:1290 [3] NCCL INFO ... busId
/// b7000", "... nNodes 2 localRanks 8 ..."). Host names are cut at their first dot.
struct JobPlacement {
  std::map<std::string, std::map<long, std::set<long>>> gpus;  // host -> pid -> GPU bus ids
  std::set<std::string> hosts;             // hosts of the job's ranks and processes
  std::set<std::string> kernel_hosts;      // hosts the kernel's lines name
  std::map<std::string, int> local_ranks;  // host -> processes NCCL counted on it (the most)
  int nodes = 0;                           // hosts NCCL counted (the most of any communicator)
  int ranks = 0;  // ranks NCCL counted in its largest communicator (the job's world, "nranks 4")
  bool overflowed = false;  // more than triage keeps: then nothing is judged outside the job

  /// The job's name for the host a line names, "" when unknown: a line with no host (a
  /// dmesg's) is taken to be of the job's host when it has only one.
  std::string host_of(std::string_view line_host) const {
    if (overflowed || (line_host.empty() && hosts.size() != 1)) return "";
    return line_host.empty() ? *hosts.begin() : short_host(line_host);
  }
};

struct TriageFacts {
  std::vector<LogEvent> events;  // in order of first appearance
  std::vector<LogEvent> kills;   // processes killed by a signal (read_kill), role "killed"
  std::deque<CheckpointEvent> checkpoints;
  // The last checkpoint the job said it resumed from (read_resume), a save made before this run.
  std::optional<CheckpointEvent> resumed_from;
  std::vector<CheckpointEvent> unfinished_parts;  // saves of a path that never completed
  std::set<std::string> settings;
  std::map<int, std::map<int, RankProgress>> watchdog;  // process group -> rank -> progress
  // PyTorch's collective mismatch reports: reporting rank -> the rank it named as differing.
  std::map<int, int> mismatch_named;
  // The ranks PyTorch's desync reports named as the cause of a timeout, with how many lines did.
  std::map<int, size_t> desync_named;
  // Ranks some line or file name of the input names, each with the first line that did (its
  // file's first line, for a file named for the rank).
  std::map<int, Evidence> ranks_present;
  // The last line of each file named for a rank (rank_5.log): where that rank's log stops.
  std::map<int, Evidence> last_line_of_rank;
  std::optional<Evidence> launcher_summary;
  // Per file, the rank torchrun's failure summary in it names as its root cause ("rank : 7
  // (local_rank: 3)"): that node's agent saw that process fail first. Or the first task srun
  // reports to have exited with an error ("srun: error: node21: task 10: Exited with exit code
  // 1"), with its host.
  struct LauncherRoot {
    int rank = 0;
    std::optional<int> local_rank;
    size_t line = 0;
    std::string host;
  };
  std::map<std::string, LauncherRoot> launcher_root_by_file;
  size_t teardown_lines = 0;
  size_t lines = 0, bytes = 0;
  std::optional<double> latest_dated;  // the latest time of a full date (with its year)
  // Each file's first full date among its first lines that are not a kernel's (see
  // Judge::job_logs_begin, verdict.cc: a node's kernel log or syslog goes back to its boot).
  std::map<std::string, double> first_dated_of_file;
  // And each file's last full date, of the lines read and of its last lines (not a kernel's).
  std::map<std::string, double> last_dated_of_file;
  // Each host's boots the kernel logged ("kernel: Linux version ..."), in order: a GPU's fault
  // logged before a boot of its node was reset by it.
  struct Boot {
    Evidence where;
    double time = 0;
    bool year_guessed = false;
    std::optional<double> zone;  // the UTC offset its time was printed with
  };
  std::map<std::string, std::vector<Boot>> boots;
  JobPlacement placement;
};

/// The report: first fault, cascade, verdict, checkpoint safety, first action.
TriageReport judge(const TriageFacts& facts, const Store& store);

}  // namespace gpuerr::query
