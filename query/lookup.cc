#include "query/lookup.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <re2/re2.h>

#include "indexer/signature.h"
#include "query/clean.h"
#include "query/identifiers.h"
#include "query/log_events.h"
#include "query/log_line.h"

namespace gpuerr::query {
namespace {

// How many full-text hits are considered, and how much the words an entry matched must say
// (Store::information) before a full-text match alone can be trusted as much as it will ever
// be: about three words that few entries have. Words that most entries have ("not working in
// python", "gpu is slower than cpu") make a full match of a short text worth little: before this
// rule such matches answered 13 of the 63 issue titles in tests/eval/typed that name no one
// entry, and none after it.
constexpr int kTextCandidates = 20;
constexpr double kInformationForFullTrust = 14;
constexpr size_t kTextMatchesWeighed = 3;
// The line-by-line look at a paste (search_lines): how many lines, of how many different words
// each, what the best line's share of words counts for, and the share the whole paste needs for
// a look at all. Chosen on tests/eval/corpus; the holdout neither gained nor lost.
constexpr size_t kLinesSearched = 12;
constexpr size_t kWordsPerLineSearched = 6;
constexpr double kBestLineDiscount = 0.9;
constexpr double kLinesWorthSearching = 0.4;
constexpr double kLettersForFullSpecificity = 60;
constexpr double kEchoPenalty = 4.5;  // more than a signature, specificity and full text add
// A cause NCCL names after "Last error:" outranks the report naming it, whose code, signature,
// specificity and full text add up to at most 8.5.
constexpr double kNamedCauseBonus = 9;

// Confidence of each kind of evidence, calibrated on tests/eval/corpus (`gpuerr eval` prints
// the table): about the share of first answers with that evidence that were right. On 849
// messages: code and signature 273 of 275 right, signature 404 of 405, code alone 29 of 31;
// when another entry had the same kind of evidence ("contested"), 29 of 31. Full text alone only
// suggests an entry and never reaches certainty.
constexpr double kCodeAndSignature = 0.98;
constexpr double kSignatureOnly = 0.97;
constexpr double kCodeOnly = 0.93;
constexpr double kContested = 0.9;
constexpr double kTextOnlyMax = 0.65;
// Full text alone, beside an entry named by a code or a signature that is not an echo, or for
// an echo: a candidate, not an answer. On tests/eval (886 labelled messages) 110 full-text answers
// stood beside an exact one, and none was the expected entry.
constexpr double kTextBesideExact = 0.45;

struct Evidence {
  std::string code;
  std::string signature;  // the most specific signature that matched
  size_t signature_letters = 0;
  std::vector<SignatureHit> shown_hits;  // its signatures' hits in the paste as shown
  double text_score = 0;  // Xapian percent, 0..1
  double text_weight = 0; // BM25 weight relative to the best hit, 0..1
  double information = 0; // Store::information of the text for this entry, when it was read
};

// The different words of `text`, case folded: "self._target(*self._args)" has two.
size_t distinct_words(const std::string& text) {
  std::set<std::string> words;
  std::string word;
  for (char c : text + ' ') {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.insert(word);
      word.clear();
    }
  }
  return words.size();
}

double confidence(const Evidence& e) {
  if (!e.code.empty() && !e.signature.empty()) return kCodeAndSignature;
  if (!e.signature.empty()) return kSignatureOnly;
  if (!e.code.empty()) return kCodeOnly;
  const double trust = std::min(1.0, e.information / kInformationForFullTrust);
  const double raw = kTextOnlyMax * e.text_score * trust;
  // Below the answer threshold, full-text matches were right far less often than the raw value
  // says (on the corpus, 1 in 16 at 0.3-0.4 and 3 in 10 at 0.4-0.5), so it is bent towards zero
  // there; at and above the threshold it held (12 of 15 right at 0.5-0.65).
  if (raw < kConfident) return raw * (raw / kConfident) * (raw / kConfident);
  return raw;
}

// Two entries named by the same kind of exact evidence (both by a code, or both by a signature)
// are both less certain: the text holds two errors, or one of the matches is loose. An echo
// (an entry whose role is "consequence", such as PyTorch's DSA hint after every CUDA error, or
// "warning") does not make the error beside it less certain.
void mark_contested(std::vector<Match>& matches, const std::set<std::string>& echoes) {
  auto kind = [](const Match& m) { return 2 * !m.code.empty() + !m.signature.empty(); };
  for (Match& m : matches) {
    if (kind(m) == 0) continue;
    const bool echo = echoes.count(m.entry_id) != 0;
    for (const Match& other : matches) {
      if (&other == &m || kind(other) != kind(m)) continue;
      if (!echo && echoes.count(other.entry_id)) continue;
      m.confidence = std::min(m.confidence, kContested);
    }
  }
}

// Gives each analysis to the matches whose signatures match the line it was read from, so the
// figures of an out-of-memory report land on the out-of-memory entry and nowhere else.
void attach_analyses(const Store& store, const std::string& text, std::vector<Match>& matches) {
  for (Analysis& a : analyse(text)) {
    std::set<std::string> owners;
    for (const SignatureHit& hit : store.match_signatures(a.line)) owners.insert(hit.entry_id);
    for (Match& m : matches)
      if (!m.analysis && owners.count(m.entry_id)) m.analysis = a;
  }
}

// Whether `text` names anything of the GPU stack or the cluster fabric around a GPU job. The
// catalogue is about those failures, so a text that names none of them ("bind: address already
// in use" from another server, a Wi-Fi driver's DKMS build failing) is not answered by words it
// shares with an entry. On tests/eval every confident full-text answer to a text without such a
// word was wrong (3 of 3), and every kb example without one is named by a code or a signature.
bool names_gpu_stack(const std::string& text) {
  static const re2::RE2 stack(
      R"((?i)nvidia|cuda|gpu|nccl|cudnn|cublas|cufft|curand|cusolver|cusparse|cutlass|nvml|)"
      R"(nvrm|nvlink|nvswitch|nvcc|nvrtc|nvjpeg|nvshmem|nvjitlink|ptxas|\bptx\b|\bxid|)"
      R"(\bsm_?\d\d|dcgm|\bmig\b|torch|tensorflow|\bjax|\bxla|triton|tensorrt|cupy|numba|)"
      R"(vram|slurm|\bgres\b|infiniband|mlx5|\bibv|\bucx|gloo|\bc10d\b|rdzv|rendezvous)");
  return re2::RE2::PartialMatch(text, stack);
}

// An error's message as its title gives it, folded: "CUDA error: operation not permitted" ->
// "operation not permitted"; empty when the title cannot be folded.
std::string title_message(const Store& store, const std::string& id) {
  const std::optional<Entry> e = store.entry_heading(id);
  if (!e) return "";
  std::optional<std::string> folded = fold_for_plain_match(e->title);
  if (!folded) return "";
  const size_t colon = folded->find(": ");
  return colon != std::string::npos && colon < 24 ? folded->substr(colon + 2) : *folded;
}

// A number given as an "error code" beside the CUDA runtime message it is the code of (RELION's
// "unknown error in ml_optimiser_mpi.cpp at line 126 (error-code 999)") names that entry as a code
// in context does, though the line does not say CUDA: the message and its number agree. Only in a
// text that says CUDA or GPU somewhere, since short messages ("unknown error", "invalid argument")
// are everyone's.
void read_agreeing_numbers(const Store& store, std::string_view text,
                           std::map<std::string, Evidence>& evidence) {
  const std::string lower = ascii_lower(text);
  if (lower.find("code") == std::string::npos ||
      (lower.find("cuda") == std::string::npos && lower.find("gpu") == std::string::npos))
    return;
  // "error code 1", "error-code 999", "error_code: 2", "error code (700)"
  static const re2::RE2 error_code(R"(\berror[ _-]?code[ :=(]*(\d{1,4})\b)");
  for_each_line(lower, [&](std::string_view line) {
    int number = 0;
    if (!re2::RE2::PartialMatch(line, error_code, &number)) return;
    const std::string key = "cuda:" + std::to_string(number);
    const std::optional<std::string> folded = fold_for_plain_match(line);
    if (!folded) return;
    for (const std::string& id : store.entries_with_code(key)) {
      const std::string message = title_message(store, id);
      if (!message.empty() && folded->find(message) != std::string::npos &&
          evidence[id].code.empty())
        evidence[id].code = key;
    }
  });
}

// True when every occurrence of `inner` in `text` lies inside an occurrence of `outer`.
bool only_inside(const std::string& text, const std::string& inner, const std::string& outer) {
  const size_t offset = outer.find(inner);
  if (offset == std::string::npos) return false;
  for (size_t at = text.find(inner); at != std::string::npos; at = text.find(inner, at + 1))
    if (at < offset || text.compare(at - offset, outer.size(), outer) != 0) return false;
  return true;
}

// Some CUDA error messages begin with another one: "operation not permitted when stream is
// capturing", "operation not supported on global/shared address space", "unspecified launch
// failure in prior launch". A text that holds the longer message also holds the shorter, and a
// signature of the shorter one's entry matches it too; that match is no evidence of its own when
// every place the shorter message occurs is inside the longer one. Its signature is dropped (a
// code that names it still counts), so the longer one is not contested and the shorter one is at
// most a full-text candidate.
void drop_subsumed_signatures(const Store& store, const std::string& shown,
                              std::map<std::string, Evidence>& evidence) {
  // Most texts name one entry by a signature, and then there is nothing to compare.
  if (std::count_if(evidence.begin(), evidence.end(),
                    [](const auto& kv) { return !kv.second.signature.empty(); }) < 2)
    return;
  const std::optional<std::string> text = fold_for_plain_match(shown);
  if (!text) return;
  std::map<std::string, std::string> messages;  // of the entries named by a signature
  for (const auto& [id, e] : evidence)
    if (!e.signature.empty()) messages[id] = title_message(store, id);
  for (const auto& [shorter, inner] : messages) {
    if (inner.empty() || !evidence[shorter].code.empty()) continue;
    for (const auto& [longer, outer] : messages)
      if (outer.size() > inner.size() && text->find(outer) != std::string::npos &&
          only_inside(*text, inner, outer)) {
        evidence[shorter].signature.clear();
        evidence[shorter].signature_letters = 0;
        break;
      }
  }
}

// A warning may quote a status on its way: PyTorch's "UserWarning: Plan failed with a
// cudnnException: ... CUDNN_STATUS_NOT_SUPPORTED" is printed while it moves on to the next plan.
// The status's entry is named by a code or signature too, but that is no evidence of its own
// when every line that names it is a line of such a warning (one a warning's signature matches,
// printed as a warning, "UserWarning", "WARNING", or at least not as an error): its code and
// signature are dropped, so the warning is the answer. An entry also named on any other line (an
// error line a warning's signature also matches, "[E:onnxruntime:...] ... [ONNXRuntimeError]"),
// or only across lines, keeps its evidence.
void drop_evidence_inside_warnings(const Store& store, const std::string& shown,
                                   std::map<std::string, Evidence>& evidence) {
  std::set<std::string> warnings, others;
  for (const auto& [id, e] : evidence)
    if (!e.code.empty() || !e.signature.empty())
      (store.role(id) == "warning" ? warnings : others).insert(id);
  if (warnings.empty() || others.empty()) return;
  std::set<std::string> inside, outside;
  for_each_line(shown, [&](std::string_view line) {
    std::set<std::string> named;
    bool warning = false;
    const std::string lower = ascii_lower(line);
    const bool says_warning = lower.find("warn") != std::string::npos ||
                              lower.find("error") == std::string::npos;
    for (const SignatureHit& hit : store.match_signatures(line)) {
      warning = warning || (says_warning && warnings.count(hit.entry_id) != 0);
      named.insert(hit.entry_id);
    }
    for (const std::string& key : code_keys(line))
      for (const std::string& id : store.entries_with_code(key)) named.insert(id);
    for (const std::string& id : named)
      if (others.count(id)) (warning ? inside : outside).insert(id);
  });
  for (const std::string& id : inside)
    if (!outside.count(id)) {
      Evidence& e = evidence[id];
      e.code.clear(), e.signature.clear(), e.signature_letters = 0;
    }
}

// NCCL's report through PyTorch gives its generic result ("invalid usage", "unhandled system
// error") with the result's code, then `Last error:`, then the cause in NCCL's own words on the
// next line ("Duplicate GPU detected : rank 1 and rank 0 ..."). The entries whose signatures match
// such a line are the cause the report names. Not when the line above `Last error:` is an echo
// (ncclRemoteError's "remote process exited or there was a network error"): the line after it
// names the peer's symptom, and the echo's own first action is to follow it to the peer.
std::set<std::string> named_causes(const Store& store, std::string_view text) {
  std::set<std::string> ids;
  std::string_view previous;  // the last line that was not blank
  bool after_last_error = false;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (after_last_error)
      for (const SignatureHit& hit : store.match_signatures(std::string(line)))
        ids.insert(hit.entry_id);
    after_last_error = false;
    if (says_last_error(line)) {
      const std::vector<SignatureHit> report = store.match_signatures(std::string(previous));
      after_last_error = std::any_of(report.begin(), report.end(), [&](const SignatureHit& hit) {
        return store.role(hit.entry_id) != "consequence";
      });
    }
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) previous = line;
  }
  return ids;
}

// The lines of `text` that are not lines of `original`, in order: what rejoining wrapped lines
// made, without the lines it left as they were (read already).
std::string lines_not_in(const std::string& text, std::string_view original) {
  std::set<std::string_view> old;
  for_each_line(original, [&](std::string_view line) { old.insert(line); });
  std::string out;
  for_each_line(text, [&](std::string_view line) {
    if (!old.count(line)) out.append(line).push_back('\n');
  });
  return out;
}

// The entries that codes and signatures in `readings` name, each with its evidence.
void read_exact_evidence(const Store& store, const std::vector<std::string>& readings,
                         std::map<std::string, Evidence>& evidence) {
  for (const std::string& text : readings)
    for (const std::string& key : code_keys(text))
      for (const std::string& id : store.entries_with_code(key))
        if (evidence[id].code.empty()) evidence[id].code = key;
  for (const std::string& text : readings)
    for (const SignatureHit& hit : store.match_signatures(text)) {
      Evidence& e = evidence[hit.entry_id];
      if (e.signature.empty() || hit.letters > e.signature_letters)
        e.signature = hit.signature, e.signature_letters = hit.letters;
      if (&text == &readings.front()) e.shown_hits.push_back(hit);
    }
}

// A paste of several lines, searched line by line: a message among progress bars and logger
// chatter keeps the share of its own words an entry matches. The best of many lines is a lucky
// draw as much as a match, so it counts for a little less than the same share of the whole
// paste; and a line of few different words ("self._target(*self._args, **self._kwargs)" from a
// traceback, which a kb example may share) is not searched alone.
void search_lines(const Store& store, const std::string& words,
                  std::map<std::string, Evidence>& evidence) {
  std::set<std::string> searched;
  for_each_line_until(words, [&](std::string_view text) {
    const std::string line(text);
    if (distinct_words(line) < kWordsPerLineSearched || !searched.insert(line).second) return true;
    for (const TextHit& h : store.search(line, Kind::kError, kTextCandidates)) {
      Evidence& e = evidence[h.entry_id];
      e.text_score = std::max(e.text_score, kBestLineDiscount * h.percent);
    }
    return searched.size() < kLinesSearched;
  });
}

// The family of a code key read from a number in context: "xid" for "xid:31", "cuda" for
// "cuda:700"; empty for a name ("cudaerrorlaunchfailure").
// The family of a numbered code key ("xid:79" -> "xid"), or of a driver error named in words or
// by its C name ("cuda_error_illegal_address", as Cycles prints them one after another).
std::string code_family(const std::string& key) {
  const size_t colon = key.find(':');
  if (colon != std::string::npos) return key.substr(0, colon);
  return key.starts_with("cuda_error_") ? "cuda_error" : "";
}

// Where each code key of `text` first appears, as its index in code_keys(text).
std::map<std::string, size_t> key_order(std::string_view text) {
  std::map<std::string, size_t> out;
  for (const std::string& key : code_keys(text)) out.emplace(key, out.size());
  return out;
}

// Puts `group`'s matches in the order `before` gives them, handing out the scores they held,
// best first: their places among the other matches stay as they were.
template <typename Before>
void reorder_keeping_scores(std::vector<Match*>& group, Before before) {
  std::vector<double> scores;
  for (const Match* m : group) scores.push_back(m->score);
  std::sort(scores.rbegin(), scores.rend());
  std::stable_sort(group.begin(), group.end(), before);
  for (size_t i = 0; i < group.size(); ++i) group[i]->score = scores[i];
}

// Several causes of one code family in one paste (a kernel log with Xid 31, then Xid 13, then Xid
// 43; Cycles' "Illegal address in cuMemcpyDtoH(...)" then "Invalid value in cuCtxDestroy(...)")
// rank in the order their codes appear: the first is the fault, what follows is its aftermath
// or a later, separate one. Their places among the other matches stay as they were. Causes of
// different families keep their order: a program's CUDA error printed before the Xid 79 that
// caused it is no cause of the Xid.
void order_codes_by_appearance(std::string_view text, std::vector<Match>& out,
                               const std::set<std::string>& causes) {
  std::map<std::string, std::vector<Match*>> by_family;
  for (Match& m : out)
    if (causes.count(m.entry_id) && !code_family(m.code).empty())
      by_family[code_family(m.code)].push_back(&m);
  std::map<std::string, size_t> order;
  for (auto& [family, group] : by_family) {
    if (group.size() < 2) continue;
    if (order.empty()) order = key_order(text);
    // (a code read only where wrapped lines were rejoined comes after those read as shown)
    const auto place = [&](const Match* m) {
      const auto it = order.find(m->code);
      return it == order.end() ? order.size() : it->second;
    };
    reorder_keeping_scores(group,
                           [&](const Match* a, const Match* b) { return place(a) < place(b); });
  }
}

// Echoes named by a signature on different lines (a watchdog's timeout, then the "taking the
// entire process down" that follows it, then the launcher's summary) rank in the order the paste
// prints those lines: each is the aftermath of the one before, and the first is nearest the
// fault. Within one line the order stays the score's ("NCCL communicator was aborted on rank
// 1. Original reason for failure was: [Rank 1] Watchdog caught collective operation timeout"
// names its cause after itself).
void order_echoes_by_appearance(const Store& store, std::string_view text,
                                std::vector<Match>& out, const std::set<std::string>& echoes,
                                const std::map<std::string, Evidence>& evidence) {
  std::vector<Match*> group;
  for (Match& m : out)
    if (echoes.count(m.entry_id) && m.code.empty() && !evidence.at(m.entry_id).shown_hits.empty())
      group.push_back(&m);
  if (group.size() < 2) return;
  std::map<const Match*, size_t> line;
  for (const Match* m : group) {
    line[m] = std::string::npos;
    for (const SignatureHit& hit : evidence.at(m->entry_id).shown_hits)
      line[m] = std::min(line[m], store.line_of(text, hit));
  }
  reorder_keeping_scores(group, [&](const Match* a, const Match* b) {
    return line[a] != line[b] ? line[a] < line[b] : a->score > b->score;
  });
}

}  // namespace

std::vector<Match> lookup(const Store& store, std::string_view message) {
  std::map<std::string, Evidence> evidence;
  const std::string shown = as_printed(message);

  // Codes and signatures are read from the text as shown and, when long lines may have been
  // hard-wrapped, from the lines they make rejoined mid-word, and from a table's cells rejoined;
  // when none of those names an entry, from the lines rejoined at a word's end too (mail and
  // editors wrap there and drop the blank).
  std::vector<std::string> readings{shown};
  if (std::string joined = lines_not_in(unwrap_long_lines(shown), shown); !joined.empty())
    readings.push_back(std::move(joined));
  if (shown.find('|') != std::string::npos)
    for (const bool glue : {true, false})
      if (std::string cells = unwrap_table_cells(shown, glue); !cells.empty())
        readings.push_back(std::move(cells));
  read_exact_evidence(store, readings, evidence);
  if (evidence.empty())
    if (std::string joined = lines_not_in(unwrap_long_lines(shown, " "), shown); !joined.empty())
      read_exact_evidence(store, {joined}, evidence);

  read_agreeing_numbers(store, shown, evidence);
  drop_subsumed_signatures(store, shown, evidence);
  drop_evidence_inside_warnings(store, shown, evidence);

  const std::string words = search_text(shown);
  const std::vector<TextHit> hits = store.search(words, Kind::kError, kTextCandidates);
  for (const TextHit& h : hits) {
    Evidence& e = evidence[h.entry_id];
    e.text_score = h.percent;
    e.text_weight = h.weight / hits.front().weight;
  }
  // In a paste that holds a cause and its echo (a CUDA error inside a watchdog report, Xid 45
  // after the Xid it cleans up, PyTorch's DSA hint) or a warning printed on the way (XLA's
  // allocator warning before its RESOURCE_EXHAUSTED error), the cause comes first: an entry
  // whose role is "consequence" or "warning" ranks below every other entry named by a code or a
  // signature, and does not make it less certain.
  std::set<std::string> echoes;  // entries named by exact evidence whose role is one of those
  std::set<std::string> causes;  // the other entries named by exact evidence
  // A tool's report of a fault (compute-sanitizer's "Invalid __global__ write") names the cause
  // of the errors printed beside it (the `unspecified launch failure` it goes on to report), so
  // it ranks above them as a cause NCCL names does.
  std::set<std::string> named = named_causes(store, shown);
  for (const auto& [id, e] : evidence) {
    if (e.code.empty() && e.signature.empty()) continue;
    const std::string role = store.role(id);
    (role == "consequence" || role == "warning" ? echoes : causes).insert(id);
    if (role == "report") named.insert(id);
  }
  const bool exact_cause = !causes.empty();
  // Only full text can name the entry of a paste that names none by a code or a signature: it
  // gets a second look, line by line, unless the whole paste is far from every entry (on the
  // corpus no message whose best share was under kLinesWorthSearching gained from it).
  if (!exact_cause && echoes.empty() && words.find('\n') != std::string::npos &&
      !hits.empty() && hits.front().percent >= kLinesWorthSearching)
    search_lines(store, words, evidence);
  for (const std::string& id : named) causes.erase(id);
  std::vector<Match> out;
  for (const auto& [id, e] : evidence) {
    Match m{id, 0, confidence(e), e.code, e.signature, e.text_score, std::nullopt};
    // The evidence kinds order the result; a more specific signature, then full text, break
    // ties within a kind.
    const double specificity = std::min(1.0, e.signature_letters / kLettersForFullSpecificity);
    m.score = 4.0 * !e.code.empty() + 3.0 * !e.signature.empty() + 1.5 * specificity +
              2.0 * e.text_score + e.text_weight;
    if (exact_cause && echoes.count(id)) m.score -= kEchoPenalty;
    if (named.count(id)) m.score += kNamedCauseBonus;
    out.push_back(std::move(m));
  }
  order_codes_by_appearance(shown, out, causes);
  order_echoes_by_appearance(store, shown, out, echoes, evidence);
  std::stable_sort(out.begin(), out.end(),
                   [](const Match& a, const Match& b) { return a.score > b.score; });
  // What the matched words say decides how far full text alone is trusted. Reading it costs a
  // term list per entry, so only the first few full-text matches read it, the ones shown as
  // candidates, and none beside an exact cause, where full text is never the answer.
  std::vector<Match*> text_only;
  for (Match& m : out)
    if (!exact_cause && m.code.empty() && m.signature.empty() &&
        text_only.size() < kTextMatchesWeighed)
      text_only.push_back(&m);
  std::vector<std::string> ids;
  for (const Match* m : text_only) ids.push_back(m->entry_id);
  const std::vector<double> information = store.information(words, ids);
  for (size_t i = 0; i < text_only.size(); ++i) {
    Evidence& e = evidence[text_only[i]->entry_id];
    e.information = information[i];
    text_only[i]->confidence = confidence(e);
  }
  mark_contested(out, exact_cause ? echoes : std::set<std::string>{});
  // Full text alone is a candidate, not an answer, beside an exact cause; for an echo (a kill's
  // or a timeout's report), whose words many messages share ("killed", "process", "timeout") and
  // which names no cause of its own; and in a text that names nothing of the GPU stack.
  // (the GPU stack's words are looked for only when a full-text match would be an answer: the
  // pattern costs more to compile than most lookups do)
  std::optional<bool> off_topic;
  const auto is_off_topic = [&] {
    if (!off_topic) off_topic = !names_gpu_stack(shown);
    return *off_topic;
  };
  for (Match& m : out)
    if (m.code.empty() && m.signature.empty() && m.confidence > kTextBesideExact &&
        (exact_cause || store.role(m.entry_id) == "consequence" || is_off_topic()))
      m.confidence = kTextBesideExact;
  attach_analyses(store, shown, out);
  return out;
}

}  // namespace gpuerr::query
