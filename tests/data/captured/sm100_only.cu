// Built for a newer architecture than the GPU it runs on (capture.sh builds it for sm_100 only),
// so that the launch reports that no kernel image fits the device.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void noop() {}
int main() {
  noop<<<1, 1>>>();
  cudaError_t err = cudaGetLastError();
  std::printf("kernel launch failed: %s (%s)\n", cudaGetErrorString(err), cudaGetErrorName(err));
  return err == cudaSuccess ? 0 : 1;
}
