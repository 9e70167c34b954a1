// The Dear ImGui layer of the window: a slim sidebar (lens, SAT construction, view, timings, the
// all-variants comparison; advanced sections collapsed at start), the timing heads-up overlay (T)
// with the live naive / work-efficient / fastest bars and the frame-budget bar, the help overlay
// (F1), view legends, and toasts. Sized from the display every frame, so a resize re-lays it.
// Widgets edit app.settings and return actions as Requests (requests.hpp); none calls GL or CUDA
// (the live re-timing the overlay shows is diagnostics/live_compare.*, stepped by the window loop).
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "diagnostics/live_compare.hpp"
#include "core/requests.hpp"
#include "passes/sat_stage.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace demo {

class App;

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
  // Frames the sidebar has sat at the bottom with its scroll range unchanged, and that range:
  // content that grows late (a section whose text wraps once the timings arrive) moves the bottom.
  int frames_at_bottom = 0;
  float bottom_max = -1;
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

// What the panels keep from one frame to the next: where the sidebar and the overlay ended up
// (other windows are placed beside them), how tall the sidebar's content was.
struct UiLayout {
  UiCheck* check = nullptr;  // this frame's --ui-selftest record (ui_tip fills it)
  float side_x = 0, side_y = 0, side_w = 0, side_h = 0;
  float overlay_bottom = 0;  // the timing overlay's lower edge (0 when hidden)
  float sidebar_content_h = 0;
  char scene_path[1024] = {};  // the Scene section's text field
  bool scene_path_set = false;  // filled from the settings once
};

// Every panel of the window (and of headless --screenshot-ui), drawn once per frame.
class Panels {
 public:
  void draw(App& app, const UiInfo& info, Requests* req);

 private:
  UiLayout layout_;
};

// After a control: its tooltip (shown on hover, also when the control is disabled). Every control
// of the panels gets one; --ui-selftest uses the same call to find every control.
void ui_tip(const char* text);
// The rectangle the sidebar takes (x, y, w, h): other windows are placed beside it.
void ui_sidebar_rect(float* x, float* y, float* w, float* h);

}  // namespace demo
