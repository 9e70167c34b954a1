#include "frame/app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "automation/faults.hpp"
#include "diagnostics/verify.hpp"
#include "frame/focus_pull.hpp"
#include "frame/physical_lens.hpp"
#include "passes/image_io.hpp"
#include "passes/present_pass.hpp"
#include "passes/scene_layout.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"
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
      oracle_reference_(resources),
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
  if (!settings_.camera_path.empty()) load_camera_path();  // a bad path file stops here too
  if (!settings_.record_dir.empty() && !records_video(settings_.record_dir)) {
    std::error_code ec;
    std::filesystem::create_directories(settings_.record_dir, ec);
    if (ec) throw std::runtime_error("--record " + settings_.record_dir + ": " + ec.message());
  }
}

// ---- One frame: the list of passes ---------------------------------------------------------------

void App::frame(int width, int height, float dt_s) {
  const auto t0 = std::chrono::steady_clock::now();
  tick_faults(++frame_no_);  // --inject-fault interop-register@N
  apply_settings();
  // A camera path sets the view and steps time by 1 / fps, whatever the wall clock did; the
  // headless tools' still re-renders (dt 0) show the same step again.
  const long long step = path_step_;
  if (playing_path()) dt_s = dt_s > 0.0f ? follow_camera_path() : 0.0f;
  if (width != targets_.width() || height != targets_.height()) resize(width, height);
  if (settings_.animate) time_s_ += dt_s;
  pull_focus(dt_s);
  apply_camera();
  frame_all_timer_.begin();
  render_scene(&frame_timer_);  // scene, deferred planes, MSAA resolve
  if (peel_.active()) peel_.render(targets_, scene_, camera_, time_s_, dof_params(settings_));
  const DofPath path = choose_dof_path(
      settings_, {sat_->can_compute_dof(),
                  sat_->gpu_dof_missing(settings_.dof_method, settings_.dof_shape),
                  sat_->can_two_layer()});
  float cpu_ms = 0;
  const DofRoute route = render_sat_and_dof(path, &cpu_ms);  // SAT, then the DoF path
  reference_.show_before_tonemap(settings_.view, targets_);  // debug view: the reference
  tone_map(dt_s);
  if (settings_.view == View::Error)
    reference_.show_after_tonemap(settings_.view, targets_, settings_.error_scale, display_tone());
  frame_timer_.end();
  frame_all_timer_.end();
  record_times(route, cpu_ms, t0);
  if (!settings_.record_dir.empty() && dt_s > 0.0f)
    record_frame(playing_path() ? step : recorded_);
}

// ---- Camera path and recording -----------------------------------------------------------------

bool records_video(const std::string& target) {
  return target.size() > 4 && target.compare(target.size() - 4, 4, ".mp4") == 0;
}

void App::load_camera_path() {
  path_ = demo::load_camera_path(settings_.camera_path);
  path_step_ = 0;
  std::fprintf(stderr, "[scandof] camera path %s: %zu keys, %.3g s at %.3g fps (%lld frames)\n",
               settings_.camera_path.c_str(), path_.keys.size(), path_.duration(), path_.fps,
               path_.frames());
}

float App::follow_camera_path() {
  const CameraKey k = path_.at(static_cast<double>(path_step_) / path_.fps);
  ++path_step_;
  // The orbit camera through the key's eye and target (eye = target + distance * direction).
  const glm::vec3 d = k.eye - k.target;
  camera_.target = k.target;
  camera_.distance = glm::length(d);
  camera_.pitch = std::asin(std::clamp(d.y / camera_.distance, -1.0f, 1.0f));
  camera_.yaw = std::atan2(d.x, d.z);
  settings_.focus_distance = k.focus;
  settings_.aperture = k.aperture;
  return static_cast<float>(1.0 / path_.fps);
}

void App::record_frame(long long index) {
  if (records_video(settings_.record_dir)) {
    const int w = targets_.width(), h = targets_.height();
    if (!video_)
      video_ = std::make_unique<VideoWriter>(settings_.record_dir, w, h,
                                             playing_path() ? path_.fps : 60.0);
    if (w != video_width_ || h != video_height_) {
      if (video_->frames() > 0)
        throw std::runtime_error(settings_.record_dir + ": the frame size changed while recording");
      video_width_ = w;
      video_height_ = h;
    }
    video_->add(targets_.read_rgba(targets_.display()).data());
    ++recorded_;
    return;
  }
  char name[32];
  std::snprintf(name, sizeof name, "/frame_%05lld.png", index);
  screenshot(settings_.record_dir + name);  // a failed write throws naming the file
  ++recorded_;
}

std::string App::add_path_key() {
  if (settings_.record_path_file.empty()) return "K records a camera path: start with --record-path FILE";
  CameraPath p;
  try {
    p = demo::load_camera_path(settings_.record_path_file);
  } catch (const std::exception&) {
    p = CameraPath{};  // a new file (or one that is not a path: replaced)
  }
  CameraKey k;
  k.t = p.keys.empty() ? 0.0 : p.keys.back().t + 2.0;
  k.eye = camera_.eye();
  k.target = camera_.target;
  k.focus = settings_.focus_distance;
  k.aperture = settings_.aperture;
  p.keys.push_back(k);
  try {
    save_camera_path(p, settings_.record_path_file);
  } catch (const std::exception& e) {
    return e.what();
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "Camera key %zu at %.1f s added to %s", p.keys.size(), k.t,
                settings_.record_path_file.c_str());
  return buf;
}

void App::render_scene(gl::GlTimer* frame_timer) {
  const bool deferred = deferred_planes_active();
  scene_.set_highlight(settings_.highlight);
  scene_.begin(targets_, frame_timer);
  scene_.draw(targets_, camera_, time_s_, deferred);
  if (deferred)
    planes_.shade(targets_, camera_, scene_.floor_texture(), scene_.wall_texture(),
                  settings_.highlight);
  scene_.end(targets_);
}

DofRoute App::render_sat_and_dof(DofPath path, float* cpu_ms) {
  const bool cuda = sat_->build(settings_, SatTiming::Latest, path.route == DofRoute::ComputeCuda);
  if (path.route == DofRoute::ComputeCuda && !cuda) {
    // DofGpu refused the method just now (remembered: later frames choose without it).
    path = choose_dof_path(settings_, {sat_->can_compute_dof(), true});
    path.message = sat_->gpu_dof_message();
  }
  if (path.route == DofRoute::CpuGold) {
    const auto c0 = std::chrono::steady_clock::now();
    if (!cpu_dof(&path.message)) path.route = path.gl_route;
    *cpu_ms = ms_since(c0);
  }
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

void App::record_times(DofRoute route, float cpu_ms, std::chrono::steady_clock::time_point t0) {
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
  last_.dof_ms = cpu ? cpu_ms : dof_gpu_ms;
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
    float_error_ = -1;
  }
  if (c.tessellation) scene_.set_tessellation(settings_.tessellation);
  if (c.anisotropy) scene_.set_anisotropy(settings_.anisotropy);
  if (c.msaa) targets_.set_msaa(settings_.msaa);
  if (c.scene_shading) deferred_planes_ = deferred_planes(settings_.scene_shading);
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
    sat_->resize(targets_.width(), targets_.height(), frame_textures());
    float_error_ = -1;
    comparison_.clear();
  }
  if (c.backend) {
    make_sat_stage();
    comparison_.clear();
  }
  bool rebuilt = c.msaa || c.pipeline || c.backend;
  if (two_layer(settings_) != peel_.active()) {
    // The second layer's targets come and go with the method that reads them; the CUDA stage
    // registers them, so it re-registers.
    sat_->release();
    peel_.configure(two_layer(settings_), targets_.width(), targets_.height(), hdr(settings_));
    sat_->resize(targets_.width(), targets_.height(), frame_textures());
    rebuilt = true;
  }
  if (rebuilt) release_freed_targets();
  if (c.scene) {
    bool placed = true;
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
        placed = false;
      }
    }
    if (placed) place_scene_camera();
  }
  applied_ = settings_;
}

void App::load_scene() {
  if (settings_.scene_file.empty()) {
    scene_.set_model(nullptr);
    scene_message_ = "the teapots";
    scene_error_ = false;
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const LoadedScene s = load_gltf(settings_.scene_file);
  const float read_ms = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  auto model = std::make_unique<MeshScene>(s);
  glFinish();  // the upload's time, not the next frame's
  const float upload_ms = ms_since(t1);
  scene_.set_model(std::move(model));
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%zu triangles, %zu draws, %zu materials, %zu lights%s, %zu cameras; "
                "read %.1f ms, upload %.1f ms",
                s.triangles(), s.primitives.size(), s.materials.size(), s.lights.size(),
                s.lights.empty() ? " (a key light added)" : "", s.cameras.size(), read_ms,
                upload_ms);
  scene_message_ = buf;
  scene_error_ = false;
  std::fprintf(stderr, "[scandof] scene %s: %s\n", s.path.c_str(), buf);
  for (const std::string& n : s.notes) std::fprintf(stderr, "[scandof] scene note: %s\n", n.c_str());
}

void App::place_scene_camera() {
  camera_ = Camera{};
  scene_fovy_ = Camera::kFovY;
  const MeshScene* m = scene_.model();
  if (!m) return;  // the teapots' start view
  const glm::vec3 centre = 0.5f * (m->lo() + m->hi());
  float d = 0;
  const std::vector<LoadedCamera>& cams = m->cameras();
  const int k = settings_.scene_camera;
  if (k >= 0 && k < static_cast<int>(cams.size())) {
    // The orbit camera through the file camera's eye along its view: the target is the point of
    // the view axis nearest the scene's centre (the orbit and the focus have a middle to hold).
    const LoadedCamera& c = cams[k];
    d = std::clamp(glm::dot(centre - c.eye, c.forward), Camera::kMinDistance, Camera::kMaxDistance);
    camera_.target = c.eye + c.forward * d;
    camera_.distance = d;
    camera_.pitch = std::asin(std::clamp(-c.forward.y, -1.0f, 1.0f));
    camera_.yaw = std::atan2(-c.forward.x, -c.forward.z);
    scene_fovy_ = c.yfov;
  } else {
    if (k >= 0)
      std::fprintf(stderr, "[scandof] scene camera %d: the file has %zu; the bounds are framed\n", k,
                   cams.size());
    // Seen from a little above and to the right, as the teapots are, from the nearest distance
    // at which all eight corners of the bounds are inside the view (a corner c at depth d - f
    // needs |right| <= (d - f) tan(fov_x / 2), and likewise up), with a 6% margin.
    camera_.target = centre;
    camera_.yaw = -0.45f;
    camera_.pitch = 0.35f;
    camera_.distance = 1.0f;
    const glm::vec3 fwd = glm::normalize(centre - camera_.eye());
    const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
    const glm::vec3 up = glm::cross(right, fwd);
    const float ty = std::tan(0.5f * Camera::kFovY);
    const float tx = ty * static_cast<float>(targets_.width()) / std::max(1, targets_.height());
    d = Camera::kMinDistance;
    for (int i = 0; i < 8; ++i) {
      const glm::vec3 c((i & 1) ? m->hi().x : m->lo().x, (i & 2) ? m->hi().y : m->lo().y,
                        (i & 4) ? m->hi().z : m->lo().z);
      const glm::vec3 r = c - centre;
      const float towards = -glm::dot(r, fwd);
      d = std::max(d, towards + std::max(std::abs(glm::dot(r, right)) / tx,
                                         std::abs(glm::dot(r, up)) / ty));
    }
    d = std::min(Camera::kMaxDistance, 1.06f * d);
    camera_.distance = d;
  }
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
    sat_->resize(width, height, frame_textures());
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

std::vector<float> App::gold_dof_rgb() const {
  const int w = targets_.width(), h = targets_.height();
  const std::vector<float> z = targets_.read_viewz();
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  if (peel_.active() && two_layer(settings_)) {
    // The two-layer method: the second depth layer read back beside the frame.
    const std::vector<float> z2 = peel_.read_viewz();
    if (targets_.hdr()) {
      const std::vector<float> rgba = targets_.read_rgba_f32(targets_.color());
      const std::vector<float> rgba2 = peel_.read_rgba_f32();
      scandof::dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h,
                                dof_params(settings_), fixed_point(settings_), rgb.data());
    } else {
      const std::vector<uint8_t> rgba = targets_.read_rgba(targets_.color());
      const std::vector<uint8_t> rgba2 = peel_.read_rgba();
      scandof::dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h,
                                dof_params(settings_), rgb.data());
    }
  } else if (targets_.hdr()) {
    const std::vector<float> rgba = targets_.read_rgba_f32(targets_.color());
    scandof::dof::render(settings_.dof_method, rgba.data(), z.data(), w, h, dof_params(settings_),
                         fixed_point(settings_), rgb.data());
  } else {
    const std::vector<uint8_t> rgba = targets_.read_rgba(targets_.color());
    scandof::dof::render(settings_.dof_method, rgba.data(), z.data(), w, h, dof_params(settings_),
                         rgb.data());
  }
  return rgb;
}

bool App::cpu_dof(std::string* message) {
  const int w = targets_.width(), h = targets_.height();
  std::vector<float> rgb;
  try {
    rgb = gold_dof_rgb();
  } catch (const std::invalid_argument& e) {
    *message = e.what();
    return false;
  }
  if (targets_.hdr()) {
    std::vector<float> out(static_cast<std::size_t>(w) * h * 4, 1.0f);
    for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h; ++i)
      for (int c = 0; c < 3; ++c) out[4 * i + c] = rgb[3 * i + c];
    targets_.upload_output(out.data());
    return true;
  }
  std::vector<uint8_t> out(static_cast<std::size_t>(w) * h * 4);
  scandof::metrics::rgb_to_rgba8(rgb.data(), w, h, out.data());
  targets_.upload_output(out.data());
  return true;
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
  if (req.compare_reference) {
    compare_with_reference();
    frame(targets_.width(), targets_.height(), 0.0f);  // the reference/error views show it now
  }
  if (req.focus_at_pixel) {
    const float d = targets_.distance_at(req.focus_x, req.focus_y);
    if (d > 0) settings_.focus_distance = d;
  }
  if (req.compare_variants) compare_variants();
  if (req.measure_float_error) measure_float_error();
  // req.screenshot is the window's (automation/: it names the file and shows a toast).
}

// ---- Diagnostics on this frame (diagnostics/) ----------------------------------------------------

float App::lens_radius() const { return demo::lens_radius(camera_, targets_.height(), settings_); }

bool App::reference_current() const {
  return reference_.current(LensReference::key(targets_, camera_, time_s_, settings_, scene_));
}

void App::ensure_reference() {
  reference_.ensure(targets_, scene_, camera_, time_s_, settings_);
  const std::vector<uint8_t> px = reference_.display(display_tone());
  reference_display_.resize(px.size() / 4 * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), targets_.width(), targets_.height(),
                                 reference_display_.data());
}

std::vector<uint8_t> App::error_map(const std::vector<float>& image) const {
  return demo::error_map(image, reference_display_, targets_.width(), targets_.height(),
                         settings_.error_scale);
}

std::vector<float> App::method_image(std::vector<float>* radiance) {
  const View keep = settings_.view;
  settings_.view = View::DepthOfField;
  frame(targets_.width(), targets_.height(), 0.0f);
  settings_.view = keep;
  const std::size_t n = static_cast<std::size_t>(targets_.width()) * targets_.height();
  const std::vector<uint8_t> px = targets_.read_rgba(targets_.display());
  std::vector<float> img(n * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), targets_.width(), targets_.height(), img.data());
  if (radiance) {
    if (targets_.hdr()) {
      const std::vector<float> out = targets_.read_rgba_f32(targets_.output());
      radiance->resize(n * 3);
      for (std::size_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) (*radiance)[3 * i + c] = out[4 * i + c];
    } else {
      *radiance = img;
    }
  }
  return img;
}

const QualityResult& App::compare_with_reference() {
  std::vector<float> radiance;
  const std::vector<float> img = method_image(&radiance);
  const std::string path = last_.dof_pass_name();
  ensure_reference();
  QualityResult r = score(img, reference_display_, targets_.read_viewz(), targets_.width(),
                          targets_.height(), settings_);
  if (targets_.hdr()) {
    r.hdr = true;
    r.exposure_ev = exposure_ev();
    const int w = targets_.width(), h = targets_.height();
    r.highlight = scandof::metrics::highlight_energy_error(radiance.data(), reference_.rgb().data(),
                                                           w, h);
    r.log_luminance_psnr_db =
        scandof::metrics::log_luminance_psnr(radiance.data(), reference_.rgb().data(), w, h);
  }
  r.dof_path = path;
  r.reference_samples = settings_.reference_samples;
  r.reference_ms = reference_.ms();
  r.reference_render_ms = reference_.render_ms();
  r.lens_radius = lens_radius();
  r.valid = true;
  quality_ = r;
  if (settings_.dof_oracle) oracle_score();
  return quality_;
}

const QualityResult& App::oracle_score() {
  oracle_ = QualityResult{};
  if (!targets_.hdr() || settings_.dof_method != scandof::dof::Method::Layered || scene_.model() ||
      reference_display_.empty()) {
    std::fprintf(stderr, "[quality] oracle: needs HDR, --dof layered, the teapots and a score\n");
    return oracle_;
  }
  const int w = targets_.width(), h = targets_.height();
  const std::size_t n = static_cast<std::size_t>(w) * h;
  const scandof::dof::Params p = dof_params(settings_);
  const float cut = scandof::dof::near_field_end(p);
  // The lens's own view of what lies behind the near field (its own reference, kept apart from
  // the frame's; one more 256-sample render, about 0.4 s at 1080p on the H100).
  scene_.set_near_cut(cut);
  oracle_reference_.drop_targets();
  oracle_reference_.ensure(targets_, scene_, camera_, time_s_, settings_);
  scene_.set_near_cut(0.0f);
  const std::vector<float> rgba = targets_.read_rgba_f32(targets_.color());
  const std::vector<float> z = targets_.read_viewz();
  std::vector<float> radiance(n * 3);
  scandof::dof::near_over(rgba.data(), z.data(), oracle_reference_.rgb().data(), w, h, p,
                          fixed_point(settings_), radiance.data());
  std::vector<uint8_t> px(n * 4);
  scandof::tone_map(radiance.data(), 3, w, h, display_tone(), px.data());
  std::vector<float> img(n * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), w, h, img.data());
  QualityResult r = score(img, reference_display_, z, w, h, settings_);
  r.hdr = true;
  r.highlight =
      scandof::metrics::highlight_energy_error(radiance.data(), reference_.rgb().data(), w, h);
  r.log_luminance_psnr_db =
      scandof::metrics::log_luminance_psnr(radiance.data(), reference_.rgb().data(), w, h);
  r.valid = true;
  std::fprintf(stderr,
               "[quality] oracle %-15s near field (z < %.4f) over the lens's own background: "
               "PSNR %7.3f dB  SSIM %.4f  edge PSNR %7.3f dB  edge SSIM %.4f  highlight energy "
               "%+.2f %%  log-luminance PSNR %.3f dB\n",
               r.method.c_str(), cut, r.q.psnr_db, r.q.ssim, r.q.edge_psnr_db, r.q.edge_ssim,
               100.0 * r.highlight.signed_error, r.log_luminance_psnr_db);
  oracle_ = r;
  // "complete": the frame without its near field, pinhole, blurred by the method itself (the CPU
  // gold: a few seconds at 1080p), under the same near field. Where nothing lies beyond the cut
  // the frame's own pixel stands in (the near field covers those pixels in full).
  if (peel_.active()) {
    peel_.render(targets_, scene_, camera_, time_s_, p, /*cut=*/true);
    std::vector<float> bg = peel_.read_rgba_f32(), bz = peel_.read_viewz();
    for (std::size_t i = 0; i < n; ++i)
      if (!(bz[i] > 0.0f)) {
        bz[i] = z[i];
        for (int c = 0; c < 4; ++c) bg[4 * i + c] = rgba[4 * i + c];
      }
    std::vector<float> behind(n * 3), rad(n * 3);
    scandof::dof::layered(bg.data(), bz.data(), w, h, p, fixed_point(settings_), behind.data());
    scandof::dof::near_over(rgba.data(), z.data(), behind.data(), w, h, p, fixed_point(settings_),
                            rad.data());
    scandof::tone_map(rad.data(), 3, w, h, display_tone(), px.data());
    scandof::metrics::rgba8_to_rgb(px.data(), w, h, img.data());
    QualityResult c = score(img, reference_display_, z, w, h, settings_);
    c.highlight =
        scandof::metrics::highlight_energy_error(rad.data(), reference_.rgb().data(), w, h);
    std::fprintf(stderr,
                 "[quality] oracle %-15s near field over the method's image of the complete "
                 "background: PSNR %7.3f dB  SSIM %.4f  edge PSNR %7.3f dB  edge SSIM %.4f  "
                 "highlight energy %+.2f %%\n",
                 c.method.c_str(), c.q.psnr_db, c.q.ssim, c.q.edge_psnr_db, c.q.edge_ssim,
                 100.0 * c.highlight.signed_error);
  }
  return oracle_;
}

void App::write_reference_png(const std::string& path) {
  ensure_reference();
  write_png_bottom_up(path, targets_.width(), targets_.height(),
                      reference_.display(display_tone()).data());
  std::fprintf(stderr, "[scandof] reference written: %s\n", path.c_str());
}

void App::screenshot(const std::string& path) const {
  const std::vector<uint8_t> px = targets_.read_rgba(targets_.display());
  write_png_bottom_up(path, targets_.width(), targets_.height(), px.data());
  std::fprintf(stderr, "[scandof] screenshot written: %s (%dx%d)\n", path.c_str(),
               targets_.width(), targets_.height());
}

void App::compare_variants(int reps) {
  comparison_ = demo::compare_variants(*sat_, settings_, reps);
}

void App::measure_float_error() {
  float_error_ = float_box_error(*sat_, settings_, static_cast<int>(settings_.max_radius) + 1,
                                 kFloatErrorBoxes);
}

float App::retime_sat(const Settings& cfg) {
  sat_->build(cfg, SatTiming::Wait);
  const float ms = sat_->times().build_ms;
  sat_->build(settings_);
  return ms;
}

bool App::verify(std::string* message) {
  const bool sat_ok = verify_sat(*sat_, settings_, targets_, message);
  const bool dof_ok = verify_dof_passes(settings_, dof_, *sat_, targets_, message);
  return verify_scene_shading(message) && sat_ok && dof_ok;
}

bool App::verify_scene_shading(std::string* message) {
  if (targets_.msaa() > 1) {
    *message += "\nscene shading: MSAA frames shade forward only";
    return true;
  }
  // llvmpipe filters anisotropically with explicit gradients (textureGrad) unlike with implicit
  // ones (its 16x images differ in a third of the floor's values; at 1x they agree within 2/255):
  // there the check runs at 1x, which still tests the pass's geometry, derivatives and shading.
  const bool at_1x = gl::software_renderer() && scene_.anisotropy() > 1.0f;
  const float aniso = scene_.anisotropy();
  if (at_1x) scene_.set_anisotropy(1.0f);
  // The same frame both ways; then the frame as it was (the same mode renders the same image).
  std::vector<float> z[2];
  auto render = [&](bool deferred) {
    deferred_planes_ = deferred;
    render_scene(nullptr);
    z[deferred ? 1 : 0] = targets_.read_viewz();
    return targets_.read_rgba(targets_.color());
  };
  const std::vector<uint8_t> fwd = render(false), def = render(true);
  if (at_1x) scene_.set_anisotropy(aniso);
  render(deferred_planes(settings_.scene_shading));
  // The deferred planes write their own view z (the rasteriser's for forward shading): the DoF
  // reads it, so it must agree to float rounding. The bound is that rounding's: the deferred pass
  // unprojects each pixel's far-plane point through the inverse view-projection, whose w row sums
  // terms of size 1 / (2 near) into 1 / far (the depth mapping's condition number, far / near =
  // 2000), so each of its ~8 rounded operations (the inverse itself, 4 products, 3 sums) can move
  // view z by u * far / near relative (u = 2^-24): 8 u far / near = 9.5e-4. The forward side
  // (clip w, interpolated) adds a few u. Seen: 1.3e-4 on an H200, under 1e-4 on an H100; a
  // half-pixel error in the rays moves the receding floor's view z by several 1e-3.
  constexpr double kViewZBound = 8.0 * (std::numeric_limits<float>::epsilon() / 2) *
                                 (static_cast<double>(Camera::kFar) / Camera::kNear);
  double worst = 0;
  for (std::size_t i = 0; i < z[0].size(); ++i)
    worst = std::max(worst, std::abs(static_cast<double>(z[1][i]) - z[0][i]) /
                                std::max(1e-6, std::abs(static_cast<double>(z[0][i]))));
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "\nview z %s: deferred planes vs forward max relative difference %.3g (bound "
                "%.2g)",
                worst <= kViewZBound ? "agrees" : "DISAGREES", worst, kViewZBound);
  const bool shading = judge_scene_shading(fwd, def, at_1x, message);
  *message += buf;
  return shading && worst <= kViewZBound;
}

void App::dump_sat(const std::string& path) const { demo::dump_sat(*sat_, settings_.format, path); }

}  // namespace demo
