#include "app.hpp"

#include <chrono>
#include <cstdio>

#include "image_io.hpp"
#include "scandof/npy.hpp"
#include "scandof/util/file_io.hpp"

namespace demo {

App::App(const std::string& resources, const Settings& initial, int width, int height)
    : settings(initial), renderer(resources, initial.tessellation), applied_(initial) {
  renderer.set_sat_format(settings.format);
  sat = std::make_unique<SatStage>(settings.force_cpu);
  renderer.resize(width, height);
  sat->resize(width, height, renderer.color_texture());
  primitives.probe();
}

void App::apply_settings() {
  if (settings == applied_) return;
  if (settings.format != applied_.format) {
    renderer.set_sat_format(settings.format);
    float_error_ = -1;
  }
  if (settings.tessellation != applied_.tessellation)
    renderer.set_tessellation(settings.tessellation);
  if (settings.force_cpu != applied_.force_cpu) {
    sat.reset();  // unregister before the new stage registers the same GL objects
    sat = std::make_unique<SatStage>(settings.force_cpu);
    sat->resize(renderer.width(), renderer.height(), renderer.color_texture());
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
    sat->resize(width, height, renderer.color_texture());
  }
  if (settings.animate) time_s_ += dt_s;
  renderer.render_scene(camera, time_s_);
  sat->build(settings);
  renderer.render_dof(settings, sat->buffer());
  last_.scene_ms = renderer.scene_timer.ms();
  last_.dof_ms = renderer.dof_timer.ms();
  last_.sat = sat->times();
  last_.frame_ms =
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
  return verify_sat(*sat, settings, renderer.read_rgba(renderer.color_texture()), message);
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
