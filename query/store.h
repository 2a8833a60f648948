// Store: an index directory opened read-only: xapian/ for full text and for everything a lookup
// reads (codes, signatures, roles, headings: schema.h), kb.sqlite for every field of every entry,
// opened on the first call that needs it. Checks the schema version on open. Never writes, never
// reads Markdown.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/entry.h"

namespace gpuerr::query {

/// One full-text hit: an entry and how well the words matched.
struct TextHit {
  std::string entry_id;
  double weight = 0;   // BM25, comparable within one search only
  double percent = 0;  // 0..1: the share of the text's words this entry matched
};

/// What the index records about itself.
struct IndexInfo {
  int schema_version = 0;
  std::string built_at;  // ISO 8601 UTC, e.g. "2026-12-02T12:00:00Z"
  int entry_count = 0;
  std::string gpuerr_version;
};

/// A signature of the catalogue that a text holds.
struct SignatureHit {
  std::string entry_id;
  std::string signature;
  size_t letters = 0;  // signature_letters(): how much literal text it required
  long long number = 0;  // which signature of the index (for Store::line_of)
};

/// An open index. Safe to share between threads for reading.
///
///     const Store store(default_index_dir());
///     std::optional<Entry> e = store.entry("illegal-memory-access");
class Store {
 public:
  /// Opens `dir`. Throws gpuerr::Error, naming the directory and how to rebuild it, when the
  /// index is missing, damaged or of another schema version. Damage inside kb.sqlite that leaves
  /// its size as written is found by the first call that reads it, which throws the same way.
  explicit Store(const std::string& dir);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& dir() const;
  IndexInfo info() const;

  /// The entry with this id, with every list field; nullopt when there is none.
  std::optional<Entry> entry(const std::string& id) const;

  /// The entry as a lookup's answers show it, read from the search index: no bodies, and of the
  /// lists only codes and first actions (the other lists are empty); nullopt when there is none.
  std::optional<Entry> entry_heading(const std::string& id) const;

  /// Every entry of `kind` (all kinds when nullopt), in id order; bodies included.
  std::vector<Entry> entries(std::optional<Kind> kind = std::nullopt) const;

  /// Ids of the entries that list `id` among their related entries, in id order: the links back,
  /// so a variable's page shows the errors that point at it without its author listing them.
  std::vector<std::string> referenced_by(const std::string& id) const;

  /// Every id in the index, in id order (for "did you mean").
  std::vector<std::string> ids() const;

  /// Ids of the entries one of whose codes has this lower-case key ("cudaerrorassert",
  /// "xid:79"), in id order; empty when no entry has it.
  std::vector<std::string> entries_with_code(const std::string& code_key) const;

  /// The codes the coverage lists say the catalogue should have, by family then file order.
  std::vector<DocumentedCode> documented_codes() const;

  /// Every signature of every error entry as (entry id, signature), in entry id then list order.
  std::vector<std::pair<std::string, std::string>> signatures() const;

  /// The signatures `text` holds, in entry id then list order; empty when none. Reads only the
  /// signatures filed under a word of the text (and those filed under none), checks that their
  /// literal pieces occur, and only then reads and runs the pattern, compiled once per store.
  std::vector<SignatureHit> match_signatures(std::string_view text) const;

  /// The line (from 0) of `text` on which `hit`'s signature first matches, for a text that
  /// match_signatures found it in. Apart from match_signatures, because few callers need it.
  size_t line_of(std::string_view text, const SignatureHit& hit) const;

  /// The `role` of an error entry ("cause", "consequence", ...); empty when there is none.
  std::string role(const std::string& id) const;

  /// BM25 over the entries of `kind`, for the words of `text` (indexed the same way as the
  /// entries, so no query syntax applies). Best first, at most `limit`; empty when no word hits.
  std::vector<TextHit> search(const std::string& text, Kind kind, int limit) const;

  /// For each of `ids`, how much the words of `text` that the entry has say: the sum of their
  /// inverse document frequencies, ln(entries / entries with the word), over the words search()
  /// would query. "python" and "working" say little (about 1 each), a word few entries have
  /// ("cudart", "xformers") 4 to 6. 0 for an unknown id.
  std::vector<double> information(const std::string& text,
                                  const std::vector<std::string>& ids) const;

  /// The yardstick `gpuerr eval` compares lookup against: `text` as it came, through Xapian's
  /// QueryParser with its default syntax and the index's stemmer, BM25 over error entries; no
  /// cleaning, codes or signatures. Empty when no word hits or the parser rejects the text.
  std::vector<TextHit> baseline_search(const std::string& text, int limit) const;

 private:
  // The words of `text` a full-text query uses: the catalogue's terms with their document
  // frequencies, rarest first, at most kMaxQueryTerms; how many of the text's words the
  // catalogue has, and how many words the text had.
  struct QueryTerms {
    std::vector<std::pair<unsigned, std::string>> known;
    size_t known_words = 0;
    size_t all_words = 0;
  };
  QueryTerms query_terms(const std::string& text) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuerr::query
