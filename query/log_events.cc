#include "query/log_events.h"

#include <array>
#include <cctype>
#include <vector>

#include <hs/hs_runtime.h>

#include "indexer/error.h"
#include "query/clean.h"
#include "query/cue_database.h"
#include "query/cues.h"
#include "query/log_line.h"

namespace gpuerr::query {
namespace {

RE2::Options case_blind() {
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  return o;
}

// The cues as a Vectorscan database, which scans about ten times faster than RE2 here (7 against
// 0.65 GB/s on a 200 MB training log, bench/triage-throughput). It was compiled when gpuerr was
// built (query/compile_cues.cc: Vectorscan's compiler, 5 MB of code, would otherwise be loaded
// and relocated by every process) and is read back here. nullptr where the CPU lacks what
// Vectorscan needs (SSSE3), and RE2 does the work instead.
const hs_database_t* cue_database() {
  static const hs_database_t* db = []() -> const hs_database_t* {
    const std::span<const unsigned char> bytes =
        __builtin_cpu_supports("avx2") ? kCueDatabaseAvx2 : kCueDatabaseAnyCpu;
    hs_database_t* read = nullptr;
    if (hs_deserialize_database(reinterpret_cast<const char*>(bytes.data()), bytes.size(),
                                &read) != HS_SUCCESS)
      return nullptr;
    return read;  // kept for the life of the process
  }();
  return db;
}

std::string cue_alternatives() {
  std::string alternatives;
  for (const char* c : kCues) alternatives += (alternatives.empty() ? "" : "|") + std::string(c);
  return alternatives;
}

// Latin-1, as Vectorscan reads bytes: in UTF-8, RE2 would also take the long s and the Kelvin
// sign for "s" and "k", and the two scanners would stop at different lines.
const RE2& cue_regex() {
  static const RE2 cue(cue_alternatives(), [] {
    RE2::Options o = case_blind();
    o.set_encoding(RE2::Options::EncodingLatin1);
    return o;
  }());
  return cue;
}

// Where the first cue at or after `from` starts, or npos. (Vectorscan reports the cue that ends
// first and RE2 the one that starts first; no cue spans a line break, so both are on the first
// line that holds a cue.)
size_t next_with_re2(std::string_view text, size_t from) {
  re2::StringPiece match;
  if (!cue_regex().Match(re2::StringPiece(text.data(), text.size()), from, text.size(),
                         RE2::UNANCHORED, &match, 1))
    return std::string_view::npos;
  return static_cast<size_t>(match.data() - text.data());
}

// Where the first cue at or after `from` ends (a position inside it), or npos.
size_t next_with_vectorscan(const hs_database_t* db, std::string_view text, size_t from) {
  // One scratch per thread, as Vectorscan requires, allocated once: hs_alloc_scratch checks
  // the database's checksum on every call (5% of a triage when it ran for each cue hit).
  thread_local hs_scratch_t* scratch = nullptr;
  if (!scratch && hs_alloc_scratch(db, &scratch) != HS_SUCCESS) return next_with_re2(text, from);
  size_t found = std::string_view::npos;
  auto first = [](unsigned, unsigned long long, unsigned long long to, unsigned,
                  void* context) -> int {
    *static_cast<size_t*>(context) = static_cast<size_t>(to);
    return 1;  // the first match is enough: stop
  };
  hs_scan(db, text.data() + from, static_cast<unsigned>(text.size() - from), 0, scratch, first,
          &found);
  return found == std::string_view::npos ? found : from + found - 1;
}

}  // namespace

size_t CueScanner::next(std::string_view text, size_t from) {
  if (from >= text.size()) return std::string_view::npos;
  if (scanned_with_re2_ >= bytes_before_vectorscan_)
    if (const hs_database_t* db = cue_database()) return next_with_vectorscan(db, text, from);
  const size_t found = next_with_re2(text, from);
  scanned_with_re2_ += (found == std::string_view::npos ? text.size() : found) - from;
  return found;
}

bool worth_reading(std::string_view message) {
  return next_with_re2(message, 0) != std::string_view::npos;
}

std::optional<SaveLine> read_save(std::string_view message) {
  // A line that says a save went wrong, or reads a checkpoint back, reports no save.
  static const RE2 not_a_save(
      R"(\b(?:fail\w*|error|unable|cannot|could ?n[o']t|not (?:be )?saved|skip\w*|abort\w*|)"
      R"(load\w*|restor\w*|resum\w*)\b)",
      case_blind());
  // Completed saves, as PyTorch Lightning, DeepSpeed (each rank's "[Torch] Saved <file>." and
  // "Checkpoint <tag> is ready now!"), Megatron, torch.distributed.checkpoint (torchtitan) and
  // Orbax ("Finished asynchronous save (blocking + background) in 29.12 seconds to <path>")
  // report them, and as a training loop of one's own words it: "checkpoint saved", "saved
  // checkpoint", "wrote ckpt", "checkpoint ... written"; Ray Train's "Checkpoint successfully
  // created at: Checkpoint(...)". (Hugging Face Trainer's are read as first_part, below.)
  // The word is not taken from inside a path ("Configuration saved in out/checkpoint-9/..."),
  // but a path may stand between the two words ("checkpoint /ckpt/ep1.pt written") or follow
  // an arrow ("checkpoint -> /ckpt/model_400.pth"); or the path alone may say it, after "saved"
  // ("saved /ckpt/run/step_001000.pt", "saved /scratch/ckpt/ckpt_000500.pth").
  static const RE2 done(
      R"(Checkpoint \S+ is ready now|\[Torch\] Saved \S|)"
      R"(Async checkpoint save for step \d+ .*finalized successfully|)"
      R"(Finished asynchronous save \(blocking \+ background\)|Save Finalize is done on all hosts|)"
      R"(Finished saving the checkpoint|)"
      R"(\b(?:saved|wrote|written|stored|committed)\b[^\n/]{0,40}?\b(?:checkpoint|ckpt)|)"
      R"(\b(?:checkpoint|ckpt)\b[^\n/]{0,80}?\b(?:saved|wrote|written|stored|committed|)"
      R"(complete[d]?|finished|done|created)\b|)"
      R"(\b(?:checkpoint|ckpt)\s+['"]?\S*/\S*?['"]?\s+(?:(?:has been|was|is)\s+)?)"
      R"((?:saved|written|stored|committed|completed?|finished|done|created)\b|)"
      R"(\b(?:checkpoint|ckpt)\s*(?:->|=>)\s*['"]?\S*/|)"
      R"(\bsaved:?\s+['"]?\S*/\S*(?:ckpt|checkpoint|\.pth?\b))",
      case_blind());
  // Starts of saves whose end the same framework reports: DeepSpeed (each part's "[Torch] Saving
  // <file>..." and the whole's "is about to be saved!"), torchtitan, Hugging Face Trainer,
  // Megatron ("saving checkpoint at iteration 100 to ..." then "successfully saved"), NeMo's
  // asynchronous saves ("Scheduled async checkpoint save for <path>", written in the background
  // while training goes on, until "Async checkpoint save for step N (<path>) finalized").
  static const RE2 started_end_logged(
      R"(Checkpoint \S+ is about to be saved|Saving the checkpoint \(or staging|)"
      R"(Saving model checkpoint\b|\[Torch\] Saving \S|saving checkpoint at iteration|)"
      R"(Scheduled async checkpoint save for)",
      case_blind());
  // Starts whose end is never logged: Lightning's ModelCheckpoint prints "saving model to
  // '<path>'" before it writes, and a loop of one's own "saving checkpoint ...".
  static const RE2 started(
      R"(saving model to ['"]?\S+|\b(?:saving|writing)\b[^\n]{0,40}?\b(?:checkpoint|ckpt))",
      case_blind());
  // Hugging Face Trainer's model weights are the first part of its checkpoint: it writes the
  // optimizer's, scheduler's and trainer's state after them without a line of its own, so the
  // save has completed once the program goes on (Triage's open saves).
  static const RE2 first_part(R"(Model weights saved in|split in \d+ checkpoint shards)");
  if (RE2::PartialMatch(message, not_a_save)) return std::nullopt;
  SaveLine save;
  // A save announced ("Checkpoint global_step9 is about to be saved!") also says "saved".
  static const RE2 announced(R"(\b(?:about to be|will be|being) (?:saved|written)\b)",
                             case_blind());
  const bool end_logged = RE2::PartialMatch(message, announced);
  if (RE2::PartialMatch(message, first_part))
    save.completed = false;
  else if (!end_logged && RE2::PartialMatch(message, done))
    save.completed = true;
  else if (end_logged || RE2::PartialMatch(message, started_end_logged))
    save.completed = false, save.end_logged = true;
  else if (RE2::PartialMatch(message, started)) save.completed = false;
  else return std::nullopt;
  // The first word with a slash, without the quotes and the sentence's end around it.
  static const RE2 path(R"((?:^|[\s'"(\[])([^\s'"(\[]*/[^\s'",]*))");
  std::string found;
  if (RE2::PartialMatch(message, path, &found)) {
    while (!found.empty() && std::string_view(".,:;)]'\"").find(found.back()) != std::string::npos)
      found.pop_back();
    save.group = save_group(found);
    save.path = std::move(found);
  }
  return save;
}

std::optional<std::string> read_resume(std::string_view message) {
  static const RE2 failed(
      R"(\b(?:fail\w*|error|unable|cannot|could ?n[o']t|not found|no such|missing|skip\w*)\b)",
      case_blind());
  // The option naming what to resume from, in a command the job script echoes (`set -x`), or a
  // variable it sets for that (`+ RESUME_FROM=/ckpt/step_2800`), and the words frameworks log
  // when they read a checkpoint back ("resuming from <path>", Ray Train's "Resuming from
  // Checkpoint(filesystem=local, path=<path>)"), each followed by its path.
  static const RE2 resume(
      R"((?:--resume(?:[_-]from(?:[_-]checkpoint)?)?[ =]|--load[ =]|\b\w*resume\w*=|)"
      R"(\bresum(?:ing|ed|e)(?: training)? from\b[^\n/]{0,40}?|)"
      R"(\b(?:load(?:ing|ed)?|resum(?:ing|ed)|restor(?:ing|ed))\b[^\n/]{0,60}?)"
      R"(\b(?:checkpoint|ckpt)\b[^\n/]{0,20}?))"
      R"(['"]?((?:[\w.~-]*/)+[\w.=+@-]+))",
      case_blind());
  std::string path;
  if (!RE2::PartialMatch(message, resume, &path) || RE2::PartialMatch(message, failed))
    return std::nullopt;
  return path;
}

bool in_traceback(std::string_view message) {
  // A traceback's header, frames and carets, the lines that join two of them, C++ frames.
  static const RE2 traceback(
      R"(^(?:\s|Traceback \(most recent call last\)|File "|\^|~|During handling of|)"
      R"(The above exception|frame #\d|Exception raised from))");
  return RE2::PartialMatch(message, traceback);
}

bool is_save_frame(std::string_view message) {
  static const RE2 frame(R"(^\s*File "[^"]*", line \d+, in (\w+))");
  std::string function;
  if (!RE2::PartialMatch(message, frame, &function)) return false;
  for (char& c : function) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool saves = function.find("save") != std::string::npos ||
                     function.find("state_dict") != std::string::npos;
  return saves && function.find("load") == std::string::npos;
}

std::optional<ExceptionLine> read_exception(std::string_view message) {
  if (message.empty() || !std::isalpha(static_cast<unsigned char>(message[0])))
    return std::nullopt;
  // "ZeroDivisionError: division by zero", "torch.distributed.DistBackendError: ...",
  // "ModuleNotFoundError: No module named 'x'", a bare "StopIteration" is not one (no Error).
  static const RE2 exception(R"(^(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::\s|:?$))");
  ExceptionLine e;
  if (!RE2::PartialMatch(message, exception, &e.type)) return std::nullopt;
  e.environment = e.type == "ImportError" || e.type == "ModuleNotFoundError" ||
                  e.type == "FileNotFoundError" || e.type == "PermissionError";
  return e;
}

namespace {

// A line of torchrun's failure summary, whose banners and fields hold no cue word: "=====",
// "train.py FAILED", "<NO_OTHER_FAILURES>", "[0]:", "  host      : node-4".
bool in_failure_summary(std::string_view message) {
  static const RE2 summary(
      R"(^\s*(?:[=-]{8,}|<NO_OTHER_FAILURES>|\[\d+\]:|\S+ FAILED|Failures:|)"
      R"((?:time|host|rank|exitcode|error_file|traceback)\s+:.*)\s*$)");
  return RE2::PartialMatch(message, summary);
}

// c10's log prefix without its date, at the error or warning level: "[E ProcessGroupNCCL.cpp:495]
// To avoid data inconsistency, we are taking the entire process down." is no work.
bool at_error_level(std::string_view message) {
  static const RE2 c10(R"(^\[[EWF] [\w.-]+:\d+\])");
  return message.starts_with("[") && RE2::PartialMatch(message, c10);
}

}  // namespace

bool shows_work(std::string_view lines, std::optional<int> rank, int year, bool frame_before) {
  constexpr size_t kMostLines = 64;
  size_t looked_at = 0;
  bool work = false, after_frame = frame_before;
  // Of one line: does it show work, and is it part of a traceback? A blank line or a bare time
  // is neither; the line below a frame is its source line.
  auto look_at = [&](std::string_view text, bool& shows, bool& in_traceback) {
    // (a progress bar redraws with '\r': what follows the last one is what a terminal shows,
    // and a leading '\r' is no traceback's indent)
    if (const size_t cr = text.rfind('\r'); cr != std::string_view::npos)
      text.remove_prefix(cr + 1);
    const ParsedLine p = parse_line(text, year);
    const size_t start = p.message.find_first_not_of(" \t");
    if (start == std::string_view::npos) return;
    const bool source_line = after_frame;
    after_frame = p.message.substr(start).starts_with("File \"");
    if (source_line || query::in_traceback(p.message)) in_traceback = true;
    // (a launcher tearing the job down, or a kill, is no work: "Sending process 26219 closing
    // signal SIGTERM" right after a save began says it never completed)
    else if (is_teardown(p.message) || read_kill(p.message) || in_failure_summary(p.message) ||
             at_error_level(p.message))
      in_traceback = true;
    else if (!p.origin.rank || !rank || p.origin.rank == rank) shows = true;
  };
  for_each_line(lines, [&](std::string_view text) {
    if (work || ++looked_at > kMostLines) return;
    bool shows = false, in_traceback = false;
    // A structured logger's record shows work when its strings do and none is a traceback's.
    std::optional<std::string> strings;
    if (!text.empty() && text.back() == '}') strings = json_record_strings(text);
    if (strings)
      for_each_line(*strings, [&](std::string_view s) { look_at(s, shows, in_traceback); });
    else
      look_at(text, shows, in_traceback);
    work = shows && !in_traceback;
  });
  return work;
}

std::string save_group(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return std::string(path);
  const std::string_view name = path.substr(slash + 1), folder = path.substr(0, slash);
  const std::string_view folder_name = folder.substr(folder.rfind('/') + 1);
  const bool file = name.find('.') != std::string_view::npos;
  const bool step_folder = folder_name.find_first_of("0123456789") != std::string_view::npos;
  return std::string(file && step_folder ? folder : path);
}

// Does the text around a "NAME=value" offer it as advice rather than report it in effect?
// PyTorch and NCCL messages suggest settings: "For debugging consider passing
// CUDA_LAUNCH_BLOCKING=1", "try setting PYTORCH_CUDA_ALLOC_CONF=...", "(run with NCCL_DEBUG=INFO
// for details)", "(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun ...)".
bool offered(std::string_view before, std::string_view after) {
  static const RE2 advice_before(
      R"(\b(?:consider|try|trying|rerun|re-run|run with|use|pass|passing|please|recommend\w*|)"
      R"(maybe|suggest\w*|should|you can|you may|you could|either|disable the|enable the|e\.g\.|)"
      R"(for example|such as|instead)\b[^.!?]*$)",
      case_blind());
  static const RE2 advice_after(
      R"(^\S*\s+(?:and re-?run|for details|for more|to get|to see|to enable|to avoid|to debug|)"
      R"(to find|(?:will|may|might|could) (?:help|improve|fix)))",
      case_blind());
  if (before.size() > 80) before.remove_prefix(before.size() - 80);
  return RE2::PartialMatch(before, advice_before) ||
         RE2::PartialMatch(after.substr(0, 40), advice_after);
}

std::vector<std::string> read_settings(std::string_view message) {
  static const RE2 variable(
      R"(\b((?:PYTORCH|TORCH|NCCL|CUDA|XLA|TF|NVIDIA|CUBLAS|CUDNN)_[A-Z0-9_]+)=)"
      R"(([^\s'",;]+(?:,[^\s'",;]+)*))");  // a list's commas: "NCCL_IB_HCA=mlx5_0,mlx5_3"
  // NCCL's own report of what it read from the environment: "NCCL_IB_HCA set by environment to
  // mlx5_0", "NCCL_SOCKET_IFNAME set to ib0".
  static const RE2 nccl_read(R"(\b(NCCL_[A-Z0-9_]+) set (?:by environment )?to (\S+))");
  static const RE2 version(
      R"((?i)\b(NCCL version \d+\.\d+\.\d+|Driver Version:\s*\d+(?:\.\d+)+|CUDA Version:\s*\d+\.\d+|)"
      R"(torch(?:==|\s+version\s*:?\s*)\d+\.\d+\.\d+\S*))");
  std::vector<std::string> out;
  re2::StringPiece in(message.data(), message.size());
  std::string name, value;
  while (RE2::FindAndConsume(&in, variable, &name, &value)) {
    const size_t end = static_cast<size_t>(in.data() - message.data());
    const size_t start = end - name.size() - 1 - value.size();
    if (!offered(message.substr(0, start), message.substr(end))) out.push_back(name + "=" + value);
  }
  if (RE2::PartialMatch(message, nccl_read, &name, &value)) out.push_back(name + "=" + value);
  in = re2::StringPiece(message.data(), message.size());
  std::string v;
  while (RE2::FindAndConsume(&in, version, &v)) out.push_back(v);
  return out;
}

std::optional<WatchdogLine> read_watchdog(std::string_view message) {
  static const RE2 timed_out(R"(WorkNCCL\(SeqNum=(\d+))");
  static const RE2 progress(
      R"(last enqueued (?:NCCL )?work: (\d+), last completed (?:NCCL )?work: (\d+))");
  WatchdogLine w;
  long seq = 0, enqueued = 0, completed = 0;
  static const RE2 op(R"(\bOpType=(\w+))");
  if (RE2::PartialMatch(message, timed_out, &seq) &&
      message.find("timeout") != std::string_view::npos) {
    w.timed_out_seq = seq;
    RE2::PartialMatch(message, op, &w.op_type);
  }
  if (RE2::PartialMatch(message, progress, &enqueued, &completed))
    w.last_enqueued = enqueued, w.last_completed = completed;
  if (!w.timed_out_seq && !w.last_enqueued) return std::nullopt;
  static const RE2 group(R"(\[PG (?:ID )?(\d{1,9})(?: PG GUID (\d{1,9}))?)");
  std::string id, guid;
  if (RE2::PartialMatch(message, group, &id, &guid)) w.group = std::stoi(guid.empty() ? id : guid);
  return w;
}

std::optional<NcclPlacement> read_nccl_placement(std::string_view message) {
  static const RE2 bus(R"(\bbusId ([0-9a-fA-F]{1,15})\b)");
  static const RE2 nodes(R"(\bnNodes (\d+) localRanks (\d+)\b)");
  static const RE2 comm(R"(\bcomm 0x[0-9a-fA-F]+ rank (\d{1,6}) nranks (\d{1,6})\b)");
  NcclPlacement p;
  std::string hex;
  int n = 0, local = 0, rank = 0, ranks = 0;
  if (RE2::PartialMatch(message, bus, &hex)) p.bus_id = std::stol(hex, nullptr, 16);
  if (RE2::PartialMatch(message, nodes, &n, &local)) p.nodes = n, p.local_ranks = local;
  if (p.bus_id && RE2::PartialMatch(message, comm, &rank, &ranks)) p.rank = rank, p.ranks = ranks;
  if (!p.bus_id && !p.nodes) return std::nullopt;
  return p;
}

XidPlace read_xid_place(std::string_view message) {
  // NCCL reads "0000:b7:00.0" as the hexadecimal number of its digits; an Xid names the domain,
  // bus and device, and a GPU is function 0.
  static const RE2 pci(R"(Xid \((?:PCI:)?([0-9a-fA-F]{4}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\))");
  static const RE2 pid(R"(\): \d+, pid=(\d+))");
  XidPlace x;
  std::string domain, bus, device;
  long n = 0;
  if (RE2::PartialMatch(message, pci, &domain, &bus, &device))
    x.bus_id = std::stol(domain + bus + device + "0", nullptr, 16);
  if (RE2::PartialMatch(message, pid, &n)) x.pid = n;
  return x;
}

std::optional<std::pair<int, int>> read_collective_mismatch(std::string_view message) {
  if (message.find("Detected mismatch between collectives") == std::string_view::npos)
    return std::nullopt;
  static const RE2 ranks(
      R"(\bRank (\d{1,6}) is running collective: .*?, but Rank (\d{1,6}) is running)");
  int self = 0, other = 0;
  if (!RE2::PartialMatch(message, ranks, &self, &other) || self == other) return std::nullopt;
  return std::make_pair(self, other);
}

std::optional<RendezvousField> read_rendezvous_field(std::string_view message) {
  static const RE2 restart(R"(^\s*restart_count=(\d{1,6})\s*$)");
  static const RE2 ranks(R"(^\s*global_ranks=\[([\d, ]*)\]\s*$)");
  RendezvousField f;
  int n = 0;
  std::string list;
  if (RE2::PartialMatch(message, restart, &n)) {
    f.restart = n;
    return f;
  }
  if (!RE2::PartialMatch(message, ranks, &list)) return std::nullopt;
  re2::StringPiece rest(list);
  static const RE2 number(R"(\s*(\d{1,6}),?)");
  constexpr size_t kMaxRanksListed = 1024;  // (one node's workers)
  while (f.global_ranks.size() < kMaxRanksListed && RE2::Consume(&rest, number, &n))
    f.global_ranks.push_back(n);
  return f;
}

std::optional<int> read_desync_named(std::string_view message) {
  // (a list of several ranks, "[0, 1, 2] finished collective #9, ...", names no one rank)
  static const RE2 named(
      R"(^\s*(?:- )?\[(\d{1,6})\] (?:finished collective #\d+, but didn't join|)"
      R"(joined but didn't finish) collective #\d+|ranks \[(\d{1,6})\] are the lagging ranks)");
  if (message.find("collective #") == std::string_view::npos &&
      message.find("lagging ranks") == std::string_view::npos)
    return std::nullopt;
  std::string in_list, never_joined;
  if (!RE2::PartialMatch(message, named, &in_list, &never_joined)) return std::nullopt;
  return std::stoi(in_list.empty() ? never_joined : in_list);
}

std::optional<RayWorker> read_ray_worker(std::string_view message) {
  if (message.find("world_rank=") == std::string_view::npos) return std::nullopt;
  static const RE2 worker(
      R"(\(node_id=\w+, ip=([\d.]+), pid=(\d+)\) world_rank=(\d{1,6})\b)");
  RayWorker w;
  if (!RE2::PartialMatch(message, worker, &w.ip, &w.pid, &w.rank)) return std::nullopt;
  return w;
}

std::optional<GpuListing> read_gpu_listing(std::string_view message) {
  // (most lines read are neither: a row of the table or the processes starts with '|', and the
  // CSV's holds a PCI domain)
  const size_t first = message.find_first_not_of(" \t");
  if (first == std::string_view::npos ||
      (message[first] != '|' && message.find("0000:") == std::string_view::npos))
    return std::nullopt;
  // (a PCI address's domain as nvidia-smi prints it has eight digits, the Xid's four)
  static const RE2 table(
      R"(^\|\s+(\d{1,2})\s+\S[^|]*\|\s*[0-9A-Fa-f]{0,4}([0-9A-Fa-f]{4}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})\.([0-9A-Fa-f])\s)");
  static const RE2 csv(
      R"(^\s*(\d{1,2}),[^|\n]*?\b[0-9A-Fa-f]{0,4}([0-9A-Fa-f]{4}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})\.([0-9A-Fa-f])\b)");
  static const RE2 process(
      R"(^\|\s+(\d{1,2})\s+(?:N/A|\d+)\s+(?:N/A|\d+)\s+(\d{1,9})\s+[CGM+]{1,3}\s)");
  GpuListing g;
  std::string domain, bus, device, function;
  if (RE2::PartialMatch(message, table, &g.index, &domain, &bus, &device, &function) ||
      RE2::PartialMatch(message, csv, &g.index, &domain, &bus, &device, &function)) {
    g.bus_id = std::stol(domain + bus + device + function, nullptr, 16);
    return g;
  }
  if (long pid = 0; RE2::PartialMatch(message, process, &g.index, &pid)) {
    g.pid = pid;
    return g;
  }
  return std::nullopt;
}

std::optional<RankNaming> read_rank_naming(std::string_view message) {
  if (message.find("local_rank") == std::string_view::npos &&
      message.find("LOCAL_RANK") == std::string_view::npos &&
      message.find("local rank") == std::string_view::npos)
    return std::nullopt;
  // (as key=value, "key": value, or words and a value: "rank 14/16 host gn091 local_rank 6 pid
  // 466723", "global rank 2/16 local rank 2 pid 91436"; or as the environment a launcher set,
  // printed: "RANK=1 WORLD_SIZE=4 ... LOCAL_RANK=0")
  static const RE2 local(R"((?i)\blocal[_ ]rank["']?\s*[=:]?\s*(\d{1,6})\b)");
  static const RE2 rank(
      R"((?i)(?:^|[\s,;(\[{])["']?(?:global[_ ])?rank["']?\s*[=:]?\s*(\d{1,6})\b)");
  static const RE2 host(R"(\bhost(?:name)?["']?\s*[=:]?\s*["']?([A-Za-z][\w.-]*))");
  static const RE2 pid(R"(\bpid["']?\s*[=:]?\s*(\d{1,9})\b)");
  RankNaming n;
  re2::StringPiece local_match;
  if (!local.Match(message, 0, message.size(), RE2::UNANCHORED, &local_match, 1) ||
      !RE2::PartialMatch(local_match, local, &n.local_rank))
    return std::nullopt;
  // (the rank is read with the local rank's words blanked out: "local rank 2" holds "rank 2")
  std::string rest(message);
  rest.replace(static_cast<size_t>(local_match.data() - message.data()), local_match.size(),
               local_match.size(), ' ');
  if (!RE2::PartialMatch(rest, rank, &n.rank)) return std::nullopt;
  RE2::PartialMatch(message, host, &n.host);
  if (long p = 0; RE2::PartialMatch(message, pid, &p)) n.pid = p;
  return n;
}

std::optional<KillLine> read_kill(std::string_view message) {
  // Every line below holds one of these; most lines read (NCCL's INFO chatter) hold none.
  if (message.find("ill") == std::string_view::npos &&
      message.find("Out Of Memory") == std::string_view::npos &&
      message.find("-9") == std::string_view::npos &&
      message.find("ignal 9") == std::string_view::npos &&  // Signal 9, signal 9
      message.find("-11") == std::string_view::npos &&
      message.find("ignal 11") == std::string_view::npos &&
      message.find("egmentation fault") == std::string_view::npos &&
      message.find("segfault at") == std::string_view::npos)
    return std::nullopt;
  static const RE2 oom_killer(
      R"((?:Out of memory|Memory cgroup out of memory): Kill(?:ed)? process (\d+))");
  static const RE2 slurm_oom(R"(Detected \d+ oom[-_]kill event)");
  static const RE2 srun_task(
      R"(srun: error: ([\w.-]+): tasks? (\d+)[\d,-]*: (Out Of Memory|Killed|Segmentation fault))");
  static const RE2 torchrun(R"(failed \(exitcode: (-9|-11)\) local_rank: (\d+) \(pid: (\d+)\))");
  static const RE2 signal_pid(R"(Signal (9|11) \(SIG(?:KILL|SEGV)\) received by PID (\d+))");
  static const RE2 mpirun(
      R"(mpirun noticed that process rank (\d+) with PID (\d+) on node \S+ exited on )"
      R"(signal (9|11)\b)");
  static const RE2 data_loader(R"(DataLoader worker \(pid (\d+)\) is killed by signal: Killed)");
  // DeepSpeed's launcher on a node: "[... '--local_rank=7', ...] exits with return code = -9".
  // The command it prints is the last one it started, not the one that died: no local rank.
  static const RE2 deepspeed(R"(\] exits with return code = (-9|-11)\b)");
  // Ray's memory monitor: "Memory on the node (IP: 10.0.0.7, ID: ...) where the task (..., pid=
  // 1818290, ...) was running was ... Ray killed this worker", and the task's own report, "Task
  // was killed due to the node running low on memory."
  static const RE2 ray_monitor(
      R"(Memory on the node \(IP: ([\d.]+)[^)]*\) where the (?:task|actor) \([^)]*?\bpid=(\d+))");
  static const RE2 ray_task(R"(killed due to the node running low on memory)");
  // Kubernetes: a container over its memory limit, in `kubectl describe pod` ("Reason:
  // OOMKilled" under its state or last state) and `kubectl get pods` ("<pod> 0/1 OOMKilled").
  static const RE2 kubernetes(R"(^\s*Reason:\s+OOMKilled\b|^\s*(\S+)\s+\d+/\d+\s+OOMKilled\b)");
  // Python's faulthandler, in the crashed process's own output; the kernel's report of it
  // ("python[61236]: segfault at 8 ip 00007f... error 4 in libfoo.so[...]").
  static const RE2 faulthandler(R"(^Fatal Python error: Segmentation fault)");
  static const RE2 kernel_segfault(R"(\[(\d+)\]: segfault at )");
  KillLine k;
  long pid = 0;
  int number = 0, signal = 9;
  std::string how;
  if (RE2::PartialMatch(message, oom_killer, &pid)) k.host_memory = true, k.pid = pid;
  else if (RE2::PartialMatch(message, slurm_oom)) k.host_memory = true;
  else if (RE2::PartialMatch(message, srun_task, &k.host, &number, &how))
    k.host_memory = how == "Out Of Memory", k.segfault = how == "Segmentation fault",
    k.rank = number;
  else if (RE2::PartialMatch(message, torchrun, &signal, &number, &pid))
    k.local_rank = number, k.pid = pid, k.agent = true;
  else if (RE2::PartialMatch(message, signal_pid, &signal, &pid)) k.pid = pid, k.agent = true;
  else if (RE2::PartialMatch(message, mpirun, &number, &pid, &signal))
    k.rank = number, k.pid = pid;
  else if (RE2::PartialMatch(message, data_loader, &pid)) k.pid = pid;
  else if (RE2::PartialMatch(message, deepspeed, &signal)) k.agent = true;
  else if (RE2::PartialMatch(message, ray_monitor, &k.host, &pid))
    k.host_memory = true, k.pid = pid;
  else if (RE2::PartialMatch(message, ray_task)) k.host_memory = true;
  else if (RE2::PartialMatch(message, kubernetes, &k.host))
    k.host_memory = true;
  else if (RE2::PartialMatch(message, faulthandler)) k.segfault = true;
  else if (RE2::PartialMatch(message, kernel_segfault, &pid)) k.segfault = true, k.pid = pid;
  else return std::nullopt;
  if (signal == -11 || signal == 11) k.segfault = true;
  // the kernel's report names the module the crash was in: "error 4 in
  // _sparse_attn_C.cpython-310-x86_64-linux-gnu.so[7f36a58e30+13742]"
  static const RE2 module(R"(: segfault at .* in ([^\s\[]+)\[)");
  if (k.segfault) RE2::PartialMatch(message, module, &k.module);
  return k;
}

bool is_teardown(std::string_view message) {
  static const RE2 teardown(
      R"(Sending process \d+ closing signal SIG|ChildFailedError|failed \(exitcode: -?\d+\)|)"
      R"(srun: error: .*Exited with exit code|\*\*\* (?:STEP|JOB) .* CANCELLED|)"
      R"(mpirun noticed that process rank|terminate called after throwing|)"
      R"(Signal \d+ \(SIG\w+\) received|exited on signal|Received [\w.]+ death signal|)"
      R"(SignalException: Process \d+ got signal)");  // torchrun's agent, stopped by a signal
  // Slurm's cancel names its reason when it is not the job's own failure: a cause, looked up.
  static const RE2 cause(R"(CANCELLED AT \S+ DUE TO (?:TIME LIMIT|NODE FAILURE|PREEMPTION))");
  return RE2::PartialMatch(message, teardown) && !RE2::PartialMatch(message, cause);
}

bool chains_exceptions(std::string_view message) {
  return message.starts_with("During handling of the above exception") ||
         message.starts_with("The above exception was the direct cause");
}

namespace {
std::string_view without_trailing_blanks(std::string_view message) {
  while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
    message.remove_suffix(1);
  return message;
}
}  // namespace

bool says_last_error(std::string_view message) {
  return without_trailing_blanks(message).ends_with("Last error:");
}

bool announces_details(std::string_view message) {
  return without_trailing_blanks(message).ends_with(':');
}

bool says_retrying(std::string_view message) {
  // c10d's client socket warns of each failed attempt while it keeps trying ("[W socket.cpp:697]
  // [c10d] The client socket has failed to connect to [node1]:29500 (errno: 111 - Connection
  // refused)."); when it gives up it says so as an error ("[E socket.cpp:753] ... any network
  // address", "timed out after").
  if (message.find("socket.cpp:") != std::string_view::npos) {
    static const RE2 c10d_warning(R"(\[W[\d .:]*socket\.cpp:\d+\] \[c10d\])");
    if (RE2::PartialMatch(message, c10d_warning)) return true;
  }
  if (message.find("etry") == std::string_view::npos) return false;
  static const RE2 retrying(R"((?i)\b(?:retrying|will retry|retry(?:ing)? in \d)\b)");
  return RE2::PartialMatch(message, retrying);
}

bool opens_failure_summary(std::string_view message) {
  return message.find("Root Cause (first observed failure)") != std::string_view::npos;
}

bool opens_summary_block(std::string_view text) {
  static const RE2 block(R"((?:^|\s)\[\d{1,6}\]:\s*$)");
  return RE2::PartialMatch(text, block);
}

bool opens_failures_list(std::string_view message) {
  while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
    message.remove_suffix(1);
  return message == "Failures:";
}

std::optional<LauncherField> read_failure_summary_field(std::string_view message) {
  static const RE2 field(R"(^\s*(time|host|rank|exitcode)\s*:\s*(.+?)\s*$)");
  std::string name, value;
  if (!RE2::PartialMatch(message, field, &name, &value)) return std::nullopt;
  return LauncherField{name, value};
}

SavePatterns::SavePatterns(const std::vector<std::string>& patterns) {
  for (const std::string& p : patterns) {
    auto re = std::make_unique<RE2>(p, RE2::Quiet);
    if (!re->ok()) throw Error("checkpoint pattern '" + p + "' does not compile: " + re->error());
    compiled_.push_back(std::move(re));
  }
}

bool SavePatterns::match(std::string_view message) const {
  for (const auto& re : compiled_)
    if (RE2::PartialMatch(message, *re)) return true;
  return false;
}

}  // namespace gpuerr::query
