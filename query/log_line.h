// Log lines: what the prefixes of one line say about where it came from (rank, host, process,
// time) and the message after them. Knows torchrun, Slurm `srun -l`, `mpirun --tag-output`,
// `kubectl logs --prefix/--timestamps`, NCCL's `host:pid:tid [dev]`, dmesg, journalctl, syslog,
// Python logging and glog/c10 prefixes. Pure functions on text; no I/O.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpuerr::query {

/// Where a line came from, as far as its prefixes tell. Absent fields were not printed.
struct LineOrigin {
  std::optional<int> rank;        // global rank: "[rank3]:", srun "3: ", mpirun "[1,3]<stderr>:"
  std::optional<int> local_rank;  // torchrun "[default3]:", NCCL "[3] NCCL"
  std::string host;               // syslog/journal host, NCCL "host:pid:tid", kubectl pod
  std::optional<long> pid;        // NCCL "host:pid:tid", glog "E0502 12:00:00.1 1234 f.cc:1]"
  std::optional<double> time;     // wall time, seconds since 1970-01-01 UTC
  std::optional<double> uptime;   // kernel "[  123.456789]": seconds since boot
  bool kernel = false;            // a kernel (dmesg, journal -k, syslog kernel:) line
  bool year_guessed = false;      // `time` came from a date printed without its year
  // The offset from UTC, in seconds, that `time` was printed with ("Z", "-0500"); none for a
  // local time printed without its zone (Python's logging, dmesg -T, syslog), read as UTC.
  std::optional<double> zone;
};

/// One line with its origin and the message that follows the prefixes.
struct ParsedLine {
  LineOrigin origin;
  std::string_view message;  // a view into the parsed line
};

/// Reads the prefixes of `line`. `year` completes dates printed without one (syslog, glog,
/// c10). Never throws; a line with no known prefix comes back with an empty origin and the whole
/// line as its message.
ParsedLine parse_line(std::string_view line, int year);

/// The rank a per-rank log file's name gives ("rank_3.log", "worker-12.out", "log.rank7.txt",
/// Slurm's `%j-%t` "train-7712-6.out"), or nullopt (also for a pod's, "llm-ft-worker-0.txt").
std::optional<int> rank_from_file_name(std::string_view path);

/// A file torchrun --log-dir wrote, "<dir>/<run id>/attempt_0/3/stderr.log": local rank 3's,
/// in the log folder <dir> (whose own folders may name the host).
struct LogDirFile {
  int local_rank = 0;
  std::string dir;
};
std::optional<LogDirFile> in_log_dir(std::string_view path);

/// Calls `each` for every line of `lines` (lines separated by '\n', the last one may lack it),
/// without its line break or a trailing '\r'.
void for_each_line(std::string_view lines, const std::function<void(std::string_view)>& each);

/// The same, until `each` returns false.
void for_each_line_until(std::string_view lines,
                         const std::function<bool(std::string_view)>& each);

/// How many '\n' `text` holds (memchr is vectorised; std::count at -O2 is not).
size_t newlines(std::string_view text);

/// The UTC offset, in seconds, that the `date` command's own output names ("Sat Jul 20 09:29:34
/// KST 2024", "Tue Mar  4 10:00:00 UTC 2025", "... +0900 2024"), as a job script prints it at its
/// start; nothing for a zone whose abbreviation names several offsets (CST, IST).
std::optional<double> date_command_zone(std::string_view line);

/// The time `kubectl describe` gives a container's end, "Finished:     Thu, 02 May 2024 17:55:44
/// +0000" (RFC 1123, with its offset), in seconds since the epoch, UTC.
std::optional<double> container_finished(std::string_view line);

/// `uptime -s` typed at a prompt ("$ uptime -s"), and its answer, the boot time as a local time
/// ("2024-07-10 07:21:05"), in seconds since the epoch read as UTC.
bool says_uptime_since(std::string_view line);
std::optional<double> uptime_since(std::string_view line);

/// The file a line "==> rank3.log <==" names (`tail` and `head` of several files print one
/// before each file's lines), or nothing.
std::optional<std::string> section_header(std::string_view line);

/// Seconds since the epoch for a civil UTC date and time.
double utc_seconds(int year, int month, int day, int hour, int minute, double second);

}  // namespace gpuerr::query
