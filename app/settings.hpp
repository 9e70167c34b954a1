// Every value a user can adjust, in one place. The UI edits a Settings; the app compares it with
// last frame's copy to decide what to rebuild (targets, shaders, SAT format), so no widget ever
// touches GL or CUDA state directly.
#pragma once

#include "primitives_bench.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace demo {

enum class View : int { DepthOfField = 0, Sharp = 1, CircleOfConfusion = 2, Sat = 3, Split = 4 };
constexpr int kNumViews = 5;
const char* to_string(View v);

struct Settings {
  // Lens (thin-lens model; distances in scene units along the view axis).
  float focus_distance = 15.0f;
  float aperture = 12.0f;  // CoC radius in pixels of a point at infinity (lens constant folded in)
  float max_radius = 24.0f;  // largest blur radius in pixels
  // SAT construction.
  scandof::ScanAlgorithm variant = scandof::ScanAlgorithm::WorkEfficient;
  scandof::SatMethod method = scandof::SatMethod::Paper;
  scandof::SatFormat format = scandof::SatFormat::U32;
  bool force_cpu = false;  // use the CPU fallback even with a device
  // Scene and presentation.
  View view = View::DepthOfField;
  float split = 0.5f;     // split view: fraction of the width that shows the sharp image
  int tessellation = 10;  // teapot patch subdivisions per side
  bool animate = true;
  bool vsync = true;
  bool show_ui = true;
  // The Primitives window (library vs CUB on one primitive). Not part of operator==: changing it
  // rebuilds nothing.
  bool show_primitives = false;
  PrimRequest primitives;

  bool operator==(const Settings& o) const;
  bool operator!=(const Settings& o) const { return !(*this == o); }
};

}  // namespace demo
