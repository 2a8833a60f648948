// Triage's reader, shared by the files that define it: triage.cc (reading lines and their
// events), triage_places.cc (where each process runs, which rank a line is), triage_saves.cc
// (checkpoint saves and whether they ended) and triage_report.cc (the facts handed to the judge).
// Internal to gpuerr_query: its interface is Triage (triage.h).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "query/triage.h"
#include "query/clean.h"
#include "query/log_events.h"
#include "query/log_line.h"
#include "query/lookup.h"
#include "query/triage_facts.h"

namespace gpuerr::query {

// Bounds that keep memory flat whatever the log size.
constexpr size_t kMaxEvents = 20000;       // distinct (entry, rank/host) events kept
constexpr size_t kMaxCachedLines = 8192;   // cleaned lines whose lookup result is remembered
constexpr size_t kMaxCheckpoints = 1000;   // the most recent saves kept
constexpr size_t kMaxKills = 1000;         // the first kills kept
constexpr size_t kMaxProcesses = 65536;    // of the job, with their GPUs (JobPlacement)
constexpr size_t kMaxGpusPerProcess = 64;
constexpr size_t kMaxUnfinishedParts = 65536;  // saves of a path still waiting for their end
constexpr size_t kMaxSettings = 200;
constexpr size_t kMaxAwaitingWork = 64;     // causes of a file, each until its rank's work goes on
constexpr size_t kMaxTextBytes = 400;      // of an event's line, as shown in the report
constexpr size_t kMaxLookupBytes = 4000;   // of a line, looked up (half its start, half its end)
constexpr size_t kKillEndLines = 6;  // lines from "Reason: OOMKilled" to its "Finished:"
constexpr size_t kSummaryFieldLines = 12;  // lines after torchrun's "first observed failure"
// Saves begun this many seconds apart are one after the other, not the ranks of one save.
constexpr double kSaveInterval = 60;
constexpr size_t kMaxFilesTracked = 4096;  // files whose first date or failure summary is kept
// How far back the time of an undated line is looked for among the lines not read before it.
constexpr size_t kLookBackLines = 64;
constexpr size_t kLookBackBytes = 16 << 10;
// Look-backs in a row that find no date before a file's skipped lines are taken to have none
// (until a line read has a date again): an undated log would otherwise be read twice over.
constexpr size_t kLookBackMisses = 8;
// Lines passed over that are looked at one by one, after an event that waits for a dated line
// (its bound, or its rank's work going on): at most this many, then it stops waiting.
constexpr size_t kLinesWaitedFor = 1 << 16;
constexpr double kHalfYear = 183 * 86400.0;
// A file's first lines, read for a full date even when the filter passes over them.
constexpr size_t kDateSampleLines = 64;
// A traceback's error is at most this many lines below the frames it ends.
constexpr size_t kFramesAboveError = 40;
// The details an exception's message announces with a colon are at most this many lines below.
constexpr size_t kExceptionDetailLines = 12;

// What reading needs of an entry, read once from the index.
struct EntryFacts {
  std::string role, category;
};

// One block of torchrun's failure summary, under "Failures:" or "Root Cause (first observed
// failure):": "[0]:", then "host : node3", "rank : 5 (local_rank: 1)", "exitcode : -6 (pid: 7788)".
struct SummaryBlock {
  bool root = false;  // the root cause's block
  std::string host;
  std::optional<int> rank;
  std::optional<long> pid;
};

// Per input file: the recent past, for lines that carry no prefix of their own.
// One of torchrun's rendezvous results in a file: from its line on, local rank i of the worker
// group it started is rank `ranks[i]`.
struct WorkerRanks {
  size_t line = 0;
  std::string host;              // the line's own host prefix, if any
  std::optional<int> restart;    // its restart_count
  std::vector<int> ranks;
};

struct FileState {
  std::optional<double> last_time;
  bool year_guessed = false;      // last_time's date had no year (see Triage::report)
  std::optional<std::optional<int>> named_rank;  // the rank its name gives, once looked at
  std::optional<double> zone;     // the UTC offset last_time was printed with, if any
  std::string unread;             // the last lines not read, when lines come one by one
  // Events with an inherited time, or none (no dated line above them), awaiting the next dated
  // line: their bound (LogEvent::latest).
  std::vector<size_t> undated;
  bool no_dates_ahead = false;    // a wait for a dated line found none (kLinesWaitedFor)
  size_t lines_sampled = 0;       // of its first lines, read for a full date (see sample_date)
  // The local time zone its first lines named (a job script's `date`), for its other lines'
  // times printed without one (see Triage::report).
  std::optional<double> zone_hint;
  bool unzoned_dates = false;  // a dated line of it printed no UTC offset (a local time)
  std::optional<double> offset_printed;  // the last offset other than UTC's a line of it printed
  // Its host's boot time, when its first lines hold `uptime -s` and its answer ("$ uptime -s",
  // then "2024-07-10 07:21:05"): its kernel lines' uptimes are then wall times.
  std::optional<double> boot;
  bool after_uptime_command = false;
  // A container's kill `kubectl describe` reported ("Reason: OOMKilled"), undated, until its
  // "Finished:" line a few lines below dates it: the kill's index, and the lines left to wait.
  std::optional<size_t> kill_awaiting_end;
  size_t kill_lines_left = 0;
  size_t look_back_misses = 0;    // look-backs in a row that found no dated line
  size_t summary_lines_left = 0;  // inside torchrun's failure summary block
  SummaryBlock summary;           // the block of it being read
  bool summary_opened = false;    // the summary or one of its blocks began on the last line read
  bool last_error_next = false;   // the line read before ended in NCCL's "Last error:"
  size_t last_line = 0;           // the last line that is not blank, read or passed over
  std::string last_text;          // and its text (clipped)
  std::string host;               // the one host this file's prefixes name ("" if none)
  std::set<std::string> pdsh_hosts;  // hosts its first lines begin with, "node7: [...] ..."
  bool several_hosts = false;     // then no host is inferred for its other lines
  // A save begun here whose end its framework never logs (Lightning's "saving model to"): the
  // order of its line and its rank, until a line after it shows the program went on.
  std::optional<size_t> open_save;
  std::optional<int> open_save_rank;
  // Causes read in this file, until a dated line of their rank's work minutes after them shows
  // the process went on (see read_skipped): the event's index, and the time it happened by.
  std::vector<std::pair<size_t, std::optional<double>>> faults_awaiting_work;
  // The JAX processes its lines name as Orbax prints them ("[process=1][thread=MainThread]
  // Saving checkpoint ..."): one alone, the file is that process's log (a host's).
  std::set<int> jax_processes;
  std::optional<int> restart;              // the last restart_count of torchrun's results read
  std::vector<WorkerRanks> worker_ranks;   // and the ranks each result gave
  // The rank local rank `local` of host `host` had at `line`, by the last result above it; none
  // when two results of that restart differ (a file holding several nodes' agents, unprefixed).
  std::optional<int> rank_of_worker(size_t line, const std::string& host, int local) const;
  size_t lines_left_to_wait = 0;  // for those and `undated` (kLinesWaitedFor)
  // The last line seen, read or passed over, is a traceback's (in_traceback, or the source line
  // below a frame: a launcher's prefix such as "[rank6]:" takes its indent away), or a frame's
  // "File ..." line.
  bool last_in_traceback = false, last_frame = false;
  bool unread_after_frame = false;  // the last line read was a traceback's frame
  size_t save_frame_line = 0;       // the last frame read in code that saves (is_save_frame)
  // The last uncaught exception no entry names (its event's index), and, once a line joins its
  // traceback to the next one, the same index until that next exception line is read.
  std::optional<size_t> last_exception, chained_exception;
  // An exception whose message ends with a colon ("ResourceExhaustedError: Graph execution
  // error:"), its details on the lines below, and the line it was read on.
  std::optional<std::pair<size_t, size_t>> open_exception;
  std::optional<int> traceback_of_rank;  // inside another rank's traceback (RANK N), quoted
  // inside the traceback of a Ray task's worker process, which Ray's error names above it: its
  // address and pid
  std::optional<std::pair<std::string, long>> traceback_of_process;
};

// The civil UTC date and time of `seconds` since the epoch.
inline std::tm civil(double seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  return utc;
}

inline int year_of(double seconds) { return civil(seconds).tm_year + 1900; }

inline int current_year() { return year_of(static_cast<double>(std::time(nullptr))); }

// The same month, day and time of day in another year.
inline double in_year(double seconds, int year) {
  const std::tm utc = civil(seconds);
  return utc_seconds(year, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec) +
         (seconds - std::floor(seconds));
}

// The start of the line that holds position `at`.
inline size_t line_start(std::string_view text, size_t at) {
  const size_t newline = text.rfind('\n', at);
  return newline == std::string_view::npos ? 0 : newline + 1;
}

// Where and when a line says it was printed, its colours (loguru colours its time, dmesg --color
// its prefix) taken out first: an escape before the time or the host would hide them.
inline LineOrigin origin_of(std::string_view line, int year) {
  if (line.find('\x1b') == std::string_view::npos) return parse_line(line, year).origin;
  return parse_line(as_printed(line), year).origin;
}

// Whether `line` may hold a time of day: every time origin_of() reads has hours and minutes
// ("10:12"). A cheap test in front of it for the lines passed over.
inline bool may_hold_time(std::string_view line) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t colon = line.find(':'); colon != std::string_view::npos;
       colon = line.find(':', colon + 1))
    if (colon > 0 && colon + 2 < line.size() && digit(line[colon - 1]) &&
        digit(line[colon + 1]) && digit(line[colon + 2]))
      return true;
  return false;
}

// The origin of the last dated line of `lines`, looking back a bounded way: a traceback's lines
// are undated, and so is the error at its end, which happened at about the time of the progress
// line above it.
inline std::optional<LineOrigin> last_time_in(std::string_view lines, int year) {
  if (lines.size() > kLookBackBytes) lines.remove_prefix(lines.size() - kLookBackBytes);
  while (!lines.empty() && lines.back() == '\n') lines.remove_suffix(1);
  for (size_t n = 0; n < kLookBackLines && !lines.empty(); ++n) {
    const size_t start = line_start(lines, lines.size() - 1);
    if (LineOrigin o = origin_of(lines.substr(start), year); o.time) return o;
    lines.remove_suffix(lines.size() - start);
    if (!lines.empty()) lines.remove_suffix(1);  // its '\n'
  }
  return std::nullopt;
}

// The one host of `hosts` that `name` (a file's or a folder's) holds as a word of its own
// ("dmesg-T_gpu-a12.txt" holds "gpu-a12", not "gpu-a1"), or "" when none or several do.
inline std::string host_in_name(std::string_view name, const std::set<std::string>& hosts) {
  auto in_name = [&](const std::string& host) {
    for (size_t at = name.find(host); at != std::string_view::npos; at = name.find(host, at + 1)) {
      const size_t end = at + host.size();
      if ((at == 0 || !std::isalnum(static_cast<unsigned char>(name[at - 1]))) &&
          (end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end]))))
        return true;
    }
    return false;
  };
  // A name and an address in one file name are one machine's ("dmesg-T_10.0.1.22_trn-a22.txt",
  // where pdsh named it by address and NCCL by name): the name is kept, as the kernel prints it.
  auto address = [](const std::string& host) {
    return host.find_first_not_of("0123456789.") == std::string::npos;
  };
  std::string found, found_address;
  for (const std::string& host : hosts) {
    if (host.empty() || !in_name(host)) continue;
    std::string& slot = address(host) ? found_address : found;
    if (!slot.empty()) return "";
    slot = host;
  }
  return found.empty() ? found_address : found;
}

// The host of `hosts` that the file at `path` is named for, or failing that the folder it is in,
// or that folder's folder ("node-logs/node18/dmesg.txt"): the nearest name that holds one.
// Never a folder above the path as given.
inline std::string host_in_file_name(std::string_view path, const std::set<std::string>& hosts) {
  constexpr int kFoldersUp = 2;
  for (int level = 0; level <= kFoldersUp && !path.empty(); ++level) {
    const size_t slash = path.rfind('/');
    const std::string_view name = path.substr(slash + 1);  // (npos + 1 is 0)
    if (std::string host = host_in_name(name, hosts); !host.empty()) return host;
    if (slash == std::string_view::npos) break;
    path = path.substr(0, slash);
  }
  return "";
}

// Is `path` the folder `folder` or in it?
inline bool inside(std::string_view path, std::string_view folder) {
  return !folder.empty() && path.starts_with(folder) &&
         (path.size() == folder.size() || path[folder.size()] == '/');
}

inline std::string clipped(std::string_view text) {
  std::string s(text.substr(0, kMaxTextBytes));
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Where each GPU and local rank of a host is: nvidia-smi's listings give a GPU's index for its
// PCI address or a process on it, and the ranks' start-up lines the rank of a local rank. A local
// rank uses the GPU of its number (torchrun's convention, `cuda:LOCAL_RANK`).
struct GpuPlaces {
  std::map<std::pair<std::string, long>, int> index_of_bus;  // (host, bus id) -> GPU index
  std::map<std::pair<std::string, long>, int> index_of_pid;  // (host, pid) -> GPU index
  std::map<std::pair<std::string, int>, int> rank_of_local;  // (host, local rank) -> rank
  std::optional<int> rank_on_gpu(const std::string& host, std::optional<long> bus,
                                 std::optional<long> pid) const {
    std::optional<int> index;
    if (bus)
      if (const auto it = index_of_bus.find({host, *bus}); it != index_of_bus.end())
        index = it->second;
    if (!index && pid)
      if (const auto it = index_of_pid.find({host, *pid}); it != index_of_pid.end())
        index = it->second;
    if (!index) return std::nullopt;
    const auto r = rank_of_local.find({host, *index});
    return r == rank_of_local.end() ? std::nullopt : std::optional<int>(r->second);
  }
};

struct Triage::Impl {
  const Store& store;
  SavePatterns save_patterns;
  int year;
  bool year_given;
  std::optional<double> boot_time;
  // From kernel lines that carry both clocks: the boot time, and whether its date had no year.
  std::map<std::string, std::pair<double, bool>> boot_by_host;

  CueScanner cues;
  std::unordered_map<std::string, std::optional<Match>> line_cache;
  mutable std::map<std::string, EntryFacts> facts;
  LogEvent dropped;  // what add_event_of hands back past kMaxEvents
  std::map<std::string, size_t> event_index;  // identity key -> position in read.events
  std::map<std::string, FileState> files;
  std::map<int, std::string> host_of_rank;  // from lines naming both ("11: node8:1:2 [3] NCCL")
  std::map<int, std::pair<std::string, long>> process_of_rank;  // (short host, pid), from NCCL
  // A process's rank in the largest of its NCCL communicators, and that communicator's size:
  // "comm 0x... rank 9 nranks 16 ... busId 3b000" (for a log whose lines carry no rank).
  std::map<std::pair<std::string, long>, std::pair<int, int>> comm_rank_of_process;
  // nvidia-smi's listings of GPUs and the ranks' own start-up lines naming rank and local rank,
  // each with its file and the host its line named (see place_gpus)
  struct Listed {
    std::string file, host;
    GpuListing gpu;
  };
  struct Named {
    std::string file, host;
    RankNaming naming;
  };
  std::vector<Listed> gpu_listings;
  std::vector<Named> rank_namings;
  std::map<std::string, CheckpointEvent> unfinished_parts;  // path -> the start of its save
  std::set<std::string> groups_with_ended_parts;  // checkpoints whose parts' ends are logged
  size_t processes = 0;  // (host, pid) pairs in read_so_far.placement
  TriageFacts read_so_far;
  size_t order = 0;

  Impl(const Store& s, std::vector<std::string> patterns, int y, std::optional<double> boot);

  const EntryFacts& facts_of(const std::string& id) const;

  // The entry a line names, through lookup, remembered by the line's cleaned words. Of a very
  // long line (a logger that prints a batch's ids before the error) its start and its end are
  // read, where messages are.
  std::optional<Match> match_line(std::string_view message);

  // The line's wall-clock time; state.year_guessed says whether its year was guessed.
  std::optional<double> wall_time(const LineOrigin& o, FileState& state);

  void add_event(const std::string& file, size_t line, std::string_view text,
                 const LineOrigin& o, std::optional<double> time, const Match& m,
                 bool last_error = false);

  // An uncaught exception that no entry names: the program's own error (the catalogue is of GPU
  // failures), or its environment's when a module or file was missing.
  // Returns the index of its event (none when the events were full and it was dropped).
  std::optional<size_t> add_exception(const std::string& file, size_t line,
                                      std::string_view text, const LineOrigin& o,
                                      std::optional<double> time, const ExceptionLine& x);

  // The event of `entry_id` (or, for an exception, of `type`; for an entry, `type` sets apart
  // events of another kind) on this line's rank or host: a new one, or the one seen before
  // there, counted again. An event dropped past kMaxEvents is a
  // throwaway.
  LogEvent& add_event_of(const std::string& entry_id, const std::string& role,
                         const std::string& category, const std::string& file, size_t line,
                         std::string_view text, const LineOrigin& o, std::optional<double> time,
                         const std::string& type = "");

  // A rank's cause waits for its rank's later lines to show the process went on (read_skipped).
  void await_work(const LogEvent& e, size_t index, std::optional<double> time, bool inherited);

  void read(const std::string& file, size_t line, std::string_view text);

  // `tail` and `head` of several files print each one's lines under a line "==> name <==": the
  // lines after it are read as those of a file "<file>/<name>" (its own dates, host and rank, as
  // the file's name gives them), with their line numbers in the whole.
  std::map<std::string, std::string> section_of_file;  // file -> the name its last header gave
  void read_sections(const std::string& file, size_t line, std::string_view block);
  std::string in_section(const std::string& file) const;

  // A file's first lines may be the only ones with a full date (its progress lines, which the
  // filter passes over); the year they name is the one syslog and glog dates are given.
  // They also name ranks whose logs are in the input, though their lines hold no cue (a hung
  // rank's log of progress lines): the file's name, and its first lines' prefixes.
  void sample_date(const std::string& file, FileState& state, std::string_view line);

  void note_last_dated(const std::string& file, double time);

  void note_rank(int rank, const std::string& file, size_t line);

  // A line whose bytes are already counted.
  void read_counted(const std::string& file, size_t line, std::string_view text);

  // Only the lines the filter reacts to are looked at one by one; the others are counted.
  void read_block(const std::string& file, size_t line, std::string_view block);

  // `unread`: the lines since the last line read, which the filter passed over.
  void read_interesting(const std::string& file, size_t line, std::string_view text,
                        FileState& state, std::string_view unread = {});

  // Of a line the filter passed (read_interesting's parts, in order):
  // a structured logger's record, read as the lines its strings hold (true when it was one);
  bool read_json_record(const std::string& file, size_t line, std::string_view text,
                        FileState& state);
  // its time, its own or one inherited from a dated line above it, which also bounds the
  // undated events waiting for one;
  std::optional<double> date_line(const std::string& file, ParsedLine& p, FileState& state,
                                  std::string_view unread);
  // the rank and host its prefix names;
  void note_origin(const std::string& file, size_t line, const ParsedLine& p, FileState& state);
  // a checkpoint saved or resumed from;
  void read_save_line(const std::string& file, size_t line, std::string_view text,
                      std::optional<double> time, const ParsedLine& p, FileState& state);
  // a launcher's or PyTorch's line about ranks (watchdog progress, srun's exit, Ray's workers,
  // desync and collective mismatch reports);
  void read_launcher_line(const std::string& file, size_t line, const ParsedLine& p,
                          FileState& state);
  // an error an entry names, or an uncaught exception at a traceback's end.
  void read_error_line(const std::string& file, size_t line, std::string_view text,
                       const ParsedLine& p, std::optional<double> time, FileState& state,
                       bool last_error, bool killed);

  // The first error below a traceback's frame in code that saves failed that save.
  void note_during_save(FileState& state, size_t line);

  // pdsh's "node7: " before a line of any kind ("node7: Fatal Python error: Segmentation
  // fault"), once the file's first lines began with it or other lines named node7 as one of the
  // job's hosts: parse_line() takes that prefix only before the lines that show it is one (see
  // pdsh in log_line.cc).
  void read_known_host(ParsedLine& p, const FileState& state) const;

  // What `message`, the next line of its file, says of a traceback (see FileState).
  static void note_traceback_line(FileState& state, std::string_view message);

  static bool is_frame(std::string_view message);

  // NCCL's lines tell where the job's processes run, and on which GPUs (see JobPlacement); a
  // rank's NCCL line names the process that is that rank.
  void note_placement(const ParsedLine& p, std::optional<int> file_rank);

  // The GPU an event happened on: an Xid names it; a rank's line has its process's, when NCCL
  // named one GPU for that process.
  void place_on_gpu(LogEvent& e, const JobPlacement& job,
                    const std::map<std::pair<std::string, long>, int>& rank_of_process,
                    const GpuPlaces& gpus) const;

  // The GPUs nvidia-smi listed and the local ranks the ranks' lines named, on their hosts: the
  // host their line named, else their file's, else the one of the job's hosts the file's name or
  // folder holds.
  GpuPlaces place_gpus(const std::set<std::string>& hosts) const;
  // The one rank named in the start-up lines of the file whose name `file`'s name holds (a
  // pod's `kubectl describe`, saved as describe-pod-<pod>.txt beside the pod's <pod>.log).
  std::optional<int> rank_of_file_named_in(const std::string& file) const;
  void in_local_zones(TriageFacts& facts) const;
  void note_gpu_and_rank(const std::string& file, const ParsedLine& p);
  void note_boot(const std::string& file, size_t line, std::string_view text, const ParsedLine& p,
                 std::optional<double> time, const FileState& state);
  // `kubectl describe`'s "Reason: OOMKilled" is dated by the "Finished:" line below it.
  void date_container_kill(std::string_view message, bool kill, FileState& state);
  bool time_of_last_kill() const;  // the last kill read has a time of its own
  // An Xid names the process (pid=) and the GPU it hit; when NCCL named that process, or the
  // one process on that GPU, and a rank's line named the process, the Xid is that rank's; failing
  // that, the rank whose local rank is the index nvidia-smi gave that GPU (or the GPU of that
  // process). A dmesg without host names is taken for the job's host when the job has only one.
  static void name_rank_of_xid(LogEvent& e, const XidPlace& x, const JobPlacement& job,
                               const std::map<std::pair<std::string, long>, int>& rank_of,
                               const GpuPlaces& gpus);

  // A killed process prints nothing; the line that reports its end stands for it.
  void add_kill(const std::string& file, size_t line, std::string_view text, const LineOrigin& o,
                std::optional<double> time, const KillLine& k);

  void read_summary_field(const std::string& file, size_t line, std::string_view text,
                          const ParsedLine& p, FileState& state);
  void note_summary_process(const SummaryBlock& block);

  // srun's report of a task's failed exit; the first in a file is the first task to fail that
  // srun saw (a range, "tasks 0-3", is its teardown of the rest).
  void read_srun_exit(const std::string& file, size_t line, std::string_view message);

  // Lines the filter passed over, the last at `last_line` of `file`, looked at one by one while
  // an event waits for what a dated line tells (so that a block reads as its lines one by one).
  void read_skipped(const std::string& file, FileState& state, std::string_view lines,
                    size_t last_line);

  static void note_last_line(FileState& state, size_t line, std::string_view text);

  // A line the filter passed over. The first dated one bounds the time of the undated events
  // above it (a traceback's error, an NCCL WARN), as a dated line read would. A dated one of a
  // rank's work five minutes or more after a cause of that rank in the same file shows the
  // process went on past it (a caught out-of-memory, a skipped batch); a cause with an inherited
  // time is counted from its bound.
  void read_skipped_line(const std::string& file, FileState& state, std::string_view text,
                         size_t line);

  // A save whose end is never logged has completed when the lines after it, which the filter
  // passed over, show the program going on (a progress line of the same rank, not a traceback);
  // a save the job was killed in has no such line after it.
  void close_open_save(FileState& state, std::string_view unread);

  void record_save(const std::string& file, size_t line, std::string_view text,
                   std::optional<double> time, bool year_guessed, const SaveLine& save);

  // A checkpoint that many ranks save in parts, each logged ("Saving /ckpt/global_step9/
  // rank_5.pt..." then "zero checkpoint saved /ckpt/global_step9/rank_5.pt"): a part whose end
  // never came leaves that checkpoint unfinished, whatever the other ranks said. A save line
  // naming the path (or a file inside the folder) ends that part; so does any save line in the
  // same file a while after it, which shows the job went on.
  // Only a checkpoint some of whose parts did end that way is judged by its parts: a framework
  // that logs the start of a part but not its end (DeepSpeed's "Saving model checkpoint:
  // <file>" before 0.10) leaves every part of every save open.
  void track_part(const std::string& file, std::optional<double> time, const SaveLine& save);
};

}  // namespace gpuerr::query
