// SQLite rows for Store (query/store.cc only): prepared statements kept for reuse, and a reader
// of one statement's rows that turns every sqlite3_* failure into a gpuerr::Error.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include <sqlite3.h>

#include "indexer/error.h"

namespace gpuerr::query::detail {

inline std::string rebuild_hint(const std::string& dir) {
  return " (rebuild it with 'gpuerr index --kb kb --out " + dir + "')";
}

// Prepared statements kept for reuse, by their SQL: preparing one costs more than most of the
// queries a lookup runs. A statement is taken out while in use, so two threads never share one.
class Statements {
 public:
  sqlite3* db = nullptr;

  ~Statements() { clear(); }

  /// A statement for `sql`: a kept one, or nullptr when the caller must prepare one.
  sqlite3_stmt* take(const std::string& sql) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = kept_.find(sql);
    if (it == kept_.end()) return nullptr;
    sqlite3_stmt* stmt = it->second;
    kept_.erase(it);
    return stmt;
  }
  void give_back(const std::string& sql, sqlite3_stmt* stmt) {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!kept_.emplace(sql, stmt).second) sqlite3_finalize(stmt);
  }
  void clear() {
    for (auto& [sql, stmt] : kept_) sqlite3_finalize(stmt);
    kept_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, sqlite3_stmt*> kept_;
};

// Reads rows of one prepared statement; every sqlite3_* failure becomes a gpuerr::Error.
class Rows {
 public:
  Rows(Statements& statements, const std::string& dir, const char* sql)
      : statements_(statements), db_(statements.db), dir_(dir), sql_(sql) {
    stmt_ = statements.take(sql_);
    if (!stmt_ && sqlite3_prepare_v2(db_, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      sqlite3_finalize(stmt_);
      stmt_ = nullptr;
      fail();
    }
  }
  ~Rows() { statements_.give_back(sql_, stmt_); }
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;

  Rows& bind(std::string_view text) {
    // An empty view may have no data; SQLite would bind that as NULL, which equals nothing.
    sqlite3_bind_text(stmt_, ++bound_, text.data() ? text.data() : "",
                      static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Rows& bind(long long number) {
    sqlite3_bind_int64(stmt_, ++bound_, number);
    return *this;
  }
  /// Starts the statement over, to be bound and stepped again.
  Rows& restart() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    bound_ = 0;
    return *this;
  }
  /// Steps to the next row; false when there is none.
  bool next() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail();
  }
  std::string text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, sqlite3_column_bytes(stmt_, column)) : std::string();
  }
  /// The column's text, valid until the next step, restart() or the end of this Rows.
  std::string_view view(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string_view(p, sqlite3_column_bytes(stmt_, column)) : std::string_view();
  }
  long long integer(int column) const { return sqlite3_column_int64(stmt_, column); }

 private:
  [[noreturn]] void fail() const {
    throw Error("reading index '" + dir_ + "': " + sqlite3_errmsg(db_) + rebuild_hint(dir_));
  }

  Statements& statements_;
  sqlite3* db_;
  const std::string& dir_;
  std::string sql_;
  sqlite3_stmt* stmt_ = nullptr;
  int bound_ = 0;
};

}  // namespace gpuerr::query::detail
