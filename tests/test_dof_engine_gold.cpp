// The engine-style near/far gather and the SAT hybrid (scandof/dof_engine.hpp), CPU gold: what
// each must do on scenes whose answer is known, and the ring pattern's sample counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dof_test_util.hpp"
#include "scandof/dof.hpp"
#include "scandof/dof_engine.hpp"
#include "scandof/hdr.hpp"

namespace {

using scandof::dof::Method;
using scandof::dof::Params;
using scandof::dof::Shape;
namespace fields = scandof::dof::fields;
using dof_test::hashed_rgba;
using dof_test::lens;

std::vector<float> poisoned(int w, int h) {
  return std::vector<float>(static_cast<std::size_t>(w) * h * 3,
                            std::numeric_limits<float>::quiet_NaN());
}

TEST(DofEngineGold, RingPatternHasItsSampleCounts) {
  for (int n = 1; n <= scandof::dof::kMaxRings; ++n) {
    const fields::RingTable t = fields::RingTable::make(n);
    EXPECT_EQ(t.n, fields::samples(n));
    EXPECT_EQ(t.n, 1 + 4 * n * (n + 1));  // 9, 25, 49, ... : ring k has 8 k samples
    double sx = 0, sy = 0, rmax = 0;
    for (int i = 0; i < t.n; ++i) {
      sx += t.ux[i];
      sy += t.uy[i];
      rmax = std::max(rmax, std::hypot(double(t.ux[i]), double(t.uy[i])));
    }
    EXPECT_NEAR(sx, 0.0, 1e-5) << n;  // symmetric rings: no drift of the kernel
    EXPECT_NEAR(sy, 0.0, 1e-5) << n;
    EXPECT_NEAR(rmax, 1.0, 1e-6) << n;
  }
}

// Aperture 0: every radius is 0, no near field: the sharp frame exactly.
TEST(DofEngineGold, ApertureZeroIsTheSharpFrame) {
  for (Method m : {Method::Engine, Method::Hybrid}) {
    const int w = 37, h = 23;
    const std::vector<uint8_t> rgba = hashed_rgba(w, h, 3);
    std::vector<float> depth(static_cast<std::size_t>(w) * h);
    dof_test::block_depth(w, h, 4, depth.data());
    Params p;
    p.aperture_px = 0.0f;
    p.focus = 8.0f;
    std::vector<float> out = poisoned(w, h);
    scandof::dof::render(m, rgba.data(), depth.data(), w, h, p, out.data());
    for (std::size_t i = 0; i < depth.size(); ++i)
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(out[3 * i + c], rgba[4 * i + c] / 255.0f, 1e-6) << scandof::dof::to_string(m);
  }
}

// One colour everywhere: every field is that colour, whatever the depths.
TEST(DofEngineGold, UniformColourStaysUniform) {
  const int w = 61, h = 45;
  std::vector<uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
  for (std::size_t i = 0; i < rgba.size(); i += 4) {
    rgba[i] = 200;
    rgba[i + 1] = 40;
    rgba[i + 2] = 90;
  }
  std::vector<float> depth(static_cast<std::size_t>(w) * h);
  dof_test::block_depth(w, h, 9, depth.data());
  for (Method m : {Method::Engine, Method::Hybrid})
    for (int rings : {1, 4, 8}) {
      Params p = lens(14.0f, 8.0f, 13.0f);
      p.shape = Shape::Disc;
      p.rings = rings;
      std::vector<float> out = poisoned(w, h);
      scandof::dof::render(m, rgba.data(), depth.data(), w, h, p, out.data());
      for (std::size_t i = 0; i < depth.size(); ++i) {
        ASSERT_NEAR(out[3 * i], 200 / 255.0f, 1e-5) << i;
        ASSERT_NEAR(out[3 * i + 1], 40 / 255.0f, 1e-5) << i;
        ASSERT_NEAR(out[3 * i + 2], 90 / 255.0f, 1e-5) << i;
      }
    }
}

// A blurred white square in front of a black wall in focus: outside the square's silhouette, within
// its blur radius, the lens shows some of the square (partial occlusion). The SAT gather cannot (the
// wall's own radius is 0); the engine's near field and the hybrid must, fading with distance, and
// far outside nothing changes.
TEST(DofEngineGold, NearFieldSpreadsPastTheSilhouette) {
  const int w = 121, h = 97;
  std::vector<uint8_t> rgba(static_cast<std::size_t>(w) * h * 4, 0);
  std::vector<float> depth(static_cast<std::size_t>(w) * h, 10.0f);  // the wall, in focus
  for (int y = 30; y < 67; ++y)
    for (int x = 40; x < 81; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      depth[i] = 2.0f;  // r = 12 * 8 / 2 = 48, clamped to 12
      for (int c = 0; c < 3; ++c) rgba[4 * i + c] = 255;
    }
  Params p = lens(12.0f, 10.0f, 12.0f);
  p.shape = Shape::Disc;
  p.rings = 4;
  auto at = [&](const std::vector<float>& img, int x, int y) {
    return img[3 * (static_cast<std::size_t>(y) * w + x)];
  };
  std::vector<float> g(static_cast<std::size_t>(w) * h * 3);
  scandof::dof::render(Method::Gather, rgba.data(), depth.data(), w, h, p, g.data());
  EXPECT_EQ(at(g, 36, 48), 0.0f);  // 4 px left of the square: the wall's own pixel
  for (Method m : {Method::Engine, Method::Hybrid}) {
    std::vector<float> out = poisoned(w, h);
    scandof::dof::render(m, rgba.data(), depth.data(), w, h, p, out.data());
    const float near4 = at(out, 36, 48), near9 = at(out, 31, 48), far = at(out, 10, 48);
    EXPECT_GT(near4, 0.15f) << scandof::dof::to_string(m);
    EXPECT_LT(near4, 0.75f) << scandof::dof::to_string(m);
    EXPECT_LT(near9, near4) << scandof::dof::to_string(m);
    EXPECT_EQ(far, 0.0f) << scandof::dof::to_string(m);
    EXPECT_GT(at(out, 60, 48), 0.95f) << scandof::dof::to_string(m);  // the square's middle
  }
}

// The HDR form on radiance k / 255 is the LDR form within the fixed point's half step.
TEST(DofEngineGold, HdrFormMatchesLdrOnByteValues) {
  const int w = 47, h = 31;
  const std::vector<uint8_t> rgba = hashed_rgba(w, h, 21);
  std::vector<float> rad(rgba.size()), depth(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < rgba.size(); ++i) rad[i] = rgba[i] / 255.0f;
  dof_test::block_depth(w, h, 22, depth.data());
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(9.5f, 4.0f);
  for (Method m : {Method::Engine, Method::Hybrid}) {
    Params p = lens(11.0f, 8.0f, 9.5f);
    p.shape = Shape::Octagon;
    std::vector<float> a = poisoned(w, h), b = poisoned(w, h);
    scandof::dof::render(m, rgba.data(), depth.data(), w, h, p, a.data());
    scandof::dof::render(m, rad.data(), depth.data(), w, h, p, fp, b.data());
    for (std::size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], b[i], 2e-4) << scandof::dof::to_string(m) << " " << i;
  }
}

// A shape built at radius q covers its continuous shape grown by half a pixel on every side (the
// Minkowski sum with one pixel): the box (2q + 1)^2, the disc about pi q^2 + 4 q + 1. So
// radius_offset = 0.5 gives the box exactly the lens's area (2r)^2 and takes the disc from
// pi r^2 + 4 r + 1 (the paper's convention) to pi r^2 + (4 - pi) r - 0.21; r <= 1/2 is the pixel.
TEST(DofEngineGold, RadiusOffsetGivesTheLensArea) {
  Params p;
  p.radius_offset = 0.5f;
  scandof::dof::ShapeBox b[scandof::dof::kMaxShapeBoxes];
  for (float r : {2.3f, 5.0f, 7.75f, 16.4f}) {
    const float rs = scandof::dof::shape_radius(r, p);
    int n = scandof::dof::shape_boxes(rs, Shape::Box, 4, b);
    EXPECT_NEAR(scandof::dof::shape_area(b, n), 4.0 * r * r, 1e-3 * r * r) << r;
    const double pi = 3.14159265358979;
    auto grown = [&](double q) { return pi * q * q + 4.0 * q + 1.0; };
    n = scandof::dof::shape_boxes(rs, Shape::Disc, 8, b);
    EXPECT_NEAR(scandof::dof::shape_area(b, n) / grown(rs), 1.0, 0.02) << r;
    EXPECT_LT(scandof::dof::shape_area(b, n), grown(r - 0.25)) << r;
    n = scandof::dof::shape_boxes(r, Shape::Disc, 8, b);  // the paper's convention
    EXPECT_NEAR(scandof::dof::shape_area(b, n) / grown(r), 1.0, 0.02) << r;
  }
  EXPECT_EQ(scandof::dof::shape_radius(0.4f, p), 0.0f);
  Params bad;
  bad.radius_offset = 1.5f;
  EXPECT_THROW(scandof::dof::validate(bad, Method::Gather), std::invalid_argument);
}

TEST(DofEngineGold, OddSizesAndBadArguments) {
  for (auto sz : {std::pair<int, int>{1, 1}, {1, 9}, {9, 1}, {3, 2}}) {
    const int w = sz.first, h = sz.second;
    const std::vector<uint8_t> rgba = hashed_rgba(w, h, 5);
    std::vector<float> depth(static_cast<std::size_t>(w) * h, 2.0f);
    Params p;
    p.focus = 8.0f;
    for (Method m : {Method::Engine, Method::Hybrid}) {
      std::vector<float> out = poisoned(w, h);
      scandof::dof::render(m, rgba.data(), depth.data(), w, h, p, out.data());
      for (float v : out) ASSERT_TRUE(v >= 0.0f && v <= 1.0f) << w << "x" << h;
    }
  }
  Params bad;
  bad.rings = 0;
  std::vector<uint8_t> px(4, 1);
  std::vector<float> z(1, 1.0f), out(3);
  EXPECT_THROW(scandof::dof::render(Method::Engine, px.data(), z.data(), 1, 1, bad, out.data()),
               std::invalid_argument);
  bad.rings = scandof::dof::kMaxRings + 1;
  EXPECT_THROW(scandof::dof::render(Method::Hybrid, px.data(), z.data(), 1, 1, bad, out.data()),
               std::invalid_argument);
  Method m;
  EXPECT_TRUE(scandof::dof::parse_method("engine", &m));
  EXPECT_EQ(m, Method::Engine);
  EXPECT_TRUE(scandof::dof::parse_method("hybrid", &m));
  EXPECT_EQ(m, Method::Hybrid);
}

}  // namespace
