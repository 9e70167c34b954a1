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

#include "frame/camera.hpp"
#include "scandof/image_metrics.hpp"
#include "primitives/panel.hpp"
#include "passes/renderer.hpp"
#include "frame/requests.hpp"
#include "diagnostics/sat_analysis.hpp"
#include "passes/sat_stage.hpp"
#include "frame/settings.hpp"

namespace demo {
namespace gl = scandof::gl;

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
  // GL timestamps: all of App::frame's GPU work, clears (and any wait on last frame's unmap)
  // included, to DoF end: what the frame interval is compared with.
  float frame_gpu_all_ms = 0;
  float frame_cpu_ms = 0;  // host wall time of App::frame
  float frame_interval_ms = 0;  // host wall time from this frame's start to the next one's (the
                                // frame rate's frame time: waits for the GPU included)
  DofPass dof_pass = DofPass::Fragment;  // which pass made this frame's blur
  bool dof_cuda = false;                 // compute pass: the CUDA kernel (else GL compute)
  bool dof_cpu = false;  // the CPU gold method made it (dof_ms = read back + method + upload)
  SatTimes sat;
  // "fragment", "compute (CUDA)", "compute (GL)" or "cpu" (the CPU gold method of a method no
  // GPU pass here draws): the UI's and the report's name of the pass.
  std::string dof_pass_name() const {
    if (dof_cpu) return "cpu";
    return dof_pass == DofPass::Fragment ? "fragment"
           : dof_cuda                    ? "compute (CUDA)"
                                         : "compute (GL)";
  }
};

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
};
// What the SSIM numbers are (UI and report).
constexpr const char* kSsimNote =
    "SSIM: Gaussian window 11x11, sigma 1.5, on luma (BT.601), K1 0.01, K2 0.03 (Wang et al. "
    "2004); PSNR over R, G, B in [0, 1]; edge band = pixels within the frame's largest CoC radius "
    "of a depth discontinuity (view z jumps > 10 %)";

// Whether `m` shades the floor and wall deferred in the current GL context (Auto: not on a
// software rasterizer). Needs a current context.
bool deferred_planes(SceneShading m);

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
  gl::GlTimer ui_timer;            // wrapped around the ImGui draw by whoever draws it

  const FrameTimes& last() const { return last_; }
  const std::deque<FrameTimes>& history() const { return history_; }
  static constexpr std::size_t kHistory = 240;
  const std::vector<VariantTiming>& comparison() const { return comparison_; }
  double float_error() const { return float_error_; }  // < 0: not measured yet

  void screenshot(const std::string& path);  // output texture (no UI) as PNG
  // Renders the lens reference if the one kept is not of this camera, time and lens, then scores
  // this frame's method against it (re-rendering the frame as the DepthOfField view, dt = 0).
  const QualityResult& compare_with_reference();
  const QualityResult& quality() const { return quality_; }
  // The kept reference (RGB float, bottom-up; empty until rendered) and whether it matches now.
  const std::vector<float>& reference() const { return ref_rgb_; }
  bool reference_current() const;
  void write_reference_png(const std::string& path);  // renders it first if not current
  // The image a method makes of this frame (DepthOfField view), RGB float bottom-up; its error map.
  std::vector<float> method_image();
  std::vector<uint8_t> error_map(const std::vector<float>& image) const;  // RGBA8 with legend
  float lens_radius() const;  // L for the current camera and lens (scene units)
  const std::string& dof_message() const { return dof_message_; }
  void compare_variants(int reps = kCompareReps);
  void measure_float_error();
  bool verify(std::string* message);  // the tables (built as u32) against sat_gold of the frame
  // The frame with the floor and wall shaded deferred against forward (both rendered now): at most
  // kSceneShadingOutliers of the channel values may differ by more than kSceneShadingTolerance
  // (the texture derivatives come from neighbouring rays instead of the rasteriser's 2x2 quads,
  // which moves the mip/anisotropy choice a little where the floor meets the horizon).
  bool verify_scene_shading(std::string* message);
  static constexpr int kSceneShadingTolerance = 2;
  static constexpr double kSceneShadingOutliers = 0.01;
  void dump_sat(const std::string& path);

 private:
  void apply_settings();
  void apply_camera();  // physical mode: aperture and field of view from the lens
  void pull_focus(float dt_s);
  // The CPU gold method into the output texture; false (and why in *message) on bad parameters.
  bool cpu_dof(std::string* message);
  void show_debug_view();  // reference / error views over the DoF output
  std::vector<float> reference_key() const;
  void ensure_reference();
  std::string resources_;  // folder holding shaders/ and assets/
  FrameTextures frame_textures() const;
  gl::GlTimer frame_timer_;      // scene start .. DoF end on the GPU
  gl::GlTimer frame_all_timer_;  // the frame's first GL command .. DoF end
  Settings applied_;     // last frame's copy
  float time_s_ = 0;     // animation clock
  int screenshot_no_ = 0;
  FrameTimes last_;
  std::deque<FrameTimes> history_;
  std::vector<VariantTiming> comparison_;
  double float_error_ = -1;
  std::vector<float> ref_rgb_, ref_key_;
  std::vector<uint8_t> ref_rgba8_;
  float ref_ms_ = 0;
  QualityResult quality_;
  std::string dof_message_;  // why the frame's method did not run where asked
  bool hover_ = false;       // last known cursor over the scene (autofocus "cursor")
  int hover_x_ = 0, hover_y_ = 0;
};

}  // namespace demo
