// The CPU depth-of-field pass: the library's gold method (scandof/dof.hpp) on the frame read back,
// uploaded into the output texture. What draws a method no GPU pass here has, and the CPU
// fallback's frame; slow (seconds at 1080p for the spreading methods), timed on the host.
#pragma once

#include <string>
#include <vector>

#include "core/settings.hpp"
#include "passes/frame_targets.hpp"
#include "passes/peel_pass.hpp"

namespace demo {

// The CPU gold method of the frame now in the targets, with the settings' method and lens, as RGB
// floats (h x w x 3): radiance in HDR, 0..1 in LDR. With the second depth layer where the frame
// renders one (the two-layer method), else the one-layer method. Throws std::invalid_argument on
// parameters the method refuses.
std::vector<float> gold_dof_rgb(const FrameTargets& t, const PeelPass& peel, const Settings& s);

class CpuDofPass {
 public:
  // The gold method into the output texture; false (and why in *message) on bad parameters.
  bool render(FrameTargets& t, const PeelPass& peel, const Settings& s, std::string* message);
  float ms() const { return ms_; }  // host wall time of the last render (read back + method + upload)

 private:
  float ms_ = 0;
};

}  // namespace demo
