#include "indexer/index_writer.h"

#include <doctest/doctest.h>

#include "indexer/error.h"
#include "indexer/lint.h"
#include "indexer/schema.h"
#include "query/store.h"
#include "tests/support.h"

namespace gpuerr::indexer {
namespace fs = std::filesystem;

TEST_SUITE("indexer") {

TEST_CASE("an index holds every entry with its lists, and records its schema version") {
  const Catalogue c = read_catalogue({test::bundled_kb().string()});
  const fs::path out = test::temp_dir() / "index";
  write_index(c.entries, out.string());
  const query::Store store(out.string());
  CHECK(store.info().entry_count == static_cast<int>(c.entries.size()));
  CHECK(store.info().schema_version == schema::kVersion);
  const std::optional<Entry> e = store.entry("illegal-memory-access");
  REQUIRE(e);
  CHECK(e->poisons_context);
  CHECK(!e->first_actions.empty());
  CHECK(!e->examples.empty());
  CHECK(!e->sources.empty());
  CHECK(e->body_html.find("<h2>") != std::string::npos);
}

TEST_CASE("rebuilding replaces the old index whole and leaves no temporary directory") {
  const fs::path dir = test::temp_dir();
  const fs::path out = dir / "index";
  Entry a;
  a.id = "a";
  a.title = "A";
  write_index({a}, out.string());
  Entry b = a;
  b.id = "b";
  write_index({a, b}, out.string());
  CHECK(query::Store(out.string()).info().entry_count == 2);
  int siblings = 0;
  for (const auto& f : fs::directory_iterator(dir)) siblings += f.path() != out;
  CHECK(siblings == 0);
}

TEST_CASE("a directory that is not an index is never replaced") {
  const fs::path dir = test::temp_dir();
  test::write_file(dir / "precious.txt", "keep me");
  CHECK_THROWS_WITH_AS(write_index({}, dir.string()),
                       ("writing the index to '" + dir.string() +
                        "': it exists and is not an index; choose an empty or new directory")
                           .c_str(),
                       Error);
  CHECK(fs::exists(dir / "precious.txt"));
}

}  // TEST_SUITE

}  // namespace gpuerr::indexer
