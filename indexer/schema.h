// The stored layout of an index directory: file names, the SQLite schema and its version, and
// the Xapian term prefixes. The indexer writes exactly this; query/ reads exactly this.
#pragma once

namespace gpuerr::schema {

/// Bumped whenever the stored layout changes; a reader refuses any other version.
inline constexpr int kVersion = 9;  // 9: signatures_by_key holds the literals

inline constexpr const char* kSqliteFile = "kb.sqlite";
inline constexpr const char* kXapianDir = "xapian";

/// Xapian: the document data is the entry id; these boolean terms filter and find entries.
inline constexpr const char* kPrefixKind = "XK";  // XKerror, XKenv, XKfaq
inline constexpr const char* kPrefixId = "Q";     // Qillegal-memory-access (unique id term)

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
  code_key TEXT NOT NULL, PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE INDEX codes_by_key ON codes(code_key);
CREATE TABLE signatures (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, signature TEXT NOT NULL,
  regex TEXT NOT NULL,     -- signature_to_regex(signature), RE2 syntax, matched ignoring case
  literals TEXT NOT NULL,  -- joined_literals(signature): pieces joined by single spaces
  letters INTEGER NOT NULL,  -- signature_letters(signature)
  key TEXT NOT NULL);      -- the rarest of signature_keys(signature); '' when it has none
-- With the literals, so that a lookup tells a key's signatures it can skip from the index alone.
CREATE INDEX signatures_by_key ON signatures(key, literals);
-- The signatures with no key, all in one row, so that a lookup reads them in one go rather than
-- row by row: for each, a line of its rowid above, a tab and its literals.
CREATE TABLE unkeyed_signatures (lines TEXT NOT NULL);
CREATE TABLE actions (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE related (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, related_id TEXT NOT NULL,
  PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE examples (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, text TEXT NOT NULL,
  source TEXT NOT NULL, PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
CREATE TABLE documented_codes (family TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE sources (entry_id TEXT NOT NULL, ord INTEGER NOT NULL, title TEXT NOT NULL,
  url TEXT NOT NULL, PRIMARY KEY (entry_id, ord)) WITHOUT ROWID;
-- The signatures keep their rowids (unkeyed_signatures names them), so they need an index by
-- entry id; the links back are read by the id linked to.
CREATE INDEX signatures_by_entry ON signatures(entry_id);
CREATE INDEX related_by_target ON related(related_id);
)sql";

}  // namespace gpuerr::schema
