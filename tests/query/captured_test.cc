// Lookup and triage on messages captured from programs that failed on purpose on a real GPU
// (tests/data/captured/; its README says how), against what each planted fault should give
// (EXPECTED.tsv there).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "query/lookup.h"
#include "query/log_line.h"
#include "query/triage.h"
#include "tests/support.h"

namespace gpuerr::query {
namespace {

const std::string kDir = std::string(GPUERR_SOURCE_DIR) + "/tests/data/captured/";

struct Expected {
  std::vector<std::string> files;  // read together, in this order
  std::string lookup;              // an entry id that ranks first, "top3:ID", or "none"
  std::string first_fault;         // "-": not asserted
  std::string verdict;             // "-": not asserted
  std::string rank;                // the first fault's rank, else its local rank; "-": not asserted
};

std::vector<Expected> expected() {
  std::ifstream in(kDir + "EXPECTED.tsv");
  REQUIRE(in);
  std::vector<Expected> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string files;
    Expected e;
    std::getline(fields, files, '\t');
    std::getline(fields, e.lookup, '\t');
    std::getline(fields, e.first_fault, '\t');
    std::getline(fields, e.verdict, '\t');
    if (!std::getline(fields, e.rank, '\t')) e.rank = "-";
    REQUIRE_MESSAGE(!e.verdict.empty(),
                    "EXPECTED.tsv: four or five tab-separated fields: " << line);
    std::istringstream names(files);
    for (std::string name; names >> name;) e.files.push_back(name);
    rows.push_back(e);
  }
  return rows;
}

std::string read(const std::string& file) {
  std::ifstream in(kDir + file, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string read_all(const std::vector<std::string>& files) {
  std::string text;
  for (const std::string& file : files) text += read(file);
  return text;
}

}  // namespace

TEST_SUITE("query") {

TEST_CASE("every captured message gives the entry its planted fault calls for") {
  const std::vector<Expected> rows = expected();
  CHECK(rows.size() >= 25);
  for (const Expected& e : rows) {
    CAPTURE(e.files.front());
    const std::vector<Match> m = lookup(test::bundled_store(), read_all(e.files));
    if (e.lookup == "none") {
      CHECK(test::top_entry(m) == "(none)");
    } else if (e.lookup.starts_with("top3:")) {
      const std::string id = e.lookup.substr(5);
      const size_t n = std::min<size_t>(3, m.size());
      CHECK(std::any_of(m.begin(), m.begin() + n, [&](const Match& x) {
        return x.entry_id == id && x.confidence >= 0.5;
      }));
    } else {
      CHECK(test::top_entry(m) == e.lookup);
    }
  }
}

TEST_CASE("triage of each captured log finds the planted fault first, with its verdict") {
  for (const Expected& e : expected()) {
    if (e.first_fault == "-") continue;
    CAPTURE(e.files.front());
    Triage t(test::bundled_store());
    for (const std::string& file : e.files) {
      size_t n = 0;
      for_each_line(read(file), [&](std::string_view line) { t.add_line(file, ++n, line); });
    }
    const TriageReport r = t.report();
    REQUIRE(r.first_fault);
    CHECK((r.first_fault->entry_id.empty() ? r.first_fault->role : r.first_fault->entry_id) ==
          e.first_fault);
    if (e.verdict != "-") CHECK(r.verdict == e.verdict);
    if (e.rank != "-") {
      const std::optional<int> rank =
          r.first_fault->rank ? r.first_fault->rank : r.first_fault->local_rank;
      CHECK(rank == std::stoi(e.rank));
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::query
