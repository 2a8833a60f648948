#include "indexer/index_writer.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <xapian.h>

#include "indexer/error.h"
#include "indexer/indexed_text.h"
#include "indexer/replace_dir.h"
#include "indexer/schema.h"
#include "indexer/signature.h"

namespace gpuerr::indexer {
namespace {

namespace fs = std::filesystem;

// --- SQLite -------------------------------------------------------------------------------

void check(int rc, sqlite3* db, const std::string& doing) {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  throw Error(doing + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

// One prepared INSERT, bound from a list of text and integer values.
class Insert {
 public:
  Insert(sqlite3* db, const char* sql) : db_(db) {
    check(sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr), db, "preparing the index");
  }
  ~Insert() { sqlite3_finalize(stmt_); }
  Insert(const Insert&) = delete;
  Insert& operator=(const Insert&) = delete;

  template <typename... Values>
  void run(const Values&... values) {
    int column = 0;
    (bind(++column, values), ...);
    check(sqlite3_step(stmt_), db_, "writing the index");
    sqlite3_reset(stmt_);
  }

 private:
  void bind(int column, const std::string& text) {
    sqlite3_bind_text(stmt_, column, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void bind(int column, const char* text) { bind(column, std::string(text)); }
  void bind(int column, long long value) { sqlite3_bind_int64(stmt_, column, value); }
  void bind(int column, int value) { sqlite3_bind_int64(stmt_, column, value); }
  void bind(int column, size_t value) { bind(column, static_cast<long long>(value)); }
  void bind(int column, bool value) { bind(column, value ? 1 : 0); }

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Writes the list fields of `e`.
void write_lists(sqlite3* db, const Entry& e) {
  Insert code(db, "INSERT INTO codes VALUES (?, ?, ?)");
  Insert sig(db, "INSERT INTO signatures VALUES (?, ?, ?)");
  Insert action(db, "INSERT INTO actions VALUES (?, ?, ?)");
  Insert rel(db, "INSERT INTO related VALUES (?, ?, ?)");
  Insert example(db, "INSERT INTO examples VALUES (?, ?, ?, ?)");
  Insert source(db, "INSERT INTO sources VALUES (?, ?, ?, ?)");
  for (size_t i = 0; i < e.codes.size(); ++i) code.run(e.id, i, e.codes[i]);
  for (size_t i = 0; i < e.signatures.size(); ++i) sig.run(e.id, i, e.signatures[i]);
  for (size_t i = 0; i < e.first_actions.size(); ++i) action.run(e.id, i, e.first_actions[i]);
  for (size_t i = 0; i < e.related.size(); ++i) rel.run(e.id, i, e.related[i]);
  for (size_t i = 0; i < e.examples.size(); ++i)
    example.run(e.id, i, e.examples[i].text, e.examples[i].source);
  for (size_t i = 0; i < e.sources.size(); ++i)
    source.run(e.id, i, e.sources[i].title, e.sources[i].url);
}

// The role stored for an entry: an error entry the kb gives none is a cause.
std::string stored_role(const Entry& e) {
  return e.kind == Kind::kError && e.role.empty() ? "cause" : e.role;
}

void write_sqlite(const std::vector<Entry>& entries, const std::vector<DocumentedCode>& documented,
                  const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 nullptr);
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> owner(db, sqlite3_close);
  check(rc, db, "creating '" + path + "'");
  check(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), db, "writing '" + path + "'");
  check(sqlite3_exec(db, schema::kCreateTables, nullptr, nullptr, nullptr), db,
        "creating the tables of '" + path + "'");
  {
    Insert meta(db, "INSERT INTO meta VALUES (?, ?)");
    meta.run("schema_version", std::to_string(schema::kVersion));
    meta.run("built_at", utc_now());
    meta.run("entry_count", std::to_string(entries.size()));
    meta.run("gpuerr_version", GPUERR_VERSION);
    Insert entry(db, "INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (const Entry& e : entries) {
      entry.run(e.id, kind_name(e.kind), e.title, e.category, e.poisons_context, e.hardware,
                e.hardware_evidence, stored_role(e), e.env_name, e.env_values, e.env_default,
                e.file, e.layer, e.body_markdown, e.body_html);
      write_lists(db, e);
    }
    Insert code(db, "INSERT INTO documented_codes VALUES (?, ?, ?)");
    for (const DocumentedCode& d : documented) code.run(d.family, d.code, d.name);
  }
  check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "writing '" + path + "'");
  check(sqlite3_close(owner.release()), nullptr, "closing '" + path + "'");
}

// --- Xapian -------------------------------------------------------------------------------

// How many signatures of the catalogue have each key word.
using KeyCounts = std::map<std::string, int>;

KeyCounts count_keys(const std::vector<Entry>& entries) {
  KeyCounts counts;
  for (const Entry& e : entries)
    for (const std::string& s : e.signatures) {
      const std::vector<std::string> keys = signature_keys(s);
      for (const std::string& key : std::set<std::string>(keys.begin(), keys.end())) ++counts[key];
    }
  return counts;
}

// The key a signature is filed under: the one fewest signatures share, so that a lookup reads
// as few signatures as it can; the longer one of equals; none longer than a metadata key can be.
std::string rarest_key(const std::string& signature, const KeyCounts& counts) {
  const size_t longest = schema::kMaxMetadataKey - std::string(schema::kMetaSignaturesByKey).size();
  std::string best;
  for (const std::string& key : signature_keys(signature)) {
    if (key.size() > longest) continue;
    const int n = counts.at(key), best_n = best.empty() ? 0 : counts.at(best);
    if (best.empty() || n < best_n || (n == best_n && key.size() > best.size())) best = key;
  }
  return best;
}

Xapian::Document make_document(const Entry& e, Xapian::TermGenerator& terms) {
  Xapian::Document doc;
  doc.set_data(e.id);
  doc.add_boolean_term(schema::kPrefixId + e.id);
  doc.add_boolean_term(std::string(schema::kPrefixKind) + kind_name(e.kind));
  terms.set_document(doc);
  auto field = [&](const std::string& text, unsigned weight) {
    terms.index_text(text, weight);
    terms.increase_termpos();  // no phrase spans two fields
  };
  for_each_indexed_field(e, field);
  return doc;
}

// An entry's heading as a lookup reads it (schema::kMetaHeading).
std::string heading_record(const Entry& e) {
  const nlohmann::json heading = {
      {"id", e.id}, {"kind", kind_name(e.kind)}, {"title", e.title}, {"category", e.category},
      {"poisons_context", e.poisons_context}, {"hardware", e.hardware},
      {"hardware_evidence", e.hardware_evidence}, {"role", stored_role(e)},
      {"env_name", e.env_name}, {"env_values", e.env_values}, {"env_default", e.env_default},
      {"file", e.file}, {"layer", e.layer}, {"codes", e.codes},
      {"first_actions", e.first_actions}};
  return heading.dump();
}

// What a lookup reads (schema.h, kMeta*): codes, signatures by key, roles and headings.
void write_lookup_records(Xapian::WritableDatabase& db, const std::vector<Entry>& entries) {
  const KeyCounts keys = count_keys(entries);
  std::map<std::string, std::set<std::string>> ids_by_code;
  std::map<std::string, std::string> signatures_by_key;
  long long number = 0;
  for (const Entry& e : entries) {
    try {
      for (const std::string& code : e.codes) ids_by_code[code_key(code)].insert(e.id);
      for (size_t i = 0; i < e.signatures.size(); ++i, ++number) {
        const std::string& s = e.signatures[i];
        signatures_by_key[rarest_key(s, keys)] +=
            std::to_string(number) + '\t' + joined_literals(s) + '\n';
        const nlohmann::json record = {e.id, i, signature_letters(s), s, signature_to_regex(s)};
        db.set_metadata(schema::kMetaSignature + std::to_string(number), record.dump());
      }
      if (e.kind == Kind::kError) db.set_metadata(schema::kMetaRole + e.id, stored_role(e));
      db.set_metadata(schema::kMetaHeading + e.id, heading_record(e));
    } catch (const nlohmann::json::exception& x) {
      throw Error("entry '" + e.id + "' (" + e.file + "): " + x.what());
    }
  }
  for (const auto& [code, ids] : ids_by_code) {
    std::string lines;
    for (const std::string& id : ids) lines += id + '\n';
    db.set_metadata(schema::kMetaCode + code, lines);
  }
  for (const auto& [key, lines] : signatures_by_key)
    db.set_metadata(schema::kMetaSignaturesByKey + key, lines);
}

// `records_size`: the size of the SQLite file written beside it, which a lookup checks instead of
// opening that file.
void write_xapian(const std::vector<Entry>& entries, const std::string& path,
                  std::uintmax_t records_size) {
  try {
    Xapian::WritableDatabase db(path, Xapian::DB_CREATE);
    Xapian::TermGenerator terms;
    terms.set_stemmer(Xapian::Stem("english"));
    terms.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
    for (const Entry& e : entries) db.add_document(make_document(e, terms));
    db.set_metadata(schema::kMetaSchemaVersion, std::to_string(schema::kVersion));
    db.set_metadata(schema::kMetaEntryCount, std::to_string(entries.size()));
    db.set_metadata(schema::kMetaRecordsSize, std::to_string(records_size));
    write_lookup_records(db, entries);
    db.commit();
    db.close();
  } catch (const Xapian::Error& e) {
    throw Error("writing the search index '" + path + "': " + e.get_description());
  }
}

// --- Putting it in place ------------------------------------------------------------------

bool is_replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) return false;
  return fs::is_empty(dir, ec) || fs::exists(dir / schema::kSqliteFile, ec);
}

}  // namespace

void write_index(const std::vector<Entry>& entries, const std::string& out_dir,
                 const std::vector<DocumentedCode>& documented) {
  const fs::path out = fs::path(out_dir).lexically_normal();
  if (!is_replaceable(out))
    throw Error("writing the index to '" + out_dir +
                "': it exists and is not an index; choose an empty or new directory");
  std::error_code ec;
  if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
  const fs::path tmp = temporary_sibling(out);
  if (!fs::create_directory(tmp, ec))
    throw Error("creating '" + tmp.string() + "': " + (ec ? ec.message() : "it already exists"));
  try {
    const fs::path records = tmp / schema::kSqliteFile;
    write_sqlite(entries, documented, records.string());
    const std::uintmax_t records_size = fs::file_size(records, ec);
    if (ec) throw Error("reading the size of '" + records.string() + "': " + ec.message());
    write_xapian(entries, (tmp / schema::kXapianDir).string(), records_size);
    swap_into_place(tmp, out, "index");
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

}  // namespace gpuerr::indexer
