#include "passes/fail_allocation.hpp"

#include <new>
#include <stdexcept>

#include "scandof/scan.hpp"
#if SCANDOF_WITH_CUDA
#include <cuda_runtime_api.h>

#include "scandof/cuda_check.hpp"
#endif

namespace demo {

void fail_allocation() {
#if SCANDOF_WITH_CUDA
  if (scandof::cuda_device_available()) {
    void* p = nullptr;
    try {
      // 1 PiB: fails on every device, through the one check macro (scandof::CudaError naming
      // cudaErrorMemoryAllocation).
      CUDA_CHECK(cudaMalloc(&p, std::size_t(1) << 50));
    } catch (...) {
      cudaGetLastError();  // a failed allocation is not sticky; leave no error for later checks
      throw;
    }
    cudaFree(p);
    throw std::runtime_error("injected allocation failure: a 1 PiB cudaMalloc succeeded");
  }
#endif
  throw std::bad_alloc();
}

}  // namespace demo
