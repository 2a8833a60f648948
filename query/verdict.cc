// Judging what triage read: the first fault, what it explains, code or hardware, and whether
// the last checkpoint can be trusted.
// (Rank attribution is in judge_ranks.cc, the checkpoint in judge_checkpoint.cc.)
#include "query/judge.h"

namespace gpuerr::query::judging {

Judge::Judge(const TriageFacts& facts, const Store& store) : in_(facts), store_(store) {
  std::set<std::string> dated;
  for (const std::vector<LogEvent>* list : {&in_.events, &in_.kills})
    for (const LogEvent& e : *list) (e.time ? dated : clock_.clockless).insert(e.file);
  for (const std::string& f : dated) clock_.clockless.erase(f);
  // (a kill's report is often undated, srun's "task 3: Out Of Memory" among dated lines: it does
  // not make the whole input one to order by its input order)
  for (const LogEvent& e : in_.events)
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
  for (const auto& [host, on_host] : job.gpus) processes_named_ += on_host.size();
  job_logs_begin_ = job_logs_begin();
  for (const LogEvent& e : in_.events) set_aside_.push_back(set_aside(e));
}

TriageReport Judge::run() {
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

const Facts& Judge::facts(const std::string& id) {
  auto it = facts_.find(id);
  if (it != facts_.end()) return it->second;
  Facts f;
  if (std::optional<Entry> e = store_.entry(id))
    f = {triage_role(*e), e->category, e->hardware, e->poisons_context, e->first_actions};
  return facts_.emplace(id, std::move(f)).first->second;
}

std::vector<LogEvent> Judge::sorted(bool (*keep)(const std::string& role)) {
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

std::string Judge::outside_job(const LogEvent& e) const {
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
  if (!e.gpu || processes == job.gpus.end()) return "";
  // Every one of the job's processes on that host is named: NCCL counted them on the host
  // (localRanks), or the input named as many processes as its world has ranks (nranks).
  const auto local = job.local_ranks.find(host);
  const size_t counted = local != job.local_ranks.end() ? static_cast<size_t>(local->second)
                         : job.ranks > 0 && processes_named_ == static_cast<size_t>(job.ranks)
                             ? processes->second.size()
                             : 0;
  if (counted == 0 || processes->second.size() < counted) return "";
  // (the process an Xid names, when it is one of the job's, makes the GPU the job's too)
  const std::optional<long> named = read_xid_place(e.text).pid;
  // An Xid of the application class names the process whose fault it was (Xid 13, 31, 43):
  // when that is none of the job's processes on the host, another program faulted. (Only this
  // class: in a container NCCL prints other process numbers than the kernel does, and setting
  // aside a GPU's own failure that way would hide it; the job's own error stays either way.)
  if (named && e.entry_id.starts_with("xid-") && e.category == "application" &&
      !processes->second.contains(*named))
    return "the process it names (pid " + std::to_string(*named) + ") is none of this job's " +
           std::to_string(counted) + " processes on " + (e.host.empty() ? "its host" : e.host);
  for (const auto& [pid, gpus] : processes->second)
    if (gpus.empty() || gpus.contains(*e.gpu) || named == pid) return "";
  return "GPU " + pci_address(*e.gpu) + " is none of the GPUs NCCL named for this job's " +
         std::to_string(counted) + " processes on " + (e.host.empty() ? "its host" : e.host);
}

const CheckpointEvent* Judge::survived(const LogEvent& e) const {
  if ((e.role != "cause" && e.role != "exception") || !e.time) return nullptr;
  const double ended = span(e).second;
  for (const CheckpointEvent& c : in_.checkpoints)
    if (c.completed && c.time &&
        *c.time - ended >= kSurvivedAfter)
      return &c;
  return nullptr;
}

std::set<std::string> Judge::files_of_ranks() const {
  std::set<std::string> files;
  for (const auto& [rank, seen] : in_.ranks_present) files.insert(seen.file);
  return files;
}

std::optional<double> Judge::job_logs_begin() const {
  std::set<std::string> job_files = files_of_ranks();
  // (and a node's launcher output, whose errors name no rank: a torchrun's rendezvous timeout)
  static const std::set<std::string> job_categories = {"application", "communication",
                                                       "configuration", "framework", "resource"};
  for (const LogEvent& e : in_.events)
    if (e.rank || e.local_rank || e.role == "exception" ||
        (job_categories.contains(e.category) && !e.entry_id.starts_with("xid-")))
      job_files.insert(e.file);
  std::optional<double> begin;
  for (const auto& [file, time] : in_.first_dated_of_file)
    if (job_files.contains(file)) begin = std::min(begin.value_or(time), time);
  return begin;
}

std::optional<double> Judge::quiet_before_limit(const LogEvent& f) const {
  static const RE2 limit(R"(CANCELLED AT (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d) DUE TO TIME LIMIT)");
  std::string at;
  if (!RE2::PartialMatch(f.text, limit, &at) || (f.zone && *f.zone != 0)) return std::nullopt;
  const std::optional<double> ended = parse_line(at, 0).origin.time;
  if (!ended) return std::nullopt;
  if (f.time_inherited && f.time) return *ended - *f.time;
  const std::set<std::string> job_files = files_of_ranks();
  std::optional<double> last;
  for (const auto& [file, time] : in_.last_dated_of_file) {
    if (!job_files.contains(file) || file == f.file) continue;
    if (time > *ended) return std::nullopt;
    last = std::max(last.value_or(time), time);
  }
  if (!last) return std::nullopt;
  return *ended - *last;
}

const Evidence* Judge::rebooted_after(const LogEvent& e) const {
  if (!e.time || !job_logs_begin_ || e.host.empty()) return nullptr;
  const auto boots = in_.boots.find(short_host(e.host));
  if (boots == in_.boots.end()) return nullptr;
  for (const TriageFacts::Boot& boot : boots->second)
    if (boot.time > *e.time && boot.time <= *job_logs_begin_) return &boot.where;
  return nullptr;
}

std::string Judge::set_aside(const LogEvent& e) const {
  if (std::string why = outside_job(e); !why.empty()) return "not this job's: " + why;
  // An Xid that a program's own fault raises (13, 31, 43), an hour or more before the job's
  // own logs begin: another program's, in a kernel log that goes back to the node's boot.
  // (A hardware Xid before the job still counts: the GPU may have been broken when it began.)
  if (e.entry_id.starts_with("xid-") && e.category == "application" && e.time &&
      job_logs_begin_ && *e.time < *job_logs_begin_ - kBeforeJobLogs)
    return "not this job's: a program's fault that the kernel logged " +
           std::to_string(static_cast<long>((*job_logs_begin_ - *e.time) / 3600)) +
           " hours before this job's logs begin";
  // A fault of a node's GPU or driver that its kernel logged before the node booted again, and
  // the job's logs begin after that boot: the reboot reset the GPU (another job's, or a repair).
  if (const Evidence* boot = rebooted_after(e))
    return "not this job's: its node booted again after it (" + boot->file + ":" +
           std::to_string(boot->line) + "), before this job's logs begin";
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

void Judge::find_first_fault(TriageReport& r) {
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
    // So is a fault of another kind that an entry names (an out-of-memory error, a CUDA error)
    // on another host seconds after it: two hosts' clocks differ by seconds, and a peer's links
    // fail the moment its process does. (Not an exception no entry names, which a lost
    // connection can raise itself.)
    // (An undated network error happened by the next dated line of its file: seconds after
    // that bound count, not after the dated line above it.)
    if (facts(r.first_fault->entry_id).category == "communication")
      for (const LogEvent& e : faults) {
        const LogEvent& network = *r.first_fault;
        const std::optional<double> network_by =
            network.time_inherited && network.latest ? network.latest : network.time;
        const bool other_host = !may_be_same_host(e.host, network.host);
        const bool hardware = hardware_like(facts(e.entry_id)) && !same_place(e, network) &&
                              clock_.before(network, e) && near(e, network);
        const bool skewed = !e.entry_id.empty() && other_host &&
                            facts(e.entry_id).category != "communication" && e.time &&
                            network_by && clock_.before(network, e) &&
                            *e.time - *network_by <= kHostClockSkew;
        if (hardware || skewed) {
          r.first_fault = e;
          break;
        }
      }
    // a rank killed before its peers' network errors is what they lost contact with (before
    // an undated one's bound, the next dated line of its file: see first_of), or reported dead
    // on another host up to kHostClockSkew after it (the clocks differ, and a launcher notices
    // an exit a moment after it)
    const LogEvent& f = *r.first_fault;
    const double slack = kill && !may_be_same_host(kill->host, f.host) ? kHostClockSkew : 0;
    const double by = f.time_inherited ? span(f).second : f.time.value_or(0);
    const bool killed_first =
        kill && (clock_.before(*kill, f) ||
                 ((f.time_inherited || slack > 0) && kill->time && *kill->time <= by + slack));
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
  // (the first rank to time out is no more the one that failed than the others: with no
  // suspect, no rank is named)
  if (!r.hang_suspect_rank) {
    r.first_fault->rank.reset(), r.first_fault->local_rank.reset();
    return;
  }
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

const LogEvent& Judge::first_of(const std::vector<LogEvent>& faults) {
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
    // A hardware error that another process of the same host reported in the same span (its
    // own "uncorrectable ECC error", beside this "unspecified launch failure", which a GPU's
    // failure also gives), or the kernel's report of the GPU or its driver failing there (an
    // Xid of the GPU's firmware, 119, that stopped answering): the GPU's failure reached the
    // host's processes.
    const bool failed = gpu_failed(e, facts(e.entry_id));
    if (!hardware && facts(front.entry_id).hardware == "possible" && failed &&
        !e.host.empty() && may_be_on_one_host(e, front) && span(front).first <= span(e).second)
      return e;
    if (e.time_inherited) continue;
    if (!hardware && failed && e.gpu && e.gpu == front.gpu && may_be_on_one_host(e, front))
      return e;
  }
  return front;
}

const LogEvent* Judge::named_cause(const LogEvent& f, const std::vector<LogEvent>& faults) {
  for (const LogEvent& e : faults)
    if (e.last_error && reports_cause(f, e)) return &e;
  return nullptr;
}

bool Judge::reports_cause(const LogEvent& e, const LogEvent& cause) {
  // (an uncaught exception above it is another report's: NCCL's are an entry's)
  return cause.last_error && !e.entry_id.empty() && e.entry_id != cause.entry_id &&
         e.file == cause.file &&
         e.line < cause.line && cause.line - e.line <= kSameReportLines &&
         same_place(e, cause);
}

bool Judge::explained(const LogEvent& e, const LogEvent& f) {
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

void Judge::sort_out_the_rest(TriageReport& r) {
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

bool Judge::counted_in(const LogEvent& e, std::vector<LogEvent>& listed) {
  if (!e.last_error) return false;
  for (LogEvent& f : listed)
    if (f.entry_id == e.entry_id && !f.last_error && same_place(f, e)) {
      f.count += e.count;
      return true;
    }
  return false;
}

void Judge::list_faults(TriageReport& r) {
  if (r.first_fault) r.faults.insert(r.faults.begin(), *r.first_fault);
}

const LogEvent* Judge::extension_crash(const LogEvent& f) const {
  for (const LogEvent& k : in_.kills)
    if (k.finding == kSegfault && k.category == "application" && may_be_on_one_host(k, f) &&
        near(k, f))
      return &k;
  return nullptr;
}

void Judge::decide_verdict(TriageReport& r) {
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
  const LogEvent* in_extension = f.finding == kSegfault ? extension_crash(f) : nullptr;
  if (in_extension && in_extension->file != f.file)
    r.verdict_evidence.push_back({in_extension->file, in_extension->line, in_extension->text});
  const std::string& category = in_extension ? in_extension->category
                                : no_entry   ? f.category
                                             : facts(f.entry_id).category;
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
  // A GPU (or a library's) memory or other resource exhausted is the job's settings too: batch
  // size, sequence length, the model's share of each GPU, a pool's size; unless the program
  // leaks, which the same settings then only delay.
  const bool resource = category == "resource";
  if (held_elsewhere || host_memory || resource) r.verdict = "configuration";
  else if (category == "application" || category == "framework")
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
    if (resource)
      return first + " (resource: what the job's settings size, such as batch size, sequence "
             "length or the model's share of each GPU, or a leak those settings only delay)";
    return first + " (" + category + ")";
  }();
}

void Judge::choose_first_action(TriageReport& r) {
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

bool Judge::may_be_on_one_host(const LogEvent& a, const LogEvent& b) const {
  if (may_be_same_host(a.host, b.host)) return true;
  if (lone_kernel_host_.empty()) return false;
  const std::string ha = short_host(a.host), hb = short_host(b.host);
  return (ha == lone_kernel_host_ && in_.placement.hosts.contains(hb)) ||
         (hb == lone_kernel_host_ && in_.placement.hosts.contains(ha));
}

bool Judge::near(const LogEvent& a, const LogEvent& b) const {
  if (near_in_time(a, b)) return true;
  if (!local_zone_ || !a.time || !b.time || !a.zone == !b.zone) return false;
  return a.zone ? near_in_time(a, b, -*local_zone_) : near_in_time(b, a, -*local_zone_);
}

}  // namespace gpuerr::query::judging

namespace gpuerr::query {

TriageReport judge(const TriageFacts& facts, const Store& store) {
  return judging::Judge(facts, store).run();
}

}  // namespace gpuerr::query
