// Every value a user can adjust, in one place. Widgets and the command line edit a Settings; once
// per frame App compares it with last frame's copy to decide what to rebuild (targets, shaders, SAT
// format, SAT backend), so no widget ever touches GL or CUDA state directly. One-shot actions
// (screenshot, "time every variant", ...) are Requests (requests.hpp), not settings.
#pragma once

#include "primitives_bench.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "shared.h"

namespace demo {

// Debug views of the DoF pass; the values are the shader's VIEW_* ids (shaders/shared.h).
enum class View : int {
  DepthOfField = VIEW_DOF,
  Sharp = VIEW_SHARP,
  CircleOfConfusion = VIEW_COC,
  Sat = VIEW_SAT,
  Split = VIEW_SPLIT,
};
constexpr int kNumViews = NUM_VIEWS;
const char* to_string(View v);  // the CLI's names: dof, sharp, coc, sat, split

struct Settings {
  // Lens (thin-lens model; distances in scene units along the view axis).
  float focus_distance = 20.0f;  // the blue teapot's depth in the start view (Camera)
  float aperture = 12.0f;  // CoC radius in pixels of a point at infinity (lens constant folded in)
  float max_radius = 24.0f;  // largest blur radius in pixels
  // SAT construction. `variant` is the scan variant of the paper pipeline (library type
  // ScanAlgorithm); the UI, the CLI (--variant) and the report all call it "variant".
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
  bool show_ui = true;       // H: the panels
  bool show_overlay = true;  // T: the timing heads-up overlay on the scene
  bool show_help = false;    // F1: keys and mouse
  // The Primitives window (library vs CUB on one primitive). Part of operator== like everything
  // else; changing it rebuilds nothing.
  bool show_primitives = false;
  PrimRequest primitives;

  bool operator==(const Settings& o) const;
  bool operator!=(const Settings& o) const { return !(*this == o); }
};

}  // namespace demo
