// The stored layout of an index directory: file names, the SQLite schema and its version, and
// the Xapian term prefixes. The indexer writes exactly this; query/ reads exactly this.
#pragma once

#include <cstddef>

namespace gpuerr::schema {

/// Bumped whenever the stored layout changes; a reader refuses any other version.
inline constexpr int kVersion = 10;  // 10: what a lookup reads is in the search index's metadata

inline constexpr const char* kSqliteFile = "kb.sqlite";
inline constexpr const char* kXapianDir = "xapian";

/// Xapian: the document data is the entry id; these boolean terms filter and find entries.
inline constexpr const char* kPrefixKind = "XK";  // XKerror, XKenv, XKfaq
inline constexpr const char* kPrefixId = "Q";     // Qillegal-memory-access (unique id term)

/// Xapian user metadata: everything a lookup reads, so that a lookup never opens the SQLite file
/// (opening it, reading its schema and preparing its statements cost about 1.3 ms of a lookup's
/// 8, against 0.2 ms for reading the same from metadata; bench/README.md). Each key is a prefix
/// and a name; the values are text.
/// Xapian refuses longer keys; a text's word longer than this is no key of any signature.
inline constexpr size_t kMaxMetadataKey = 200;
inline constexpr const char* kMetaSchemaVersion = "schema_version";  // kVersion
inline constexpr const char* kMetaEntryCount = "entry_count";  // entries written: the doc count
inline constexpr const char* kMetaRecordsSize = "records_size";  // kb.sqlite's size in bytes
/// + a code key (code_key(), e.g. "xid:79"): the ids of the entries with that code, one per line,
/// in id order.
inline constexpr const char* kMetaCode = "code:";
/// + a signature key (signature_keys(); nothing for the signatures that have none): a line
/// "NUMBER<TAB>LITERALS" for each signature filed under it, LITERALS its joined_literals(), so
/// that a lookup skips the signatures whose literal pieces the text lacks before reading them.
inline constexpr const char* kMetaSignaturesByKey = "sigkey:";
/// + a signature's NUMBER: the JSON array [entry id, place in its entry's list, letters (its
/// signature_letters()), signature, regex (signature_to_regex())].
inline constexpr const char* kMetaSignature = "sig:";
/// + the id of an error entry: its role, "cause" when the kb names none.
inline constexpr const char* kMetaRole = "role:";
/// + an entry's id: its heading as lookup prints it, a JSON object of the `entries` columns below
/// but the bodies (role as stored there), with the lists `codes` and `first_actions`.
inline constexpr const char* kMetaHeading = "head:";

/// Xapian: within-document frequency added per word, by field, so that a word in a title or
/// signature weighs more under BM25 than the same word in a body.
inline constexpr unsigned kWeightTitle = 4;
inline constexpr unsigned kWeightSignature = 4;
inline constexpr unsigned kWeightCode = 4;
inline constexpr unsigned kWeightExample = 2;
inline constexpr unsigned kWeightBody = 1;

/// The SQLite tables. `ord` keeps list order; list fields live in their own tables, each stored
/// in (entry_id, ord) order WITHOUT ROWID, so that reading an entry's list is one range of one
/// b-tree rather than an index look-up followed by a row look-up per item.
inline constexpr const char* kCreateTables = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, category TEXT NOT NULL,
  poisons_context INTEGER NOT NULL, hardware TEXT NOT NULL, hardware_evidence TEXT NOT NULL,
  role TEXT NOT NULL,
  env_name TEXT NOT NULL, env_values TEXT NOT NULL, env_default TEXT NOT NULL,
  file TEXT NOT NULL, layer TEXT NOT NULL,
  -- the bodies last: they spill into overflow pages, which a read of the columns before them skips
  body_markdown TEXT NOT NULL, body_html TEXT NOT NULL);
CREATE TABLE codes (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, code TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE signatures (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, signature TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE actions (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE related (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, related_id TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE examples (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, text TEXT NOT NULL,
  source TEXT NOT NULL, PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE documented_codes (family TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE sources (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, title TEXT NOT NULL,
  url TEXT NOT NULL, PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
-- The links back are read by the id linked to.
CREATE INDEX related_by_target ON related(related_id);
)sql";

}  // namespace gpuerr::schema
