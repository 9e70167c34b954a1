#include "app.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>

#include "image_io.hpp"
#include "scandof/npy.hpp"
#include "scandof/util/file_io.hpp"

namespace demo {

App::App(const std::string& resources, const Settings& initial, int width, int height)
    : settings(initial),
      renderer(resources, initial.tessellation),
      resources_(resources),
      applied_(initial) {
  renderer.set_sat_format(settings.format);
  sat = std::make_unique<SatStage>(settings.backend, resources_ + "/shaders");
  renderer.resize(width, height);
  sat->resize(width, height, frame_textures());
  primitives.probe();
}

FrameTextures App::frame_textures() const {
  return {renderer.color_texture(), renderer.viewz_texture(), renderer.output_texture()};
}

void App::apply_settings() {
  if (settings == applied_) return;
  if (settings.format != applied_.format) {
    renderer.set_sat_format(settings.format);
    float_error_ = -1;
  }
  if (settings.tessellation != applied_.tessellation)
    renderer.set_tessellation(settings.tessellation);
  if (settings.backend != applied_.backend) {
    sat.reset();  // unregister before the new stage registers the same GL objects
    sat = std::make_unique<SatStage>(settings.backend, resources_ + "/shaders");
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
  renderer.render_scene(camera, time_s_, &frame_timer_);
  // The compute pass only makes the blurred image; the debug views stay in the fragment shader.
  // Compute means the CUDA kernel inside the SAT stage's map on the CUDA backend, the GL compute
  // shader after the build elsewhere (GL backend, CPU fallback).
  const bool compute = settings.dof_pass == DofPass::Compute && settings.view == View::DepthOfField;
  const bool computed = sat->build(settings, SatTiming::Latest, compute && sat->can_compute_dof());
  if (!computed) {
    if (compute)
      renderer.render_dof_compute(settings, sat->buffer());
    else
      renderer.render_dof(settings, sat->buffer());
  }
  frame_timer_.end();
  last_.sat = sat->times();
  last_.dof_pass = compute ? DofPass::Compute : DofPass::Fragment;
  last_.dof_cuda = computed;
  last_.scene_ms = renderer.scene_timer.ms();
  // The handoffs between GL and CUDA (the map waits for GL's scene, GL waits for the unmap) are
  // what the GPU span holds beyond the passes themselves: that residual is the interop cost. The
  // CUDA events around the map cannot show it, since the host enqueues the map before GL is done.
  const float passes = renderer.scene_timer.ms() + last_.sat.build_ms +
                       (computed ? last_.sat.dof_compute_ms : renderer.dof_timer.ms());
  last_.interop_ms = sat->using_cuda() ? std::max(0.0f, frame_timer_.ms() - passes) : 0.0f;
  last_.sat_ms = last_.sat.build_ms;
  last_.dof_ms = computed ? last_.sat.dof_compute_ms : renderer.dof_timer.ms();  // CUDA or GL
  last_.ui_ms = ui_timer.ms();
  last_.frame_gpu_ms = frame_timer_.ms();
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
