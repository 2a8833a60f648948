// When each line happened: its own date, the one it inherits, a kernel's uptime from its host's
// boot, a container's end; and the boots and local time zones the first lines of a file name.
// Part of triage's reader (triage_impl.h).
#include "query/triage_impl.h"

namespace gpuerr::query {

std::optional<double> Triage::Impl::wall_time(const LineOrigin& o, FileState& state) {
  if (o.time && o.uptime && !o.host.empty())
    boot_by_host[o.host] = {*o.time - *o.uptime, o.year_guessed};
  if (o.time) {
    state.zone = o.zone;
    if (o.zone && *o.zone != 0) state.offset_printed = o.zone;
    state.year_guessed = o.year_guessed;
    return state.last_time = o.time;
  }
  if (o.uptime) {
    auto it = boot_by_host.find(o.host);
    state.year_guessed = it != boot_by_host.end() && it->second.second;
    if (it != boot_by_host.end()) return state.last_time = it->second.first + *o.uptime;
    if (boot_time) return state.last_time = *boot_time + *o.uptime;
    if (state.boot) return state.last_time = *state.boot + *o.uptime;
    return std::nullopt;  // uptimes are not comparable with wall times
  }
  return state.last_time;  // a traceback line inherits the time of the line it follows
}

void Triage::Impl::sample_date(const std::string& file, FileState& state, std::string_view line) {
  if (state.lines_sampled >= kDateSampleLines) return;
  const size_t number = ++state.lines_sampled;  // (files are read from their first line)
  if (number == 1)
    if (const std::optional<int> rank = rank_from_file_name(file))
      note_rank(*rank, file, number);
  if (!state.zone_hint) state.zone_hint = date_command_zone(line);
  if (state.after_uptime_command && !state.boot) state.boot = uptime_since(line);
  state.after_uptime_command = says_uptime_since(line);
  const LineOrigin o = origin_of(line, year);
  if (o.time && !o.zone) state.unzoned_dates = true;
  if (o.zone && *o.zone != 0) state.offset_printed = o.zone;
  if (!o.host.empty() && state.pdsh_hosts.size() < kDateSampleLines &&
      line.size() > o.host.size() && line.starts_with(o.host) &&
      line.substr(o.host.size()).starts_with(": "))
    state.pdsh_hosts.insert(o.host);
  if (o.time && !o.year_guessed) {
    read_so_far.latest_dated = std::max(read_so_far.latest_dated.value_or(*o.time), *o.time);
    if (!o.kernel && read_so_far.first_dated_of_file.size() < kMaxFilesTracked)
      read_so_far.first_dated_of_file.try_emplace(file, *o.time);
  }
  if (o.rank && !o.kernel) note_rank(*o.rank, file, number);
}

void Triage::Impl::note_last_dated(const std::string& file, double time) {
  auto it = read_so_far.last_dated_of_file.find(file);
  if (it != read_so_far.last_dated_of_file.end())
    it->second = std::max(it->second, time);
  else if (read_so_far.last_dated_of_file.size() < kMaxFilesTracked)
    read_so_far.last_dated_of_file.emplace(file, time);
}

void Triage::Impl::date_container_kill(std::string_view message, bool kill, FileState& state) {
  if (kill && !time_of_last_kill() && message.find("OOMKilled") != std::string_view::npos) {
    state.kill_awaiting_end = read_so_far.kills.size() - 1;
    state.kill_lines_left = kKillEndLines;
    return;
  }
  if (!state.kill_awaiting_end) return;
  if (const std::optional<double> end = container_finished(message)) {
    LogEvent& k = read_so_far.kills[*state.kill_awaiting_end];
    k.time = end, k.zone = 0, k.time_inherited = false, k.year_guessed = false;
    state.kill_awaiting_end.reset();
  } else if (--state.kill_lines_left == 0) {
    state.kill_awaiting_end.reset();
  }
}

bool Triage::Impl::time_of_last_kill() const {
  return !read_so_far.kills.empty() && read_so_far.kills.back().time &&
         !read_so_far.kills.back().time_inherited;
}

void Triage::Impl::note_boot(const std::string& file, size_t line, std::string_view text,
                             const ParsedLine& p, std::optional<double> time,
                             const FileState& state) {
  if (!p.origin.kernel || !time || !p.message.starts_with("Linux version ")) return;
  const std::string host = short_host(p.origin.host.empty() ? state.host : p.origin.host);
  if (host.empty() || read_so_far.boots.size() >= kMaxProcesses) return;
  std::vector<TriageFacts::Boot>& boots = read_so_far.boots[host];
  if (boots.size() < kMaxProcesses)
    boots.push_back({Evidence{file, line, clipped(text)}, *time, state.year_guessed, state.zone});
}

std::optional<double> Triage::Impl::date_line(const std::string& file, ParsedLine& p,
                                              FileState& state, std::string_view unread) {
  if (p.origin.time) {
    state.look_back_misses = 0;
    if (!p.origin.zone) state.unzoned_dates = true;
  } else if (!p.origin.uptime && !unread.empty() && state.look_back_misses < kLookBackMisses) {
    if (const std::optional<LineOrigin> dated = last_time_in(unread, year)) {
      state.last_time = dated->time, state.year_guessed = dated->year_guessed;
      state.zone = dated->zone, state.look_back_misses = 0;
    } else {
      ++state.look_back_misses;
    }
  }
  const std::optional<double> time = wall_time(p.origin, state);
  if (p.origin.time && !p.origin.kernel && !p.origin.year_guessed)
    note_last_dated(file, *p.origin.time);
  // (a date without its year, its own or the line's it inherits, is moved in report())
  const bool year_guessed = p.origin.year_guessed = state.year_guessed;
  if (time && (p.origin.time || p.origin.uptime)) {
    for (size_t i : state.undated) {
      read_so_far.events[i].latest = time;
      read_so_far.events[i].latest_year_guessed = year_guessed;
    }
    state.undated.clear();
  }
  return time;
}

}  // namespace gpuerr::query
