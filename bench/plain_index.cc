// The yardstick for `gpuerr index`: the same kb/ files indexed the plain way, each file's whole
// text as one Xapian document (English stemmer, as gpuerr uses) and one row of an SQLite FTS5
// table, with no parsing, checking or rendering. Usage: bench_plain_index KB_DIR OUT_DIR
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <sqlite3.h>
#include <xapian.h>

namespace fs = std::filesystem;

namespace {

void check(int rc, sqlite3* db) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: bench_plain_index KB_DIR OUT_DIR\n";
    return 2;
  }
  try {
    const fs::path out = argv[2];
    fs::create_directories(out);
    Xapian::WritableDatabase xapian((out / "xapian").string(), Xapian::DB_CREATE_OR_OVERWRITE);
    Xapian::TermGenerator terms;
    terms.set_stemmer(Xapian::Stem("english"));
    sqlite3* db = nullptr;
    check(sqlite3_open((out / "fts.sqlite").c_str(), &db), db);
    check(sqlite3_exec(db, "CREATE VIRTUAL TABLE docs USING fts5(path, text); BEGIN", nullptr,
                       nullptr, nullptr), db);
    sqlite3_stmt* insert = nullptr;
    check(sqlite3_prepare_v2(db, "INSERT INTO docs VALUES (?, ?)", -1, &insert, nullptr), db);
    int files = 0;
    for (const auto& item : fs::recursive_directory_iterator(argv[1])) {
      if (item.path().extension() != ".md") continue;
      std::ifstream in(item.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      const std::string path = item.path().string(), body = text.str();
      Xapian::Document doc;
      terms.set_document(doc);
      terms.index_text(body);
      doc.set_data(path);
      xapian.add_document(doc);
      sqlite3_bind_text(insert, 1, path.data(), static_cast<int>(path.size()), SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, body.data(), static_cast<int>(body.size()), SQLITE_STATIC);
      check(sqlite3_step(insert), db);
      sqlite3_reset(insert);
      ++files;
    }
    sqlite3_finalize(insert);
    check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db);
    sqlite3_close(db);
    xapian.commit();
    std::cout << files << " files\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_plain_index: " << e.what() << '\n';
    return 2;
  } catch (const Xapian::Error& e) {
    std::cerr << "bench_plain_index: " << e.get_description() << '\n';
    return 2;
  }
  return 0;
}
