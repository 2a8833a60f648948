#include "query/redact.h"

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("hosts, addresses, users and home paths get stable placeholders") {
  Redactor r;
  const std::string first = r.redact(
      "Mar  5 10:12:01 gpu-node-7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen");
  CHECK(first.find("gpu-node-7") == std::string::npos);
  CHECK(first.find("host-1") != std::string::npos);
  CHECK(first.find("0000:3b:00") != std::string::npos);  // a PCI address is not personal
  const std::string second =
      r.redact("connect to gpu-node-7 (10.1.2.3) failed; see /home/alice/run/log from bob@gpu-node-7");
  CHECK(second.find("gpu-node-7") == std::string::npos);
  CHECK(second.find("10.1.2.3") == std::string::npos);
  CHECK(second.find("alice") == std::string::npos);
  CHECK(second.find("bob") == std::string::npos);
  CHECK(second.find("host-1") != std::string::npos);  // the same host, the same placeholder
  CHECK(second.find("ip-1") != std::string::npos);
  CHECK(second.find("/home/user-1/run/log") != std::string::npos);
}

TEST_CASE("a name inside a longer word is left alone") {
  Redactor r;
  r.learn_host("node1");
  CHECK(r.redact("node1 and node10") == "host-1 and node10");
}

}  // TEST_SUITE

}  // namespace gpuerr::query
