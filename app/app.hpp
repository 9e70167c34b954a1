// What a frame does, shared by the window and the headless runner: apply settings changes, draw
// the scene, build the SATs, draw the depth of field; plus the timing history and the actions the
// UI and the CLI trigger (screenshot, comparison, verification, float error).
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "primitives_panel.hpp"
#include "renderer.hpp"
#include "sat_stage.hpp"
#include "settings.hpp"

namespace demo {

// One frame's stage times in milliseconds (GL timer queries and CUDA events; CPU wall time where
// marked in SatTimes).
struct FrameTimes {
  float scene_ms = 0, dof_ms = 0, frame_ms = 0;
  SatTimes sat;
};

class App {
 public:
  App(const std::string& resources, const Settings& initial, int width, int height);

  // Renders one frame at the given size (> 0) into the renderer's output texture.
  void frame(int width, int height, float dt_s);

  Settings settings;  // edited by the UI / CLI; compared with applied_ each frame
  Camera camera;
  Renderer renderer;
  std::unique_ptr<SatStage> sat;
  PrimitivesPanel primitives;  // its window state; drawn by draw_ui

  const FrameTimes& last() const { return last_; }
  const std::deque<FrameTimes>& history() const { return history_; }
  static constexpr std::size_t kHistory = 240;

  // Actions.
  void screenshot(const std::string& path);  // output texture (no UI) as PNG
  void focus_at_pixel(int x, int y);         // click to focus (GL pixel coordinates)
  std::vector<VariantTiming> comparison;     // filled by compare()
  void compare(int reps);
  double float_error = -1;  // < 0: not measured yet
  void measure_float_error();
  // Compares the buffer's tables (built as u32) with sat_cpu of the read-back frame.
  bool verify(std::string* message);
  void dump_sat(const std::string& path);
  float time_s() const { return time_s_; }

 private:
  void apply_settings();
  Settings applied_;
  float time_s_ = 0;
  FrameTimes last_;
  std::deque<FrameTimes> history_;
};

}  // namespace demo
