// Programs that fail on purpose, one fault per mode, so that tests/data/captured/ holds the
// messages a real GPU and driver print for them. Built and run by capture.sh on a GPU machine;
// never built by CMake. Each mode reports errors the way CUDA programs commonly do: the runtime's
// name and string, and the driver API's name and string for the same code.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

static void report(cudaError_t err, const char* what, int line) {
  if (err == cudaSuccess) return;
  const char* driver_name = nullptr;
  const char* driver_text = nullptr;
  cuGetErrorName(static_cast<CUresult>(err), &driver_name);
  cuGetErrorString(static_cast<CUresult>(err), &driver_text);
  std::fprintf(stderr, "CUDA error: %s (%s, code %d) at faults.cu:%d in %s\n",
               cudaGetErrorString(err), cudaGetErrorName(err), static_cast<int>(err), line, what);
  std::fprintf(stderr, "  driver API: %s: %s\n", driver_name ? driver_name : "?",
               driver_text ? driver_text : "?");
}
#define CHECK(call) report((call), #call, __LINE__)

__global__ void write_at(int* p) { *p = 42; }
__global__ void read_misaligned(const char* base, int* out) {
  *out = *reinterpret_cast<const int*>(base + 1);
}
__global__ void trap_now() { __trap(); }
__global__ void assert_false(int n) { assert(n < 0); }
__global__ void spin() {}
__global__ void big_shared() {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "illegal-address")) {
    write_at<<<1, 1>>>(reinterpret_cast<int*>(0x10));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 1024));  // the context is gone: this fails with the same error
  } else if (!std::strcmp(mode, "misaligned")) {
    char* base = nullptr;
    int* out = nullptr;
    CHECK(cudaMalloc(&base, 64));
    CHECK(cudaMalloc(&out, sizeof(int)));
    read_misaligned<<<1, 1>>>(base, out);
    CHECK(cudaDeviceSynchronize());
  } else if (!std::strcmp(mode, "trap")) {
    trap_now<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
  } else if (!std::strcmp(mode, "assert")) {
    assert_false<<<2, 4>>>(3);
    CHECK(cudaDeviceSynchronize());
  } else if (!std::strcmp(mode, "bad-config")) {
    spin<<<1, 4096>>>();
    CHECK(cudaGetLastError());
  } else if (!std::strcmp(mode, "too-much-shared")) {
    big_shared<<<1, 32, 1 << 20>>>();
    CHECK(cudaGetLastError());
  } else if (!std::strcmp(mode, "bad-device")) {
    CHECK(cudaSetDevice(7));
  } else if (!std::strcmp(mode, "huge-malloc")) {
    void* p = nullptr;
    CHECK(cudaMalloc(&p, size_t{1} << 48));
  } else if (!std::strcmp(mode, "bad-memcpy")) {
    int host = 0;
    CHECK(cudaMemcpy(&host, reinterpret_cast<void*>(0x1000), sizeof host, cudaMemcpyDeviceToHost));
  } else if (!std::strcmp(mode, "double-free")) {
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 1024));
    CHECK(cudaFree(p));
    CHECK(cudaFree(p));
  } else {
    std::fprintf(stderr, "faults: unknown mode '%s'\n", mode);
    return 2;
  }
  return 0;
}
