#include "query/lookup.h"

#include <algorithm>

#include <doctest/doctest.h>

#include "tests/support.h"

namespace gpuerr::query {

using test::bundled_store;
using test::top_entry;

TEST_SUITE("query") {

TEST_CASE("each of the seed's twelve errors is found from its canonical message") {
  struct Case {
    std::string_view message, entry_id;  // not const char*: CAPTURE prints pointers
  };
  const Case cases[] = {
      {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "cuda-out-of-memory"},
      {"CUDA error: an illegal memory access was encountered", "illegal-memory-access"},
      {"CUDA error: device-side assert triggered", "device-side-assert"},
      {"CUDA error: unspecified launch failure", "unspecified-launch-failure"},
      {"CUDA error: misaligned address", "misaligned-address"},
      {"CUDA error: no kernel image is available for execution on the device", "no-kernel-image"},
      {"CUDA driver version is insufficient for CUDA runtime version", "insufficient-driver"},
      {"CUDA error: operation not permitted when stream is capturing", "stream-capture-unsupported"},
      {"CUDA error: invalid device ordinal", "invalid-device-ordinal"},
      {"CUDA error: invalid configuration argument", "invalid-configuration"},
      {"CUDA error: initialization error", "initialization-error"},
      {"CUDA error: uncorrectable ECC error encountered", "uncorrectable-ecc"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    CHECK(top_entry(lookup(bundled_store(), c.message)) == c.entry_id);
  }
}

TEST_CASE("text that is not a GPU failure gets no confident match") {
  const std::string_view negatives[] = {
      "",
      "   \n\t  ",
      "KeyError: 'input_ids'",
      "Out of memory: Killed process 12345 (python) total-vm:123456kB, anon-rss:1234kB",
      "ModuleNotFoundError: No module named 'transformers'",
      "ssh: connect to host gpu-node-07 port 22: Connection refused",
      // NCCL warns of every InfiniBand async event; a GID table change is routine
      "node1:91:95 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : mlx5_0:1 Got async event : GID "
      "table change",
  };
  for (std::string_view message : negatives) {
    CAPTURE(message);
    CHECK(top_entry(lookup(bundled_store(), message)) == "(none)");
  }
}

TEST_CASE("an error code beside its own CUDA message names the entry, beside another it does not") {
  // The line does not say CUDA; the message and the number agree, and the text says GPU.
  CHECK(top_entry(lookup(bundled_store(),
                         "ERROR: invalid argument in kernels.cpp at line 51 (error code 1)\n"
                         "A GPU-function failed to execute.")) == "cuda-invalid-value");
  // 2 is "out of memory", not "unknown error"; and without CUDA or GPU in the text, no reading.
  CHECK(top_entry(lookup(bundled_store(),
                         "ERROR: unknown error in kernels.cpp at line 51 (error code 2)\n"
                         "A GPU-function failed to execute.")) == "(none)");
  CHECK(top_entry(lookup(bundled_store(),
                         "ERROR: invalid argument in parser.cpp at line 51 (error code 1)")) ==
        "(none)");
}

TEST_CASE("a short text of words most entries share is no answer, one of rare words is") {
  // Every word of these is in some entry, so full text alone matches all of them; what they
  // say is too little to name an error.
  for (std::string_view typed : {"why is my gpu slower than the cpu",
                                 "training stopped working after the python upgrade"}) {
    CAPTURE(typed);
    CHECK(top_entry(lookup(bundled_store(), typed)) == "(none)");
  }
  CHECK(top_entry(lookup(bundled_store(), "the GPU has fallen off the bus")) == "xid-79");
}

TEST_CASE("full text alone is no answer in a text that names nothing of the GPU stack") {
  // The same words reach the same entry; only the module or the program differs.
  const std::string dkms =
      "Error! Bad return status for module build on kernel: 6.8.0-45-generic "
      "(x86_64). Consult the make.log of the ";
  CHECK(top_entry(lookup(bundled_store(), dkms + "zfs module")) == "(none)");
  CHECK(top_entry(lookup(bundled_store(), dkms + "nvidia module")) == "nvidia-dkms-build-failed");
  CHECK(top_entry(lookup(bundled_store(),
                         "listen tcp 0.0.0.0:8080: bind: address already in use")) == "(none)");
  CHECK(top_entry(lookup(bundled_store(), "torch distributed: bind: address already in use")) ==
        "torch-distributed-address-in-use");
}

TEST_CASE("Cycles' driver errors name their entries, the first printed first") {
  CHECK(top_entry(lookup(bundled_store(),
                         "Out of memory in cuStreamCreate(&cuda_stream_, "
                         "CU_STREAM_NON_BLOCKING) (queue.cpp:21)")) == "cuda-memory-allocation");
  // the illegal address comes first; the invalid value of the clean-up after it is its echo
  CHECK(top_entry(lookup(bundled_store(),
                         "CUDA error: Illegal address in cuMemcpyDtoH(host, dev, size), line 970\n"
                         "CUDA error: Invalid value in cuCtxDestroy(cuContext), line 268\n")) ==
        "illegal-memory-access");
}

TEST_CASE(
    "TensorFlow's 'UNKNOWN ERROR (N)' is driver error N, and make's 'Error 2' no CUDA error") {
  const std::string tf =
      "E tensorflow/stream_executor/cuda/cuda_driver.cc:272] failed call to "
      "cuInit: UNKNOWN ERROR (";
  CHECK(top_entry(lookup(bundled_store(), tf + "303)")) == "cuda-shared-object-init-failed");
  CHECK(top_entry(lookup(bundled_store(), tf + "999)")) == "cuda-unknown");
  // a path that holds "cuda" before make's own exit status
  CHECK(top_entry(lookup(bundled_store(),
                         "make[2]: *** [CMakeFiles/Makefile2:1024: ggml/src/ggml-cuda/CMakeFiles/"
                         "ggml-cuda.dir/all] Error 2")) == "(none)");
}

TEST_CASE("words every error message uses say nothing about which failure it is") {
  // An old gcc without C++17's <filesystem> shares only such words with Triton's missing
  // Python.h entry ("fatal", "include", "no such file or directory").
  CHECK(top_entry(lookup(
            bundled_store(),
            "tiny-cuda-nn/include/paths.hpp:12:10: fatal error: filesystem: No such file or "
            "directory\n   12 | #include <filesystem>\ncompilation terminated.\n")) == "(none)");
}

TEST_CASE("a real paste with colour, rank prefixes and a traceback still finds its entry") {
  const std::string paste =
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"/workspace/train.py\", line 212, in <module>\n"
      "[rank1]:     loss.backward()\n"
      "[rank1]: \x1b[31mRuntimeError\x1b[0m: CUDA error: device-side assert triggered\n"
      "[rank1]: CUDA kernel errors might be asynchronously reported at some other API call, so "
      "the stacktrace below might be incorrect.\n"
      "[rank1]: For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n";
  CHECK(top_entry(lookup(bundled_store(), paste)) == "device-side-assert");
}

TEST_CASE("an exact code names its entry even without the message") {
  CHECK(top_entry(lookup(bundled_store(), "cudaErrorMisalignedAddress")) == "misaligned-address");
  CHECK(top_entry(lookup(bundled_store(), "kernel failed: CUDA error 214")) == "uncorrectable-ecc");
}

TEST_CASE("an Xid line of an older driver, without 'PCI:' before the address, names its entry") {
  const std::vector<Match> m =
      lookup(bundled_store(), "NVRM: Xid (0000:01:00): 8, Channel 00000000");
  REQUIRE_FALSE(m.empty());
  CHECK(m.front().entry_id == "xid-8");
  CHECK(m.front().confidence >= kConfident);
  REQUIRE(m.front().analysis);
  CHECK(m.front().analysis->figures.at(1) == std::pair<std::string, std::string>("pci", "0000:01:00"));
}

TEST_CASE("a CUDA message that begins with another one is not contested by the shorter one") {
  const std::pair<const char*, const char*> pairs[] = {
      {"operation not permitted when stream is capturing", "operation not permitted"},
      {"operation not supported on global/shared address space", "operation not supported"},
      {"unspecified launch failure in prior launch", "unspecified launch failure"},
  };
  for (const auto& [longer, shorter] : pairs) {
    CAPTURE(longer);
    const std::vector<Match> m =
        lookup(bundled_store(), std::string("RuntimeError: CUDA error: ") + longer);
    REQUIRE(m.size() >= 2);
    CHECK(m.front().confidence >= 0.97);
    const std::string top = m.front().entry_id;
    CHECK(m[1].confidence < kConfident);
    // the shorter message alone is its own entry's, and beside the longer one on another line
    // it still counts
    const std::vector<Match> alone =
        lookup(bundled_store(), std::string("RuntimeError: CUDA error: ") + shorter);
    REQUIRE_FALSE(alone.empty());
    CHECK(alone.front().entry_id != top);
    CHECK(alone.front().confidence >= 0.97);
    const std::vector<Match> both = lookup(
        bundled_store(), std::string("CUDA error: ") + longer + "\nCUDA error: " + shorter + "\n");
    REQUIRE(both.size() >= 2);
    CHECK(both[1].entry_id == alone.front().entry_id);
    CHECK(both[1].confidence >= kConfident);
  }
}

TEST_CASE("search syntax in user text is read as plain words") {
  for (std::string_view message : {"illegal AND memory OR access NEAR \"encountered\" prefix:x *",
                                    "'; DROP TABLE entries; --"}) {
    CAPTURE(message);
    CHECK_NOTHROW(lookup(bundled_store(), message));
  }
}

TEST_CASE("a message hard-wrapped mid-word by a terminal is still recognised") {
  const std::string wrapped =
      "worker-1  | [rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 1] Process group watchdog "
      "thread terminated with exception: CUDA error: an illegal me\nmory access was encountered\n";
  const std::vector<Match> m = lookup(bundled_store(), wrapped);
  REQUIRE(!m.empty());
  CHECK(m.front().entry_id == "illegal-memory-access");
  CHECK(m.front().confidence >= kConfident);
}

TEST_CASE("a launcher's line prefix is not read as an error code") {
  // srun -l puts "3: " before each line of task 3; the 3 is no CUDA error 3 (initialization).
  const std::string paste =
      "3: [rank3]: RuntimeError: CUDA error: unknown error\n"
      "3: [rank3]: CUDA kernel errors might be asynchronously reported at some other API call, so "
      "the stacktrace below might be incorrect.\n";
  CHECK(top_entry(lookup(bundled_store(), paste)) == "cuda-unknown");
}

TEST_CASE("a message copied through a web page or chat client still matches its signature") {
  // curly apostrophe and a no-break space, as forums and chat clients turn them
  const std::vector<Match> m = lookup(bundled_store(),
                                      "NVIDIA-SMI has failed because it couldn\xe2\x80\x99t "
                                      "communicate with the NVIDIA\xc2\xa0" "driver.");
  REQUIRE(!m.empty());
  CHECK(m.front().entry_id == "nvidia-smi-cannot-communicate");
  CHECK(!m.front().signature.empty());
}

TEST_CASE("two entries with the same kind of exact evidence are both less certain") {
  // Two different CUDA errors in one paste: each has a signature, neither can be sure.
  const std::vector<Match> m = lookup(bundled_store(),
                                      "CUDA error: misaligned address\n"
                                      "CUDA error: an illegal memory access was encountered");
  REQUIRE(m.size() >= 2);
  const std::vector<Match> alone = lookup(bundled_store(), "CUDA error: misaligned address");
  CHECK(m[0].confidence < alone.front().confidence);
  CHECK(m[1].confidence >= kConfident);
}

TEST_CASE("a message wrapped inside a drawn table's cell still matches its signature") {
  const std::string table =
      "+-----------------+------------------------------------------------+\n"
      "| Warning         | GPU 0 API call cudaStreamCreate failed: 'CUDA  |\n"
      "|                 | -capable device(s) is/are busy or unavailable  |\n"
      "|                 | ' Check system logs. Rese                      |\n"
      "|                 | t GPU.                                         |\n"
      "+-----------------+------------------------------------------------+\n";
  CHECK(top_entry(lookup(bundled_store(), table)) == "cuda-devices-unavailable");
}

TEST_CASE("nvidia-smi -q's row remapper block names the Xid entry of its state") {
  const auto remapper = [](const char* pending, const char* failure) {
    return std::string("    Remapped Rows\n"
                       "        Correctable Error                 : 0\n"
                       "        Uncorrectable Error               : 2\n"
                       "        Pending                           : ") +
           pending + "\n        Remapping Failure Occurred        : " + failure + "\n";
  };
  CHECK(top_entry(lookup(bundled_store(), remapper("Yes", "No"))) == "xid-63");
  CHECK(top_entry(lookup(bundled_store(), remapper("No", "Yes"))) == "xid-64");
  for (const Match& m : lookup(bundled_store(), remapper("No", "No")))  // nothing waits or failed
    CHECK(m.signature.empty());
}

TEST_CASE("beside an error named exactly, a full-text match is a candidate, not an answer") {
  // every word of this message is also in the cuSPARSE and cuFFT "not supported" entries
  const std::vector<Match> m = lookup(bundled_store(),
                                      "RuntimeError: CUDA error: operation not supported\n"
                                      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.");
  REQUIRE(m.size() >= 2);
  CHECK(m[0].entry_id == "cuda-not-supported");
  size_t text_only = 0;
  for (const Match& x : m) {
    if (!x.code.empty() || !x.signature.empty()) continue;
    ++text_only;
    CHECK(x.confidence < kConfident);
  }
  CHECK(text_only > 0);
}

TEST_CASE("an echo does not make the error it follows less certain") {
  // PyTorch appends the DSA hint to every CUDA error; it is not a second error
  const std::string error = "RuntimeError: CUDA error: an illegal memory access was encountered";
  const std::vector<Match> alone = lookup(bundled_store(), error);
  const std::vector<Match> m = lookup(
      bundled_store(),
      error + "\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
  REQUIRE(!alone.empty());
  REQUIRE(!m.empty());
  CHECK(m[0].entry_id == "illegal-memory-access");
  CHECK(m[0].confidence == doctest::Approx(alone.front().confidence));
  const auto hint = std::find_if(m.begin(), m.end(), [](const Match& x) {
    return x.entry_id == "pytorch-dsa-trailer";
  });
  REQUIRE(hint != m.end());
  CHECK(hint->confidence < m[0].confidence);  // the echo itself stays contested
}

TEST_CASE("an analysis lands on the entry whose signature matches its line, and nowhere else") {
  const std::vector<Match> m = lookup(
      bundled_store(),
      "NVRM: Xid (PCI:0000:3b:00): 79, pid=1122, name=python3, GPU has fallen off the bus.\n"
      "RuntimeError: CUDA error: unspecified launch failure");
  bool xid_analysed = false;
  for (const Match& match : m) {
    if (match.entry_id == "xid-79") xid_analysed = match.analysis && match.analysis->kind == "xid";
    if (match.entry_id == "unspecified-launch-failure") CHECK_FALSE(match.analysis);
  }
  CHECK(xid_analysed);
}

TEST_CASE("in a paste of a cause and its echo, the cause comes first") {
  // a CUDA error inside the watchdog's report, then PyTorch's DSA hint: both are "consequence"
  const std::vector<Match> m = lookup(
      bundled_store(),
      "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread "
      "terminated with exception: CUDA error: an illegal memory access was encountered\n"
      "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
  REQUIRE(!m.empty());
  CHECK(m.front().entry_id == "illegal-memory-access");
  // Xid 45 cleans up after another Xid; the one it names is the cause
  CHECK(top_entry(lookup(bundled_store(),
                         "NVRM: Xid (PCI:0000:dc:00): 149, pid=1, name=python3, ...\n"
                         "NVRM: Xid (PCI:0000:dc:00): 45, pid=1, name=python3, Ch 00000001")) ==
        "xid-149");
}

TEST_CASE("a warning printed on the way ranks below the error it preceded") {
  // XLA's allocator warns while it autotunes, before the computation fails; the error is the
  // answer, and the warning does not make it less certain
  const std::string error =
      "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
      "24.50GiB with allocator GPU_0_bfc on device 0.";
  const std::vector<Match> m = lookup(
      bundled_store(),
      "W0512 10:01:02.123456  4242 bfc_allocator.cc:371] Allocator (GPU_0_bfc) ran out of memory "
      "trying to allocate 24.50GiB with freed_by_count=0. The caller indicates that this is not a "
      "failure, but this may mean that there could be performance gains if more memory were "
      "available.\n" +
          error);
  REQUIRE(!m.empty());
  CHECK(m.front().entry_id == "jax-resource-exhausted");
  CHECK(m.front().confidence == doctest::Approx(lookup(bundled_store(), error).front().confidence));
  CHECK(std::any_of(m.begin(), m.end(), [](const Match& x) {
    return x.entry_id == "tensorflow-bfc-allocator-warning";
  }));
}

TEST_CASE("the cause NCCL names after 'Last error:' comes before the generic result") {
  // invalid usage, named: two ranks on one GPU
  CHECK(top_entry(lookup(bundled_store(),
                         "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, "
                         "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version "
                         "2.28.9\n"
                         "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                         "Last error:\n"
                         "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1b000")) ==
        "nccl-duplicate-gpu");
  // an unhandled CUDA error: the line after is NCCL's own wording of it, not another cause
  CHECK(top_entry(lookup(bundled_store(),
                         "ncclUnhandledCudaError: Call to CUDA function failed.\n"
                         "Last error:\n"
                         "Cuda failure 1 'invalid argument'")) == "nccl-unhandled-cuda-error");
  // the remote error is an echo: the line after names the peer's symptom, and the entry's own
  // first action is to follow it to the peer
  CHECK(top_entry(lookup(bundled_store(),
                         "ncclRemoteError: A call failed possibly due to a network error or a "
                         "remote process exiting prematurely.\n"
                         "Last error:\n"
                         "socketProgressOpt: Call to recv from 10.1.2.3<4567> failed : "
                         "Connection reset by peer")) == "nccl-remote-error");
}

TEST_CASE("a tool's report of a fault ranks above the errors it explains") {
  // compute-sanitizer's report, then the launch failure the program saw: the report names the
  // line to fix, the launch failure's own first action is to run the sanitizer
  const std::string report =
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at write_at(int *)+0x40 in faults.cu:25\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========     Access to 0x10 is out of bounds\n";
  const std::string failure =
      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
      "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
      "CUDA error: unspecified launch failure (cudaErrorLaunchFailure, code 719) at faults.cu:42\n";
  CHECK(top_entry(lookup(bundled_store(), report + failure)) == "compute-sanitizer-invalid-access");
  CHECK(top_entry(lookup(bundled_store(), failure)) == "unspecified-launch-failure");
}

TEST_CASE("several Xids in one kernel log rank in the order they were logged") {
  const std::string page_fault =
      "NVRM: Xid (PCI:0000:3b:00): 31, pid=632, name=train, channel 0x0000000a, intr 00000000. "
      "MMU Fault: ENGINE GRAPHICS GPC1 GPCCLIENT_T1_8 faulted @ 0x0_00000000. Fault is of type "
      "FAULT_PDE ACCESS_TYPE_VIRT_WRITE\n";
  const std::string exception =
      "NVRM: Xid (PCI:0000:3b:00): 13, Graphics SM Warp Exception on (GPC 1, TPC 4, SM 0): "
      "Misaligned Address\n";
  const std::string reset = "NVRM: Xid (PCI:0000:3b:00): 43, pid=639, name=train, channel 0x0000000a\n";
  CHECK(top_entry(lookup(bundled_store(), page_fault + exception + reset)) == "xid-31");
  CHECK(top_entry(lookup(bundled_store(), exception + page_fault + reset)) == "xid-13");
  // codes of different families keep their order: the hardware Xid under a program's error
  // that it caused still comes first
  CHECK(top_entry(lookup(bundled_store(),
                         "Failure during compute: Error in \"Read faultyelemdata\": "
                         "CUDA_ERROR_UNKNOWN\n"
                         "NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus.\n")) ==
        "xid-79");
}

TEST_CASE("matches come best first with confidence between 0 and 1") {
  const std::vector<Match> m =
      lookup(bundled_store(), "RuntimeError: CUDA error: misaligned address (error 716)");
  REQUIRE(!m.empty());
  CHECK(m.front().entry_id == "misaligned-address");
  CHECK(m.front().code == "cuda:716");
  CHECK(m.front().signature == "misaligned address");
  for (size_t i = 0; i < m.size(); ++i) {
    CHECK(m[i].confidence >= 0);
    CHECK(m[i].confidence <= 1);
    if (i) CHECK(m[i - 1].score >= m[i].score);
  }
}

TEST_CASE("echoes of one fault rank in the order the paste prints them") {
  // A watchdog's timeout and the abort that follows it are both echoes of a fault elsewhere;
  // the one printed first is nearer that fault, whatever share of the words each matches.
  const std::string timeout =
      "[E ProcessGroupNCCL.cpp:828] [Rank 3] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=33, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 607565 milliseconds "
      "before timing out.\n";
  const std::string abort =
      "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the "
      "asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
      "corrupted/incomplete data.\n[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, "
      "we are taking the entire process down.\n";
  const std::vector<Match> in_order = lookup(bundled_store(), timeout + abort);
  REQUIRE(in_order.size() >= 2);
  CHECK(in_order[0].entry_id == "nccl-watchdog-timeout");
  CHECK(in_order[1].entry_id == "nccl-timeout-abort");
  const std::vector<Match> reversed = lookup(bundled_store(), abort + timeout);
  REQUIRE(reversed.size() >= 2);
  CHECK(reversed[0].entry_id == "nccl-timeout-abort");
  CHECK(reversed[1].entry_id == "nccl-watchdog-timeout");
}

}  // TEST_SUITE

}  // namespace gpuerr::query
