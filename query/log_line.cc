#include "query/log_line.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>

#include <re2/re2.h>

#include "indexer/signature.h"

namespace gpuerr::query {
namespace {

constexpr int kMaxPrefixes = 10;  // prefixes stack ("host | (Worker pid=1) [rank3]:[E...]")

int month_number(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kMonths{
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (size_t i = 0; i < kMonths.size(); ++i)
    if (kMonths[i] == name) return static_cast<int>(i) + 1;
  return 1;
}

int to_int(const std::string& s) { return std::atoi(s.c_str()); }

double to_seconds(std::string s) {
  for (char& c : s)
    if (c == ',') c = '.';  // Python logging writes "12:00:00,123"
  return std::strtod(s.c_str(), nullptr);
}

// "+02:00", "-0500" or "Z" as seconds east of UTC.
double zone_offset(const std::string& zone) {
  if (zone.empty() || zone == "Z") return 0;
  const int sign = zone[0] == '-' ? -1 : 1;
  const std::string digits = zone.substr(1);
  const int hours = to_int(digits.substr(0, 2));
  const int minutes = to_int(digits.substr(digits.size() >= 4 ? digits.size() - 2 : 2));
  return sign * (hours * 3600.0 + minutes * 60.0);
}

// Each reader consumes one prefix at the start of `in` and records what it says; false when
// its prefix is not there. Patterns are anchored by RE2::Consume.
using Reader = bool (*)(re2::StringPiece& in, LineOrigin& o, int year);

bool iso_time(re2::StringPiece& in, LineOrigin& o, int) {
  // 2024-05-01T12:00:00.123Z, [2024-05-01 12:00:00,123], 2024-05-01 12:00:00 - ..., Hugging
  // Face's "2024-05-01 12:00:00,123 >> ", Hydra's "[2024-05-01 12:00:00,123][module][INFO]",
  // and a time alone (a JSON log record's "time" field)
  static const RE2 re(
      R"(\[?(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d(?:[.,]\d+)?)(Z|[+-]\d\d:?\d\d)?(\]?)(\s*(?:[-|:]|>>)\s+|\s+|$)?)");
  std::string y, mo, d, h, mi, s, zone, bracket, end;
  re2::StringPiece rest = in;
  if (!RE2::Consume(&rest, re, &y, &mo, &d, &h, &mi, &s, &zone, &bracket, &end)) return false;
  // (a bracketed time may be followed by the next bracket at once)
  if (end.empty() && !rest.empty() && !(bracket == "]" && rest[0] == '[')) return false;
  in = rest;
  o.time = utc_seconds(to_int(y), to_int(mo), to_int(d), to_int(h), to_int(mi), to_seconds(s)) -
           zone_offset(zone);
  if (!zone.empty()) o.zone = zone_offset(zone);
  return true;
}

// A logger's bracketed tag before a date: Hugging Face's "[INFO|trainer.py:3042] ", torchtitan's
// "[titan] ".
bool logger_tag(re2::StringPiece& in, LineOrigin&, int) {
  static const RE2 tag(R"(\[[\w.|:/-]{1,80}\]\s+)");
  static const RE2 date(R"(^\d{4}-\d\d-\d\d[T ]\d\d:)");
  re2::StringPiece rest = in;
  if (!RE2::Consume(&rest, tag) || !RE2::PartialMatch(rest.substr(0, 16), date)) return false;
  in = rest;
  return true;
}

// NeMo's logger: "[NeMo I 2026-07-22 03:34:06 model_checkpoint:522] " (a local time)
bool nemo(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(
      R"(\[NeMo [A-Z] (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) [\w.-]+:\d+\]\s*)");
  std::string y, mo, d, h, mi, s;
  if (!RE2::Consume(&in, re, &y, &mo, &d, &h, &mi, &s)) return false;
  o.time = utc_seconds(to_int(y), to_int(mo), to_int(d), to_int(h), to_int(mi), to_seconds(s));
  return true;
}

bool us_date_time(re2::StringPiece& in, LineOrigin& o, int) {
  // Hugging Face's examples log with "%m/%d/%Y %H:%M:%S": "06/01/2024 09:12:11 - INFO - "
  static const RE2 re(
      R"((\d\d)/(\d\d)/(\d{4}) (\d\d):(\d\d):(\d\d(?:[.,]\d+)?)(?:\s*[-|:]\s+|\s+))");
  std::string mo, d, y, h, mi, s;
  if (!RE2::Consume(&in, re, &mo, &d, &y, &h, &mi, &s)) return false;
  o.time = utc_seconds(to_int(y), to_int(mo), to_int(d), to_int(h), to_int(mi), to_seconds(s));
  return true;
}

bool pdsh(re2::StringPiece& in, LineOrigin& o, int) {
  // pdsh and clush: "node8: " before what that host printed, here a kernel line ("node8: [Tue Mar
  // 19 15:31:02 2024] NVRM: ...", "node8: [ 8812.4] ..."), an NCCL line ("node8: node8:41:41
  // [0] NCCL INFO ..."), or a Python traceback's lines ("node8: Traceback (most recent call
  // last):", "node8:   File ...", "node8: ZeroDivisionError: ..."). A host name has a digit, and
  // only those may follow, so "RuntimeError: " or "step3: loss 2.1" is never one. An IPv4
  // address (DeepSpeed's launcher runs pdsh with the hosts' addresses) may be followed by
  // anything.
  static const RE2 re(
      R"(([a-z][\w.-]*\d[\w.-]*): (?:\[|\d{4}-|[A-Z][a-z]{2} |[\w.-]+:\d+:\d+ \[|)"
      R"(Traceback \(|\s|(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit)\b))");
  static const RE2 address(R"((\d{1,3}(?:\.\d{1,3}){3}): )");
  re2::StringPiece rest = in;
  std::string host;
  if (!o.host.empty() ||
      (!RE2::Consume(&rest, re, &host) && !RE2::Consume(&rest, address, &host)))
    return false;
  in.remove_prefix(host.size() + 2);
  o.host = host;
  return true;
}

bool dmesg_level(re2::StringPiece& in, LineOrigin& o, int) {
  // dmesg -x (--decode): "kern  :warn  : ", before the time or uptime
  static const RE2 re(
      R"((?:kern|user|daemon|syslog)\s*:\s*)"
      R"((?:emerg|alert|crit|err|warn|notice|info|debug)\s*:\s*)");
  if (!RE2::Consume(&in, re)) return false;
  o.kernel = true;
  return true;
}

bool dmesg_wall_time(re2::StringPiece& in, LineOrigin& o, int) {
  // dmesg -T: "[Tue Mar  5 10:12:01 2024] "
  static const RE2 re(R"(\[\w{3} (\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (\d{4})\]\s*)");
  std::string mo, d, h, mi, s, y;
  if (!RE2::Consume(&in, re, &mo, &d, &h, &mi, &s, &y)) return false;
  o.time = utc_seconds(to_int(y), month_number(mo), to_int(d), to_int(h), to_int(mi), to_int(s));
  o.kernel = true;
  return true;
}

bool uptime(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"(\[\s*(\d+\.\d+)\]\s*)");
  std::string seconds;
  if (!RE2::Consume(&in, re, &seconds)) return false;
  o.uptime = to_seconds(seconds);
  o.kernel = true;
  return true;
}

bool syslog(re2::StringPiece& in, LineOrigin& o, int year) {
  // "Mar  5 10:12:01 node7 kernel: " or "Mar 05 10:12:01 node7 python[123]: "
  static const RE2 re(
      R"((Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\d+) (\d\d):(\d\d):(\d\d(?:\.\d+)?) ([\w.-]+) ([\w./@-]+?)(?:\[(\d+)\])?: )");
  std::string mo, d, h, mi, s, host, program, pid;
  if (!RE2::Consume(&in, re, &mo, &d, &h, &mi, &s, &host, &program, &pid)) return false;
  o.time = utc_seconds(year, month_number(mo), to_int(d), to_int(h), to_int(mi), to_seconds(s));
  o.year_guessed = true;
  o.host = host;
  o.kernel = program == "kernel";
  if (!pid.empty()) o.pid = std::atol(pid.c_str());
  return true;
}

bool journal_host(re2::StringPiece& in, LineOrigin& o, int) {
  // After an ISO time, journalctl -o short-iso prints "node7 kernel: " or "node7 python[12]: ".
  if (!o.time) return false;
  static const RE2 re(R"(([\w.-]+) ([\w./@-]+?)(?:\[(\d+)\])?: )");
  std::string host, program, pid;
  re2::StringPiece probe = in;
  if (!RE2::Consume(&probe, re, &host, &program, &pid)) return false;
  if (program != "kernel" && pid.empty()) return false;  // "ERROR root: ..." is not a host
  in = probe;
  o.host = host;
  o.kernel = program == "kernel";
  if (!pid.empty()) o.pid = std::atol(pid.c_str());
  return true;
}

bool torchrun(re2::StringPiece& in, LineOrigin& o, int) {
  // "[rank3]:" (PyTorch), "[default3]:" (torchrun --tee: role and local rank), "[3]:" (a
  // log_line_prefix_template of "[${rank}]:")
  static const RE2 re(R"(\[(rank|[A-Za-z_]*)(\d+)\]:\s*)");
  std::string role, number;
  if (!RE2::Consume(&in, re, &role, &number)) return false;
  if (role.empty() || role == "rank") {
    o.rank = to_int(number);
  } else {
    o.local_rank = to_int(number);
    o.rank.reset();  // "1: [default5]:": srun's task 1 ran torchrun on a node, it is no rank
  }
  return true;
}

bool lightning(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"(\[rank: (\d{1,6})\]\s+)");  // PyTorch Lightning's rank_prefixed_message
  std::string rank;
  if (!RE2::Consume(&in, re, &rank)) return false;
  o.rank = to_int(rank);
  return true;
}

bool srun(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"( *(\d{1,5}): )");  // srun -l: "12: message"
  std::string task;
  if (o.rank || !RE2::Consume(&in, re, &task)) return false;
  o.rank = to_int(task);
  return true;
}

bool mpirun(re2::StringPiece& in, LineOrigin& o, int) {
  // mpirun --tag-output's "[1,3]<stderr>:" (job, rank), horovodrun's with Gloo "[3]<stderr>:"
  static const RE2 re(R"(\[(?:\d+,)?(\d+)\]<std(?:out|err|diag)>:\s*)");
  std::string rank;
  if (!RE2::Consume(&in, re, &rank)) return false;
  o.rank = to_int(rank);
  return true;
}

bool kubectl(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"(\[pod/([^/\]\s]+)/[^\]\s]*\]\s+)");  // kubectl logs --prefix
  std::string pod;
  if (!RE2::Consume(&in, re, &pod)) return false;
  o.host = pod;
  return true;
}

bool compose(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"(([\w.-]+)\s+\| )");  // docker compose: "trainer-1  | "
  // A logger's level column ("12:20:00,204 | ERROR | ...", loguru's "| SUCCESS  |") names no
  // service, nor does any column after the line's time: compose puts the service first.
  static const RE2 level(
      R"((?i)error|err|warning|warn|info|debug|critical|fatal|trace|notice|success)");
  re2::StringPiece rest = in;
  std::string service;
  if (!o.host.empty() || o.time || !RE2::Consume(&rest, re, &service) ||
      RE2::FullMatch(service, level))
    return false;
  in = rest;
  o.host = service;
  return true;
}

bool ray(re2::StringPiece& in, LineOrigin& o, int) {
  // "(Worker pid=12, ip=10.0.0.2) ", and Ray's own daemon on a node, "(raylet, ip=10.0.0.2) "
  static const RE2 re(R"(\((?:(?:\w+ )?pid=(\d+)(?:, ip=([\d.]+))?|raylet, ip=([\d.]+))\)\s+)");
  std::string pid, ip, raylet;
  if (!RE2::Consume(&in, re, &pid, &ip, &raylet)) return false;
  if (!pid.empty()) o.pid = std::atol(pid.c_str());
  if (!ip.empty()) o.host = ip;
  if (!raylet.empty()) o.host = raylet;
  return true;
}

bool nccl(re2::StringPiece& in, LineOrigin& o, int) {
  static const RE2 re(R"(([\w.-]+):(\d+):(\d+) \[(\d+)\] )");  // "node7:1234:1290 [3] NCCL INFO"
  std::string host, pid, tid, device;
  if (!RE2::Consume(&in, re, &host, &pid, &tid, &device)) return false;
  o.host = host;
  o.pid = std::atol(pid.c_str());
  if (!o.local_rank) o.local_rank = to_int(device);
  return true;
}

bool glog(re2::StringPiece& in, LineOrigin& o, int year) {
  // glog "E0502 12:00:00.123456  1234 file.cc:12] " and c10 "[E502 12:00:00.123 file.cpp:12] "
  static const RE2 re(
      R"(\[?[IWEF](\d{1,2})(\d\d) (\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:\s+(\d+))? [\w./-]+:\d+\]\s*)");
  std::string mo, d, h, mi, s, pid;
  if (!RE2::Consume(&in, re, &mo, &d, &h, &mi, &s, &pid)) return false;
  o.time = utc_seconds(year, to_int(mo), to_int(d), to_int(h), to_int(mi), to_seconds(s));
  o.year_guessed = true;
  if (!pid.empty()) o.pid = std::atol(pid.c_str());
  return true;
}

bool spaces(re2::StringPiece& in, LineOrigin&, int) {
  size_t n = 0;
  while (n < in.size() && (in[n] == ' ' || in[n] == '\t')) ++n;
  in.remove_prefix(n);
  return n > 0;
}

constexpr std::array<Reader, 20> kReaders{
    spaces,  iso_time,  us_date_time, journal_host, dmesg_level, dmesg_wall_time, uptime,
    syslog,  torchrun,  lightning,    mpirun,       kubectl,     ray,             nccl,
    glog,    srun,      compose,      pdsh,         logger_tag,  nemo};

// c10d names the rank inside the message: "[PG 0 Rank 3]", "[Rank 3]". It is the rank within
// that process group, the job's rank only in the default group (PG 0). A training script's own
// log format names it near the start: Lightning's "[rank: 3]", "INFO [rank3] step 4",
// "(rank=3)", "[RANK 3/8]", or, first on the line, "rank 3: ", "Rank 3 | " and "rank=3 ".
void rank_in_message(std::string_view message, LineOrigin& o) {
  if (o.rank) return;
  static const RE2 c10d(R"(\[(?:PG (?:ID )?(\d+)[^\]]*?)?Rank (\d+)\])");
  static const RE2 bracketed(R"((?i)[\[(]\s*rank\s*[:=#]?\s*(\d{1,6})(?:\s*/\s*\d+)?\s*[\])])");
  static const RE2 leading(
      R"((?i)^(?:[-|]\s*)?rank\s*(?:[:=#]?\s*(\d{1,6})(?:\s*/\s*\d+)?\s*[:|-]|=(\d{1,6}))\s)");
  constexpr size_t kLabelWithin = 64;  // a log format's columns, not a message about a peer
  std::string group, rank, key_value;
  if (RE2::PartialMatch(message, c10d, &group, &rank)) {
    if (group.empty() || group == "0") o.rank = to_int(rank);
    return;
  }
  const std::string head = ascii_lower(message.substr(0, kLabelWithin));
  if (head.find("rank") == std::string::npos) return;  // most lines: no pattern to try
  if (RE2::PartialMatch(head, bracketed, &rank)) o.rank = to_int(rank);
  else if (RE2::PartialMatch(head, leading, &rank, &key_value))
    o.rank = to_int(rank.empty() ? key_value : rank);
}

}  // namespace

void for_each_line(std::string_view lines, const std::function<void(std::string_view)>& each) {
  for_each_line_until(lines, [&](std::string_view line) {
    each(line);
    return true;
  });
}

void for_each_line_until(std::string_view lines,
                         const std::function<bool(std::string_view)>& each) {
  size_t start = 0;
  while (start <= lines.size()) {
    size_t end = lines.find('\n', start);
    if (end == std::string_view::npos) end = lines.size();
    std::string_view line = lines.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!each(line)) return;
    start = end + 1;
  }
}

std::optional<double> date_command_zone(std::string_view line) {
  if (line.find(':') == std::string_view::npos) return std::nullopt;
  // (the line itself, or its end after "at" or "on": not a date inside another message, such as
  // the build date the NVIDIA driver's "loading ... Kernel Module" line ends with)
  static const RE2 date(
      R"((?:^\s*|\b(?:at|on|[Dd]ate:?) )(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )"
      R"((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)  ?\d{1,2} \d{1,2}:\d\d:\d\d )"
      R"(([A-Z]{3,5}|[+-]\d{4}) (?:19|20)\d\d\s*$)");
  // (and `date --iso-8601=seconds`'s, a line of its own: "2025-07-06T10:24:42+09:00")
  static const RE2 iso(R"(^\s*\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?([+-]\d\d):?(\d\d)\s*$)");
  std::string zone, iso_hours, iso_minutes;
  if (RE2::FullMatch(line, iso, &iso_hours, &iso_minutes))
    zone = iso_hours + iso_minutes;
  else if (!RE2::PartialMatch(line, date, &zone))
    return std::nullopt;
  if (zone[0] == '+' || zone[0] == '-') {
    const double hours = std::stoi(zone.substr(1, 2)), minutes = std::stoi(zone.substr(3, 2));
    return (zone[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  }
  // (the abbreviations that name one offset; CST and IST name several)
  static const std::map<std::string, double, std::less<>> hours = {
      {"UTC", 0},  {"GMT", 0},   {"WET", 0},   {"WEST", 1},  {"CET", 1},  {"CEST", 2},
      {"EET", 2},  {"EEST", 3},  {"MSK", 3},   {"GST", 4},   {"PKT", 5},  {"WIB", 7},
      {"ICT", 7},  {"HKT", 8},   {"SGT", 8},   {"AWST", 8},  {"KST", 9},  {"JST", 9},
      {"AEST", 10}, {"AEDT", 11}, {"NZST", 12}, {"NZDT", 13}, {"EST", -5}, {"EDT", -4},
      {"CDT", -5}, {"MST", -7},  {"MDT", -6},  {"PST", -8},  {"PDT", -7}, {"AKST", -9},
      {"AKDT", -8}, {"HST", -10}};
  const auto it = hours.find(zone);
  if (it == hours.end()) return std::nullopt;
  return it->second * 3600;
}

std::optional<double> container_finished(std::string_view line) {
  if (line.find("Finished:") == std::string_view::npos) return std::nullopt;
  static const RE2 finished(
      R"(^\s*Finished:\s+(?:\w{3}, )?(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) )"
      R"((\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\s*$)");
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, zone_hours = 0, zone_minutes = 0;
  std::string month, sign;
  if (!RE2::FullMatch(line, finished, &day, &month, &year, &hour, &minute, &second, &sign,
                      &zone_hours, &zone_minutes))
    return std::nullopt;
  static const std::string months = "JanFebMarAprMayJunJulAugSepOctNovDec";
  const int m = static_cast<int>(months.find(month)) / 3 + 1;
  const double offset = (sign == "-" ? -1 : 1) * (zone_hours * 3600.0 + zone_minutes * 60.0);
  return utc_seconds(year, m, day, hour, minute, second) - offset;
}

bool says_uptime_since(std::string_view line) {
  static const RE2 command(R"((?:^|[$#>] )uptime (?:-s|--since)\s*$)");
  return line.find("uptime") != std::string_view::npos && RE2::PartialMatch(line, command);
}

std::optional<double> uptime_since(std::string_view line) {
  static const RE2 since(R"(^\s*(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\s*$)");
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!RE2::FullMatch(line, since, &year, &month, &day, &hour, &minute, &second))
    return std::nullopt;
  return utc_seconds(year, month, day, hour, minute, second);
}

std::optional<std::string> section_header(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (!line.starts_with("==> ") || !line.ends_with(" <==") || line.size() <= 8) return std::nullopt;
  const std::string_view name = line.substr(4, line.size() - 8);
  if (name.find('\n') != std::string_view::npos) return std::nullopt;
  return std::string(name);
}

size_t newlines(std::string_view text) {
  size_t n = 0;
  for (const char* p = text.data(), *end = p + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))); ++p)
    ++n;
  return n;
}

double utc_seconds(int year, int month, int day, int hour, int minute, double second) {
  // Days from civil (Howard Hinnant's algorithm), so no time zone or locale is involved.
  year -= month <= 2;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const int yoe = year - era * 400;
  const int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long days = static_cast<long>(era) * 146097 + doe - 719468;
  return static_cast<double>(days) * 86400 + hour * 3600 + minute * 60 + second;
}

ParsedLine parse_line(std::string_view line, int year) {
  ParsedLine out;
  re2::StringPiece in(line.data(), line.size());
  for (int i = 0; i < kMaxPrefixes; ++i) {
    bool consumed = false;
    for (Reader read : kReaders)
      if (read(in, out.origin, year)) {
        consumed = true;
        break;
      }
    if (!consumed) break;
  }
  out.message = std::string_view(in.data(), in.size());
  rank_in_message(out.message, out.origin);
  return out;
}

std::optional<int> rank_from_file_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  // "worker" and "proc" only at the start: a pod named "<job>-worker-1" (Kubeflow's PyTorchJob
  // and MPIJob) is a node's, whose processes hold several ranks. ("process_2.log": JAX's
  // process index, the rank of its one process.)
  static const RE2 re(R"((?i)(?:rank|^worker|^proc(?:ess)?)[_.-]?(\d{1,6})(?:\D|$))");
  // Slurm's per-task output, `--output=train-%j-%t.out`: the job id, then the task's number,
  // with the step's between them in `%j.%s-%t` ("train-638136.0-4.out"); not a date and a time
  // ("run-20240312-1059.log").
  static const RE2 slurm_task(
      R"([-_.](\d{3,})(?:\.\d{1,3})?[-_.](\d{1,6})\.(?:out|err|log|txt)$)");
  static const RE2 date(R"((?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))");
  // nor the end of an address in a host's name ("dmesg_ip-10-50-127-116.txt", AWS's style)
  static const RE2 address(R"((?:^|\D)\d{1,3}[-.]\d{1,3}[-.]\d{1,3}[-.]\d{1,3}\.\w+$)");
  std::string rank, job;
  if (RE2::PartialMatch(name, re, &rank)) return to_int(rank);
  if (RE2::PartialMatch(name, slurm_task, &job, &rank) && !RE2::FullMatch(job, date) &&
      !RE2::PartialMatch(name, address))
    return to_int(rank);
  return std::nullopt;
}

std::optional<LogDirFile> in_log_dir(std::string_view path) {
  // torchrun --log-dir: <dir>/<run id>/attempt_<restart>/<local rank>/{stdout,stderr}.log
  static const RE2 log_dir(R"(^(.*?)/?[^/]+/attempt_\d+/(\d{1,4})/std(?:out|err)\.log$)");
  std::string dir, local;
  if (!RE2::FullMatch(path, log_dir, &dir, &local)) return std::nullopt;
  return LogDirFile{to_int(local), dir};
}

}  // namespace gpuerr::query
