#include "query/store.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include <sqlite3.h>
#include <xapian.h>

#include "indexer/error.h"
#include "indexer/schema.h"
#include "tests/support.h"

namespace gpuerr::query {
namespace fs = std::filesystem;

namespace {

// A copy of the bundled index that a test may damage.
fs::path index_copy() {
  const fs::path out = test::temp_dir() / "index";
  fs::copy(test::bundled_index(), out, fs::copy_options::recursive);
  return out;
}

std::string open_error(const fs::path& dir) {
  try {
    Store store(dir.string());
  } catch (const Error& e) {
    return e.what();
  }
  return "(opened)";
}

}  // namespace

TEST_SUITE("query") {

TEST_CASE("a missing index names the directory and how to rebuild it") {
  CHECK(open_error("/nonexistent/index") ==
        "no index at '/nonexistent/index': not a directory (rebuild it with 'gpuerr index --kb kb "
        "--out /nonexistent/index')");
  const fs::path empty = test::temp_dir();
  CHECK(open_error(empty) == "no index at '" + empty.string() +
                                 "': 'kb.sqlite' is missing (rebuild it with 'gpuerr index --kb "
                                 "kb --out " + empty.string() + "')");
}

TEST_CASE("an index of another schema version is refused with the rebuild command") {
  const fs::path dir = index_copy();
  {
    Xapian::WritableDatabase search((dir / "xapian").string(), Xapian::DB_OPEN);
    search.set_metadata(schema::kMetaSchemaVersion, "999");
    search.commit();
  }
  CHECK(open_error(dir) == "index '" + dir.string() +
                               "' has schema version 999, this gpuerr reads version " + std::to_string(schema::kVersion) + " (rebuild "
                               "it with 'gpuerr index --kb kb --out " + dir.string() + "')");
}

TEST_CASE("records of another schema version are refused when first read, not before") {
  const fs::path dir = index_copy();
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir / "kb.sqlite").c_str(), &db) == SQLITE_OK);
  // the same number of digits, so the file keeps its size
  sqlite3_exec(db, ("UPDATE meta SET value = '" + std::to_string(schema::kVersion + 1) +
                    "' WHERE key = 'schema_version'").c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const Store store(dir.string());
  // a lookup reads only the search index
  CHECK(store.entry_heading("misaligned-address"));
  std::string error;
  try {
    (void)store.entry("misaligned-address");
  } catch (const Error& e) {
    error = e.what();
  }
  CHECK(error.find("has schema version " + std::to_string(schema::kVersion + 1)) !=
        std::string::npos);
}

TEST_CASE("a damaged index is refused, not half read") {
  const fs::path dir = index_copy();
  test::write_file(dir / "kb.sqlite", "this is not a database");
  CHECK(open_error(dir).find("(rebuild it with 'gpuerr index") != std::string::npos);
  CHECK(open_error(dir).find("is damaged: 'kb.sqlite' has 22 bytes where ") != std::string::npos);

  const fs::path no_xapian = index_copy();
  fs::remove_all(no_xapian / "xapian");
  CHECK(open_error(no_xapian).starts_with("cannot open index '" + no_xapian.string() + "': "));
}

TEST_CASE("links back are the entries that list an id as related") {
  const std::vector<std::string> back = test::bundled_store().referenced_by("cuda-launch-blocking");
  CHECK(std::find(back.begin(), back.end(), "illegal-memory-access") != back.end());
  for (const std::string& id : back) {
    const auto e = test::bundled_store().entry(id);
    REQUIRE(e);
    CHECK(std::find(e->related.begin(), e->related.end(), "cuda-launch-blocking") !=
          e->related.end());
  }
}

TEST_CASE("an entry's heading is the entry without bodies and with codes and actions only") {
  const Store& store = test::bundled_store();
  for (const std::string id : {"illegal-memory-access", "pytorch-cuda-alloc-conf", "xid-79"}) {
    CAPTURE(id);
    const std::optional<Entry> full = store.entry(id), heading = store.entry_heading(id);
    REQUIRE(full);
    REQUIRE(heading);
    CHECK(heading->title == full->title);
    CHECK(heading->category == full->category);
    CHECK(heading->hardware == full->hardware);
    CHECK(heading->poisons_context == full->poisons_context);
    CHECK(heading->layer == full->layer);
    CHECK(heading->file == full->file);
    CHECK(heading->env_name == full->env_name);
    CHECK(heading->codes == full->codes);
    CHECK(heading->first_actions == full->first_actions);
    CHECK(!full->body_html.empty());
    CHECK(heading->body_html.empty());
    CHECK(heading->examples.empty());
  }
  CHECK_FALSE(store.entry_heading("no-such-entry"));
}

TEST_CASE("a signature hit's line is the one its first match starts on") {
  const Store& store = test::bundled_store();
  // (one plain signature, matched on the folded text: whitespace runs folded to one space, so
  // across a line break too; one with a placeholder, matched by its regular expression)
  const std::string text =
      "step 41 ok\n\n   CUDA error:   an illegal\n memory access was encountered\n"
      "[E ProcessGroupNCCL.cpp:828] [Rank 3] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=33, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 607565 milliseconds "
      "before timing out.\nstep 42 ok";
  std::map<std::string, size_t> first;
  for (const SignatureHit& hit : store.match_signatures(text)) {
    const size_t line = store.line_of(text, hit);
    if (!first.count(hit.entry_id) || line < first[hit.entry_id]) first[hit.entry_id] = line;
  }
  REQUIRE(first.count("illegal-memory-access"));
  REQUIRE(first.count("nccl-watchdog-timeout"));
  CHECK(first["illegal-memory-access"] == 2);
  CHECK(first["nccl-watchdog-timeout"] == 4);
}

TEST_CASE("an unknown id is no entry, not an error") {
  CHECK(!test::bundled_store().entry("no-such-entry"));
  CHECK(test::bundled_store().entries_with_code("no-such-code").empty());
}

}  // TEST_SUITE

}  // namespace gpuerr::query
