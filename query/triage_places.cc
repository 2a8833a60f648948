// Where the job's processes run and which rank a line is: NCCL's lines, an Xid's GPU and process,
// pdsh's host prefixes, torchrun's failure summary, srun's exits, kills. Part of triage's reader
// (triage_impl.h).
#include "query/triage_impl.h"

#include <map>
#include <set>

namespace gpuerr::query {

void Triage::Impl::read_known_host(ParsedLine& p, const FileState& state) const {
  const size_t colon = p.message.find(": ");
  if (colon == std::string_view::npos || colon == 0 || colon > 64) return;
  const std::string host(p.message.substr(0, colon));
  if (!state.pdsh_hosts.contains(host) &&
      !read_so_far.placement.hosts.contains(short_host(host)))
    return;
  ParsedLine rest = parse_line(p.message.substr(colon + 2), year);
  if (!rest.origin.host.empty() && short_host(rest.origin.host) != short_host(host)) return;
  rest.origin.host = host;
  if (!rest.origin.time) rest.origin.time = p.origin.time, rest.origin.zone = p.origin.zone;
  if (!rest.origin.rank) rest.origin.rank = p.origin.rank;
  p = rest;
}

void Triage::Impl::note_placement(const ParsedLine& p, std::optional<int> file_rank) {
  JobPlacement& job = read_so_far.placement;
  if (p.origin.host.empty() || job.overflowed) return;
  const std::string host = short_host(p.origin.host);
  if (p.origin.kernel) {
    if (job.kernel_hosts.size() < kMaxProcesses) job.kernel_hosts.insert(host);
    return;
  }
  const bool nccl = p.origin.pid && p.message.starts_with("NCCL ");
  if (!p.origin.rank && !nccl) return;
  if (job.hosts.size() >= kMaxProcesses || processes >= kMaxProcesses ||
      process_of_rank.size() >= kMaxProcesses) {
    job.overflowed = true;  // (not a job's logs; nothing is judged outside it)
    return;
  }
  job.hosts.insert(host);
  if (!nccl) return;
  std::map<long, std::set<long>>& on_host = job.gpus[host];
  auto it = on_host.find(*p.origin.pid);
  if (it == on_host.end()) {
    it = on_host.emplace(*p.origin.pid, std::set<long>{}).first;
    ++processes;
  }
  // (a NCCL line's "[4]" is its device; a per-rank file's name gives the rank)
  if (const std::optional<int> rank = p.origin.rank ? p.origin.rank : file_rank)
    process_of_rank.try_emplace(*rank, host, *p.origin.pid);
  if (p.message.find("busId") == std::string_view::npos &&
      p.message.find("nNodes") == std::string_view::npos)
    return;
  const std::optional<NcclPlacement> n = read_nccl_placement(p.message);
  if (!n) return;
  if (n->bus_id && it->second.size() < kMaxGpusPerProcess) it->second.insert(*n->bus_id);
  if (n->rank) {  // (the rank in its largest communicator, which may be the job's)
    auto [comm, added] =
        comm_rank_of_process.try_emplace({host, *p.origin.pid}, *n->ranks, *n->rank);
    if (!added && *n->ranks > comm->second.first) comm->second = {*n->ranks, *n->rank};
  }
  if (n->ranks) job.ranks = std::max(job.ranks, *n->ranks);
  if (n->nodes) job.nodes = std::max(job.nodes, *n->nodes);
  if (n->local_ranks) job.local_ranks[host] = std::max(job.local_ranks[host], *n->local_ranks);
}

void Triage::Impl::place_on_gpu(LogEvent& e, const JobPlacement& job,
                                const std::map<std::pair<std::string, long>, int>& rank_of_process,
                                const GpuPlaces& gpus) const {
  if (e.entry_id.starts_with("xid-")) {
    const XidPlace x = read_xid_place(e.text);
    e.gpu = x.bus_id;
    if (!e.rank && !e.local_rank) name_rank_of_xid(e, x, job, rank_of_process, gpus);
    return;
  }
  std::optional<std::pair<std::string, long>> process;
  if (e.pid && !e.host.empty()) process.emplace(short_host(e.host), *e.pid);
  else if (e.rank)
    if (auto it = process_of_rank.find(*e.rank); it != process_of_rank.end())
      process = it->second;
  if (!process) return;
  auto host = job.gpus.find(process->first);
  if (host == job.gpus.end()) return;
  auto used = host->second.find(process->second);
  if (used != host->second.end() && used->second.size() == 1) e.gpu = *used->second.begin();
}

void Triage::Impl::name_rank_of_xid(LogEvent& e, const XidPlace& x, const JobPlacement& job,
                                    const std::map<std::pair<std::string, long>, int>& rank_of,
                                    const GpuPlaces& gpus) {
  const std::string host = job.host_of(e.host);
  if (host.empty()) return;
  const auto name = [&](int rank) {
    e.rank = rank;
    if (e.host.empty()) e.host = host;
  };
  std::optional<long> pid;
  if (const auto processes = job.gpus.find(host); processes != job.gpus.end())
    for (const auto& [p, used] : processes->second)
      if (p == x.pid || (x.bus_id && used.contains(*x.bus_id))) {
        if (pid && *pid != p) return;  // two of the job's processes: none is named
        pid = p;
      }
  // (or a process only a launcher named, in torchrun's failure summary: its pid alone)
  if (!pid) pid = x.pid;
  if (pid)
    if (auto it = rank_of.find({host, *pid}); it != rank_of.end()) return name(it->second);
  if (const std::optional<int> rank = gpus.rank_on_gpu(host, x.bus_id, x.pid)) name(*rank);
}

std::optional<int> FileState::rank_of_worker(size_t line, const std::string& host,
                                             int local) const {
  // (a result's host is its line's prefix: one with none is the file's, any host it names)
  const auto of = [](const WorkerRanks& w, const std::string& h) {
    return w.host.empty() || h.empty() || short_host(w.host) == short_host(h);
  };
  const WorkerRanks* last = nullptr;
  for (const WorkerRanks& w : worker_ranks)
    if (w.line <= line && of(w, host)) last = &w;
  if (!last || static_cast<size_t>(local) >= last->ranks.size()) return std::nullopt;
  for (const WorkerRanks& w : worker_ranks)
    if (w.restart == last->restart && w.ranks != last->ranks && of(w, last->host) &&
        of(w, host))
      return std::nullopt;
  return last->ranks[local];
}

GpuPlaces Triage::Impl::place_gpus(const std::set<std::string>& hosts) const {
  const auto host_of = [&](const std::string& file, const std::string& named) {
    if (!named.empty()) return short_host(named);
    const auto state = files.find(file);
    if (state != files.end() && !state->second.host.empty()) return short_host(state->second.host);
    return host_in_file_name(file, hosts);
  };
  GpuPlaces g;
  for (const Listed& l : gpu_listings) {
    const std::string host = host_of(l.file, l.host);
    if (host.empty()) continue;
    if (l.gpu.bus_id) g.index_of_bus.try_emplace({host, *l.gpu.bus_id}, l.gpu.index);
    if (l.gpu.pid) g.index_of_pid.try_emplace({host, *l.gpu.pid}, l.gpu.index);
  }
  for (const Named& n : rank_namings) {
    const std::string host = host_of(n.file, n.naming.host.empty() ? n.host : n.naming.host);
    if (!host.empty()) g.rank_of_local.try_emplace({host, n.naming.local_rank}, n.naming.rank);
  }
  return g;
}

std::optional<int> Triage::Impl::rank_of_file_named_in(const std::string& file) const {
  const auto name = [](std::string_view path) { return path.substr(path.rfind('/') + 1); };
  std::map<std::string, std::set<int>> ranks_of_file;
  for (const Named& n : rank_namings) ranks_of_file[n.file].insert(n.naming.rank);
  // (each other file naming one rank, by its name without its extension, as host_in_name finds
  // a host's name as a word of a file's name: "worker-1" is not in "describe-pod-worker-10.txt")
  std::map<std::string, int> rank_of_stem;
  for (const auto& [other, ranks] : ranks_of_file) {
    const std::string_view base = name(other);
    const std::string stem(base.substr(0, base.rfind('.')));
    if (other != file && ranks.size() == 1 && stem.size() >= 3)
      rank_of_stem.emplace(stem, *ranks.begin());
  }
  std::set<std::string> stems;
  for (const auto& [stem, rank] : rank_of_stem) stems.insert(stem);
  const std::string found = host_in_name(name(file), stems);
  if (found.empty()) return std::nullopt;
  return rank_of_stem.at(found);
}

void Triage::Impl::note_gpu_and_rank(const std::string& file, const ParsedLine& p) {
  if (const std::optional<GpuListing> g = read_gpu_listing(p.message);
      g && gpu_listings.size() < kMaxProcesses)
    gpu_listings.push_back({file, p.origin.host, *g});
  const std::optional<RankNaming> n = read_rank_naming(p.message);
  if (!n || rank_namings.size() >= kMaxProcesses) return;
  rank_namings.push_back({file, p.origin.host, *n});
  const std::string host = n->host.empty() ? p.origin.host : n->host;
  if (!host.empty() && host_of_rank.size() < kMaxProcesses) host_of_rank.emplace(n->rank, host);
  if (!host.empty() && n->pid && process_of_rank.size() < kMaxProcesses)
    process_of_rank.try_emplace(n->rank, short_host(host), *n->pid);
  JobPlacement& job = read_so_far.placement;
  if (!n->host.empty() && !job.overflowed && job.hosts.size() < kMaxProcesses)
    job.hosts.insert(short_host(n->host));
}

void Triage::Impl::add_kill(const std::string& file, size_t line, std::string_view text,
                            const LineOrigin& o, std::optional<double> time, const KillLine& k) {
  if (read_so_far.kills.size() >= kMaxKills) return;
  LogEvent e;
  e.role = "killed";
  // (a crash in a Python extension module, "_C.cpython-310-x86_64-linux-gnu.so", is in compiled
  // code that the program loaded: its own or a package's, not the driver's or the GPU's)
  const bool in_extension = k.module.find(".cpython-") != std::string::npos;
  e.category = k.host_memory ? "resource" : in_extension ? "application" : "";
  if (k.segfault) e.finding = kSegfault;
  e.rank = k.rank ? k.rank : k.agent ? std::nullopt : o.rank;
  e.local_rank = k.local_rank ? k.local_rank : o.local_rank;
  e.host = k.host.empty() ? o.host : k.host;
  e.pid = k.pid ? k.pid : o.pid;
  e.time = time, e.year_guessed = o.year_guessed;
  e.time_inherited = time && !o.time && !o.uptime;
  e.file = file, e.line = line, e.text = clipped(text), e.order = order;
  e.reading = k.host_memory ? "killed by the out-of-memory killer: the host's memory (RAM) ran "
                              "out, not the GPU's"
              : in_extension
                  ? "crashed with a segmentation fault in the Python extension " + k.module +
                        ": compiled code the program loaded (its own "
                        "extension, or a package built for other versions)"
              : k.segfault ? "crashed with a segmentation fault (SIGSEGV): native code read "
                             "memory it does not own (an extension's or a library's bug, "
                             "libraries built for other versions, failing memory); its stack "
                             "tells which"
                           : "killed by SIGKILL; this log does not say who sent it (the "
                             "out-of-memory killer, the scheduler, a person)";
  read_so_far.kills.push_back(std::move(e));
}

void Triage::Impl::read_summary_field(const std::string& file, size_t line, std::string_view text,
                                      const ParsedLine& p, FileState& state) {
  SummaryBlock& block = state.summary;
  if (opens_summary_block(text)) {  // "[1]:": the next rank's block; the list may be long
    block = SummaryBlock{.root = block.root};
    state.summary_lines_left = kSummaryFieldLines, state.summary_opened = true;
    return;
  }
  std::optional<LauncherField> f = read_failure_summary_field(p.message);
  if (!f) return;
  if (f->name == "host") block.host = f->value;
  // "-6 (pid: 7788)"
  static const RE2 pid(R"(\(pid:\s*(\d{1,9})\))");
  if (long n = 0; f->name == "exitcode" && RE2::PartialMatch(f->value, pid, &n)) block.pid = n;
  if (f->name != "rank") {
    note_summary_process(block);
    return;
  }
  // "7 (local_rank: 3)"
  static const RE2 ranks(R"(^(\d{1,6})(?:\s*\(local_rank:\s*(\d{1,6})\))?)");
  std::string rank, local;
  if (!RE2::PartialMatch(f->value, ranks, &rank, &local)) return;
  block.rank = std::stoi(rank);
  note_summary_process(block);
  if (!block.root) return;
  if (!read_so_far.launcher_summary)
    read_so_far.launcher_summary = Evidence{file, line, "rank " + f->value};
  if (read_so_far.launcher_root_by_file.size() >= kMaxFilesTracked ||
      read_so_far.launcher_root_by_file.contains(file))
    return;
  read_so_far.launcher_root_by_file[file] = {
      *block.rank, local.empty() ? std::nullopt : std::optional<int>(std::stoi(local)), line,
      ""};
}

// A block that names a rank's host and process ties them as NCCL's lines do: an Xid's or the
// out-of-memory killer's pid on that host is that rank's. (Not "localhost": torchrun prints the
// host's own name for it, which the kernel's lines do not use.)
void Triage::Impl::note_summary_process(const SummaryBlock& block) {
  if (!block.rank || !block.pid || block.host.empty() || block.host == "localhost") return;
  JobPlacement& job = read_so_far.placement;
  if (job.overflowed || process_of_rank.size() >= kMaxProcesses ||
      job.hosts.size() >= kMaxProcesses)
    return;
  const std::string host = short_host(block.host);
  process_of_rank.try_emplace(*block.rank, host, *block.pid);
  job.hosts.insert(host);
}

void Triage::Impl::read_srun_exit(const std::string& file, size_t line, std::string_view message) {
  if (!message.starts_with("srun: error: ")) return;
  static const RE2 exit(
      R"(^srun: error: ([\w.-]+): task (\d{1,6}): Exited with exit code [1-9])");
  std::string host;
  int rank = 0;
  if (read_so_far.launcher_root_by_file.size() >= kMaxFilesTracked ||
      read_so_far.launcher_root_by_file.contains(file) ||
      !RE2::PartialMatch(message, exit, &host, &rank))
    return;
  read_so_far.launcher_root_by_file[file] = {rank, std::nullopt, line, host};
}

}  // namespace gpuerr::query
