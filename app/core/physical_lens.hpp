// What the physical camera (Settings::physical) makes of a photographer's lens each frame: the blur
// radius at infinity in pixels and the vertical field of view. A pure function, so that
// app/tests/physical_lens_test.cpp can hold it against the thin-lens formula without a GL context;
// App::apply_camera writes both into the settings and the camera.
#pragma once

#include <cmath>

#include "core/settings.hpp"
#include "scandof/dof.hpp"

namespace demo {

struct PhysicalLens {
  float aperture_px = 0;  // A of the shader's CoC A |z - z_f| / z (0: focused closer than f)
  float fovy = 0;         // radians
};

// Scene unit = 1 m: the focus distance is turned into mm for the thin-lens formula
// (scandof::dof::physical_aperture_px). The sensor's height follows the frame's aspect, so the
// focal length in pixels implied by fovy is the lens's own, f * width / sensor_width.
inline PhysicalLens physical_lens(const PhysicalCamera& l, float focus_distance, int width,
                                  int height) {
  PhysicalLens r;
  r.aperture_px = static_cast<float>(scandof::dof::physical_aperture_px(
      l.focal_length_mm, l.f_number, l.sensor_width_mm, focus_distance * 1000.0, width));
  const double sensor_h = l.sensor_width_mm * height / width;
  r.fovy = static_cast<float>(2.0 * std::atan(0.5 * sensor_h / l.focal_length_mm));
  return r;
}

}  // namespace demo
