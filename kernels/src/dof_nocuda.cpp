// Without CUDA the GPU depth-of-field entry points exist and say why they cannot run; the demo's
// CPU fallback uses the CPU references instead.
#include <stdexcept>

#include "scandof/dof_cuda.hpp"

namespace scandof {

void dof_gather(const DofFrame&, const dof::Params&, cudaStream_t) {
  throw std::runtime_error("dof_gather: scandof was built without CUDA");
}

struct DofGpu::Impl {};
DofGpu::DofGpu() : impl_(nullptr) {}
DofGpu::~DofGpu() = default;
void DofGpu::render(dof::Method, const dof::Params&, const DofFrame&, cudaStream_t) {
  throw std::runtime_error("DofGpu::render: scandof was built without CUDA");
}
void DofGpu::release_scratch() {}  // nothing was allocated

}  // namespace scandof
