// Triage: reads a training job's logs line by line (any number of files, ranks and hosts mixed)
// and answers which rank failed first, whether it is the code, the configuration or the
// hardware, and whether the last checkpoint is safe. Bounded memory; no I/O (the caller feeds
// lines); knows nothing about terminals.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "query/store.h"

namespace gpuerr::query {

/// One recognised error, or the same error repeated on one rank or host (collapsed).
struct LogEvent {
  std::string entry_id;
  std::string role;      // the entry's: "cause", "consequence", "memory-error", "memory-notice",
                         // "warning"; "killed" for a kill (see read_kill)
  std::string category;  // the entry's, e.g. "application"
  double confidence = 0;
  std::optional<int> rank;
  std::optional<int> local_rank;
  std::string host;
  std::optional<long> pid;     // from NCCL, glog, syslog or Ray prefixes
  std::optional<double> time;  // seconds since the epoch, UTC
  bool year_guessed = false;   // the line's date had no year (syslog, glog): see Triage
  std::string file;            // where it was first seen
  size_t line = 0;             // 1-based
  std::string text;            // that line, at most a few hundred bytes
  std::string reading;         // what the line's figures say (an analyser's verdict), if any
  std::string finding;         // and that verdict's finding (Analysis::finding)
  std::string action;          // and what that finding calls for (Analysis::action)
  size_t count = 1;            // occurrences collapsed into this event
  size_t order = 0;            // position in the input, for logs without times
  size_t rank_line = 0;        // when the line names no rank: the line nearby that did, if any
  std::string rank_file;       // and that line's file, when it is not `file`
  // An undated line (a traceback's) has the time of a dated line above it: it happened then or
  // later, and no later than the next dated line read in its file (`latest`), if there was one.
  bool time_inherited = false;
  std::optional<double> latest;
  bool latest_year_guessed = false;  // `latest` came from a date without its year
  std::optional<long> gpu;  // the GPU's PCI bus id as NCCL prints it (0xb7000), when known
  // Why it was not taken for the first fault, when it was not: it is not this job's (another
  // host or GPU), or the job went on past it.
  std::string set_aside;
  // For a cause: a dated line of its rank's own work (no error in it) this many seconds after
  // it, at went_on_line of its file: the process went on past it.
  std::optional<double> went_on_after;
  size_t went_on_line = 0;
  std::optional<double> zone;  // the UTC offset its time was printed with; none: a local time
  // Its line came right after NCCL's "Last error:" in an exception: it is the cause that NCCL
  // reported as the generic result above it ("internal error", "unhandled system error").
  bool last_error = false;
  // For a first fault that every rank reported alike (the same entry, or the same uncaught
  // exception, within seconds, on nearly every rank of the input: a setting or an input they
  // all share): how many ranks did. Its rank is then left empty, as none failed first.
  size_t ranks_alike = 0;
  // For an uncaught exception no entry names: the entry that names the exception its traceback
  // goes on to ("During handling of the above exception ...", "The above exception was the
  // direct cause ..."), which says what happened: a DataLoader's ConnectionResetError, then
  // "DataLoader worker (pid N) is killed by signal". Empty otherwise.
  std::string chained_into;
  bool quoted = false;  // read in another rank's traceback that its file quotes (not its host's)
  // Its traceback passes through a save (a frame in "save_checkpoint", "_save", a state_dict
  // gathered to be saved): the checkpoint being written when it failed is incomplete.
  bool during_save = false;
};

/// A checkpoint save the log reports.
struct CheckpointEvent {
  std::string file;
  size_t line = 0;
  std::optional<double> time;
  bool year_guessed = false;
  std::string text;
  bool completed = true;  // false: a "saving ..." line whose "saved" line never came
  size_t order = 0;
  std::string group;  // the checkpoint its path is part of (a step's folder), if it names one
  bool end_unlogged = false;  // a save whose framework logs no end (Lightning's, see Triage)
  bool own_time = false;      // its line printed its time (not one inherited from a line above)
  std::optional<double> zone;  // the UTC offset that time was printed with; none: a local time
};

/// A place in the input: "file:line".
struct Evidence {
  std::string file;
  size_t line = 0;
  std::string text;
};

struct TriageReport {
  std::optional<LogEvent> first_fault;
  std::string verdict = "unknown";  // "code", "configuration", "hardware" or "unknown"
  std::string verdict_reason;       // one sentence
  std::vector<Evidence> verdict_evidence;
  std::vector<LogEvent> faults;   // independent faults, first fault first
  std::vector<LogEvent> cascade;  // what the first fault explains, collapsed
  size_t cascade_count = 0;       // lines in the cascade, teardown lines included
  std::optional<CheckpointEvent> last_checkpoint;     // the last save before the first fault
  std::optional<bool> safe_to_resume;                 // nullopt: no checkpoint seen
  std::string checkpoint_reason;
  std::vector<CheckpointEvent> checkpoints_after_fault;  // written after a memory error: unsafe
  std::optional<int> hang_suspect_rank;  // for collective timeouts: the rank that stopped issuing
  std::string hang_reason;
  std::optional<Evidence> launcher_first_failure;  // torchrun's "first observed failure": weak
  std::vector<std::string> settings;  // "NCCL_DEBUG=INFO", "NCCL version 2.19.3", ...
  std::string first_action;           // of the first fault, skipping what the log shows in effect
  std::string first_action_note;      // why an earlier first action was skipped, if one was
  size_t lines = 0;
  size_t bytes = 0;
};

/// Streams lines in, then reports. One Triage per job; not thread-safe.
///
///     Triage t(store);
///     t.add_line("rank3.log", 1, "RuntimeError: CUDA error: an illegal memory access ...");
///     TriageReport r = t.report();
class Triage {
 public:
  /// `checkpoint_patterns` are extra RE2 patterns for completed checkpoint saves. Throws
  /// gpuerr::Error naming a pattern that does not compile. `year` completes dates printed
  /// without one (0: the latest year any line of the input names, else this year);
  /// `boot_time` (seconds since the epoch) turns kernel uptimes into wall time.
  explicit Triage(const Store& store, std::vector<std::string> checkpoint_patterns = {},
                  int year = 0, std::optional<double> boot_time = std::nullopt);
  ~Triage();
  Triage(const Triage&) = delete;
  Triage& operator=(const Triage&) = delete;

  /// Reads one line (without its line break) of `file`; `line` counts from 1. Lines with binary
  /// junk or invalid UTF-8 are read as far as they make sense, never rejected.
  void add_line(const std::string& file, size_t line, std::string_view text);

  /// Reads many lines at once: `lines` holds whole lines separated by '\n' (the last one may
  /// lack it), the first being line `first_line` of `file`. Same result as add_line() on each,
  /// several times faster on ordinary logs.
  void add_lines(const std::string& file, size_t first_line, std::string_view lines);

  /// What the lines read so far say.
  TriageReport report() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuerr::query
