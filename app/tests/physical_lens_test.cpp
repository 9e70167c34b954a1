// The physical camera (core/physical_lens.hpp) against the thin lens worked out here from first
// principles, not from scandof::dof's formula: a point at distance z images at v = f z / (z - f)
// behind a lens of focal length f; the sensor sits where the focus distance images; the cone of
// light through the aperture (diameter f / N) that converges at v is cut by the sensor in a
// circle of diameter D |v - v_f| / v. Its radius in pixels must equal the shader's circle of
// confusion A |z - z_f| / z (scandof::dof::coc_radius) with the A the demo computes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/physical_lens.hpp"
#include "scandof/dof.hpp"

namespace demo {
namespace {

// Blur circle radius in pixels on a sensor of sensor_mm across width_px pixels; distances in
// metres as the scene's, lens in mm.
double thin_lens_coc_px(double f_mm, double n, double sensor_mm, int width_px, double focus_m,
                        double z_m) {
  const double f = f_mm / 1000.0;  // metres, as the scene
  const double v = f * z_m / (z_m - f);
  const double v_focus = f * focus_m / (focus_m - f);
  const double diameter = f / n;
  const double blur_m = diameter * std::fabs(v - v_focus) / v;  // on the sensor
  return 0.5 * blur_m * 1000.0 * width_px / sensor_mm;
}

TEST(PhysicalLens, CircleOfConfusionIsTheThinLenss) {
  const float inf = std::numeric_limits<float>::infinity();
  int n = 0;
  for (float f : {24.0f, 50.0f, 85.0f, 200.0f})
    for (float fn : {1.4f, 2.0f, 8.0f, 22.0f})
      for (float sensor : {36.0f, 23.6f})
        for (int w : {640, 1920})
          for (float focus : {0.5f, 3.0f, 20.0f}) {
            const PhysicalCamera cam{f, fn, sensor};
            const PhysicalLens lens = physical_lens(cam, focus, w, w * 9 / 16);
            ASSERT_GT(lens.aperture_px, 0.0f);
            for (double z : {0.3, 0.9, 3.0, 10.0, 100.0, 1e5}) {
              const double want = thin_lens_coc_px(f, fn, sensor, w, focus, z);
              const double got = scandof::dof::coc_radius(static_cast<float>(z), lens.aperture_px,
                                                          focus, inf);
              EXPECT_NEAR(got, want, 1e-5 * want + 1e-6)
                  << f << " mm f/" << fn << " sensor " << sensor << " mm, " << w
                  << " px, focus " << focus << " m, z " << z << " m";
              ++n;
            }
          }
  EXPECT_EQ(n, 4 * 4 * 2 * 2 * 3 * 6);
}

// The worked example of scandof/dof.hpp: 50 mm f/2 on 36 mm, focus 3 m, 1920 px: 11.3 px.
TEST(PhysicalLens, NamedCase) {
  const PhysicalLens l = physical_lens(PhysicalCamera{}, 3.0f, 1920, 1080);
  EXPECT_NEAR(l.aperture_px, 2500.0 / (4.0 * 2950.0) * 1920.0 / 36.0, 1e-4);
  EXPECT_NEAR(l.aperture_px, 11.3, 0.05);
  // Stopping down halves the blur per stop of two; the radius at infinity scales as 1 / N.
  const PhysicalLens l4 = physical_lens(PhysicalCamera{50, 4, 36}, 3.0f, 1920, 1080);
  EXPECT_NEAR(l4.aperture_px, l.aperture_px / 2, 1e-5);
}

// The field of view is the sensor's height (width x the frame's aspect) seen from f, so the focal
// length in pixels it implies is the lens's own: f * width / sensor_width.
TEST(PhysicalLens, FieldOfViewMatchesTheSensor) {
  for (float f : {18.0f, 50.0f, 135.0f})
    for (int w : {640, 1920})
      for (int h : {480, 1080, 1920}) {
        const PhysicalCamera cam{f, 2.8f, 36.0f};
        const PhysicalLens l = physical_lens(cam, 5.0f, w, h);
        const double sensor_h = 36.0 * h / w;
        EXPECT_NEAR(std::tan(0.5 * l.fovy), 0.5 * sensor_h / f, 1e-6) << f << " " << w << "x" << h;
        EXPECT_NEAR(scandof::dof::focal_length_px_from_fovy(l.fovy, h), f * w / 36.0,
                    1e-4 * f * w / 36.0);
      }
  // 50 mm on full frame at 3:2: the classic 27 degrees vertical.
  EXPECT_NEAR(physical_lens(PhysicalCamera{}, 5.0f, 1500, 1000).fovy * 180.0 / M_PI, 26.99, 0.01);
}

TEST(PhysicalLens, FocusedInsideTheFocalLengthGivesNoBlur) {
  // 250 mm = 0.25 m (exact in float): a focus at or nearer than that forms no image (A = 0,
  // not negative or inf).
  for (float focus : {0.25f, 0.2f, 0.01f})
    EXPECT_EQ(physical_lens(PhysicalCamera{250, 2, 36}, focus, 1920, 1080).aperture_px, 0.0f)
        << focus;
  // Just beyond it the blur grows without bound (the CoC is clamped at max_radius downstream).
  EXPECT_GT(physical_lens(PhysicalCamera{250, 2, 36}, 0.2501f, 1920, 1080).aperture_px, 1e5f);
}

TEST(PhysicalLens, InFocusPlaneIsSharp) {
  const PhysicalLens l = physical_lens(PhysicalCamera{85, 1.4f, 36}, 2.5f, 1920, 1080);
  EXPECT_EQ(scandof::dof::coc_radius(2.5f, l.aperture_px, 2.5f, 1e9f), 0.0f);
}

}  // namespace
}  // namespace demo
