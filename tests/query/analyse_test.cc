#include "query/analyse.h"

#include <doctest/doctest.h>

namespace gpuerr::query {
namespace {

std::string figure(const Analysis& a, const std::string& name) {
  for (const auto& [key, value] : a.figures)
    if (key == name) return value;
  return "";
}

}  // namespace

TEST_SUITE("query") {

TEST_CASE("a PyTorch out-of-memory report with a large idle reserve reads as fragmentation") {
  const auto found = analyse(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 0 has a "
      "total capacity of 83.05 GiB of which 140.38 MiB is free. Including non-PyTorch memory, "
      "this process has 82.90 GiB memory in use. Of the allocated memory 80.92 GiB is allocated "
      "by PyTorch, and 1.50 GiB is reserved by PyTorch but unallocated.");
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "memory");
  CHECK(figure(found[0], "requested") == "768.00 MiB");
  CHECK(figure(found[0], "total") == "83.05 GiB");
  CHECK(figure(found[0], "free") == "140.38 MiB");
  CHECK(figure(found[0], "reserved but unallocated") == "1.50 GiB");
  CHECK(found[0].verdict.starts_with("fragmentation:"));
  CHECK(found[0].verdict.find("expandable_segments") != std::string::npos);
}

TEST_CASE("the older PyTorch wording is read too, reserved minus allocated") {
  const auto found = analyse(
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total "
      "capacity; 14.20 GiB already allocated; 5.75 MiB free; 14.50 GiB reserved in total by "
      "PyTorch)");
  REQUIRE(found.size() == 1);
  CHECK(figure(found[0], "allocated") == "14.20 GiB");
  CHECK(figure(found[0], "reserved but unallocated") == "307.20 MiB");
  CHECK(found[0].verdict.starts_with("exhaustion:"));  // 307 MiB idle cannot hold 2 GiB
}

TEST_CASE("memory held by another process is named as such") {
  const auto found = analyse(
      "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB "
      "of which 10.00 MiB is free. Including non-PyTorch memory, this process has 3.00 GiB memory "
      "in use. Of the allocated memory 2.50 GiB is allocated by PyTorch, and 10.00 MiB is reserved "
      "by PyTorch but unallocated.");
  REQUIRE(found.size() == 1);
  CHECK(found[0].verdict.starts_with("another process:"));
}

TEST_CASE("one request larger than the whole GPU is named as such, before any other reading") {
  // nothing is cached, so the figures would otherwise read as exhaustion
  const auto found = analyse(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB. GPU 0 has a "
      "total capacity of 79.15 GiB of which 78.60 GiB is free. Including non-PyTorch memory, this "
      "process has 530.00 MiB memory in use. Of the allocated memory 0 bytes is allocated by "
      "PyTorch, and 0 bytes is reserved by PyTorch but unallocated.");
  REQUIRE(found.size() == 1);
  CHECK(found[0].finding == "a request larger than the GPU");
  CHECK(found[0].verdict.find("400.00 GiB is larger than the GPU's total 79.15 GiB") !=
        std::string::npos);
  CHECK(found[0].action.find("shape") != std::string::npos);
}

TEST_CASE("a request beyond the process's memory fraction is named as such") {
  // torch.cuda.set_per_process_memory_fraction caps the process far below the free memory
  const auto found = analyse(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
      "capacity of 79.15 GiB of which 70.02 GiB is free. Including non-PyTorch memory, this "
      "process has 9.10 GiB memory in use. 7.91 GiB allowed; Of the allocated memory 6.50 GiB is "
      "allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.");
  REQUIRE(found.size() == 1);
  CHECK(figure(found[0], "allowed") == "7.91 GiB");
  CHECK(found[0].finding == "the process's memory limit");
  CHECK(found[0].action.find("set_per_process_memory_fraction") != std::string::npos);
  CHECK(found[0].verdict.find("70.02 GiB free") != std::string::npos);
}

TEST_CASE("XLA's report gives the request only, and says it cannot tell more") {
  const auto found = analyse("XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
                             "allocate 17179869184 bytes.");
  REQUIRE(found.size() == 1);
  CHECK(figure(found[0], "requested") == "16.00 GiB");
  CHECK(found[0].verdict.find("do not tell") != std::string::npos);
}

TEST_CASE("an Xid line yields the GPU's PCI address, the process and the Xid") {
  const auto found = analyse("[Tue Mar  5 10:12:01 2024] NVRM: Xid (PCI:0000:3b:00): 79, "
                             "pid=1122, name=python3, GPU has fallen off the bus.");
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "xid");
  CHECK(figure(found[0], "pci") == "0000:3b:00");
  CHECK(figure(found[0], "xid") == "79");
  CHECK(figure(found[0], "pid") == "1122");
  CHECK(found[0].line.find("NVRM") != std::string::npos);
}

TEST_CASE("a watchdog timeout yields the rank, collective, sequence number and timeout") {
  const auto found = analyse(
      "[rank1]:[E ProcessGroupNCCL.cpp:574] [Rank 1] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=7, OpType=_ALLGATHER_BASE, NumelIn=1024, NumelOut=16384, "
      "Timeout(ms)=600000) ran for 600029 milliseconds before timing out.");
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "collective-timeout");
  CHECK(figure(found[0], "rank") == "1");
  CHECK(figure(found[0], "collective") == "_ALLGATHER_BASE");
  CHECK(figure(found[0], "sequence") == "7");
  CHECK(figure(found[0], "timeout") == "600 s");
}

TEST_CASE("text without figures yields nothing") {
  CHECK(analyse("CUDA error: an illegal memory access was encountered").empty());
  CHECK(analyse("CUDA out of memory.").empty());  // no sizes to read
  CHECK(analyse("").empty());
}

TEST_CASE("sizes are printed in binary units") {
  CHECK(human_size(512) == "512 bytes");
  CHECK(human_size(1536) == "1.50 KiB");
  CHECK(human_size(3.0 * 1024 * 1024 * 1024) == "3.00 GiB");
}

}  // TEST_SUITE

}  // namespace gpuerr::query
