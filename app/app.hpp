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

// One frame's stage times in milliseconds (GL timestamp queries and CUDA events, both read without
// waiting, so they trail the frame by a few frames; CPU wall time where marked). The frame budget
// (UI bar, report) is scene + interop + SAT + DoF + UI; frame_gpu_ms spans scene start to DoF end
// on the GPU (a GL timestamp after the interop unmap, which GL orders after the CUDA work).
struct FrameTimes {
  float scene_ms = 0;      // GL: the teapot scene
  float interop_ms = 0;    // CUDA stream: map + unmap (0 on the CPU path)
  float sat_ms = 0;        // SAT build: CUDA events, or readback + CPU + upload on the CPU path
  float dof_ms = 0;        // the DoF pass that ran: CUDA kernel (compute) or GL fragment pass
  float ui_ms = 0;         // GL: the ImGui draw (window mode and --screenshot-ui)
  float frame_gpu_ms = 0;  // GL timestamps: scene start .. DoF end
  float frame_cpu_ms = 0;  // host wall time of App::frame
  float frame_interval_ms = 0;  // host wall time from this frame's start to the next one's (the
                                // frame rate's frame time: waits for the GPU included)
  DofPass dof_pass = DofPass::Fragment;  // which pass made this frame's blur
  bool dof_cuda = false;                 // compute pass: the CUDA kernel (else GL compute)
  SatTimes sat;
  // "fragment", "compute (CUDA)" or "compute (GL)": the UI's and the report's name of the pass.
  std::string dof_pass_name() const {
    return dof_pass == DofPass::Fragment ? "fragment"
           : dof_cuda                    ? "compute (CUDA)"
                                         : "compute (GL)";
  }
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
  GlTimer ui_timer;            // wrapped around the ImGui draw by whoever draws it

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
  std::string resources_;  // folder holding shaders/ and assets/
  FrameTextures frame_textures() const;
  GlTimer frame_timer_;  // scene start .. DoF end on the GPU
  Settings applied_;     // last frame's copy
  float time_s_ = 0;     // animation clock
  int screenshot_no_ = 0;
  FrameTimes last_;
  std::deque<FrameTimes> history_;
  std::vector<VariantTiming> comparison_;
  double float_error_ = -1;
};

}  // namespace demo
