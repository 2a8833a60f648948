// Per-query cost of lookup() itself, without process start-up: opens the index once, then runs
// each query file many times and prints, per query, the median and p90 in microseconds. The
// first lookup of the process is timed on its own ("first"), since it pays for reading the
// signatures. Usage: bench_lookup_inprocess INDEX_DIR ROUNDS QUERY_FILE...
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "indexer/error.h"
#include "query/lookup.h"

namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: bench_lookup_inprocess INDEX_DIR ROUNDS QUERY_FILE...\n";
    return 2;
  }
  try {
    const int rounds = std::max(1, std::atoi(argv[2]));
    std::vector<std::string> queries;
    for (int i = 3; i < argc; ++i) queries.push_back(read_file(argv[i]));
    Clock::time_point start = Clock::now();
    const gpuerr::query::Store store(argv[1]);
    std::cout << "open " << micros_since(start) << '\n';
    start = Clock::now();
    gpuerr::query::lookup(store, queries[0]);
    std::cout << "first " << micros_since(start) << '\n';
    for (size_t q = 0; q < queries.size(); ++q) {
      std::vector<double> times;
      for (int r = 0; r < rounds; ++r) {
        start = Clock::now();
        gpuerr::query::lookup(store, queries[q]);
        times.push_back(micros_since(start));
      }
      std::sort(times.begin(), times.end());
      std::cout << "query " << argv[q + 3] << ' ' << times[times.size() / 2] << ' '
                << times[times.size() * 9 / 10] << '\n';
    }
  } catch (const gpuerr::Error& e) {
    std::cerr << "bench_lookup_inprocess: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
