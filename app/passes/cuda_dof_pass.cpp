#include "passes/cuda_dof_pass.hpp"

#include <cstdio>
#include <stdexcept>

namespace demo {

CudaDofPass::CudaDofPass() = default;
CudaDofPass::~CudaDofPass() = default;

bool CudaDofPass::render(const scandof::DofFrame& f, const Settings& s, cudaStream_t stream) {
  if (!dof_) dof_ = std::make_unique<scandof::DofGpu>();
  try {
    dof_->render(s.dof_method, dof_params(s), f, stream);
    return true;
  } catch (const std::invalid_argument& e) {
    // Not on the GPU yet (or bad parameters): the caller runs the CPU gold method instead.
    missing_ |= 1u << (3 * static_cast<int>(s.dof_method) + static_cast<int>(s.dof_shape));
    message_ = std::string(scandof::dof::to_string(s.dof_method)) + "/" +
               scandof::dof::to_string(s.dof_shape) +
               " not on the GPU, CPU gold path used: " + e.what();
    std::fprintf(stderr, "[scandof] %s\n", message_.c_str());
    return false;
  }
}

void CudaDofPass::release_scratch() {
  if (dof_) dof_->release_scratch();
}

}  // namespace demo
