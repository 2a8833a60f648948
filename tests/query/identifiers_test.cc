#include "query/identifiers.h"

#include <algorithm>

#include <doctest/doctest.h>

namespace gpuerr::query {

TEST_SUITE("query") {

TEST_CASE("error names and numbers in context become code keys") {
  struct Case {
    std::string input;
    std::vector<std::string> keys;
  };
  const Case cases[] = {
      {"cudaErrorIllegalAddress", {"cudaerrorillegaladdress", "cuda_error_illegal_address"}},
      {"failed with CUBLAS_STATUS_EXECUTION_FAILED", {"cublas_status_execution_failed"}},
      {"NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", {"xid:79"}},
      {"Xid 48 on node7", {"xid:48"}},
      {"CUDA error 700 at train.cu:12", {"cuda:700"}},
      {"CUDA error: an illegal memory access was encountered (error 700)", {"cuda:700"}},
      {"CUresult 999", {"cu:999"}},
      {"Xid=69 on Device=GPU-7540a9b3", {"xid:69"}},
      {"Check failed: error == cudaSuccess (2 vs. 0)  out of memory",
       {"cudasuccess", "cuda_success", "cuda:2"}},
      // the driver API as Numba, Julia and plain C++ print it
      {"CudaAPIError: [716] Call to cuMemcpyDtoH results in UNKNOWN_CUDA_ERROR",
       {"cudaapierror", "cuda_apierror", "cumemcpydtoh", "cu_memcpy_dto_h", "unknown_cuda_error",
        "cu:716"}},
      {"CUDAdrv.CuError(code=700, meta=nothing)", {"cuerror", "cu_error", "cu:700"}},
      {"[201] Call to cuDevicePrimaryCtxRetain results in CUDA_ERROR_INVALID_CONTEXT",
       {"cudeviceprimaryctxretain", "cu_device_primary_ctx_retain", "cuda_error_invalid_context",
        "cu:201"}},
      {"[2] Call to cudaMalloc failed", {"cudamalloc", "cuda_malloc"}},  // the runtime's, not cu
      // math libraries and NCCL: the number after the status word, not the line number
      {"CUSPARSE API failed at line 130 with error: internal error (7)", {"cusparse:7"}},
      {"CURAND failure 105: (see curand.h)", {"curand:105"}},
      // a CHECK macro's "<library> error at <file>:<line> code=<status>"
      {"cuBLAS error at /src/gemm.cu:125 code=15", {"cublas", "cu_blas", "cublas:15"}},
      {"Check failed: status == CUBLAS_STATUS_SUCCESS (13 vs. 0)",
       {"cublas_status_success", "cublas:13"}},
      {"what():  NCCL Error 1: unhandled cuda error", {"nccl:1"}},
      {"!!!! kernel execution error. (m: 768, n: 2, k: 3072, error: 13)", {"cublas:13"}},
      {"cuInit err: 999", {"cuinit", "cu_init", "cu:999"}},
      {"ERROR: cuInit failed with error:  34", {"cuinit", "cu_init", "cu:34"}},  // CP2K
      {"malloc: cuMemHostAlloc returns error code 201",  // the HPC SDK's allocator
       {"cumemhostalloc", "cu_mem_host_alloc", "cu:201"}},
      // the NVIDIA HPC SDK's OpenACC runtime
      {"call to cuStreamSynchronize returned error 700: Illegal address during kernel execution",
       {"custreamsynchronize", "cu_stream_synchronize", "cu:700"}},
      // a number after "Error Code" on a line whose "Cuda" is inside a name is not CUDA's
      {"[runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error",
       {"deserializecudaengine", "deserialize_cuda_engine"}},
      // bindings print the C enum names in CamelCase
      {"libcudnn.cudnnStatusArchMismatch",
       {"cudnnstatusarchmismatch", "cudnn_status_arch_mismatch"}},
      {"ManagedCuda.CudaException: ErrorOutOfMemory",
       {"managedcuda", "managed_cuda", "cudaexception", "cuda_exception", "erroroutofmemory",
        "error_out_of_memory", "cuda_error_out_of_memory"}},
      {"returned 700 items", {}},  // a number without a family is no code
      // a number after NCCL's name is NCCL's, though CUDA was named earlier on the line
      {"the nature of CUDA kernels, ... NCCL error: remote process exited ... Last error: "
       "NET/IB : Got completion from peer 10.1.2.3<39138> with error 12, opcode 0",
       {}},
      // a number must be on the line that names its family: srun -l's prefix on the next line
      {"3: RuntimeError: CUDA error: unknown error\n3: CUDA kernel errors",
       {"runtimeerror", "runtime_error"}},
      {"plain words only here", {}},  // no identifier-like word
  };
  for (const Case& c : cases) {
    CAPTURE(c.input);
    std::string got;
    for (const std::string& k : code_keys(c.input)) got += k + " ";
    CAPTURE(got);
    CHECK(code_keys(c.input) == c.keys);
  }
}

TEST_CASE("a driver error named in words beside its call becomes the CUresult name's key") {
  const auto has = [](std::string_view text, const std::string& key) {
    const std::vector<std::string> keys = code_keys(text);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  // Blender's Cycles, old and new, and the form some renderers use after the call
  CHECK(has("Out of memory in cuStreamCreate(&cuda_stream_, CU_STREAM_NON_BLOCKING) (queue.cpp:21)",
            "cuda_error_out_of_memory"));
  CHECK(has("CUDA error: ILLEGAL_ADDRESS in cuCtxSynchronize()", "cuda_error_illegal_address"));
  CHECK(has("Illegal address in CUDA queue copy_from_device (integrator_shade_surface)",
            "cuda_error_illegal_address"));
  CHECK(has("CUDA error at cuCtxCreate: Out of memory", "cuda_error_out_of_memory"));
  // the whole run of words, never its tail: "timeout" alone is CUDA_ERROR_TIMEOUT, another error
  CHECK_FALSE(
      has("CUDA error: Launch exceeded timeout in cuCtxSynchronize()", "cuda_error_timeout"));
  CHECK(has("CUDA error: Launch exceeded timeout in cuCtxSynchronize()",
            "cuda_error_launch_exceeded_timeout"));
  // a runtime call, or words not beside a call, name nothing
  CHECK_FALSE(has("out of memory in cudaMalloc(&p, n)", "cuda_error_out_of_memory"));
  CHECK(code_keys("Out of memory in the render queue").empty());
}

TEST_CASE("a driver call is told from the runtime's and a library's by its capital letter") {
  const auto has = [](std::string_view text, const std::string& key) {
    const std::vector<std::string> keys = code_keys(text);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  CHECK(has("[999] Call to cuD3D11GetDevice results in CUDA_ERROR_UNKNOWN", "cu:999"));
  CHECK_FALSE(has("[7] Call to cublasCreate_v2 failed", "cu:7"));
  CHECK_FALSE(has("[7] Call to cudnnCreate failed", "cu:7"));
  CHECK(has("Return value 46 from 'cudaStreamCreate(&s)'", "cuda:46"));
  CHECK_FALSE(has("Return value 3 from cudart64_110.dll", "cuda:3"));
}

}  // TEST_SUITE

}  // namespace gpuerr::query
