// The Dear ImGui layer of the window: a slim sidebar (lens, SAT construction, view, timings, the
// all-variants comparison; advanced sections collapsed at start), the timing heads-up overlay (T)
// with the live naive / work-efficient / fastest bars and the frame-budget bar, the help overlay
// (F1), view legends, and toasts. Sized from the display every frame, so a resize re-lays it.
// Widgets edit app.settings and return actions as Requests (requests.hpp); none calls GL or CUDA
// (the live re-timing the overlay shows is done by the window loop, live_compare_step there).
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "frame/requests.hpp"
#include "passes/sat_stage.hpp"
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

// --ui-selftest: every section expanded, the sidebar scrolled top to bottom over some frames, and
// every control (every item given a tooltip through ui_tip) checked to have been fully visible
// inside its window and the display at least once.
struct UiCheck {
  bool enabled = false;
  struct Item {
    std::string window, label;
    bool reached = false;
  };
  std::map<std::string, Item> items;  // key: window + "/" + label
  float sidebar_scroll = 0, sidebar_scroll_max = 0;
  int frames_at_bottom = 0;
  bool primitives_overlaps_sidebar = false;
};

struct UiInfo {
  std::string gl_renderer;
  float fps = 0;                // smoothed over the loop's frame intervals
  float frame_interval_ms = 0;  // 1000 / fps: time between frames (App::frame + UI + swap/vsync)
  float ui_cpu_ms = 0;          // CPU time of the last frame's UI draw + render (window loop)
  std::string toast;            // e.g. "Screenshot saved: /abs/path.png"
  bool toast_error = false;
  float toast_left_s = 0;  // shown while > 0
  const LiveCompare* live = nullptr;
  UiCheck* check = nullptr;
};

void draw_ui(App& app, const UiInfo& info, Requests* req);

// After a control: its tooltip (shown on hover, also when the control is disabled). Every control
// of the panels gets one; --ui-selftest uses the same call to find every control.
void ui_tip(const char* text);
// The rectangle the sidebar takes (x, y, w, h): other windows are placed beside it.
void ui_sidebar_rect(float* x, float* y, float* w, float* h);

}  // namespace demo
