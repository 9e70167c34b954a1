// One frame, shared by the window loop and the headless runner: apply what changed in Settings,
// draw the scene (renderer.*), build the SATs (sat_stage.*), draw the depth of field (renderer.*,
// shaders/dof.frag); keep the timing history. Then carry_out() runs the frame's Requests: the
// one-shot actions widgets, keys and flags asked for (screenshot, comparison, float error,
// primitives run, click to focus). Verification and SAT dumps for the command line are here too.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "camera.hpp"
#include "primitives_panel.hpp"
#include "renderer.hpp"
#include "requests.hpp"
#include "sat_analysis.hpp"
#include "sat_stage.hpp"
#include "settings.hpp"

namespace demo {

// One frame's stage times in milliseconds (GL timer queries and CUDA events, both read without
// waiting, so they trail the frame by a few frames; CPU wall time where marked in SatTimes).
struct FrameTimes {
  float scene_ms = 0, dof_ms = 0, frame_ms = 0;
  SatTimes sat;
  // The frame budget (issue 8; the UI's stacked bar reads these, zero = not measured yet, the UI
  // then falls back to the fields above): interop = map + unmap, sat = the SAT build, ui = the
  // panels' draw, frame_gpu = scene start to DoF end, frame_cpu = the CPU time of App::frame.
  float interop_ms = 0, sat_ms = 0, ui_ms = 0, frame_gpu_ms = 0, frame_cpu_ms = 0;
  std::string dof_pass = "fragment";  // which DoF pass ran (fragment / compute)
};

class App {
 public:
  App(const std::string& resources, const Settings& initial, int width, int height);

  // Renders one frame at the given size (> 0) into the renderer's output texture.
  void frame(int width, int height, float dt_s);
  // Runs the requests gathered while this frame was drawn, and advances a pending primitives run.
  void carry_out(const Requests& req);

  Settings settings;  // edited by the UI / CLI; compared with last frame's copy in frame()
  Camera camera;
  Renderer renderer;
  std::unique_ptr<SatStage> sat;
  PrimitivesPanel primitives;  // the Primitives window's state; drawn by draw_ui

  const FrameTimes& last() const { return last_; }
  const std::deque<FrameTimes>& history() const { return history_; }
  static constexpr std::size_t kHistory = 240;
  const std::vector<VariantTiming>& comparison() const { return comparison_; }
  double float_error() const { return float_error_; }  // < 0: not measured yet

  void screenshot(const std::string& path);  // output texture (no UI) as PNG
  void compare_variants(int reps = kCompareReps);
  void measure_float_error();
  bool verify(std::string* message);  // the tables (built as u32) against sat_gold of the frame
  void dump_sat(const std::string& path);

 private:
  void apply_settings();
  Settings applied_;  // last frame's copy
  float time_s_ = 0;  // animation clock
  int screenshot_no_ = 0;
  FrameTimes last_;
  std::deque<FrameTimes> history_;
  std::vector<VariantTiming> comparison_;
  double float_error_ = -1;
};

}  // namespace demo
