// The facts triage read, completed for the judge: ranks from processes and file names, the last
// dates of files read line by line, saves whose end the last lines show. Part of triage's reader
// (triage_impl.h).
#include "query/triage_impl.h"

namespace gpuerr::query {

// When the input names its local time zone (a job script's `date` in its first lines: "Sat Jul
// 20 09:29:34 KST 2024"), the times it printed without an offset are in that zone: the job's
// and the node's own (Python's logging, syslog, `dmesg -T`). They were read as UTC, and move by
// its offset, so that they sort with the lines that printed one (`journalctl -o short-iso`,
// kubectl's timestamps). A file that named a zone of its own keeps to it; the others take the
// zone the input named, unless it named two; failing a zone named, the one offset its dated
// lines printed.
void Triage::Impl::in_local_zones(TriageFacts& facts) const {
  std::optional<double> local;
  bool agreed = true;
  for (const auto& [path, state] : files)
    if (state.zone_hint) {
      agreed = agreed && (!local || *local == *state.zone_hint);
      local = state.zone_hint;
    }
  if (!agreed) local.reset();
  // Failing a zone named, the one offset other than UTC's that the input's dated lines printed
  // ("2025-06-20T17:37:12.916-08:00"): the hosts' local zone, which the same hosts' logs that
  // print none (glog's "W0620 17:41:57", syslog) are in. (UTC's, "Z", is only how a tool
  // prints: kubectl's timestamps beside a pod's local ones say nothing of the hosts' zone.)
  if (agreed && !local) {
    for (const auto& [path, state] : files)
      if (state.offset_printed) {
        agreed = agreed && (!local || *local == *state.offset_printed);
        local = state.offset_printed;
      }
    if (!agreed) local.reset();
  }
  const auto zone_of = [&](const std::string& file) -> std::optional<double> {
    const auto it = files.find(file);
    if (it != files.end() && it->second.zone_hint) return it->second.zone_hint;
    return local;
  };
  // (the offset to take away from a time printed without one, in a file read as local)
  const auto offset = [&](const std::string& file, const std::optional<double>& printed) {
    return printed ? std::nullopt : zone_of(file);
  };
  for (std::vector<LogEvent>* list : {&facts.events, &facts.kills})
    for (LogEvent& e : *list)
      if (const std::optional<double> z = offset(e.file, e.zone)) {
        if (e.time) *e.time -= *z;
        if (e.latest) *e.latest -= *z;
        e.zone = z;
      }
  const auto local_save = [&](CheckpointEvent& c) {
    if (const std::optional<double> z = offset(c.file, c.zone)) {
      if (c.time) *c.time -= *z;
      c.zone = z;
    }
  };
  std::for_each(facts.checkpoints.begin(), facts.checkpoints.end(), local_save);
  std::for_each(facts.unfinished_parts.begin(), facts.unfinished_parts.end(), local_save);
  if (facts.resumed_from) local_save(*facts.resumed_from);
  for (auto& [host, boots] : facts.boots)
    for (TriageFacts::Boot& boot : boots)
      if (const std::optional<double> z = offset(boot.where.file, boot.zone))
        boot.time -= *z, boot.zone = z;
  // (a file's first and last dates: as local, when any of its dated lines printed no offset)
  for (std::map<std::string, double>* dates : {&facts.first_dated_of_file, &facts.last_dated_of_file})
    for (auto& [file, time] : *dates)
      if (const auto it = files.find(file); it != files.end() && it->second.unzoned_dates)
        if (const std::optional<double> z = zone_of(file)) time -= *z;
}

TriageReport Triage::report() const {
  TriageFacts facts = impl_->read_so_far;
  // The last dated line of a file whose last lines, given one by one, the filter passed over.
  for (const auto& [path, state] : impl_->files) {
    const std::optional<LineOrigin> dated = last_time_in(state.unread, impl_->year);
    if (!dated || dated->year_guessed || dated->kernel) continue;
    double& last = facts.last_dated_of_file.try_emplace(path, *dated->time).first->second;
    last = std::max(last, *dated->time);
  }
  // A save whose end is never logged, followed to the end of its file by lines given one by one
  // that the filter passed over (kept unread): it ended if they show the program going on.
  for (const auto& [path, state] : impl_->files) {
    if (!state.open_save || state.unread.empty() ||
        !shows_work(state.unread, state.open_save_rank, impl_->year, state.unread_after_frame))
      continue;
    for (CheckpointEvent& c : facts.checkpoints)
      if (c.order == *state.open_save) c.completed = true;
  }
  for (const auto& [path, start] : impl_->unfinished_parts)
    if (impl_->groups_with_ended_parts.contains(start.group))
      facts.unfinished_parts.push_back(start);
  // Where each file named for a rank stops: a hang's silent rank is placed there.
  for (const auto& [path, state] : impl_->files)
    if (const std::optional<int> rank = rank_from_file_name(path); rank && state.last_line > 0)
      facts.last_line_of_rank[*rank] = Evidence{path, state.last_line, state.last_text};
  // A rank's own log rarely names its host, but its NCCL lines do ("node7:1234:1290 [3] NCCL"):
  // the lines of a file that names one host only are that host's.
  // (Not for kills: srun's and slurmstepd's lines in a job's output are no rank's.) A rank's
  // line without a host takes the host another line of that rank named. Failing those, a file
  // named for one of the job's hosts ("dmesg-T_gpu-a12.txt") is that host's.
  std::map<std::pair<std::string, long>, int> rank_of_process;
  for (const auto& [rank, process] : impl_->process_of_rank) rank_of_process.emplace(process, rank);
  // Where no line names its rank, a process's rank in the job's communicator (the largest any
  // process printed) is its rank.
  int world = 0;
  for (const auto& [process, comm] : impl_->comm_rank_of_process)
    world = std::max(world, comm.first);
  for (const auto& [process, comm] : impl_->comm_rank_of_process)
    if (comm.first == world) rank_of_process.emplace(process, comm.second);
  // A file named like a task's output ("torchrun_1799683_1.log", Slurm's %j_%t) whose launcher
  // report names another rank as the first to fail is a node's, the task a node's launcher: its
  // name gives no rank (its events take the launcher's, see name_rank in judge_ranks.cc).
  for (LogEvent& e : facts.events) {
    const auto root = facts.launcher_root_by_file.find(e.file);
    if (e.rank && !e.local_rank && root != facts.launcher_root_by_file.end() &&
        root->second.rank != *e.rank && rank_from_file_name(e.file) == e.rank)
      e.rank.reset();
  }
  // A local rank's rank, and a GPU's, as the ranks' start-up lines and nvidia-smi name them.
  const GpuPlaces gpus = impl_->place_gpus(facts.placement.hosts);
  for (LogEvent& e : facts.events) {
    auto it = impl_->files.find(e.file);
    // (a rank's host before its file's: a file may quote another rank's traceback, as
    // torch.distributed.checkpoint's exception does)
    if (e.host.empty() && e.rank)
      if (auto h = impl_->host_of_rank.find(*e.rank); h != impl_->host_of_rank.end())
        e.host = h->second;
    if (e.host.empty() && it != impl_->files.end() && !e.quoted) e.host = it->second.host;
    if (e.host.empty() && !e.quoted) e.host = host_in_file_name(e.file, facts.placement.hosts);
    // A line of no rank from a process another line tied to a rank (NCCL's, Ray Train's worker
    // table: "(RayTrainWorker pid=3634254, ip=10.0.0.7) IndexError: ...") is that rank's.
    if (!e.rank && !e.local_rank && e.pid && !e.host.empty())
      if (auto r = rank_of_process.find({short_host(e.host), *e.pid}); r != rank_of_process.end())
        e.rank = r->second;
    if (!e.rank && e.local_rank && !e.host.empty())
      if (auto r = gpus.rank_of_local.find({short_host(e.host), *e.local_rank});
          r != gpus.rank_of_local.end())
        e.rank = r->second;
    // (or, for a file of torchrun's --log-dir, "node7/tlogs/<run>/attempt_0/3/stderr.log", the
    // rank the start-up lines of the host its folders name gave the local rank its folder names)
    if (!e.rank && !e.local_rank)
      if (const std::optional<LogDirFile> d = in_log_dir(e.file)) {
        const std::string host =
            e.host.empty() ? host_in_file_name(d->dir, facts.placement.hosts) : e.host;
        if (auto r = gpus.rank_of_local.find({short_host(host), d->local_rank});
            !host.empty() && r != gpus.rank_of_local.end())
          e.rank = r->second, e.host = host;
      }
    // (or as torchrun's rendezvous result in its file said when it started the worker group)
    if (!e.rank && e.local_rank && it != impl_->files.end())
      e.rank = it->second.rank_of_worker(e.line, e.host, *e.local_rank);
    // A line of no rank in the log of one JAX process is that process's.
    if (!e.rank && !e.local_rank && !e.quoted && it != impl_->files.end() &&
        it->second.jax_processes.size() == 1)
      e.rank = *it->second.jax_processes.begin();
    impl_->place_on_gpu(e, facts.placement, rank_of_process, gpus);
  }
  // A kill that names its process (the out-of-memory killer's "Killed process 61236") is the
  // rank's whose NCCL lines named that process on the kill's host: its line's host, else the
  // host its file is named for, else the job's one host.
  // (A kill whose line names no host is on the host its file is named for, as any line is.)
  for (LogEvent& k : facts.kills) {
    if (k.host.empty()) k.host = host_in_file_name(k.file, facts.placement.hosts);
    // (a container's kill, in a pod's `kubectl describe` saved beside the pod's log: the pod's
    // one rank, when its log names one)
    if (!k.rank && !k.local_rank && k.text.find("OOMKilled") != std::string::npos)
      k.rank = impl_->rank_of_file_named_in(k.file);
    if (k.rank || !k.pid) continue;
    const std::string host = facts.placement.host_of(k.host);
    if (auto it = rank_of_process.find({host, *k.pid}); !host.empty() &&
                                                         it != rank_of_process.end()) {
      k.rank = it->second;
      if (k.host.empty()) k.host = host;
    }
  }
  impl_->in_local_zones(facts);
  // Dates printed without a year (syslog, glog) were given this year while reading; when the
  // input dates other lines fully and no year was given, move them to the year that puts them
  // nearest the latest full date, never half a year after it: a syslog "Dec 31 23:59:58" beside
  // an ISO "2025-01-01" is in 2024, and a dmesg excerpt and an ISO-dated rank log of 2024 sort
  // together.
  if (!impl_->year_given && facts.latest_dated) {
    const double latest = *facts.latest_dated;
    auto move = [&](double t) {
      double moved = in_year(t, year_of(latest));
      if (moved - latest > kHalfYear) moved = in_year(t, year_of(latest) - 1);
      return moved;
    };
    for (std::vector<LogEvent>* list : {&facts.events, &facts.kills})
      for (LogEvent& e : *list) {
        if (e.year_guessed && e.time) e.time = move(*e.time);
        if (e.latest_year_guessed && e.latest) e.latest = move(*e.latest);
      }
    for (auto& [host, boots] : facts.boots)
      for (TriageFacts::Boot& boot : boots)
        if (boot.year_guessed) boot.time = move(boot.time);
    for (CheckpointEvent& c : facts.checkpoints)
      if (c.year_guessed && c.time) c.time = move(*c.time);
    for (CheckpointEvent& c : facts.unfinished_parts)
      if (c.year_guessed && c.time) c.time = move(*c.time);
  }
  return judge(facts, impl_->store);
}

}  // namespace gpuerr::query
