#include "frame/app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/faults.hpp"
#include "core/focus_pull.hpp"
#include "core/physical_lens.hpp"
#include "passes/fail_allocation.hpp"
#include "passes/image_io.hpp"
#include "passes/present_pass.hpp"
#include "passes/scene_layout.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"
#include "frame/scene_framing.hpp"
#include "scene/gltf_loader.hpp"

namespace demo {

bool deferred_planes(SceneShading m) {
  return m == SceneShading::Deferred || (m == SceneShading::Auto && !gl::software_renderer());
}

App::App(const std::string& resources, const Settings& initial, int width, int height,
         bool window)
    : settings_(initial),
      applied_(initial),
      resources_(resources),
      scene_(resources, initial.tessellation),
      planes_(resources),
      peel_(resources),
      dof_(resources, initial.format, hdr(initial)),
      reference_(resources),
      tonemap_(resources),
      window_(window) {
  targets_.set_hdr(hdr(initial));
  scene_.set_hdr(hdr(initial));
  targets_.resize(width, height);
  scene_.set_anisotropy(settings_.anisotropy);
  targets_.set_msaa(settings_.msaa);
  deferred_planes_ = deferred_planes(settings_.scene_shading);
  make_sat_stage();
  primitives_.probe();
  // A scene named at start: a file that cannot be read stops here (headless: exit 1).
  if (!settings_.scene_file.empty()) {
    load_scene();
    place_scene_camera();
  }
  recorder_.open(settings_);  // a bad path file or --record folder stops here too
}

// ---- One frame: the list of passes ---------------------------------------------------------------

void App::frame(int width, int height, float dt_s) {
  const auto t0 = std::chrono::steady_clock::now();
  tick_faults(++frame_no_);  // --inject-fault interop-register@N
  apply_settings();
  // A camera path sets the view and steps time by 1 / fps, whatever the wall clock did; the
  // headless tools' still re-renders (dt 0) show the same step again.
  const long long step = recorder_.step();
  if (recorder_.playing()) dt_s = dt_s > 0.0f ? recorder_.follow(&camera_, &settings_) : 0.0f;
  if (width != targets_.width() || height != targets_.height()) resize(width, height);
  if (settings_.animate) time_s_ += dt_s;
  pull_focus(dt_s);
  apply_camera();
  frame_all_timer_.begin();
  render_scene(&frame_timer_, deferred_planes_);  // scene, deferred planes, MSAA resolve
  if (peel_.active()) peel_.render(targets_, scene_, camera_, time_s_, dof_params(settings_));
  const DofPath path = choose_dof_path(
      settings_, {sat_->can_compute_dof(),
                  cuda_dof_.missing(settings_.dof_method, settings_.dof_shape),
                  sat_->can_two_layer()});
  const DofRoute route = render_sat_and_dof(path);  // SAT, then the DoF pass the path names
  reference_.show_before_tonemap(settings_.view, targets_);  // debug view: the reference
  tone_map(dt_s);
  if (settings_.view == View::Error)
    reference_.show_after_tonemap(settings_.view, targets_, settings_.error_scale, display_tone());
  frame_timer_.end();
  frame_all_timer_.end();
  record_times(route, t0);
  if (!settings_.record_dir.empty() && dt_s > 0.0f)
    recorder_.record(targets_, settings_, recorder_.playing() ? step : recorder_.recorded());
}

void App::render_scene_only(bool deferred) { render_scene(nullptr, deferred); }

void App::render_scene(gl::GlTimer* frame_timer, bool deferred_asked) {
  const bool deferred = deferred_asked && targets_.msaa() == 1 && scene_.has_planes();
  scene_.set_highlight(settings_.highlight);
  scene_.begin(targets_, frame_timer);
  scene_.draw(targets_, camera_, time_s_, deferred);
  if (deferred)
    planes_.shade(targets_, camera_, scene_.floor_texture(), scene_.wall_texture(),
                  settings_.highlight);
  scene_.end(targets_);
}

DofRoute App::render_sat_and_dof(DofPath path) {
  // On the CUDA route the CUDA DoF pass runs over the SAT stage's one map, after the SAT.
  const bool on_cuda = path.route == DofRoute::ComputeCuda;
  const bool cuda = sat_->build(settings_, SatTiming::Latest, on_cuda ? &cuda_dof_ : nullptr);
  if (on_cuda && !cuda) {
    // DofGpu refused the method just now (remembered: later frames choose without it).
    path = choose_dof_path(settings_, {sat_->can_compute_dof(), true});
    path.message = cuda_dof_.message();
  }
  if (path.route == DofRoute::CpuGold && !cpu_dof_.render(targets_, peel_, settings_, &path.message))
    path.route = path.gl_route;
  dof_message_ = path.message;
  if (path.route == DofRoute::ComputeGl) dof_.render_compute(targets_, settings_, sat_->buffer());
  if (path.route == DofRoute::FragmentGl) dof_.render_fragment(targets_, settings_, sat_->buffer());
  return path.route;
}

scandof::ToneMapSettings App::display_tone() {
  scandof::ToneMapSettings t;
  t.mapper = settings_.tone_mapper;
  t.exposure_ev = exposure_ev();
  t.auto_exposure = false;
  return t;
}

float App::exposure_ev() {
  if (!hdr(settings_)) return 0.0f;
  if (!settings_.auto_exposure) return settings_.exposure_ev;
  const TonemapPass::Exposure& e = tonemap_.exposure();
  return e.run > 0 ? e.ev_applied : settings_.exposure_ev;
}

void App::tone_map(float dt_s) {
  if (!targets_.hdr()) return;
  if (settings_.view == View::CircleOfConfusion || settings_.view == View::Sat) {
    glBlitNamedFramebuffer(targets_.output_fbo(), targets_.display_fbo(), 0, 0, targets_.width(),
                           targets_.height(), 0, 0, targets_.width(), targets_.height(),
                           GL_COLOR_BUFFER_BIT, GL_NEAREST);
    return;
  }
  scandof::ToneMapSettings t;
  t.mapper = settings_.tone_mapper;
  t.exposure_ev = settings_.exposure_ev;
  t.auto_exposure = settings_.auto_exposure;
  // Engines let the eye adapt over a fraction of a second; a still frame (dt 0, the headless
  // tools' re-renders) keeps the exposure it has.
  t.adaptation_s = 0.5f;
  tonemap_.run(targets_.output(), targets_.display(), targets_.width(), targets_.height(), t, dt_s);
}

void App::record_times(DofRoute route, std::chrono::steady_clock::time_point t0) {
  const bool cuda = route == DofRoute::ComputeCuda, cpu = route == DofRoute::CpuGold;
  last_.sat = sat_->times();
  last_.dof_route = route;
  last_.scene_ms = scene_.ms();
  last_.peel_ms = peel_.ms();
  last_.tonemap_ms = targets_.hdr() ? tonemap_.ms() : 0.0f;
  // The handoffs between GL and CUDA (the map waits for GL's scene, GL waits for the unmap) are
  // what the GPU span holds beyond the passes themselves: that residual is the interop cost. The
  // CUDA events around the map cannot show it, since the host enqueues the map before GL is done.
  const float dof_gpu_ms = cuda ? last_.sat.dof_compute_ms : cpu ? 0.0f : dof_.ms();
  const float passes = scene_.ms() + last_.peel_ms + last_.sat.build_ms + dof_gpu_ms;
  last_.interop_ms = sat_->using_cuda() ? std::max(0.0f, frame_timer_.ms() - passes) : 0.0f;
  last_.sat_ms = last_.sat.build_ms;
  // The pass that ran: CUDA kernel, CPU gold method (host wall time) or a GL pass (GL timer).
  last_.dof_ms = cpu ? cpu_dof_.ms() : dof_gpu_ms;
  last_.ui_ms = ui_timer_.ms();
  last_.frame_gpu_ms = frame_timer_.ms();
  last_.frame_gpu_all_ms = frame_all_timer_.ms();
  last_.frame_cpu_ms = ms_since(t0);
  history_.push_back(last_);
  if (history_.size() > kHistory) history_.pop_front();
}

void App::present(int fb_width, int fb_height) const {
  demo::present(targets_, fb_width, fb_height);
}

// ---- What a frame rebuilds, moves and pulls ------------------------------------------------------

void App::apply_settings() {
  const SettingsChange c = changes(applied_, settings_);
  if (c.sat_format) {
    dof_.set_sat_format(settings_.format);
    measured_.float_error = -1;
  }
  if (c.tessellation) scene_.set_tessellation(settings_.tessellation);
  if (c.anisotropy) scene_.set_anisotropy(settings_.anisotropy);
  if (c.msaa) targets_.set_msaa(settings_.msaa);
  if (c.scene_shading) deferred_planes_ = deferred_planes(settings_.scene_shading);
  rebuild_targets(c);
  if (c.scene) change_scene();
  applied_ = settings_;
}

void App::rebuild_targets(const SettingsChange& c) {
  if (c.pipeline) {
    // New target formats and programs; the SAT stage re-registers the new textures.
    const bool on = hdr(settings_);
    sat_->release();
    targets_.set_hdr(on);
    scene_.set_hdr(on);
    dof_.set_hdr(on);
    reference_.drop_targets();
    // The second layer (while on) takes the frame's format before the stage registers it.
    peel_.configure(two_layer(settings_), targets_.width(), targets_.height(), on);
    resize_sat_stage();
    measured_.float_error = -1;
    measured_.comparison.clear();
  }
  if (c.backend) {
    make_sat_stage();
    measured_.comparison.clear();
  }
  bool rebuilt = c.msaa || c.pipeline || c.backend;
  if (two_layer(settings_) != peel_.active()) {
    // The second layer's targets come and go with the method that reads them; the CUDA stage
    // registers them, so it re-registers.
    sat_->release();
    peel_.configure(two_layer(settings_), targets_.width(), targets_.height(), hdr(settings_));
    resize_sat_stage();
    rebuilt = true;
  }
  if (rebuilt) release_freed_targets();
}

void App::change_scene() {
  if (settings_.scene_file != applied_.scene_file) {
    try {
      load_scene();
      settings_.scene_camera = std::min(settings_.scene_camera,
          scene_.model() ? static_cast<int>(scene_.model()->cameras().size()) - 1 : -1);
    } catch (const SceneLoadError& e) {
      // The previous scene stays, and with it its path and camera.
      scene_message_ = e.what();
      scene_error_ = true;
      std::fprintf(stderr, "[scandof] scene not loaded: %s\n", e.what());
      settings_.scene_file = applied_.scene_file;
      settings_.scene_camera = applied_.scene_camera;
      return;
    }
  }
  place_scene_camera();
}

void App::load_scene() {
  if (settings_.scene_file.empty()) {
    scene_.set_model(nullptr);
    scene_message_ = "the teapots";
    scene_error_ = false;
    return;
  }
  scene_.set_model(load_scene_model(settings_.scene_file, &scene_message_));
  scene_error_ = false;
}

void App::place_scene_camera() {
  camera_ = Camera{};
  scene_fovy_ = Camera::kFovY;
  if (!scene_.model()) return;  // the teapots' start view
  const float d = place_camera(*scene_.model(), settings_.scene_camera, targets_.width(),
                               targets_.height(), &camera_, &scene_fovy_);
  if (settings_.scene_focus) settings_.focus_distance = d;
}

void App::resize(int width, int height) {
  // Refused before anything is released (FrameSizeRefused): past the GL limits, or more than the
  // free memory holds; the frame goes on at the size it has.
  const int old_w = targets_.width(), old_h = targets_.height();
  check_frame_size(width, height);
  const bool layer = two_layer(settings_);
  check_frame_memory(width, height, targets_.msaa(), targets_.hdr(), layer,
                     frame_bytes_estimate(old_w, old_h, targets_.msaa(), targets_.hdr(), layer));
  // New GL targets need new CUDA registrations: the stage drops its old ones first.
  sat_->release();
  try {
    targets_.resize(width, height);
    peel_.configure(two_layer(settings_), width, height, targets_.hdr());
    reference_.drop_targets();
    if (take_fault(Fault::AllocResize)) fail_allocation();  // --inject-fault alloc@resize
    resize_sat_stage();
    release_freed_targets();
  } catch (const std::exception& e) {
    // An allocation failed half-way: back to the old size with a fresh SAT stage (its buffers
    // and registrations may be half made). If that fails too, the error ends the run.
    const std::string why = e.what();
    targets_.resize(old_w, old_h);
    peel_.configure(two_layer(settings_), old_w, old_h, targets_.hdr());
    reference_.drop_targets();
    make_sat_stage();
    throw FrameSizeRefused("resizing to " + std::to_string(width) + "x" + std::to_string(height) +
                           " failed (" + why + "); back at " + std::to_string(old_w) + "x" +
                           std::to_string(old_h));
  }
}

// The NVIDIA GL driver returns a deleted texture's memory only once the GPU is done with it, at
// some later wait: without one, the soak saw device memory (cudaMemGetInfo) climb by about 25 MiB
// a resize and fall back only at a lens reference's glFinish (results/demo/soak). Targets are
// rebuilt on a resize or a change of MSAA, pipeline or backend, rare enough for one wait each.
void App::release_freed_targets() { glFinish(); }

FrameTextures App::frame_textures() const {
  return {targets_.color(), targets_.viewz(), targets_.output(), peel_.color(), peel_.viewz()};
}

void App::make_sat_stage() {
  // A backend that failed earlier in the run stays off (the old stage knows which failed).
  const BackendFailures failed = sat_ ? sat_->failures() : BackendFailures{};
  sat_.reset();  // unregister before the new stage registers the same GL objects
  sat_ = std::make_unique<SatStage>(settings_.backend, resources_ + "/glsat/shaders", window_,
                                    failed);
  resize_sat_stage();
}

void App::resize_sat_stage() {
  // The CUDA DoF pass's scratch, sized for the old frame, goes before the stage checks what the
  // new size needs of the free memory.
  cuda_dof_.release_scratch();
  sat_->resize(targets_.width(), targets_.height(), frame_textures());
}

void App::apply_camera() {
  if (!settings_.physical) {
    camera_.fovy = scene_fovy_;
    return;
  }
  const PhysicalLens p =
      physical_lens(settings_.lens, settings_.focus_distance, targets_.width(), targets_.height());
  settings_.aperture = p.aperture_px;
  camera_.fovy = p.fovy;
}

void App::pull_focus(float dt_s) {
  float target = -1;
  switch (settings_.autofocus) {
    case Autofocus::Off:
      return;
    case Autofocus::Cursor:
      if (hover_) target = targets_.distance_at(hover_x_, hover_y_);
      break;
    case Autofocus::Centre:
      target = targets_.distance_at(targets_.width() / 2, targets_.height() / 2);
      break;
    case Autofocus::Teapot:
      target = camera_.view_depth(teapot_position(settings_.autofocus_teapot));
      break;
  }
  settings_.focus_distance =
      demo::pull_focus(settings_.focus_distance, target, settings_.focus_speed, dt_s);
}

// ---- The frame's Requests ------------------------------------------------------------------------

void App::carry_out(const Requests& req) {
  // A run asked for on an earlier frame goes first, so the frame after the press shows
  // "running..." before the GPU part blocks the loop.
  primitives_.advance(settings_.primitives);
  if (req.run_primitives) primitives_.request_run();
  hover_ = req.hover;
  hover_x_ = req.hover_x;
  hover_y_ = req.hover_y;
  if (req.focus_at_pixel) {
    const float d = targets_.distance_at(req.focus_x, req.focus_y);
    if (d > 0) settings_.focus_distance = d;
  }
  // req.screenshot is the window's (automation/: it names the file and shows a toast); the
  // diagnostics' requests are diagnostics/frame_checks.hpp's carry_out_checks.
}

FrameParts App::parts() {
  return {targets_, scene_, peel_, dof_, cuda_dof_, *sat_, reference_, camera_, time_s_, resources_};
}

void App::screenshot(const std::string& path) const {
  const std::vector<uint8_t> px = targets_.read_rgba(targets_.display());
  write_png_bottom_up(path, targets_.width(), targets_.height(), px.data());
  std::fprintf(stderr, "[scandof] screenshot written: %s (%dx%d)\n", path.c_str(),
               targets_.width(), targets_.height());
}

}  // namespace demo
