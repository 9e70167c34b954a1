// --verify beyond the tables themselves (sat_analysis.hpp: verify_sat): the DoF passes against
// each other, the deferred planes against forward shading (both through image_diff.hpp), and the
// SAT dump (--dump-sat). Each appends its verdict line to *message.
#pragma once

#include <string>
#include <vector>

#include "core/settings.hpp"
#include "passes/dof_pass.hpp"
#include "passes/frame_targets.hpp"
#include "passes/sat_stage.hpp"

namespace demo {

// The GL compute shader and the CUDA kernel are the fragment shader's DepthOfField view moved to
// compute. All weigh exact integer boxes in float and round to 8 bits, so they may differ by one
// step where a value falls on a rounding boundary, never more. Renders gather/box of `s` through
// each pass there is (CUDA where the stage runs it) into the output texture.
bool verify_dof_passes(const Settings& s, GlDofPass& dof, SatStage& sat, CudaDofPass& cuda_dof,
                       FrameTargets& t, std::string* message);

// The frame with the floor and wall shaded deferred against forward: at most
// kSceneShadingOutliers of the channel values may differ by more than kSceneShadingTolerance (the
// texture derivatives come from neighbouring rays instead of the rasteriser's 2x2 quads, which
// moves the mip/anisotropy choice a little where the floor meets the horizon). `at_1x`: the
// images were rendered at 1x anisotropy (a software rasterizer, see verify_scene_shading in diagnostics/frame_checks.cpp).
constexpr int kSceneShadingTolerance = 2;
constexpr double kSceneShadingOutliers = 0.01;
bool judge_scene_shading(const std::vector<uint8_t>& forward, const std::vector<uint8_t>& deferred,
                         bool at_1x, std::string* message);

// The tables of the last build as .npy, shape (3, H, W), row 0 = bottom, through the atomic
// writer: a failed write (full disk, /dev/full) throws naming the path.
void dump_sat(const SatStage& sat, scandof::SatFormat format, const std::string& path);

}  // namespace demo
