#include "frame/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "frame/dof_path.hpp"
#include "frame/focus_pull.hpp"
#include "passes/image_io.hpp"
#include "scandof/dof.hpp"
#include "scandof/npy.hpp"
#include "scandof/util/file_io.hpp"

namespace demo {

App::App(const std::string& resources, const Settings& initial, int width, int height)
    : settings(initial),
      renderer(resources, initial.tessellation),
      resources_(resources),
      applied_(initial) {
  renderer.set_sat_format(settings.format);
  sat = std::make_unique<SatStage>(settings.backend, resources_ + "/glsat/shaders");
  renderer.resize(width, height);
  renderer.set_anisotropy(settings.anisotropy);
  renderer.set_msaa(settings.msaa);
  renderer.set_deferred_planes(deferred_planes(settings.scene_shading));
  sat->resize(width, height, frame_textures());
  primitives.probe();
}

bool deferred_planes(SceneShading m) {
  return m == SceneShading::Deferred || (m == SceneShading::Auto && !gl::software_renderer());
}

FrameTextures App::frame_textures() const {
  return {renderer.color_texture(), renderer.viewz_texture(), renderer.output_texture()};
}

void App::apply_settings() {
  const SettingsChange c = changes(applied_, settings);
  if (c.sat_format) {
    renderer.set_sat_format(settings.format);
    float_error_ = -1;
  }
  if (c.tessellation) renderer.set_tessellation(settings.tessellation);
  if (c.anisotropy) renderer.set_anisotropy(settings.anisotropy);
  if (c.msaa) renderer.set_msaa(settings.msaa);
  if (c.scene_shading) renderer.set_deferred_planes(deferred_planes(settings.scene_shading));
  if (c.backend) {
    sat.reset();  // unregister before the new stage registers the same GL objects
    sat = std::make_unique<SatStage>(settings.backend, resources_ + "/glsat/shaders");
    sat->resize(renderer.width(), renderer.height(), frame_textures());
    comparison_.clear();
  }
  applied_ = settings;
}

void App::frame(int width, int height, float dt_s) {
  const auto t0 = std::chrono::steady_clock::now();
  apply_settings();
  if (width != renderer.width() || height != renderer.height()) {
    // New GL targets need new CUDA registrations: the stage drops its old ones first.
    sat->release();
    renderer.resize(width, height);
    sat->resize(width, height, frame_textures());
  }
  if (settings.animate) time_s_ += dt_s;
  pull_focus(dt_s);
  apply_camera();
  frame_all_timer_.begin();
  renderer.render_scene(camera, time_s_, &frame_timer_);
  DofPath path = choose_dof_path(
      settings, {sat->can_compute_dof(),
                 sat->gpu_dof_missing(settings.dof_method, settings.dof_shape)});
  const bool computed = sat->build(settings, SatTiming::Latest, path.route == DofRoute::ComputeCuda);
  if (path.route == DofRoute::ComputeCuda && !computed) {
    // DofGpu refused the method just now (remembered: next frames choose without it).
    path = choose_dof_path(settings, {sat->can_compute_dof(), true});
    path.message = sat->gpu_dof_message();
  }
  float cpu_ms = 0;
  if (path.route == DofRoute::CpuGold) {
    const auto c0 = std::chrono::steady_clock::now();
    if (!cpu_dof(&path.message)) path.route = path.gl_route;
    cpu_ms =
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - c0).count();
  }
  dof_message_ = path.message;
  if (path.route == DofRoute::ComputeGl) renderer.render_dof_compute(settings, sat->buffer());
  if (path.route == DofRoute::FragmentGl) renderer.render_dof(settings, sat->buffer());
  const bool cpu = path.route == DofRoute::CpuGold;
  show_debug_view();
  frame_timer_.end();
  frame_all_timer_.end();
  last_.sat = sat->times();
  last_.dof_pass = computed || path.route == DofRoute::ComputeGl ? DofPass::Compute
                                                                : DofPass::Fragment;
  last_.dof_cuda = computed;
  last_.dof_cpu = cpu;
  last_.scene_ms = renderer.scene_timer.ms();
  // The handoffs between GL and CUDA (the map waits for GL's scene, GL waits for the unmap) are
  // what the GPU span holds beyond the passes themselves: that residual is the interop cost. The
  // CUDA events around the map cannot show it, since the host enqueues the map before GL is done.
  const float passes = renderer.scene_timer.ms() + last_.sat.build_ms +
                       (computed ? last_.sat.dof_compute_ms
                        : cpu    ? 0.0f
                                 : renderer.dof_timer.ms());
  last_.interop_ms = sat->using_cuda() ? std::max(0.0f, frame_timer_.ms() - passes) : 0.0f;
  last_.sat_ms = last_.sat.build_ms;
  // The pass that ran: CUDA kernel, CPU gold method (host wall time) or a GL pass (GL timer).
  last_.dof_ms = computed ? last_.sat.dof_compute_ms : cpu ? cpu_ms : renderer.dof_timer.ms();
  last_.ui_ms = ui_timer.ms();
  last_.frame_gpu_ms = frame_timer_.ms();
  last_.frame_gpu_all_ms = frame_all_timer_.ms();
  last_.frame_cpu_ms =
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  history_.push_back(last_);
  if (history_.size() > kHistory) history_.pop_front();
}

void App::carry_out(const Requests& req) {
  // A run asked for on an earlier frame goes first, so the frame after the press shows
  // "running..." before the GPU part blocks the loop.
  primitives.advance(settings.primitives);
  if (req.run_primitives) primitives.request_run();
  hover_ = req.hover;
  hover_x_ = req.hover_x;
  hover_y_ = req.hover_y;
  if (req.compare_reference) {
    compare_with_reference();
    frame(renderer.width(), renderer.height(), 0.0f);  // the reference/error views show it now
  }
  if (req.focus_at_pixel) {
    const float d = renderer.distance_at(req.focus_x, req.focus_y);
    if (d > 0) settings.focus_distance = d;
  }
  if (req.compare_variants) compare_variants();
  if (req.measure_float_error) measure_float_error();
  if (req.screenshot) {
    char name[64];
    std::snprintf(name, sizeof name, "scandof-%03d.png", screenshot_no_++);
    screenshot(name);
  }
}

void App::apply_camera() {
  if (!settings.physical) {
    camera.fovy = Camera::kFovY;
    return;
  }
  // Scene unit = 1 m: the focus distance in mm for the thin-lens formula; the field of view of
  // this focal length on this sensor (its height from the frame's aspect).
  const PhysicalCamera& l = settings.lens;
  settings.aperture = static_cast<float>(
      scandof::dof::physical_aperture_px(l.focal_length_mm, l.f_number, l.sensor_width_mm,
                                         settings.focus_distance * 1000.0, renderer.width()));
  const double sensor_h = l.sensor_width_mm * renderer.height() / renderer.width();
  camera.fovy = static_cast<float>(2.0 * std::atan(0.5 * sensor_h / l.focal_length_mm));
}

void App::pull_focus(float dt_s) {
  float target = -1;
  switch (settings.autofocus) {
    case Autofocus::Off:
      return;
    case Autofocus::Cursor:
      if (hover_) target = renderer.distance_at(hover_x_, hover_y_);
      break;
    case Autofocus::Centre:
      target = renderer.distance_at(renderer.width() / 2, renderer.height() / 2);
      break;
    case Autofocus::Teapot:
      target = camera.view_depth(teapot_position(settings.autofocus_teapot));
      break;
  }
  settings.focus_distance = demo::pull_focus(settings.focus_distance, target, settings.focus_speed,
                                             dt_s);
}

bool App::cpu_dof(std::string* message) {
  const int w = renderer.width(), h = renderer.height();
  const std::vector<uint8_t> rgba = renderer.read_rgba(renderer.color_texture());
  const std::vector<float> z = renderer.read_viewz();
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  try {
    scandof::dof::render(settings.dof_method, rgba.data(), z.data(), w, h, dof_params(settings),
                         rgb.data());
  } catch (const std::invalid_argument& e) {
    *message = e.what();
    return false;
  }
  std::vector<uint8_t> out(static_cast<std::size_t>(w) * h * 4);
  scandof::metrics::rgb_to_rgba8(rgb.data(), w, h, out.data());
  renderer.upload_output(out.data());
  return true;
}

std::vector<uint8_t> App::error_map(const std::vector<float>& image) const {
  const int w = renderer.width(), h = renderer.height();
  std::vector<uint8_t> out(static_cast<std::size_t>(w) * h * 4);
  if (ref_rgb_.size() != image.size()) return out;
  scandof::metrics::error_heatmap(image.data(), ref_rgb_.data(), w, h, settings.error_scale,
                                  out.data());
  // The legend in the bottom-left corner (0 at the left, error_scale at the right; the UI and
  // results/dof name the scale), framed in white.
  const int lw = std::min(256, w - 16), lh = 10;
  if (lw < 16 || h < lh + 16) return out;
  std::vector<uint8_t> legend(static_cast<std::size_t>(lw) * lh * 4);
  scandof::metrics::heatmap_legend(lw, lh, legend.data());
  for (int y = -1; y <= lh; ++y)
    for (int x = -1; x <= lw; ++x) {
      uint8_t* d = &out[(static_cast<std::size_t>(8 + y) * w + 8 + x) * 4];
      if (y < 0 || y == lh || x < 0 || x == lw)
        d[0] = d[1] = d[2] = 255;
      else
        std::copy_n(&legend[(static_cast<std::size_t>(y) * lw + x) * 4], 4, d);
    }
  return out;
}

void App::show_debug_view() {
  if (settings.view != View::Reference && settings.view != View::Error) return;
  const int w = renderer.width(), h = renderer.height();
  if (ref_rgb_.size() != static_cast<std::size_t>(w) * h * 3) return;  // nothing to show yet
  if (settings.view == View::Reference) {
    renderer.upload_output(ref_rgba8_.data());
    return;
  }
  const std::vector<uint8_t> px = renderer.read_rgba(renderer.output_texture());
  std::vector<float> img(static_cast<std::size_t>(w) * h * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), w, h, img.data());
  renderer.upload_output(error_map(img).data());
}

float App::lens_radius() const {
  const double f_px =
      scandof::dof::focal_length_px_from_fovy(camera.fovy, std::max(renderer.height(), 1));
  return static_cast<float>(
      scandof::dof::lens_radius(settings.aperture, settings.focus_distance, f_px));
}

std::vector<float> App::reference_key() const {
  const glm::vec3 e = camera.eye();
  return {static_cast<float>(renderer.width()),
          static_cast<float>(renderer.height()),
          e.x,
          e.y,
          e.z,
          camera.target.x,
          camera.target.y,
          camera.target.z,
          camera.fovy,
          time_s_,
          settings.aperture,
          settings.focus_distance,
          settings.max_radius,
          settings.reference_clamp ? 1.0f : 0.0f,
          static_cast<float>(settings.reference_samples),
          static_cast<float>(settings.tessellation),
          static_cast<float>(settings.msaa),
          settings.anisotropy};
}

bool App::reference_current() const {
  return !ref_rgb_.empty() && ref_key_ == reference_key();
}

void App::ensure_reference() {
  if (reference_current()) return;
  glFinish();  // the frame's own work is not the reference's
  const auto t0 = std::chrono::steady_clock::now();
  ref_rgb_ = renderer.render_reference(camera, time_s_, settings.aperture, settings.focus_distance,
                                       settings.max_radius, settings.reference_clamp,
                                       settings.reference_samples);
  ref_ms_ = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ref_key_ = reference_key();
  ref_rgba8_.resize(ref_rgb_.size() / 3 * 4);
  scandof::metrics::rgb_to_rgba8(ref_rgb_.data(), renderer.width(), renderer.height(),
                                 ref_rgba8_.data());
  std::fprintf(stderr,
               "[scandof] lens reference: %d samples, lens radius %.4g, %dx%d in %.1f ms "
               "(GL render %.1f ms + read back)\n",
               settings.reference_samples, lens_radius(), renderer.width(), renderer.height(),
               ref_ms_, renderer.reference_render_ms());
}

std::vector<float> App::method_image() {
  const View keep = settings.view;
  settings.view = View::DepthOfField;
  frame(renderer.width(), renderer.height(), 0.0f);
  settings.view = keep;
  const std::vector<uint8_t> px = renderer.read_rgba(renderer.output_texture());
  std::vector<float> img(static_cast<std::size_t>(renderer.width()) * renderer.height() * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), renderer.width(), renderer.height(), img.data());
  return img;
}

const QualityResult& App::compare_with_reference() {
  const int w = renderer.width(), h = renderer.height();
  const std::vector<float> img = method_image();
  QualityResult r;
  r.method = std::string(scandof::dof::to_string(settings.dof_method)) + "/" +
             scandof::dof::to_string(settings.dof_shape);
  r.dof_path = last_.dof_pass_name();
  ensure_reference();
  const std::vector<float> z = renderer.read_viewz();
  const scandof::dof::Params p = dof_params(settings);
  for (float zi : z) r.edge_radius = std::max(r.edge_radius, scandof::dof::coc_radius(zi, p));
  std::vector<uint8_t> mask(z.size());
  scandof::metrics::edge_band_mask(z.data(), w, h, r.edge_radius, mask.data());
  r.q = scandof::metrics::compare(img.data(), ref_rgb_.data(), w, h, mask.data());
  r.reference_samples = settings.reference_samples;
  r.reference_ms = ref_ms_;
  r.reference_render_ms = renderer.reference_render_ms();
  r.lens_radius = lens_radius();
  r.valid = true;
  quality_ = r;
  return quality_;
}

void App::write_reference_png(const std::string& path) {
  ensure_reference();
  write_png_bottom_up(path, renderer.width(), renderer.height(), ref_rgba8_.data());
  std::fprintf(stderr, "[scandof] reference written: %s\n", path.c_str());
}

void App::screenshot(const std::string& path) {
  const std::vector<uint8_t> px = renderer.read_rgba(renderer.output_texture());
  write_png_bottom_up(path, renderer.width(), renderer.height(), px.data());
  std::fprintf(stderr, "[scandof] screenshot written: %s (%dx%d)\n", path.c_str(), renderer.width(),
               renderer.height());
}

void App::compare_variants(int reps) {
  comparison_ = demo::compare_variants(*sat, settings, reps);
}

void App::measure_float_error() {
  float_error_ =
      float_box_error(*sat, settings, static_cast<int>(settings.max_radius) + 1, kFloatErrorBoxes);
}

bool App::verify(std::string* message) {
  bool ok = verify_sat(*sat, settings, renderer.read_rgba(renderer.color_texture()), message);
  // The DoF passes must agree: the GL compute shader and the CUDA kernel are the fragment shader's
  // DepthOfField view moved to compute. All weigh exact integer boxes in float and round to 8
  // bits, so they may differ by one step where a value falls on a rounding boundary, never more.
  Settings s = settings;
  s.view = View::DepthOfField;
  s.dof_method = scandof::dof::Method::Gather;  // the one method both passes draw
  s.dof_shape = scandof::dof::Shape::Box;
  renderer.render_dof(s, sat->buffer());
  const std::vector<uint8_t> frag = renderer.read_rgba(renderer.output_texture());
  auto check = [&](const char* name) {
    const std::vector<uint8_t> other = renderer.read_rgba(renderer.output_texture());
    int worst = 0;
    std::size_t off = 0;
    for (std::size_t i = 0; i < frag.size(); ++i) {
      const int d = std::abs(int(frag[i]) - int(other[i]));
      worst = std::max(worst, d);
      if (d > 1) ++off;
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "\nDoF passes %s: %s vs fragment max difference %d/255, %zu of %zu channel "
                  "values differ by more than 1",
                  worst <= 1 ? "agree" : "DISAGREE", name, worst, off, frag.size());
    *message += buf;
    ok = ok && worst <= 1;
  };
  renderer.render_dof_compute(s, sat->buffer());
  check("GL compute");
  if (sat->can_compute_dof()) {
    sat->build(s, SatTiming::Wait, /*dof=*/true);
    check("CUDA compute");
  }
  return verify_scene_shading(message) && ok;
}

bool App::verify_scene_shading(std::string* message) {
  if (renderer.msaa() > 1) {
    *message += "\nscene shading: MSAA frames shade forward only";
    return true;
  }
  // llvmpipe filters anisotropically with explicit gradients (textureGrad) unlike with implicit
  // ones (its 16x images differ in a third of the floor's values; at 1x they agree within 2/255):
  // there the check runs at 1x, which still tests the pass's geometry, derivatives and shading.
  const bool at_1x = gl::software_renderer() && renderer.anisotropy() > 1.0f;
  const float aniso = renderer.anisotropy();
  if (at_1x) renderer.set_anisotropy(1.0f);
  // The same frame both ways; then the frame as it was (the same mode renders the same image).
  auto render = [&](bool deferred) {
    renderer.set_deferred_planes(deferred);
    renderer.render_scene(camera, time_s_);
    return renderer.read_rgba(renderer.color_texture());
  };
  const std::vector<uint8_t> fwd = render(false), def = render(true);
  if (at_1x) renderer.set_anisotropy(aniso);
  render(deferred_planes(settings.scene_shading));
  int worst = 0;
  std::size_t off = 0;
  double sum = 0;
  for (std::size_t i = 0; i < fwd.size(); ++i) {
    const int d = std::abs(int(fwd[i]) - int(def[i]));
    worst = std::max(worst, d);
    sum += d;
    if (d > kSceneShadingTolerance) ++off;
  }
  const double frac = fwd.empty() ? 0.0 : static_cast<double>(off) / fwd.size();
  const bool ok = frac <= kSceneShadingOutliers;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "\nscene shading %s: deferred planes vs forward%s max difference %d/255, mean "
                "%.4f, %.4f %% of channel values differ by more than %d (at most %.2f %% allowed)",
                ok ? "agrees" : "DISAGREES",
                at_1x ? " (anisotropy 1x: software rasterizer)" : "", worst, fwd.empty() ? 0.0 : sum / fwd.size(),
                100.0 * frac, kSceneShadingTolerance, 100.0 * kSceneShadingOutliers);
  *message += buf;
  return ok;
}

void App::dump_sat(const std::string& path) {
  const std::vector<std::size_t> shape = {3, static_cast<std::size_t>(renderer.height()),
                                          static_cast<std::size_t>(renderer.width())};
  // Through the atomic writer: a failed write (full disk, /dev/full) throws naming the path.
  if (settings.format == scandof::SatFormat::U32) {
    const std::vector<uint32_t> t = sat->read_u32();
    scandof::util::write_file_atomic(path, [&](std::ostream& o) {
      scandof::npy::save(o, scandof::npy::DType::UInt32, shape, t.data(), path);
    });
  } else {
    const std::vector<float> t = sat->read_f32();
    scandof::util::write_file_atomic(path, [&](std::ostream& o) {
      scandof::npy::save(o, scandof::npy::DType::Float32, shape, t.data(), path);
    });
  }
  std::fprintf(stderr, "[scandof] SAT written: %s\n", path.c_str());
}

}  // namespace demo
