// The Dash/Zeal docset: its layout, Info.plist and the searchIndex table.
#include "site/docset.h"

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "indexer/error.h"
#include "site/export.h"
#include "site/layout.h"
#include "tests/support.h"

namespace gpuerr::site {
namespace {

namespace fs = std::filesystem;

struct Row {
  std::string name, type, path;
  bool operator==(const Row&) const = default;
};

std::vector<Row> rows(const fs::path& dsidx, const std::string& where = "") {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(dsidx.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  const std::string sql = "SELECT name, type, path FROM searchIndex " + where + " ORDER BY id";
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  std::vector<Row> out;
  auto text = [&](int i) {
    return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, i)));
  };
  while (sqlite3_step(s) == SQLITE_ROW) out.push_back({text(0), text(1), text(2)});
  sqlite3_finalize(s);
  sqlite3_close(db);
  return out;
}

std::string schema_of(const fs::path& dsidx) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(dsidx.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_master ORDER BY name", -1, &s, nullptr) ==
          SQLITE_OK);
  std::string out;
  while (sqlite3_step(s) == SQLITE_ROW)
    out += std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) + ";\n";
  sqlite3_finalize(s);
  sqlite3_close(db);
  return out;
}

const fs::path& bundled_docset() {
  static const fs::path dir = [] {
    const fs::path out = test::temp_dir() / "gpuerr.docset";
    export_site(test::bundled_store(), {out.string(), "", "docset"});
    return out;
  }();
  return dir;
}

}  // namespace

TEST_SUITE("site") {
TEST_CASE("a docset holds Info.plist, docSet.dsidx and the site's pages under Documents") {
  const fs::path& d = bundled_docset();
  CHECK(fs::is_regular_file(d / "Contents/Info.plist"));
  CHECK(fs::is_regular_file(d / "Contents/Resources/docSet.dsidx"));
  CHECK(fs::is_regular_file(d / "Contents/Resources/Documents/index.html"));
  CHECK(fs::is_regular_file(d / "Contents/Resources/Documents/search-index.js"));
  CHECK(fs::is_regular_file(d / "Contents/Resources/Documents" / entry_path("xid-79")));
  std::ifstream plist(d / "Contents/Info.plist");
  std::stringstream text;
  text << plist.rdbuf();
  for (const char* key : {"<key>CFBundleIdentifier</key>", "<key>CFBundleName</key>",
                          "<key>DocSetPlatformFamily</key>", "<key>isDashDocset</key>",
                          "<key>dashIndexFilePath</key>\n  <string>index.html</string>",
                          "<key>isJavaScriptEnabled</key>"}) {
    CAPTURE(key);
    CHECK(text.str().find(key) != std::string::npos);
  }
}

TEST_CASE("the docset's searchIndex has Dash's schema, every entry typed by kind, and names of "
          "codes") {
  const fs::path dsidx = bundled_docset() / "Contents/Resources/docSet.dsidx";
  CHECK(schema_of(dsidx) ==
        "CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path);\n"
        "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);\n");
  size_t kinds[3] = {0, 0, 0};
  for (const Entry& e : test::bundled_store().entries()) ++kinds[static_cast<int>(e.kind)];
  const auto entries_of = [&](const char* type) {
    return rows(dsidx, std::string("WHERE type = '") + type + "' AND path LIKE 'e/%'");
  };
  CHECK(entries_of("Environment").size() == kinds[1]);
  CHECK(entries_of("Guide").size() == kinds[2]);
  CHECK(entries_of("Error").size() > kinds[0]);  // titles, and names of codes
  CHECK(rows(dsidx, "WHERE type NOT IN ('Error', 'Environment', 'Guide')").empty());
  const std::vector<Row> illegal = rows(dsidx, "WHERE path = 'e/illegal-memory-access.html'");
  CHECK(illegal == std::vector<Row>{
                       {"CUDA error: an illegal memory access was encountered", "Error",
                        "e/illegal-memory-access.html"},
                       {"cudaErrorIllegalAddress", "Error", "e/illegal-memory-access.html"},
                       {"CUDA_ERROR_ILLEGAL_ADDRESS", "Error", "e/illegal-memory-access.html"}});
  CHECK(rows(dsidx, "WHERE name = 'CUDA_LAUNCH_BLOCKING'") ==
        std::vector<Row>{{"CUDA_LAUNCH_BLOCKING", "Environment", "e/cuda-launch-blocking.html"}});
  for (const Row& r : rows(dsidx)) {
    CAPTURE(r.path);
    CHECK(fs::is_regular_file(bundled_docset() / "Contents/Resources/Documents" / r.path));
  }
}

TEST_CASE("a docset must be named *.docset, which is all Dash and Zeal open") {
  const fs::path out = test::temp_dir() / "gpuerr-docs";
  CHECK_THROWS_WITH_AS(export_site(test::bundled_store(), {out.string(), "", "docset"}),
                       ("exporting the docset to '" + out.string() +
                        "': Dash and Zeal only open a directory named NAME.docset; choose e.g. "
                        "gpuerr.docset")
                           .c_str(),
                       Error);
  CHECK(!fs::exists(out));
}

TEST_CASE("docset rows: a title per entry, and each code that is a name") {
  Entry error;
  error.id = "x";
  error.title = "X failed";
  error.codes = {"cudaErrorX", "cuda:9", "X failed"};
  Entry env;
  env.id = "v";
  env.kind = Kind::kEnv;
  env.title = "V";
  env.codes = {"ignored"};
  const std::vector<DocsetRow> got = docset_rows({error, env});
  REQUIRE(got.size() == 3);
  CHECK(got[0].name == "X failed");
  CHECK(got[1].name == "cudaErrorX");
  CHECK(got[1].type == "Error");
  CHECK(got[2].type == "Environment");
  CHECK(got[2].path == "e/v.html");
}

TEST_CASE("a docset index that cannot be written is one error naming the file") {
  const fs::path path = test::temp_dir() / "missing" / "docSet.dsidx";
  CHECK_THROWS_WITH_AS(
      write_docset_index(path.string(), {}),
      ("writing the docset index '" + path.string() + "': unable to open database file").c_str(),
      Error);
}

}  // TEST_SUITE

}  // namespace gpuerr::site
