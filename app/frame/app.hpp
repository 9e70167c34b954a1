// The application's state and one frame as a list of passes, shared by the window loop and the
// headless runner (run/). frame() applies what changed in Settings since last frame, then runs
// the passes, each a small type of passes/ with its own timer section:
//   scene (passes/scene_pass.*) -> deferred planes where on (passes/planes_pass.*) ->
//   the second depth layer where the DoF method needs it (passes/peel_pass.*) ->
//   SAT (passes/sat_stage.*) -> DoF (the path core/dof_path.hpp chooses: the CUDA DoF pass over the
//   SAT stage's one map, passes/cuda_dof_pass.*; a GL pass, passes/dof_pass.*; or the CPU gold
//   method, passes/cpu_dof_pass.*) -> debug view (passes/lens_reference.*) -> tone map
// and the window presents the output (passes/present_pass.*). carry_out() then runs the frame's
// Requests that are the frame's own (focus, hover, the primitives run); what diagnostics measure of
// the frame (diagnostics/frame_checks.*) reads it through targets() and parts() and keeps its
// results in measured().
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/camera.hpp"
#include "core/dof_path.hpp"
#include "core/frame_times.hpp"
#include "core/measures.hpp"
#include "core/requests.hpp"
#include "core/settings.hpp"
#include "frame/recorder.hpp"
#include "passes/cpu_dof_pass.hpp"
#include "passes/cuda_dof_pass.hpp"
#include "passes/dof_pass.hpp"
#include "passes/frame_targets.hpp"
#include "passes/lens_reference.hpp"
#include "passes/peel_pass.hpp"
#include "passes/planes_pass.hpp"
#include "passes/sat_stage.hpp"
#include "passes/scene_pass.hpp"
#include "passes/tonemap_pass.hpp"
#include "primitives/run.hpp"

namespace demo {
namespace gl = scandof::gl;

// Whether `m` shades the floor and wall deferred in the current GL context (Auto: not on a
// software rasterizer). Needs a current context.
bool deferred_planes(SceneShading m);

// The frame's passes and what they draw into, for the diagnostics that run a pass again (variant
// timings, verify, the oracle's cut layer) or read one (the lens reference they score against).
struct FrameParts {
  FrameTargets& targets;
  ScenePass& scene;
  PeelPass& peel;
  GlDofPass& dof;
  CudaDofPass& cuda_dof;
  SatStage& sat;
  LensReference& reference;
  const Camera& camera;
  float time_s;  // the animation clock of the frame in the targets
  const std::string& resources;
};

class App {
 public:
  // `window`: the GL context is a window's (the SAT backend's PRIME hint); false: headless EGL.
  App(const std::string& resources, const Settings& initial, int width, int height,
      bool window = true);

  // Renders one frame at the given size (> 0) into the frame targets' display texture.
  void frame(int width, int height, float dt_s);
  // Runs the frame's own requests gathered while it was drawn (hover, focus at a pixel, the
  // primitives run) and advances a pending primitives run.
  void carry_out(const Requests& req);
  // Window mode: the output to the default framebuffer, scaled to fb_width x fb_height.
  void present(int fb_width, int fb_height) const;
  void screenshot(const std::string& path) const;  // display texture (no UI) as PNG

  // Edited by the UI, keys and the command line; compared with last frame's copy in frame().
  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  Camera& camera() { return camera_; }
  const FrameTargets& targets() const { return targets_; }
  int width() const { return targets_.width(); }
  int height() const { return targets_.height(); }
  const SatStage& sat() const { return *sat_; }
  const PeelPass& peel() const { return peel_; }  // the second depth layer (when active)
  FrameParts parts();
  // Draws the scene (and the deferred planes when `deferred`) into the targets, untimed: the
  // shading check renders the same frame both ways.
  void render_scene_only(bool deferred);

  PrimitivesRun& primitives() { return primitives_; }  // the Primitives window's run
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
  // The camera path being played and the frames written by --record (frame/recorder.hpp).
  const Recorder& recorder() const { return recorder_; }
  // The window's K (--record-path FILE): the current view as the path's next key.
  std::string add_path_key() { return recorder_.add_path_key(camera_, settings_); }

  const FrameTimes& last() const { return last_; }
  const std::deque<FrameTimes>& history() const { return history_; }
  static constexpr std::size_t kHistory = 240;
  // What diagnostics measured of this frame; cleared where a settings change makes it stale.
  Measures& measured() { return measured_; }
  const Measures& measured() const { return measured_; }
  // HDR: the EV the last tone-mapped frame was exposed with (auto: as metered on the GPU, read
  // without waiting, so a frame or two late; manual: the setting). 0 in LDR.
  float exposure_ev();
  // The tone mapping that reproduces the frame's display image from radiance on the CPU: the
  // frame's mapper and EV, auto exposure off (the reference and the scores use it).
  scandof::ToneMapSettings display_tone();
  const std::string& dof_message() const { return dof_message_; }

 private:
  void apply_settings();
  void rebuild_targets(const SettingsChange& c);  // pipeline, second layer: new formats
  void change_scene();
  void resize(int width, int height);
  FrameTextures frame_textures() const;  // what the SAT stage registers
  void release_freed_targets();  // glFinish after targets were rebuilt (app.cpp says why)
  // The SAT stage of settings_.backend, registered with the current targets (the old one, if
  // any, unregistered first).
  void make_sat_stage();
  void resize_sat_stage();  // the stage at the targets' size, the CUDA DoF scratch released first
  void apply_camera();  // physical mode: aperture and field of view from the lens
  // Loads settings_.scene_file into the scene pass (empty: the teapots); throws SceneLoadError
  // naming the file and what is wrong, the scene pass untouched.
  void load_scene();
  // The camera for the scene: the teapots' start view, the loaded scene's bounds framed, or the
  // file's camera settings_.scene_camera; the focus on the scene where settings_.scene_focus.
  void place_scene_camera();
  void pull_focus(float dt_s);
  // The scene pass, the planes pass where deferred, the resolve; `frame_timer` as ScenePass::begin.
  void render_scene(gl::GlTimer* frame_timer, bool deferred);
  // The SAT build and the DoF pass `path` names (the CUDA pass over the SAT stage's map, a GL
  // pass after it, or the CPU gold method); returns the route that drew the frame.
  DofRoute render_sat_and_dof(DofPath path);
  // HDR: the output (radiance) -> the display image by the tone-map pass (the CoC and SAT debug
  // views, already display colours, are copied); LDR: nothing (the output is the display).
  void tone_map(float dt_s);
  void record_times(DofRoute route, std::chrono::steady_clock::time_point t0);

  Settings settings_;
  Settings applied_;  // last frame's copy
  Camera camera_;
  std::string resources_;  // folder holding shaders/ and assets/
  FrameTargets targets_;
  ScenePass scene_;
  PlanesPass planes_;
  PeelPass peel_;  // the second depth layer, configured while two_layer(settings_)
  CudaDofPass cuda_dof_;  // before the SAT stage: it runs inside the stage's map
  GlDofPass dof_;
  CpuDofPass cpu_dof_;
  LensReference reference_;
  TonemapPass tonemap_;
  std::unique_ptr<SatStage> sat_;  // after the targets: unregisters before they go
  bool window_ = true;
  long long frame_no_ = 0;  // frames begun (the fault schedule counts them)
  PrimitivesRun primitives_;
  gl::GlTimer ui_timer_;
  gl::GlTimer frame_timer_;      // scene start .. DoF end on the GPU
  gl::GlTimer frame_all_timer_;  // the frame's first GL command .. DoF end
  bool deferred_planes_ = true;
  float time_s_ = 0;  // animation clock
  FrameTimes last_;
  std::deque<FrameTimes> history_;
  Measures measured_;
  std::string dof_message_;  // why the frame's method did not run where asked
  std::string scene_message_;
  bool scene_error_ = false;
  float scene_fovy_ = Camera::kFovY;  // a file camera's field of view (not in physical mode)
  Recorder recorder_;
  bool hover_ = false;  // last known cursor over the scene (autofocus "cursor")
  int hover_x_ = 0, hover_y_ = 0;
};

}  // namespace demo
