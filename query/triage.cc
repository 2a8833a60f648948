// Reading a job's logs for triage, line by line or a block at a time: the lines the cue filter
// passes are parsed for their origin and looked up; the others are counted, and looked at only
// for what a waiting event needs (its time, its rank's work going on). See triage_impl.h.
#include "query/triage_impl.h"

namespace gpuerr::query {

Triage::Impl::Impl(const Store& s, std::vector<std::string> patterns, int y,
                   std::optional<double> boot)
    : store(s),
      save_patterns(patterns),
      year(y ? y : current_year()),
      year_given(y != 0),
      boot_time(boot) {}

const EntryFacts& Triage::Impl::facts_of(const std::string& id) const {
  auto it = facts.find(id);
  if (it != facts.end()) return it->second;
  EntryFacts f;
  if (std::optional<Entry> e = store.entry(id)) f = {triage_role(*e), e->category};
  return facts.emplace(id, std::move(f)).first->second;
}

std::optional<Match> Triage::Impl::match_line(std::string_view message) {
  std::string text(message);
  if (text.size() > kMaxLookupBytes)
    text = std::string(message.substr(0, kMaxLookupBytes / 2)) + "\n" +
           std::string(message.substr(message.size() - kMaxLookupBytes / 2));
  std::string key = search_text(message.substr(0, 1000));
  if (message.size() > 1000) key += "\n" + search_text(message.substr(message.size() - 1000));
  if (auto it = line_cache.find(key); it != line_cache.end()) return it->second;
  std::optional<Match> found;
  // Only exact evidence names an event: a log is mostly ordinary text, and full-text
  // similarity alone would turn banners and progress lines into faults.
  const std::vector<Match> matches = lookup(store, text);
  if (!matches.empty() && matches.front().confidence >= kConfident &&
      (!matches.front().code.empty() || !matches.front().signature.empty()))
    found = matches.front();
  if (line_cache.size() >= kMaxCachedLines) line_cache.clear();
  return line_cache.emplace(std::move(key), found).first->second;
}

void Triage::Impl::add_event(const std::string& file, size_t line, std::string_view text,
               const LineOrigin& o, std::optional<double> time, const Match& m,
               bool last_error) {
  const EntryFacts& f = facts_of(m.entry_id);
  // A line that says it will try again ("Call to connect returned Connection refused,
  // retrying") reports a failure the program expects to get past: a warning, not a cause.
  // (An event of its own: the same failure given up on later is a cause.)
  const bool retried = f.role == "cause" && says_retrying(text);
  // (a cause named after "Last error:" is an event of its own, beside the same cause seen
  // before as a warning: it tells which generic result it stands for)
  LogEvent& e = add_event_of(m.entry_id, retried ? kWarningRole : f.role, f.category, file, line,
                             text, o, time,
                             last_error ? "named after Last error" : retried ? "retried" : "");
  if (e.line != line || e.file != file) return;  // (seen before: counted)
  e.confidence = m.confidence;
  e.last_error = last_error;
  if (m.analysis)
    e.reading = m.analysis->verdict, e.finding = m.analysis->finding,
    e.action = m.analysis->action;
}

std::optional<size_t> Triage::Impl::add_exception(const std::string& file, size_t line,
                                    std::string_view text, const LineOrigin& o,
                                    std::optional<double> time, const ExceptionLine& x) {
  LogEvent& e = add_event_of("", "exception", x.environment ? "configuration" : "application",
                             file, line, text, o, time, x.type);
  if (e.line == line && e.file == file)
    e.reading = "an uncaught " + x.type + " ended the program on this rank" +
                (x.environment ? ": something it needed was missing from its environment" : "");
  if (&e == &dropped) return std::nullopt;
  return static_cast<size_t>(&e - read_so_far.events.data());
}

LogEvent& Triage::Impl::add_event_of(const std::string& entry_id, const std::string& role,
                       const std::string& category, const std::string& file, size_t line,
                       std::string_view text, const LineOrigin& o, std::optional<double> time,
                       const std::string& type) {
  std::string who = o.rank ? "r" + std::to_string(*o.rank)
                           : o.host + "/" + (o.local_rank ? std::to_string(*o.local_rank) : file);
  const std::string key =
      (entry_id.empty() ? "exception:" + type : entry_id + "|" + type) + "|" + who;
  if (auto it = event_index.find(key); it != event_index.end()) {
    LogEvent& again = read_so_far.events[it->second];
    ++again.count;
    // It came back: whether the work went on is judged from here.
    again.went_on_after.reset();
    std::erase_if(files[again.file].faults_awaiting_work,
                  [&](const auto& f) { return f.first == it->second; });
    if (file == again.file && !o.kernel && !o.uptime)
      await_work(again, it->second, time, time && !o.time);
    return again;
  }
  std::vector<LogEvent>& events = read_so_far.events;
  if (events.size() >= kMaxEvents) return dropped = LogEvent{};
  event_index.emplace(key, events.size());
  LogEvent& e = events.emplace_back();
  e.entry_id = entry_id, e.role = role, e.category = category;
  e.rank = o.rank, e.local_rank = o.local_rank, e.host = o.host, e.pid = o.pid;
  e.time = time, e.year_guessed = o.year_guessed, e.zone = o.zone;
  e.file = file, e.line = line, e.text = clipped(text), e.order = order;
  if (time && !o.time && !o.uptime) {
    e.zone = files[file].zone;
    e.time_inherited = true;
    files[file].undated.push_back(events.size() - 1);
    files[file].lines_left_to_wait = kLinesWaitedFor;
  } else if (!time && !o.kernel && !files[file].no_dates_ahead) {
    // (no date above it: the next dated line bounds it still; a file found to have none is not
    // read for one again)
    files[file].undated.push_back(events.size() - 1);
    files[file].lines_left_to_wait = kLinesWaitedFor;
  }
  if (!o.kernel && !o.uptime) await_work(e, events.size() - 1, time, e.time_inherited);
  return e;
}

void Triage::Impl::await_work(const LogEvent& e, size_t index, std::optional<double> time,
                              bool inherited) {
  auto& awaiting = files[e.file].faults_awaiting_work;
  if ((e.role == "cause" || e.role == "exception") && time &&
      awaiting.size() < kMaxAwaitingWork) {
    awaiting.emplace_back(index, inherited ? std::nullopt : time);
    files[e.file].lines_left_to_wait = kLinesWaitedFor;
  }
}

void Triage::Impl::read(const std::string& file, size_t line, std::string_view text) {
  read_so_far.bytes += text.size() + 1;
  if (const std::optional<std::string> name = section_header(text)) section_of_file[file] = *name;
  read_counted(in_section(file), line, text);
}

std::string Triage::Impl::in_section(const std::string& file) const {
  const auto it = section_of_file.find(file);
  return it == section_of_file.end() ? file : file + "/" + it->second;
}

void Triage::Impl::read_sections(const std::string& file, size_t line, std::string_view block) {
  size_t from = 0;
  while (true) {
    size_t header = block.find("==> ", from);
    while (header != std::string_view::npos && header > 0 && block[header - 1] != '\n')
      header = block.find("==> ", header + 4);
    const size_t end = header == std::string_view::npos ? block.size() : header;
    if (end > from || header == std::string_view::npos) {  // the lines before the header
      std::string_view part = block.substr(from, end - from);
      if (header != std::string_view::npos) part.remove_suffix(1);  // (its '\n')
      read_block(in_section(file), line, part);
      line += newlines(part) + 1;
    }
    if (header == std::string_view::npos) return;
    size_t eol = block.find('\n', header);
    if (eol == std::string_view::npos) eol = block.size();
    const std::string_view head = block.substr(header, eol - header);
    if (const std::optional<std::string> name = section_header(head)) section_of_file[file] = *name;
    read_block(in_section(file), line++, head);
    if (eol == block.size()) return;
    from = eol + 1;
  }
}

void Triage::Impl::note_rank(int rank, const std::string& file, size_t line) {
  if (read_so_far.ranks_present.size() < kMaxProcesses)
    read_so_far.ranks_present.try_emplace(rank, Evidence{file, line, ""});
}

void Triage::Impl::read_counted(const std::string& file, size_t line, std::string_view text) {
  ++read_so_far.lines;
  FileState& state = files[file];
  sample_date(file, state, text);
  if (!worth_reading(text) && state.summary_lines_left == 0 && !state.last_error_next &&
      !save_patterns.match(text)) {
    read_skipped(file, state, text, line);
    if (state.unread.size() > 2 * kLookBackBytes) state.unread.erase(0, kLookBackBytes);
    state.unread.append(text).push_back('\n');
    return;
  }
  read_interesting(file, line, text, state, state.unread);
  state.unread.clear();
}

void Triage::Impl::read_block(const std::string& file, size_t line, std::string_view block) {
  if (!save_patterns.empty()) {  // a site's own save lines may hold none of the filter's words
    read_so_far.bytes += block.size() + 1;  // for_each_line drops the '\r' of a CRLF line
    for_each_line(block, [&](std::string_view text) { read_counted(file, line++, text); });
    return;
  }
  FileState& state = files[file];
  for (size_t from = 0; from < block.size() && state.lines_sampled < kDateSampleLines;) {
    size_t end = block.find('\n', from);
    if (end == std::string_view::npos) end = block.size();
    sample_date(file, state, block.substr(from, end - from));
    from = end + 1;
  }
  size_t pos = 0;
  while (pos <= block.size()) {  // pos == size: the block ends with an empty line
    // Inside torchrun's failure summary every line is read, cue or not, as read_counted does;
    // so is the line after NCCL's "Last error:", which names the cause in its own words.
    const bool in_summary = state.summary_lines_left > 0 || state.last_error_next;
    const size_t hit = in_summary ? pos : cues.next(block, pos);
    if (hit == std::string_view::npos) {  // the rest, its last line without its '\n'
      std::string_view rest = block.substr(pos);
      while (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
      if (state.open_save) close_open_save(state, rest);  // (the rest may end the file)
      if (const std::optional<LineOrigin> dated = last_time_in(rest, year);
          dated && !dated->year_guessed && !dated->kernel)
        note_last_dated(file, *dated->time);
      read_skipped(file, state, rest, line + newlines(rest));
      read_so_far.lines += newlines(block.substr(pos)) + 1;
      read_so_far.bytes += block.size() - pos + 1;
      break;
    }
    // (The line at `pos` may be empty: `hit` is then its '\n', not a place inside it.)
    const size_t start = in_summary ? pos : line_start(block, hit);
    const size_t skipped = newlines(block.substr(pos, start - pos));
    if (skipped > 0)
      read_skipped(file, state, block.substr(pos, start - pos - 1), line + skipped - 1);
    line += skipped;
    read_so_far.lines += skipped;
    read_so_far.bytes += start - pos;
    size_t end = block.find('\n', hit);
    if (end == std::string_view::npos) end = block.size();
    ++read_so_far.lines;
    read_so_far.bytes += end - start + 1;
    read_interesting(file, line++, block.substr(start, end - start), state,
                     block.substr(pos, start - pos));
    pos = end + 1;
  }
}

void Triage::Impl::read_interesting(const std::string& file, size_t line, std::string_view text,
                                    FileState& state, std::string_view unread) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  note_last_line(state, line, text);
  if (state.open_save && !unread.empty()) close_open_save(state, unread);
  state.unread_after_frame = false;
  std::string printed;  // a coloured line, as printed (see origin_of)
  if (text.find('\x1b') != std::string_view::npos) text = printed = as_printed(text);
  if (read_json_record(file, line, text, state)) return;
  ++order;
  ParsedLine p = parse_line(text, year);
  if (p.origin.host.empty()) read_known_host(p, state);
  if (!p.origin.rank && !p.origin.local_rank) p.origin.rank = rank_from_file_name(file);
  const std::optional<double> time = date_line(file, p, state, unread);
  note_origin(file, line, p, state);
  if (state.summary_lines_left > 0) {
    --state.summary_lines_left;
    read_summary_field(file, line, text, p, state);
  }
  if (opens_failure_summary(p.message) || opens_failures_list(p.message)) {
    state.summary_lines_left = kSummaryFieldLines, state.summary_opened = true;
    state.summary = SummaryBlock{.root = opens_failure_summary(p.message)};
  }
  const bool last_error = std::exchange(state.last_error_next, says_last_error(p.message));
  for (std::string& s : read_settings(p.message))
    if (read_so_far.settings.size() < kMaxSettings) read_so_far.settings.insert(std::move(s));
  read_save_line(file, line, text, time, p, state);
  read_launcher_line(file, line, p, state);
  const std::optional<KillLine> kill = read_kill(p.message);
  if (kill) add_kill(file, line, text, p.origin, time, *kill);
  date_container_kill(p.message, kill.has_value(), state);
  if (is_teardown(p.message)) {
    ++read_so_far.teardown_lines;
    return;
  }
  if (!state.named_rank) state.named_rank = rank_from_file_name(file);
  note_placement(p, *state.named_rank);
  if (p.message.find(" NCCL INFO ") != std::string_view::npos ||
      p.message.starts_with("NCCL INFO"))
    return;  // NCCL's informational trace; its WARN lines are read
  if (p.origin.time && !p.origin.year_guessed)
    read_so_far.latest_dated = std::max(read_so_far.latest_dated.value_or(*p.origin.time),
                                        *p.origin.time);
  note_boot(file, line, text, p, time, state);
  // torch.distributed.checkpoint's CheckpointException carries the failed ranks' own
  // tracebacks, each opened by "Traceback (most recent call last): (RANK 22)": the error that
  // ends one is that rank's, and tells what the exception above it reported.
  static const RE2 rank_traceback(R"(^\s*Traceback \(most recent call last\): \(RANK (\d+)\))");
  if (int rank = 0; RE2::PartialMatch(p.message, rank_traceback, &rank)) {
    state.traceback_of_rank = rank;
    if (state.last_exception) state.chained_exception = state.last_exception;
    return;
  }
  // Ray's error for a task that raised names the worker process whose traceback follows:
  // "ray.exceptions.RayTaskError(ValueError): ray::_RayTrainWorker__execute.get_next() (pid=
  // 83211, ip=10.169.0.13, actor_id=...)".
  static const RE2 ray_task(R"(RayTaskError(?:\(\w+\))?: ray::\S+ \(pid=(\d+), ip=([\d.]+))");
  if (long pid = 0; p.message.find("RayTaskError") != std::string::npos)
    if (std::string ip; RE2::PartialMatch(p.message, ray_task, &pid, &ip)) {
      state.traceback_of_process = std::pair{ip, pid};
      read_error_line(file, line, text, p, time, state, last_error, kill.has_value());
      return;
    }
  if (state.traceback_of_process && !is_frame(p.message) && !state.last_frame &&
      !in_traceback(p.message)) {
    ParsedLine theirs = p;
    theirs.origin.host = state.traceback_of_process->first;
    theirs.origin.pid = state.traceback_of_process->second;
    state.traceback_of_process.reset();
    read_error_line(file, line, text, theirs, time, state, last_error, kill.has_value());
    return;
  }
  // (a frame, and the source line below one, are the traceback's; its error ends it)
  if (state.traceback_of_rank && !is_frame(p.message) && !state.last_frame &&
      !in_traceback(p.message)) {
    ParsedLine theirs = p;
    theirs.origin.rank = state.traceback_of_rank, theirs.origin.local_rank.reset();
    theirs.origin.host.clear(), theirs.origin.pid.reset();
    state.traceback_of_rank.reset();
    const size_t events_before = read_so_far.events.size();
    read_error_line(file, line, text, theirs, time, state, last_error, kill.has_value());
    for (size_t i = events_before; i < read_so_far.events.size(); ++i)
      read_so_far.events[i].quoted = true;
    return;
  }
  read_error_line(file, line, text, p, time, state, last_error, kill.has_value());
}

bool Triage::Impl::read_json_record(const std::string& file, size_t line, std::string_view text,
                                    FileState& state) {
  if (text.empty() || text.back() != '}') return false;
  const std::optional<std::string> strings = json_record_strings(text);
  if (!strings) return false;
  const size_t summary_left = state.summary_lines_left;
  state.summary_opened = false;
  // A field that holds only a time (Docker's "time") dates the record's message, which would
  // otherwise take the time of the record before: such lines are read first.
  std::vector<std::string_view> lines;
  for_each_line(*strings, [&](std::string_view s) { lines.push_back(s); });
  std::stable_partition(lines.begin(), lines.end(), [&](std::string_view s) {
    const ParsedLine p = parse_line(s, year);
    return p.message.empty() && p.origin.time;
  });
  for (std::string_view s : lines) read_interesting(file, line, s, state);
  // (a record counts as one line of torchrun's failure summary, unless the summary or one of its
  // blocks, "[1]:", began in it)
  if (state.summary_opened) state.summary_lines_left = kSummaryFieldLines;
  else if (summary_left > 0) state.summary_lines_left = summary_left - 1;
  return true;
}

void Triage::Impl::note_origin(const std::string& file, size_t line, const ParsedLine& p,
                               FileState& state) {
  if (p.origin.rank && !p.origin.host.empty() && !p.origin.kernel &&
      host_of_rank.size() < kMaxProcesses)
    host_of_rank.emplace(*p.origin.rank, p.origin.host);
  if (p.origin.rank && !p.origin.kernel) note_rank(*p.origin.rank, file, line);
  // (A kernel line, merged into a job's output, names its own host and says nothing of the
  // ranks' hosts.)
  if (!p.origin.host.empty() && !p.origin.kernel && !state.several_hosts) {
    if (state.host.empty()) state.host = p.origin.host;
    else if (state.host != p.origin.host) state.several_hosts = true, state.host.clear();
  }
}

void Triage::Impl::read_save_line(const std::string& file, size_t line, std::string_view text,
                                  std::optional<double> time, const ParsedLine& p,
                                  FileState& state) {
  if (std::optional<SaveLine> save = read_save(p.message)) {
    record_save(file, line, text, time, p.origin.year_guessed, *save);
    read_so_far.checkpoints.back().own_time = p.origin.time.has_value();
    state.open_save.reset();
    if (!save->completed && !save->end_logged) {
      state.open_save = read_so_far.checkpoints.back().order;
      state.open_save_rank = p.origin.rank;
    }
  } else if (save_patterns.match(p.message)) {
    record_save(file, line, text, time, p.origin.year_guessed, SaveLine{});
  } else if (read_resume(p.message)) {
    read_so_far.resumed_from = CheckpointEvent{
        file,  line, time,  p.origin.year_guessed, clipped(text), true, order, "", false,
        false, time ? state.zone : std::nullopt};
  }
}

void Triage::Impl::read_launcher_line(const std::string& file, size_t line, const ParsedLine& p,
                                      FileState& state) {
  static const RE2 jax_process(R"(\[process=(\d{1,6})\])");
  if (int n = 0; state.jax_processes.size() < 2 &&
                 p.message.find("[process=") != std::string::npos &&
                 RE2::PartialMatch(p.message, jax_process, &n))
    state.jax_processes.insert(n);
  if (const std::optional<RendezvousField> r = read_rendezvous_field(p.message)) {
    if (r->restart) state.restart = r->restart;
    else if (state.worker_ranks.size() < kMaxProcesses)
      state.worker_ranks.push_back({line, p.origin.host, state.restart, r->global_ranks});
  }
  if (std::optional<WatchdogLine> w = read_watchdog(p.message); w && p.origin.rank) {
    RankProgress& r = read_so_far.watchdog[w->group][*p.origin.rank];
    if (w->timed_out_seq)
      r.timed_out_seq = w->timed_out_seq, r.op_type = w->op_type, r.file = file, r.line = line;
    if (w->last_enqueued) r.last_enqueued = w->last_enqueued;
  }
  read_srun_exit(file, line, p.message);
  note_gpu_and_rank(file, p);
  if (const std::optional<RayWorker> w = read_ray_worker(p.message);
      w && process_of_rank.size() < kMaxProcesses)
    process_of_rank.try_emplace(w->rank, w->ip, w->pid);
  if (const std::optional<int> named = read_desync_named(p.message);
      named && read_so_far.desync_named.size() < kMaxProcesses)
    ++read_so_far.desync_named[*named];
  if (const auto mismatch = read_collective_mismatch(p.message);
      mismatch && read_so_far.mismatch_named.size() < kMaxProcesses)
    read_so_far.mismatch_named.try_emplace(mismatch->first, mismatch->second);
}

void Triage::Impl::read_error_line(const std::string& file, size_t line, std::string_view text,
                                   const ParsedLine& p, std::optional<double> time,
                                   FileState& state, bool last_error, bool killed) {
  const bool after_traceback = state.last_in_traceback;
  note_traceback_line(state, p.message);
  state.unread_after_frame = state.last_frame;  // (for the lines the filter passes next)
  if (chains_exceptions(p.message)) state.chained_exception = state.last_exception;
  if (state.last_frame && is_save_frame(p.message)) state.save_frame_line = line;
  const size_t events_before = read_so_far.events.size();
  if (state.open_exception && line - state.open_exception->second > kExceptionDetailLines)
    state.open_exception.reset();
  if (std::optional<Match> m = match_line(p.message)) {
    add_event(file, line, text, p.origin, time, *m, last_error);
    // (the exception the chain went on to is one an entry names: it says what happened; so do
    // the details an exception's message announced with its colon, TensorFlow's "OOM when
    // allocating tensor ..." below its "ResourceExhaustedError: Graph execution error:")
    if (state.chained_exception && read_exception(p.message)) {
      read_so_far.events[*state.chained_exception].chained_into = m->entry_id;
      state.chained_exception.reset();
    } else if (state.open_exception) {
      // (the same process's: another rank's line interleaved here says nothing of it)
      LogEvent& x = read_so_far.events[state.open_exception->first];
      if (x.rank == p.origin.rank && x.local_rank == p.origin.local_rank)
        x.chained_into = m->entry_id;
    }
    state.open_exception.reset();
  } else if (after_traceback && !killed) {  // (a kill's own report is read as the kill)
    if (std::optional<ExceptionLine> x = read_exception(p.message)) {
      state.last_exception = add_exception(file, line, text, p.origin, time, *x);
      state.chained_exception.reset();
      state.open_exception.reset();
      if (state.last_exception && announces_details(p.message))
        state.open_exception = std::pair{*state.last_exception, line};
    }
  }
  if (read_so_far.events.size() > events_before) note_during_save(state, line);
}

void Triage::Impl::note_traceback_line(FileState& state, std::string_view message) {
  state.last_in_traceback = state.last_frame || in_traceback(message);
  state.last_frame = is_frame(message);
}

bool Triage::Impl::is_frame(std::string_view message) {
  const size_t start = message.find_first_not_of(" \t");
  return start != std::string_view::npos && message.substr(start).starts_with("File \"");
}

void Triage::Impl::read_skipped(const std::string& file, FileState& state, std::string_view lines,
                  size_t last_line) {
  // (only the last two lines of the run bear on the line read after it)
  const size_t last_break = lines.rfind('\n');
  note_last_line(state, last_line, lines.substr(last_break + 1));
  if (last_break != std::string_view::npos) {
    const size_t before = lines.rfind('\n', last_break - (last_break > 0));
    const size_t from = before == std::string_view::npos || last_break == 0 ? 0 : before + 1;
    note_traceback_line(state, parse_line(lines.substr(from, last_break - from), year).message);
  }
  note_traceback_line(state, parse_line(lines.substr(last_break + 1), year).message);
  if (state.undated.empty() && state.faults_awaiting_work.empty()) return;
  size_t line = last_line - newlines(lines);
  for_each_line_until(lines, [&](std::string_view text) {
    read_skipped_line(file, state, text, line++);
    return !state.undated.empty() || !state.faults_awaiting_work.empty();
  });
}

void Triage::Impl::note_last_line(FileState& state, size_t line, std::string_view text) {
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
  state.last_line = line;
  state.last_text = clipped(text);
}

void Triage::Impl::read_skipped_line(const std::string& file, FileState& state,
                                     std::string_view text, size_t line) {
  if (state.lines_left_to_wait == 0) {
    if (!state.undated.empty()) state.no_dates_ahead = true;
    state.undated.clear();               // (no date within kLinesWaitedFor: no bound)
    state.faults_awaiting_work.clear();  // (no work going on: they stand)
    return;
  }
  --state.lines_left_to_wait;
  if (!may_hold_time(text)) return;
  const LineOrigin o = origin_of(text, year);
  if (!o.time) return;
  for (size_t i : state.undated) {
    read_so_far.events[i].latest = o.time;
    read_so_far.events[i].latest_year_guessed = o.year_guessed;
  }
  state.undated.clear();
  if (!state.named_rank) state.named_rank = rank_from_file_name(file);
  const std::optional<int> rank = o.rank ? o.rank : *state.named_rank;
  std::erase_if(state.faults_awaiting_work, [&](std::pair<size_t, std::optional<double>>& f) {
    LogEvent& e = read_so_far.events[f.first];
    if (!f.second) f.second = o.time;
    // (a date without its year against one with it: no measure of the time between them)
    if ((rank && e.rank && *rank != *e.rank) || o.year_guessed != e.year_guessed ||
        *o.time - *f.second < kSurvivedAfter)
      return false;
    e.went_on_after = *o.time - *f.second;
    e.went_on_line = line;
    return true;
  });
}

Triage::Triage(const Store& store, std::vector<std::string> checkpoint_patterns, int year,
               std::optional<double> boot_time)
    : impl_(std::make_unique<Impl>(store, std::move(checkpoint_patterns), year, boot_time)) {}
Triage::~Triage() = default;

void Triage::add_line(const std::string& file, size_t line, std::string_view text) {
  impl_->read(file, line, text);
}

void Triage::add_lines(const std::string& file, size_t first_line, std::string_view lines) {
  impl_->read_sections(file, first_line, lines);
}

}  // namespace gpuerr::query
