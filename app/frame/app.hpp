// The application's state and one frame as a list of passes, shared by the window loop and the
// headless runner (run/). frame() applies what changed in Settings since last frame, then runs
// the passes, each a small type of passes/ with its own GPU timer:
//   scene (passes/scene_pass.*) -> deferred planes where on (passes/planes_pass.*) ->
//   the second depth layer where the DoF method needs it (passes/peel_pass.*) ->
//   SAT (passes/sat_stage.*, with the CUDA DoF inside its map) -> DoF (the path frame/dof_path.hpp
//   chooses: passes/dof_pass.* or the CPU gold method) -> debug view (diagnostics/lens_reference.*)
// and the window presents the output (passes/present_pass.*). carry_out() then runs the frame's
// Requests: the one-shot actions widgets, keys and flags asked for. The diagnostics (lens
// reference and scoring, verify, SAT dump, variant timings) live in diagnostics/; App calls them
// with its passes.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "diagnostics/lens_reference.hpp"
#include "diagnostics/quality.hpp"
#include "diagnostics/sat_analysis.hpp"
#include "frame/camera.hpp"
#include "frame/dof_path.hpp"
#include "frame/frame_times.hpp"
#include "frame/requests.hpp"
#include "frame/settings.hpp"
#include "passes/dof_pass.hpp"
#include "passes/frame_targets.hpp"
#include "passes/peel_pass.hpp"
#include "passes/planes_pass.hpp"
#include "passes/sat_stage.hpp"
#include "passes/scene_pass.hpp"
#include "passes/tonemap_pass.hpp"
#include "primitives/panel.hpp"
#include "scene/camera_path.hpp"
#include "scene/video_writer.hpp"

namespace demo {
namespace gl = scandof::gl;

// Whether `m` shades the floor and wall deferred in the current GL context (Auto: not on a
// software rasterizer). Needs a current context.
bool deferred_planes(SceneShading m);
// --record's target names an MP4 file (encoded by FFmpeg) rather than a folder of PNGs.
bool records_video(const std::string& target);

class App {
 public:
  // `window`: the GL context is a window's (the SAT backend's PRIME hint); false: headless EGL.
  App(const std::string& resources, const Settings& initial, int width, int height,
      bool window = true);

  // Renders one frame at the given size (> 0) into the frame targets' display texture.
  void frame(int width, int height, float dt_s);
  // Runs the requests gathered while this frame was drawn, and advances a pending primitives run.
  void carry_out(const Requests& req);
  // Window mode: the output to the default framebuffer, scaled to fb_width x fb_height.
  void present(int fb_width, int fb_height) const;

  // Edited by the UI, keys and the command line; compared with last frame's copy in frame().
  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  Camera& camera() { return camera_; }
  const FrameTargets& targets() const { return targets_; }
  // The CPU gold method of the frame now in the targets, with the settings' method and lens, as
  // RGB floats (h x w x 3): radiance in HDR, 0..1 in LDR. With the second depth layer where the
  // frame renders one (the two-layer method), else the one-layer method. Throws
  // std::invalid_argument on parameters the method refuses. The CPU fallback and --method-gold
  // both draw it.
  std::vector<float> gold_dof_rgb() const;
  int width() const { return targets_.width(); }
  int height() const { return targets_.height(); }
  const SatStage& sat() const { return *sat_; }
  PrimitivesPanel& primitives() { return primitives_; }  // the Primitives window's state
  gl::GlTimer& ui_timer() { return ui_timer_; }  // wrapped around the ImGui draw by its drawer
  float max_anisotropy() const { return scene_.max_anisotropy(); }
  // The floor and wall are shaded deferred this frame (MSAA frames shade forward).
  bool deferred_planes_active() const {
    return deferred_planes_ && targets_.msaa() == 1 && scene_.has_planes();
  }
  // The loaded glTF scene (nullptr: the teapots) and what the last load said: the error that kept
  // the previous scene, or the scene's summary; scene_error() says which.
  const MeshScene* scene_model() const { return scene_.model(); }
  const std::string& scene_message() const { return scene_message_; }
  bool scene_error() const { return scene_error_; }
  // The window's K (--record-path FILE): the current view as the path's next key, written to
  // FILE at once; returns what to tell (the key's number and time, or why it was not written).
  std::string add_path_key();
  // Playing a camera path: the step the next frame shows (frame n: time n / fps).
  bool playing_path() const { return !path_.keys.empty(); }
  long long path_step() const { return path_step_; }

  const FrameTimes& last() const { return last_; }
  const std::deque<FrameTimes>& history() const { return history_; }
  static constexpr std::size_t kHistory = 240;
  const std::vector<VariantTiming>& comparison() const { return comparison_; }
  double float_error() const { return float_error_; }  // < 0: not measured yet
  // HDR: the EV the last tone-mapped frame was exposed with (auto: as metered on the GPU, read
  // without waiting, so a frame or two late; manual: the setting). 0 in LDR.
  float exposure_ev();
  // The tone mapping that reproduces the frame's display image from radiance on the CPU: the
  // frame's mapper and EV, auto exposure off (the reference and the scores use it).
  scandof::ToneMapSettings display_tone();
  const std::string& dof_message() const { return dof_message_; }

  void screenshot(const std::string& path) const;  // display texture (no UI) as PNG
  // Renders the lens reference if the one kept is not of this camera, time and lens, then scores
  // this frame's method against it (re-rendering the frame as the DepthOfField view, dt = 0).
  const QualityResult& compare_with_reference();
  const QualityResult& quality() const { return quality_; }
  // --dof-oracle: how much a second layer could give, two scores printed on stderr beside the
  // frame's (HDR, layered, the teapot scene; else says why not; call after
  // compare_with_reference). Both put the method's own near field (dof::near_over) over an image
  // of what lies behind it: "lens", the lens reference of the scene without its near field
  // (every fragment nearer than dof::near_field_end discarded in every lens sample), the best any
  // background could do; "complete", the method (dof::layered) run on the pinhole frame of the
  // scene without its near field (the peel pass's cut), i.e. a second layer that holds every
  // hidden surface, the best this method could do with more layers. Returns the lens one.
  const QualityResult& oracle_score();
  // The kept reference as a person sees it (RGB float in [0, 1], bottom-up: tone mapped with the
  // frame's exposure in HDR; empty until rendered), its radiance (HDR; LDR: the same), and
  // whether it matches now.
  const std::vector<float>& reference() const { return reference_display_; }
  const std::vector<float>& reference_radiance() const { return reference_.rgb(); }
  bool reference_current() const;
  void write_reference_png(const std::string& path);  // renders it first if not current
  // The image a method makes of this frame (DepthOfField view), RGB float bottom-up, as shown (the
  // display image); its radiance (HDR: the DoF output; LDR: the same as method_image) from the
  // same render; its error map.
  std::vector<float> method_image(std::vector<float>* radiance = nullptr);
  std::vector<uint8_t> error_map(const std::vector<float>& image) const;  // RGBA8 with legend
  float lens_radius() const;  // L for the current camera and lens (scene units)
  void compare_variants(int reps = kCompareReps);
  void measure_float_error();
  // Builds `cfg`'s SAT of the current frame once with a waited timing, then the current settings'
  // again (so the tables and the next frame's stage times stay theirs); returns the build's ms.
  float retime_sat(const Settings& cfg);
  // --verify: the tables (built as u32) against sat_gold of the frame, the DoF passes against
  // each other, the deferred planes against forward shading. Appends the verdicts to *message.
  bool verify(std::string* message);
  void dump_sat(const std::string& path) const;

 private:
  void apply_settings();
  void resize(int width, int height);
  FrameTextures frame_textures() const;  // what the SAT stage registers
  void release_freed_targets();  // glFinish after targets were rebuilt (app.cpp says why)
  // The SAT stage of settings_.backend, registered with the current targets (the old one, if
  // any, unregistered first).
  void make_sat_stage();
  void apply_camera();  // physical mode: aperture and field of view from the lens
  // Loads settings_.scene_file into the scene pass (empty: the teapots); throws SceneLoadError
  // naming the file and what is wrong, the scene pass untouched.
  void load_scene();
  // The camera for the scene: the teapots' start view, the loaded scene's bounds framed, or the
  // file's camera settings_.scene_camera; the focus on the scene where settings_.scene_focus.
  void place_scene_camera();
  void pull_focus(float dt_s);
  // The scene pass, the planes pass where deferred, the resolve; `frame_timer` as ScenePass::begin.
  void render_scene(gl::GlTimer* frame_timer);
  // The SAT build and the DoF pass `path` names (the CUDA kernel inside the SAT stage's map, a
  // GL pass after it, or the CPU gold method); returns the route that drew the frame, and in
  // *cpu_ms the host time of the CPU method where it ran.
  DofRoute render_sat_and_dof(DofPath path, float* cpu_ms);
  // The CPU gold method into the output texture; false (and why in *message) on bad parameters.
  bool cpu_dof(std::string* message);
  // HDR: the output (radiance) -> the display image by the tone-map pass (the CoC and SAT debug
  // views, already display colours, are copied); LDR: nothing (the output is the display).
  void tone_map(float dt_s);
  void record_times(DofRoute route, float cpu_ms, std::chrono::steady_clock::time_point t0);
  bool verify_scene_shading(std::string* message);
  void ensure_reference();

  Settings settings_;
  Settings applied_;  // last frame's copy
  Camera camera_;
  std::string resources_;  // folder holding shaders/ and assets/
  FrameTargets targets_;
  ScenePass scene_;
  PlanesPass planes_;
  PeelPass peel_;  // the second depth layer, configured while two_layer(settings_)
  GlDofPass dof_;
  LensReference reference_;
  LensReference oracle_reference_;  // oracle_score's: the scene without its near field
  QualityResult oracle_;
  TonemapPass tonemap_;
  std::vector<float> reference_display_;
  std::unique_ptr<SatStage> sat_;  // after the targets: unregisters before they go
  bool window_ = true;
  long long frame_no_ = 0;  // frames begun (the fault schedule counts them)
  PrimitivesPanel primitives_;
  gl::GlTimer ui_timer_;
  gl::GlTimer frame_timer_;      // scene start .. DoF end on the GPU
  gl::GlTimer frame_all_timer_;  // the frame's first GL command .. DoF end
  bool deferred_planes_ = true;
  float time_s_ = 0;  // animation clock
  FrameTimes last_;
  std::deque<FrameTimes> history_;
  std::vector<VariantTiming> comparison_;
  double float_error_ = -1;
  QualityResult quality_;
  std::string dof_message_;  // why the frame's method did not run where asked
  std::string scene_message_;
  bool scene_error_ = false;
  float scene_fovy_ = Camera::kFovY;  // a file camera's field of view (not in physical mode)
  // The camera path being played (empty: none) and its next step; frames written by --record.
  CameraPath path_;
  long long path_step_ = 0, recorded_ = 0;
  void load_camera_path();       // settings_.camera_path -> path_ (throws naming the file)
  float follow_camera_path();    // the step's view into camera and settings; returns 1 / fps
  void record_frame(long long index);  // DIR/frame_NNNNN.png of the display image, or FILE.mp4
  std::unique_ptr<VideoWriter> video_;  // --record FILE.mp4: opened at the first frame
  int video_width_ = 0, video_height_ = 0;
  bool hover_ = false;       // last known cursor over the scene (autofocus "cursor")
  int hover_x_ = 0, hover_y_ = 0;
};

}  // namespace demo
