// Measurements on the SAT stage that the UI buttons and the headless flags ask for, none of them
// per frame: every (variant, method) timed on the current frame, the exact check of the GPU tables
// against the library's CPU reference, and the error of float tables against exact ones.
#pragma once

#include <string>
#include <vector>

#include "core/measures.hpp"
#include "passes/frame_targets.hpp"
#include "passes/sat_stage.hpp"
#include "core/settings.hpp"

namespace demo {

// Builds per configuration for "Time every variant" and --compare (after one warm-up build).
constexpr int kCompareReps = 30;
// Random boxes for the float32 error measurement (radius 1..max radius, fixed seed).
constexpr int kFloatErrorBoxes = 200000;

// Times each scan variant (paper method) and each other method on the current frame: `reps` waited
// builds after a warm-up, medians per stage. Leaves the tables of `s` in the buffer.
std::vector<VariantTiming> compare_variants(SatStage& sat, const Settings& s, int reps);

// Rebuilds the tables as uint32 and compares them with the CPU gold of the frame's colour texture
// (scandof::sat_gold of the RGBA8 frame, sat_gold_hdr of the HDR one in the fixed point of `s`);
// puts a one-line verdict into *message. Leaves the tables of `s`.
bool verify_sat(SatStage& sat, const Settings& s, const FrameTargets& t, std::string* message);

// Largest error of float box averages against the exact ones (table units: 0..255 for the RGBA8
// frame, 2^-F radiance for the HDR one) over `boxes` random
// boxes of radius 1..max_radius of the current frame. Builds both formats, then the tables of `s`.
double float_box_error(SatStage& sat, const Settings& s, int max_radius, int boxes);

}  // namespace demo
