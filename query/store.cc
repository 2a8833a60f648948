#include "query/store.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>
#include <re2/re2.h>
#include <sqlite3.h>
#include <xapian.h>

#include "indexer/error.h"
#include "indexer/schema.h"
#include "indexer/signature.h"
#include "query/store_rows.h"

namespace gpuerr::query {
namespace {

using detail::rebuild_hint;
using detail::Rows;
using detail::Statements;

namespace fs = std::filesystem;

// The most words one full-text query uses.
constexpr size_t kMaxQueryTerms = 64;

// Words that carry no meaning for matching error messages; dropped from queries only.
constexpr const char* kStopWords[] = {"a",  "an", "and", "are", "as",   "at",   "be",  "by",
                                      "for", "from", "has", "have", "in", "is", "it", "its",
                                      "of", "on", "or", "that", "the", "this", "to", "was",
                                      "were", "with", "will", "you", "your"};

// Words that every program's error messages use: they say that something failed, not what. They
// are queried like any other word, but a match on them says nothing about which failure it is
// (information() leaves them out): "fatal error: filesystem: No such file or directory" from an
// old gcc shares "fatal", "include", "such", "file" and "directory" with Triton's missing
// Python.h, and nothing that names it.
constexpr const char* kGenericErrorWords[] = {
    "error",   "errors",  "fatal",     "failed",     "failure",     "fail",    "no",     "not",
    "such",    "file",    "directory", "found",      "cannot",      "could",   "unable", "include",
    "invalid", "warning", "exception", "terminated", "compilation", "aborted", "abort",  "exit",
    "status",  "code",    "returned",  "line",       "please",      "check",   "see"};

// SQLite URI file names treat these bytes specially.
std::string uri_path(const std::string& path) {
  std::string out = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "?immutable=1";  // the index is never changed in place, only swapped whole
}

// One signature as the index records it (schema.h).
struct SignatureRecord {
  std::string id;  // its entry
  long long ord = 0;  // its place in the entry's list
  long long letters = 0;  // signature_letters()
  std::string signature, regex;
};

Kind kind_from(const std::string& word) {
  return word == "env" ? Kind::kEnv : word == "faq" ? Kind::kFaq : Kind::kError;
}

}  // namespace

// A lookup reads only the search index: its documents for full text, its metadata for codes,
// signatures, roles and headings (schema.h). The SQLite file, which holds every field of every
// entry, is opened on the first call that needs it.
struct Store::Impl {
  std::string dir;
  Xapian::Database xapian;
  Xapian::SimpleStopper stopper{std::begin(kStopWords), std::end(kStopWords)};
  mutable std::mutex records_mutex;
  mutable sqlite3* db = nullptr;
  mutable Statements statements;
  // Signatures compiled so far, by their number.
  mutable std::mutex patterns_mutex;
  mutable std::map<long long, std::unique_ptr<re2::RE2>> patterns;
  mutable std::mutex unkeyed_mutex;
  mutable bool unkeyed_read = false;
  mutable std::string unkeyed_lines;

  ~Impl() { close_records(); }

  std::string records_path() const { return (fs::path(dir) / schema::kSqliteFile).string(); }

  // The value of a metadata key; empty when there is none.
  std::string metadata(const std::string& key) const {
    if (key.size() > schema::kMaxMetadataKey) return "";
    try {
      return xapian.get_metadata(key);
    } catch (const Xapian::Error& e) {
      throw Error("cannot read index '" + dir + "': " + e.get_description() + rebuild_hint(dir));
    }
  }

  // Signature `number`'s record (schema.h): [entry id, place in its list, letters, text, regex].
  SignatureRecord signature_record(long long number) const {
    const std::string record = metadata(schema::kMetaSignature + std::to_string(number));
    try {
      const nlohmann::json r = nlohmann::json::parse(record);
      return {r.at(0).get<std::string>(), r.at(1).get<long long>(), r.at(2).get<long long>(),
              r.at(3).get<std::string>(), r.at(4).get<std::string>()};
    } catch (const nlohmann::json::exception&) {
      throw Error("index '" + dir + "' is damaged: signature " + std::to_string(number) +
                  " cannot be read" + rebuild_hint(dir));
    }
  }

  const re2::RE2& pattern(long long number, const std::string& regex) const {
    const std::lock_guard<std::mutex> lock(patterns_mutex);
    std::unique_ptr<re2::RE2>& p = patterns[number];
    if (!p) p = compile_signature_regex(regex);
    return *p;
  }

  // The signatures with no key (schema.h), read on first use.
  const std::string& unkeyed_signatures() const {
    const std::lock_guard<std::mutex> lock(unkeyed_mutex);
    if (!unkeyed_read) {
      unkeyed_lines = metadata(schema::kMetaSignaturesByKey);
      unkeyed_read = true;
    }
    return unkeyed_lines;
  }

  // The statements of the SQLite file, opened and checked on first use.
  Statements& records() const {
    const std::lock_guard<std::mutex> lock(records_mutex);
    if (!db) {
      try {
        open_sqlite();
        check_version();
        check_complete();
      } catch (...) {
        close_records();
        throw;
      }
    }
    return statements;
  }

  void close_records() const {
    statements.clear();  // a connection with statements left does not close
    sqlite3_close(db);
    db = nullptr;
    statements.db = nullptr;
  }

  // The errors both halves of the index report: the search index at open, the SQLite file at
  // its first use.
  Error version_error(const std::string& found) const {
    return Error("index '" + dir + "' has schema version " + found + ", this gpuerr reads version " +
                 std::to_string(schema::kVersion) + rebuild_hint(dir));
  }
  Error incomplete_error(const std::string& documents, const std::string& written) const {
    return Error("index '" + dir + "' is incomplete: " + documents + " search documents where " +
                 written + " were written" + rebuild_hint(dir));
  }

  // What the constructor checks, from the search index alone: its schema version, that it is
  // whole, and that the SQLite file beside it is the one written with it (its size: a file cut
  // short or overwritten, or one from another build, is caught here rather than at first use).
  void check_search_index() const {
    const std::string version = metadata(schema::kMetaSchemaVersion);
    if (version != std::to_string(schema::kVersion))
      throw version_error(version.empty() ? "9 or older" : version);
    const std::string documents = std::to_string(xapian.get_doccount());
    const std::string written = metadata(schema::kMetaEntryCount);
    if (documents != written) throw incomplete_error(documents, written);
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(records_path(), ec);
    const std::string recorded = metadata(schema::kMetaRecordsSize);
    if (ec || std::to_string(size) != recorded)
      throw Error("index '" + dir + "' is damaged: '" + schema::kSqliteFile + "' has " +
                  (ec ? ec.message() : std::to_string(size) + " bytes") + " where " + recorded +
                  " bytes were written" + rebuild_hint(dir));
  }

  void open_sqlite() const {
    // SQLite's page cache starts by writing into 20 pages' worth of memory at once, while reading
    // one entry takes a few pages: taking pages one by one saved 30 of ~380 page faults when
    // lookups read this file. Possible only before SQLite's first use in the process; later it
    // just says no.
    // (sqlite3_config must not run while another thread is inside SQLite: a program that uses
    // SQLite elsewhere opens its first Store before starting threads that do.)
    static const int one_page_at_a_time = sqlite3_config(SQLITE_CONFIG_PAGECACHE, nullptr, 0, 0);
    (void)one_page_at_a_time;
    const int rc = sqlite3_open_v2(uri_path(records_path()).c_str(), &db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK)
      throw Error("cannot open index '" + dir + "': " + sqlite3_errstr(rc) + rebuild_hint(dir));
    statements.db = db;
  }

  void check_version() const {
    int version = 0;
    try {
      Rows rows(statements, dir, "SELECT value FROM meta WHERE key = 'schema_version'");
      if (rows.next()) version = std::atoi(rows.text(0).c_str());
    } catch (const Error&) {
      throw Error("cannot read index '" + dir + "': it is damaged or not an index" +
                  rebuild_hint(dir));
    }
    if (version != schema::kVersion) throw version_error(std::to_string(version));
  }

  // A truncated copy of kb.sqlite fails SQLite's own check at the first read (its header records
  // the page count, and a shorter file is reported as damaged). What is left to catch is a
  // records file and a search index from different builds: the entry count the indexer recorded
  // must be the search index's document count. (Counting the rows as well would read every page
  // of the entries' id index: 66 pages on a 10,000-entry catalogue.)
  void check_complete() const {
    long long recorded = -1;
    try {
      Rows r(statements, dir, "SELECT value FROM meta WHERE key = 'entry_count'");
      if (r.next()) recorded = r.integer(0);
    } catch (const Error&) {
      throw Error("cannot read index '" + dir + "': it is damaged" + rebuild_hint(dir));
    }
    const long long documents = static_cast<long long>(xapian.get_doccount());
    if (recorded != documents)
      throw incomplete_error(std::to_string(documents), std::to_string(recorded));
  }

  void open_xapian() {
    try {
      xapian = Xapian::Database((fs::path(dir) / schema::kXapianDir).string());
    } catch (const Xapian::Error& e) {
      throw Error("cannot open index '" + dir + "': " + e.get_description() + rebuild_hint(dir));
    }
  }

  std::vector<std::string> strings(const char* sql, const std::string& id, int column = 0) const {
    std::vector<std::string> out;
    Rows rows(records(), dir, sql);
    rows.bind(id);
    while (rows.next()) out.push_back(rows.text(column));
    return out;
  }

  // The lists, list by list, each in its order, in one statement (one to prepare and step
  // instead of six).
  void fill_lists(Entry& e) const {
    Rows rows(records(), dir,
              "SELECT 0, ord, code, '' FROM codes WHERE entry_id = ?1 UNION ALL "
              "SELECT 1, ord, signature, '' FROM signatures WHERE entry_id = ?1 UNION ALL "
              "SELECT 2, ord, text, '' FROM actions WHERE entry_id = ?1 UNION ALL "
              "SELECT 3, ord, related_id, '' FROM related WHERE entry_id = ?1 UNION ALL "
              "SELECT 4, ord, text, source FROM examples WHERE entry_id = ?1 UNION ALL "
              "SELECT 5, ord, title, url FROM sources WHERE entry_id = ?1 ORDER BY 1, 2");
    rows.bind(e.id);
    while (rows.next()) {
      switch (rows.integer(0)) {
        case 0: e.codes.push_back(rows.text(2)); break;
        case 1: e.signatures.push_back(rows.text(2)); break;
        case 2: e.first_actions.push_back(rows.text(2)); break;
        case 3: e.related.push_back(rows.text(2)); break;
        case 4: e.examples.push_back({rows.text(2), rows.text(3)}); break;
        default: e.sources.push_back({rows.text(2), rows.text(3)}); break;
      }
    }
  }
};

namespace {

// An entry's columns as stored, the bodies last.
constexpr const char* kSelectEntries =
    "SELECT id, kind, title, category, poisons_context, hardware, hardware_evidence, role, "
    "env_name, env_values, env_default, file, layer, body_markdown, body_html FROM entries ";

Entry entry_from(const Rows& r) {
  Entry e;
  e.id = r.text(0);
  e.kind = kind_from(r.text(1));
  e.title = r.text(2);
  e.category = r.text(3);
  e.poisons_context = r.integer(4) != 0;
  e.hardware = r.text(5);
  e.hardware_evidence = r.text(6);
  e.role = r.text(7);
  e.env_name = r.text(8);
  e.env_values = r.text(9);
  e.env_default = r.text(10);
  e.file = r.text(11);
  e.layer = r.text(12);
  e.body_markdown = r.text(13);
  e.body_html = r.text(14);
  return e;
}

}  // namespace

Store::Store(const std::string& dir) : impl_(std::make_unique<Impl>()) {
  impl_->dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error("no index at '" + dir + "': not a directory" + rebuild_hint(dir));
  if (!fs::exists(impl_->records_path(), ec))
    throw Error("no index at '" + dir + "': '" + schema::kSqliteFile + "' is missing" +
                rebuild_hint(dir));
  impl_->open_xapian();
  impl_->check_search_index();
}

Store::~Store() = default;

const std::string& Store::dir() const { return impl_->dir; }

IndexInfo Store::info() const {
  IndexInfo info;
  Rows rows(impl_->records(), impl_->dir, "SELECT key, value FROM meta");
  while (rows.next()) {
    const std::string key = rows.text(0), value = rows.text(1);
    if (key == "schema_version") info.schema_version = std::atoi(value.c_str());
    if (key == "built_at") info.built_at = value;
    if (key == "entry_count") info.entry_count = std::atoi(value.c_str());
    if (key == "gpuerr_version") info.gpuerr_version = value;
  }
  return info;
}

std::optional<Entry> Store::entry(const std::string& id) const {
  Rows rows(impl_->records(), impl_->dir, (std::string(kSelectEntries) + "WHERE id = ?").c_str());
  rows.bind(id);
  if (!rows.next()) return std::nullopt;
  Entry e = entry_from(rows);
  impl_->fill_lists(e);
  return e;
}

std::optional<Entry> Store::entry_heading(const std::string& id) const {
  const std::string record = impl_->metadata(schema::kMetaHeading + id);
  if (record.empty()) return std::nullopt;
  try {
    const nlohmann::json h = nlohmann::json::parse(record);
    Entry e;
    e.id = h.at("id").get<std::string>();
    e.kind = kind_from(h.at("kind").get<std::string>());
    e.title = h.at("title").get<std::string>();
    e.category = h.at("category").get<std::string>();
    e.poisons_context = h.at("poisons_context").get<bool>();
    e.hardware = h.at("hardware").get<std::string>();
    e.hardware_evidence = h.at("hardware_evidence").get<std::string>();
    e.role = h.at("role").get<std::string>();
    e.env_name = h.at("env_name").get<std::string>();
    e.env_values = h.at("env_values").get<std::string>();
    e.env_default = h.at("env_default").get<std::string>();
    e.file = h.at("file").get<std::string>();
    e.layer = h.at("layer").get<std::string>();
    e.codes = h.at("codes").get<std::vector<std::string>>();
    e.first_actions = h.at("first_actions").get<std::vector<std::string>>();
    return e;
  } catch (const nlohmann::json::exception&) {
    throw Error("index '" + impl_->dir + "' is damaged: the heading of '" + id +
                "' cannot be read" + rebuild_hint(impl_->dir));
  }
}

std::vector<Entry> Store::entries(std::optional<Kind> kind) const {
  std::vector<Entry> out;
  Rows rows(impl_->records(), impl_->dir, (std::string(kSelectEntries) + "ORDER BY id").c_str());
  while (rows.next()) {
    Entry e = entry_from(rows);
    if (kind && e.kind != *kind) continue;
    impl_->fill_lists(e);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> Store::referenced_by(const std::string& id) const {
  return impl_->strings(
      "SELECT DISTINCT entry_id FROM related WHERE related_id = ? ORDER BY entry_id", id);
}

std::vector<std::string> Store::ids() const {
  std::vector<std::string> out;
  Rows rows(impl_->records(), impl_->dir, "SELECT id FROM entries ORDER BY id");
  while (rows.next()) out.push_back(rows.text(0));
  return out;
}

std::vector<std::string> Store::entries_with_code(const std::string& code_key) const {
  std::vector<std::string> out;
  const std::string lines = impl_->metadata(schema::kMetaCode + code_key);
  for (size_t i = 0; i < lines.size();) {
    const size_t end = std::min(lines.find('\n', i), lines.size());
    if (end > i) out.push_back(lines.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

std::vector<DocumentedCode> Store::documented_codes() const {
  std::vector<DocumentedCode> out;
  Rows rows(impl_->records(), impl_->dir, "SELECT family, code, name FROM documented_codes ORDER BY family, rowid");
  while (rows.next()) out.push_back({rows.text(0), rows.text(1), rows.text(2)});
  return out;
}

std::vector<std::pair<std::string, std::string>> Store::signatures() const {
  std::vector<std::pair<std::string, std::string>> out;
  Rows rows(impl_->records(), impl_->dir,
            "SELECT entry_id, signature FROM signatures ORDER BY entry_id, ord");
  while (rows.next()) out.emplace_back(rows.text(0), rows.text(1));
  return out;
}

std::string Store::role(const std::string& id) const {
  return impl_->metadata(schema::kMetaRole + id);
}

std::vector<SignatureHit> Store::match_signatures(std::string_view text) const {
  // The text's distinct words: a signature's key is one of them. They hold only [a-z0-9_].
  const std::string lower = ascii_lower(text);
  std::set<std::string_view> words;
  for (size_t i = 0; i < lower.size();) {
    size_t end = i;
    while (end < lower.size() && is_key_char(lower[end])) ++end;
    if (end > i) words.insert(std::string_view(lower).substr(i, end - i));
    i = std::max(end, i + 1);
  }
  const LiteralText literal_text(lower);
  const std::optional<std::string> folded = fold_for_plain_match(text);
  // The signatures whose literal pieces all occur in the text: those keyed by one of its words,
  // read from the key's index alone, and those with no key.
  std::vector<long long> candidates;
  const auto take = [&](std::string_view lines) {  // "NUMBER<TAB>LITERALS" lines (schema.h)
    for (size_t i = 0; i < lines.size();) {
      const size_t tab = std::min(lines.find('\t', i), lines.size());
      const size_t end = std::min(lines.find('\n', tab), lines.size());
      const size_t literals = std::min(tab + 1, end);
      if (literal_text.contains(lines.substr(literals, end - literals))) {
        long long number = 0;
        std::from_chars(lines.data() + i, lines.data() + tab, number);
        candidates.push_back(number);
      }
      i = end + 1;
    }
  };
  for (const std::string_view word : words)
    take(impl_->metadata(schema::kMetaSignaturesByKey + std::string(word)));
  // (The lines of the signatures with no key are read again by every lookup: about 350 short
  // lines, cheaper than the LiteralText checks they feed.)
  take(impl_->unkeyed_signatures());
  // The hits, each with its place in its entry's list, to come out in the catalogue's order.
  struct Found {
    long long ord;
    SignatureHit hit;
  };
  std::vector<Found> found;
  for (const long long number : candidates) {
    SignatureRecord r = impl_->signature_record(number);
    bool matched = false;
    if (std::optional<std::string> plain = folded ? plain_signature(r.signature) : std::nullopt) {
      matched = folded->find(*plain) != std::string::npos;
    } else {
      const re2::RE2& pattern = impl_->pattern(number, r.regex);
      // A pattern that does not compile never matches; the lint reports it before indexing.
      matched = pattern.ok() && re2::RE2::PartialMatch(text, pattern);
    }
    if (matched)
      found.push_back({r.ord, {std::move(r.id), std::move(r.signature),
                               static_cast<size_t>(r.letters), number}});
  }
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return std::tie(a.hit.entry_id, a.ord) < std::tie(b.hit.entry_id, b.ord);
  });
  std::vector<SignatureHit> out;
  for (Found& f : found) out.push_back(std::move(f.hit));
  return out;
}

size_t Store::line_of(std::string_view text, const SignatureHit& hit) const {
  const SignatureRecord r = impl_->signature_record(hit.number);
  const std::optional<std::string> plain = plain_signature(r.signature);
  const auto pattern = [&]() -> const re2::RE2& { return impl_->pattern(hit.number, r.regex); };
  const auto holds = [&](std::string_view part) {
    if (plain)
      if (std::optional<std::string> folded = fold_for_plain_match(part))
        return folded->find(*plain) != std::string::npos;
    return pattern().ok() && re2::RE2::PartialMatch(part, pattern());
  };
  // Line by line, forward passes only; a match across lines is found in the whole text.
  size_t line = 0;
  for (size_t i = 0; i <= text.size(); ++line) {
    const size_t end = std::min(text.find('\n', i), text.size());
    if (holds(text.substr(i, end - i))) return line;
    i = end + 1;
  }
  size_t offset = text.size();
  std::vector<size_t> origins;
  const std::optional<std::string> folded = fold_for_plain_match(text, &origins);
  re2::StringPiece match;
  if (plain && folded) {
    if (const size_t at = folded->find(*plain); at != std::string::npos) offset = origins[at];
  } else if (pattern().ok() &&
             pattern().Match(text, 0, text.size(), re2::RE2::UNANCHORED, &match, 1)) {
    offset = static_cast<size_t>(match.data() - text.data());
  }
  return static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

Store::QueryTerms Store::query_terms(const std::string& text) const {
  // Index the text exactly as the entries were indexed, then ask for its stemmed terms.
  Xapian::Document words;
  Xapian::TermGenerator terms;
  terms.set_stemmer(Xapian::Stem("english"));
  terms.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
  terms.set_stopper(&impl_->stopper);
  terms.set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
  terms.set_document(words);
  terms.index_text(text);
  // Only words the catalogue has can score; of those, the rarest say the most. Capping them
  // keeps a long or garbled paste from turning into a query of thousands of terms.
  QueryTerms out;
  for (auto t = words.termlist_begin(); t != words.termlist_end(); ++t) {
    if (!(*t).starts_with("Z")) continue;
    ++out.all_words;
    if (const Xapian::doccount df = impl_->xapian.get_termfreq(*t); df > 0)
      out.known.emplace_back(df, *t);
  }
  out.known_words = out.known.size();
  std::sort(out.known.begin(), out.known.end());
  if (out.known.size() > kMaxQueryTerms) out.known.resize(kMaxQueryTerms);
  return out;
}

std::vector<double> Store::information(const std::string& text,
                                       const std::vector<std::string>& ids) const {
  try {
    std::vector<double> out(ids.size(), 0);
    const QueryTerms words = query_terms(text);
    if (words.known.empty()) return out;
    const double entries = impl_->xapian.get_doccount();
    static const std::set<std::string> generic = [] {
      const Xapian::Stem stem("english");
      std::set<std::string> out;
      for (const char* w : kGenericErrorWords) out.insert("Z" + stem(w));
      return out;
    }();
    std::map<std::string, double> idf;  // in term order, as an entry's term list is
    for (const auto& [df, term] : words.known)
      if (!generic.count(term)) idf[term] = std::log(entries / df);
    for (size_t i = 0; i < ids.size(); ++i) {
      const std::string id_term = schema::kPrefixId + ids[i];
      const Xapian::PostingIterator doc = impl_->xapian.postlist_begin(id_term);
      if (doc == impl_->xapian.postlist_end(id_term)) continue;
      Xapian::TermIterator t = impl_->xapian.termlist_begin(*doc);
      const Xapian::TermIterator end = impl_->xapian.termlist_end(*doc);
      for (const auto& [term, weight] : idf) {
        t.skip_to(term);
        if (t == end) break;
        if (*t == term) out[i] += weight;
      }
    }
    return out;
  } catch (const Xapian::Error& e) {
    throw Error("searching index '" + impl_->dir + "': " + e.get_description() +
                rebuild_hint(impl_->dir));
  }
}

std::vector<TextHit> Store::search(const std::string& text, Kind kind, int limit) const {
  try {
    const QueryTerms words = query_terms(text);
    const auto& known = words.known;
    if (known.empty()) return {};
    // Xapian's percentage counts only the words queried; words the catalogue has never seen
    // still say the text is about something else, so they scale it down.
    const double known_share =
        static_cast<double>(words.known_words) / static_cast<double>(words.all_words);
    std::vector<Xapian::Query> parts;
    for (const auto& [df, term] : known) parts.emplace_back(term);
    const Xapian::Query words_query(Xapian::Query::OP_OR, parts.begin(), parts.end());
    const auto kind_term = [](Kind k) {
      return Xapian::Query(std::string(schema::kPrefixKind) + kind_name(k));
    };
    Xapian::Enquire enquire(impl_->xapian);
    if (kind == Kind::kError) {
      // Every entry has one kind, and errors are nearly all of them: leaving out the few others
      // reads two short posting lists instead of filtering through the errors' long one (on
      // 10,000 entries, 4.5 M -> 3.9 M instructions in the search).
      const Xapian::Query others(Xapian::Query::OP_OR, kind_term(Kind::kEnv),
                                 kind_term(Kind::kFaq));
      enquire.set_query(Xapian::Query(Xapian::Query::OP_AND_NOT, words_query, others));
    } else {
      enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, words_query, kind_term(kind)));
    }
    std::vector<TextHit> out;
    const Xapian::MSet hits = enquire.get_mset(0, limit);
    for (auto h = hits.begin(); h != hits.end(); ++h)
      out.push_back({h.get_document().get_data(), h.get_weight(),
                     h.get_percent() / 100.0 * known_share});
    return out;
  } catch (const Xapian::Error& e) {
    throw Error("searching index '" + impl_->dir + "': " + e.get_description() +
                rebuild_hint(impl_->dir));
  }
}

std::vector<TextHit> Store::baseline_search(const std::string& text, int limit) const {
  try {
    Xapian::QueryParser parser;
    parser.set_database(impl_->xapian);
    parser.set_stemmer(Xapian::Stem("english"));
    parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
    Xapian::Query query;
    try {
      query = parser.parse_query(text);
    } catch (const Xapian::QueryParserError&) {
      return {};  // text the default syntax cannot read counts as no answer
    }
    const Xapian::Query filter(std::string(schema::kPrefixKind) + kind_name(Kind::kError));
    Xapian::Enquire enquire(impl_->xapian);
    enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, query, filter));
    std::vector<TextHit> out;
    const Xapian::MSet hits = enquire.get_mset(0, limit);
    for (auto h = hits.begin(); h != hits.end(); ++h)
      out.push_back({h.get_document().get_data(), h.get_weight(), h.get_percent() / 100.0});
    return out;
  } catch (const Xapian::Error& e) {
    throw Error("searching index '" + impl_->dir + "': " + e.get_description() +
                rebuild_hint(impl_->dir));
  }
}


}  // namespace gpuerr::query
