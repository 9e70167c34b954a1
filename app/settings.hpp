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

// Who builds the summed-area tables. Auto: CUDA when a device is usable, else GL compute shaders
// when the context offers GL 4.3 compute (every AMD/Intel/Mesa GPU), else the CPU (read back,
// sat_gold, upload). The window and the report say which was chosen and why.
enum class SatBackend : int { Auto = 0, Cuda = 1, Gl = 2, Cpu = 3 };
constexpr int kNumSatBackends = 4;
const char* to_string(SatBackend b);  // the CLI's names: auto, cuda, gl, cpu

// Where the depth-of-field blur runs: the full-screen fragment shader (shaders/dof.frag, any GL
// 4.5 GPU, the CPU fallback too) or a CUDA kernel writing the output texture through interop
// (kernels/src/dof.cu; about 90x faster on an H100, whose fragment shading is slow). Debug views
// other than DepthOfField always use the fragment shader.
enum class DofPass : int { Fragment = 0, Compute = 1 };
constexpr int kNumDofPasses = 2;
const char* to_string(DofPass p);  // the CLI's names: fragment, compute

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
  SatBackend backend = SatBackend::Auto;
  DofPass dof_pass = DofPass::Compute;  // the fragment pass where compute cannot run (CPU path)
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
