#include "app.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "image_io.hpp"

namespace demo {

const char* to_string(View v) {
  switch (v) {
    case View::DepthOfField:
      return "dof";
    case View::Sharp:
      return "sharp";
    case View::CircleOfConfusion:
      return "coc";
    case View::Sat:
      return "sat";
    case View::Split:
      return "split";
  }
  return "?";
}

bool Settings::operator==(const Settings& o) const {
  return focus_distance == o.focus_distance && aperture == o.aperture &&
         max_radius == o.max_radius && variant == o.variant && method == o.method &&
         format == o.format && force_cpu == o.force_cpu && view == o.view && split == o.split &&
         tessellation == o.tessellation && animate == o.animate && vsync == o.vsync &&
         show_ui == o.show_ui;
}

App::App(const std::string& resources, const Settings& initial, int width, int height)
    : settings(initial), renderer(resources, initial.tessellation), applied_(initial) {
  renderer.set_sat_format(settings.format);
  sat = std::make_unique<SatStage>(settings.force_cpu);
  renderer.resize(width, height);
  sat->resize(width, height, renderer.color_texture());
}

void App::apply_settings() {
  if (settings == applied_) return;
  if (settings.format != applied_.format) {
    renderer.set_sat_format(settings.format);
    float_error = -1;
  }
  if (settings.tessellation != applied_.tessellation)
    renderer.set_tessellation(settings.tessellation);
  if (settings.force_cpu != applied_.force_cpu) {
    sat.reset();  // unregister before the new stage registers the same GL objects
    sat = std::make_unique<SatStage>(settings.force_cpu);
    sat->resize(renderer.width(), renderer.height(), renderer.color_texture());
    comparison.clear();
  }
  applied_ = settings;
}

void App::frame(int width, int height, float dt_s) {
  auto t0 = std::chrono::steady_clock::now();
  apply_settings();
  if (width != renderer.width() || height != renderer.height()) {
    // New GL targets need new CUDA registrations: the stage drops its old ones first.
    sat->release();
    renderer.resize(width, height);
    sat->resize(width, height, renderer.color_texture());
    comparison.clear();
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

void App::screenshot(const std::string& path) {
  std::vector<uint8_t> px = renderer.read_rgba(renderer.output_texture());
  write_png_bottom_up(path, renderer.width(), renderer.height(), px.data());
  std::fprintf(stderr, "[scandof] screenshot written: %s (%dx%d)\n", path.c_str(), renderer.width(),
               renderer.height());
}

void App::focus_at_pixel(int x, int y) {
  float d = renderer.distance_at(x, y);
  if (d > 0) settings.focus_distance = d;
}

void App::compare(int reps) {
  comparison = sat->compare_all(settings, reps);
}

void App::measure_float_error() {
  float_error = sat->float_box_error(settings, static_cast<int>(settings.max_radius) + 1, 200000);
}

bool App::verify(std::string* message) {
  Settings s = settings;
  s.format = scandof::SatFormat::U32;
  sat->build(s);
  std::vector<uint32_t> got = sat->read_u32();
  std::vector<uint8_t> px = renderer.read_rgba(renderer.color_texture());
  const int w = renderer.width(), h = renderer.height();
  std::vector<uint32_t> want(got.size());
  sat_cpu(px.data(), w, h, want.data());
  sat->build(settings);
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  char buf[512];
  if (bad == 0) {
    std::snprintf(
        buf, sizeof buf,
        "SAT verify OK: %dx%d x 3 channels, %zu uint32 elements equal the CPU SAT exactly "
        "(%s, variant %s, method %s)",
        w, h, got.size(), sat->backend().c_str(), variant_name(settings.variant),
        method_name(settings.method));
  } else {
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    std::snprintf(
        buf, sizeof buf,
        "SAT verify FAILED: %zu of %zu elements differ; first at channel %zu x %zu y %zu: "
        "got %u, want %u (%s, variant %s)",
        bad, got.size(), first / plane, first % plane % w, first % plane / w, got[first],
        want[first], sat->backend().c_str(), variant_name(settings.variant));
  }
  *message = buf;
  return bad == 0;
}

void App::dump_sat(const std::string& path) {
  const std::vector<std::size_t> shape = {3, static_cast<std::size_t>(renderer.height()),
                                          static_cast<std::size_t>(renderer.width())};
  if (settings.format == scandof::SatFormat::U32) {
    std::vector<uint32_t> t = sat->read_u32();
    write_npy(path, shape, t.data());
  } else {
    std::vector<float> t = sat->read_f32();
    write_npy(path, shape, t.data());
  }
  std::fprintf(stderr, "[scandof] SAT written: %s\n", path.c_str());
}

}  // namespace demo
