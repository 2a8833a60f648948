// An index rebuilt while lookups run: no lookup fails and none sees half an index.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "indexer/error.h"
#include "indexer/index_writer.h"
#include "indexer/lint.h"
#include "query/lookup.h"
#include "tests/support.h"

namespace gpuerr::query {

TEST_SUITE("robustness") {

TEST_CASE("lookups running during rebuilds never fail and always see a whole index") {
  const indexer::Catalogue c = indexer::read_catalogue({test::bundled_kb().string()});
  const std::string dir = (test::temp_dir() / "index").string();
  indexer::write_index(c.entries, dir, c.documented);
  std::atomic<bool> writing{true};
  std::atomic<int> lookups{0}, failures{0};
  std::string first_failure;
  std::mutex failure_mutex;
  auto reader = [&] {
    while (writing) {
      try {
        const Store store(dir);
        const std::vector<Match> m = lookup(store, "CUDA error: misaligned address");
        if (m.empty() || m.front().entry_id != "misaligned-address" ||
            store.info().entry_count != static_cast<int>(c.entries.size()))
          throw Error("wrong answer during a rebuild");
        ++lookups;
      } catch (const Error& e) {
        const std::lock_guard lock(failure_mutex);
        if (failures++ == 0) first_failure = e.what();
      }
    }
  };
  std::thread r1(reader), r2(reader);
  for (int i = 0; i < 6; ++i) indexer::write_index(c.entries, dir, c.documented);
  writing = false;
  r1.join();
  r2.join();
  CAPTURE(first_failure);
  CHECK(failures == 0);
  CHECK(lookups > 0);
}

}  // TEST_SUITE

}  // namespace gpuerr::query
