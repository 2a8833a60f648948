#include "query/identifiers.h"

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("error names and numbers in context become code keys") {
  struct Case {
    std::string input;
    std::vector<std::string> keys;
  };
  const Case cases[] = {
      {"cudaErrorIllegalAddress", {"cudaerrorillegaladdress"}},
      {"failed with CUBLAS_STATUS_EXECUTION_FAILED", {"cublas_status_execution_failed"}},
      {"NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", {"xid:79"}},
      {"Xid 48 on node7", {"xid:48"}},
      {"CUDA error 700 at train.cu:12", {"cuda:700"}},
      {"CUDA error: an illegal memory access was encountered (error 700)", {"cuda:700"}},
      {"CUresult 999", {"cu:999"}},
      {"returned 700 items", {}},        // a number without a family is no code
      {"plain words only here", {}},     // no identifier-like word
  };
  for (const Case& c : cases) {
    CAPTURE(c.input);
    CHECK(code_keys(c.input) == c.keys);
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::query
