// The timing overlay's live bars (ui/panels.cpp draws them): the SAT build of naive against
// work-efficient (and the current variant if another, and the fused path), re-timed on the
// current frame one configuration at a time by the window loop; bars show medians.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace demo {

class App;

// The overlay's live comparison: one configuration re-timed per frame in rotation (a waited
// SatStage::build of the current frame), the last kSamples of each kept for a median.
struct LiveCompare {
  static constexpr std::size_t kSamples = 9;
  struct Entry {
    std::string name;
    scandof::ScanAlgorithm variant;
    scandof::SatMethod method;
    std::deque<float> build_ms;  // SatTimes::build_ms of the last kSamples timed builds
    float median_ms = 0;
  };
  std::vector<Entry> entries;
  std::size_t next = 0;
  float cost_ms = 0;  // CPU wall time the last timed build added to the frame (smoothed)
};

// Every kLiveEvery-th frame: one configuration re-timed (retime_sat, diagnostics/frame_checks.hpp), its median updated.
// Nothing on the CPU backend (its entries cleared).
void live_compare_step(App& app, LiveCompare* lc, long long frame_no);

}  // namespace demo
