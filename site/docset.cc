#include "site/docset.h"

#include <sqlite3.h>

#include <memory>

#include "indexer/error.h"
#include "site/html.h"
#include "site/layout.h"

namespace gpuerr::site {
namespace {

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

// Every sqlite3_* call that can fail goes through here: one line naming the file.
void check(int rc, sqlite3* db, const std::string& path) {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  throw Error("writing the docset index '" + path +
              "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

const char* type_of(Kind kind) {
  switch (kind) {
    case Kind::kError:
      return "Error";
    case Kind::kEnv:
      return "Environment";
    case Kind::kFaq:
      return "Guide";
  }
  return "Error";
}

}  // namespace

std::vector<DocsetRow> docset_rows(const std::vector<Entry>& entries) {
  std::vector<DocsetRow> rows;
  for (const Entry& e : entries) {
    const std::string path = url_path(entry_path(e.id));
    rows.push_back({e.title, type_of(e.kind), path});
    if (e.kind != Kind::kError) continue;
    for (const std::string& code : e.codes)
      if (code.find(':') == std::string::npos && code != e.title)
        rows.push_back({code, type_of(e.kind), path});
  }
  return rows;
}

std::string info_plist() {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key>
  <string>gpuerr</string>
  <key>CFBundleName</key>
  <string>gpuerr</string>
  <key>DocSetPlatformFamily</key>
  <string>gpuerr</string>
  <key>isDashDocset</key>
  <true/>
  <key>dashIndexFilePath</key>
  <string>index.html</string>
  <key>isJavaScriptEnabled</key>
  <true/>
</dict>
</plist>
)";
}

void write_docset_index(const std::string& path, const std::vector<DocsetRow>& rows) {
  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<sqlite3, CloseDb> db(raw);
  check(rc, raw, path);
  check(sqlite3_exec(raw,
                     "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, "
                     "path TEXT);"
                     "CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path);"
                     "BEGIN",
                     nullptr, nullptr, nullptr),
        raw, path);
  sqlite3_stmt* s = nullptr;
  check(sqlite3_prepare_v2(raw,
                           "INSERT OR IGNORE INTO searchIndex(name, type, path) "
                           "VALUES (?, ?, ?)",
                           -1, &s, nullptr),
        raw, path);
  std::unique_ptr<sqlite3_stmt, Finalize> insert(s);
  for (const DocsetRow& r : rows) {
    sqlite3_bind_text(s, 1, r.name.data(), static_cast<int>(r.name.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, r.type.data(), static_cast<int>(r.type.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, r.path.data(), static_cast<int>(r.path.size()), SQLITE_TRANSIENT);
    check(sqlite3_step(s), raw, path);
    check(sqlite3_reset(s), raw, path);
  }
  insert.reset();
  check(sqlite3_exec(raw, "COMMIT", nullptr, nullptr, nullptr), raw, path);
  check(sqlite3_close(db.release()), nullptr, path);
}

}  // namespace gpuerr::site
