// Which rank failed: a hang's suspect (the rank that never reached the collective the others
// time out in) and the rank of a fault printed without one (a launcher's report, a GPU's
// process, the rank a collective mismatch names). Part of the judge (judge.h).
#include "query/judge.h"

namespace gpuerr::query::judging {

void Judge::find_hang(TriageReport& r) {
  if (find_desync_named(r)) return;
  for (const auto& [group, ranks] : in_.watchdog)
    if (find_hang_in(group, ranks, r)) return;
  find_silent_rank(r);
}

bool Judge::find_desync_named(TriageReport& r) {
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

void Judge::find_silent_rank(TriageReport& r) {
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

bool Judge::find_hang_in(int group, const std::map<int, RankProgress>& ranks, TriageReport& r) {
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

std::optional<int> Judge::odd_collective(const std::map<int, RankProgress>& ranks) {
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

bool Judge::reported_fault(int rank) const {
  const auto of_rank = [&](const LogEvent& e) { return e.rank == rank; };
  return std::any_of(in_.kills.begin(), in_.kills.end(), of_rank) ||
         std::any_of(in_.events.begin(), in_.events.end(),
                     [&](const LogEvent& e) { return of_rank(e) && is_fault(e.role); });
}

bool Judge::name_odd_rank(LogEvent& f) {
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

void Judge::note_ranks_alike(LogEvent& f) {
  constexpr size_t kFewestRanks = 3;
  constexpr double kAtOnce = 120;  // seconds
  const std::string& category = f.entry_id.empty() ? f.category : facts(f.entry_id).category;
  if (f.role == "killed" || hardware_like(facts(f.entry_id)) || category == "communication")
    return;
  // (the processes: a rank, or a local rank of a host, which pods' "[default6]:" name alone)
  std::set<std::string> ranks;
  for (const LogEvent& e : in_.events)
    if ((e.rank || e.local_rank) && e.entry_id == f.entry_id && e.role == f.role &&
        (!f.entry_id.empty() || e.reading == f.reading) &&
        (!e.time || !f.time || std::abs(*e.time - *f.time) <= kAtOnce))
      ranks.insert(e.rank ? std::to_string(*e.rank)
                          : short_host(e.host) + "/" + std::to_string(*e.local_rank));
  // A setting or the environment (a driver, a library, a device list) that three ranks or more
  // failed on alike: a node's, or every node's, none first; a program's own error, only when
  // nearly every rank hit it (the same bad input), else the first of them may be the cause.
  const bool shared = category == "configuration" || category == "driver";
  if (ranks.size() < kFewestRanks ||
      (!shared && 4 * ranks.size() < 3 * in_.ranks_present.size()))
    return;
  f.ranks_alike = ranks.size();
  f.rank.reset(), f.local_rank.reset(), f.rank_line = 0, f.rank_file.clear();
}

std::optional<LogEvent> Judge::first_kill() {
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

void Judge::name_rank(LogEvent& f) {
  if (f.rank) return;
  // (Slurm's cancel of a job or step, for its time limit or a preemption, is no rank's: the
  // ranks printing below it are being stopped)
  static const RE2 slurm_cancel(R"(\*\*\* (?:JOB|STEP) \S+ (?:ON \S+ )?CANCELLED)");
  if (RE2::PartialMatch(f.text, slurm_cancel)) return;
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
  // An uncaught exception ends its process, and what that process prints as it exits comes
  // next (PyTorch's "[rank0]:[W...] ... process group has NOT been destroyed", a warning): the
  // line right below an unprefixed traceback's last names its rank, whatever other ranks print
  // a few lines further down.
  if (!f.local_rank && f.role == "exception")
    for (const LogEvent& e : in_.events)
      if (e.file == f.file && e.line == f.line + 1 && e.rank && e.role == kWarningRole &&
          may_be_same_host(f.host, e.host)) {
        f.rank = e.rank, f.rank_line = e.line;
        if (f.host.empty()) f.host = e.host;
        return;
      }
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

void Judge::name_rank_from_launcher(LogEvent& f) const {
  if (f.rank) return;
  const auto root = in_.launcher_root_by_file.find(f.file);
  if (root == in_.launcher_root_by_file.end() || root->second.line < f.line) return;
  if (f.local_rank && f.local_rank != root->second.local_rank) return;
  f.rank = root->second.rank, f.local_rank = root->second.local_rank;
  f.rank_line = root->second.line;
  if (!root->second.host.empty()) f.host = root->second.host;
}

void Judge::name_rank_of_gpu_fault(LogEvent& f) {
  if (f.rank || f.local_rank || !gpu_failed(f, facts(f.entry_id))) return;
  if (const std::optional<long> pid = read_xid_place(f.text).pid) {
    bool known = false, ours = false;
    for (const auto& [host, processes] : in_.placement.gpus)
      if (may_be_same_host(f.host, host)) known = true, ours = ours || processes.contains(*pid);
    if (known && !ours) return;
  }
  bool several = false;
  const LogEvent* named = rank_fault_near(f, several);
  // Failing that, the rank a fault of the same host near it is named for by the lines around
  // it (srun's "task 38: Exited" below a rank's undated "unspecified launch failure").
  if (!named && !several) {
    std::optional<int> only;
    bool differ = false;
    size_t looked_at = 0;  // (each costs a pass over the events: a few suffice)
    for (const LogEvent& e : in_.events) {
      if (e.rank || e.local_rank || !is_fault(e.role) || !near(f, e) ||
          e.category == "communication" || gpu_failed(e, facts(e.entry_id)))
        continue;
      if (++looked_at > kFaultsNamedNear) break;
      LogEvent copy = e;
      name_rank(copy);
      if (!copy.rank || copy.host.empty() || !may_be_on_one_host(f, copy)) continue;
      differ = differ || (only && *only != *copy.rank);
      only = copy.rank;
    }
    if (only && !differ) {
      f.rank = only;
      return;
    }
  }
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

const LogEvent* Judge::rank_fault_near(const LogEvent& f, bool& several) const {
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

}  // namespace gpuerr::query::judging
