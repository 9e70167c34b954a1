// Programmatic dependent launch (sm_90+), for kernels that follow one another in a stream: a
// kernel launched with launch_dependent() may start while the kernel before it is still running;
// it does what does not depend on that kernel, then waits in wait_prior_grid() until the prior
// grid has finished and its writes are visible. allow_dependents() in the prior kernel lets the
// next one launch early (once every block of it has called it). Elsewhere both are no-ops and
// launch_dependent() is a plain launch. Used by the tiled SAT's passes and the packed pairs sort.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "scandof/cuda_check.hpp"

namespace scandof {
namespace pdl {

__device__ __forceinline__ void wait_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
inline bool dependent_launch_supported() {
  int dev = 0, major = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  return major >= 9;
}
// dependent = false: a plain launch (where the work before it in the stream is not a kernel, or
// nothing of it may overlap).
template <class... KArgs, class... Args>
void launch_dependent(void (*kernel)(KArgs...), dim3 grid, dim3 block, std::size_t smem,
                      cudaStream_t stream, bool dependent, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = dependent && dependent_launch_supported() ? 1 : 0;
  CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, static_cast<KArgs>(args)...));
}

}  // namespace pdl
}  // namespace scandof
