// What the diagnostics measured of the current frame (diagnostics/frame_checks.*): plain data that
// App keeps beside the frame and drops when a change makes it stale, and the panels and the report
// read.
#pragma once

#include <string>
#include <vector>

#include "core/frame_times.hpp"
#include "scandof/image_metrics.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace demo {

// One "Compare with reference": the method's image against the lens reference.
struct QualityResult {
  bool valid = false;
  scandof::metrics::Quality q{};
  int reference_samples = 0;
  float reference_ms = 0;  // host wall time of the reference (glFinish'd), when it was rendered
  float reference_render_ms = 0;  // of which the GL work (the rest: reading the float sum back)
  float edge_radius = 0;          // the edge band's radius: the largest CoC radius in the frame
  float lens_radius = 0;          // L = A z_f / f_px (scene units)
  std::string method;             // "spread/disc" etc.
  std::string dof_path;           // FrameTimes::dof_pass_name() of the scored frame
  // HDR: q scores the tone-mapped images (both through the frame's exposure and mapper); these
  // score the radiance (scandof::metrics: highlight energy over reference luminance > 1,
  // log-luminance PSNR).
  bool hdr = false;
  float exposure_ev = 0;
  scandof::metrics::HighlightEnergy highlight{};
  double log_luminance_psnr_db = 0;
};

// One row of "Time every variant": a scan variant (paper method) or another SAT method.
struct VariantTiming {
  std::string name;  // the variant's name, the method's for fused methods, or "CPU fallback"
  scandof::ScanAlgorithm variant;
  scandof::SatMethod method;
  SatTimes median;
};

// Everything measured of the frame; App clears what a settings change makes stale.
struct Measures {
  QualityResult quality;                // the last "Compare with reference"
  QualityResult oracle;                 // --dof-oracle's lens score
  std::vector<VariantTiming> comparison;  // "Time every variant" (empty: not run)
  double float_error = -1;              // float32 tables' largest box error (< 0: not measured)
  // The kept lens reference as a person sees it (RGB float in [0, 1], bottom-up: tone mapped with
  // the frame's exposure in HDR; empty until rendered).
  std::vector<float> reference_display;
};

}  // namespace demo
