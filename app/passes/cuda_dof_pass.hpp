// The CUDA depth-of-field pass: scandof::DofGpu (kernels/src/dof.cu: every method and shape of
// scandof/dof.hpp it has) reads the SAT the stage just built and writes the blurred frame into the
// output texture, inside the SAT stage's one map (passes/sat_stage.*: the stage maps, builds, runs
// this pass, unmaps). Its timer section is the stage's pair of CUDA events around it
// (SatTimes::dof_compute_ms).
#pragma once

#include <memory>
#include <string>

#include "core/settings.hpp"
#include "scandof/dof_cuda.hpp"

namespace demo {

class CudaDofPass {
 public:
  CudaDofPass();
  ~CudaDofPass();
  CudaDofPass(const CudaDofPass&) = delete;
  CudaDofPass& operator=(const CudaDofPass&) = delete;

  // Blurs `f` with the method and shape of `s` on `stream`. A method DofGpu cannot do (yet)
  // throws std::invalid_argument there: caught, remembered (missing()), logged once, and false is
  // returned so the frame's CPU gold method runs instead.
  bool render(const scandof::DofFrame& f, const Settings& s, cudaStream_t stream);
  // Whether DofGpu said it cannot do this method and shape, and why.
  bool missing(scandof::dof::Method m, scandof::dof::Shape sh) const {
    return (missing_ >> (3 * static_cast<int>(m) + static_cast<int>(sh))) & 1u;
  }
  const std::string& message() const { return message_; }
  // Frees the scratch grown for the largest frame so far (before a resize checks free memory).
  void release_scratch();

 private:
  std::unique_ptr<scandof::DofGpu> dof_;  // made at the first render: no CUDA call before
  unsigned missing_ = 0;  // bit 3 * method + shape: DofGpu threw "not implemented"
  std::string message_;
};

}  // namespace demo
