// CPU tests of the depth-of-field gold code (scandof/dof.hpp): camera conversions, shape
// decomposition against independent per-offset weights, interleaved SATs against brute force,
// gather against a brute-force weighted average, SAT spreading == direct spreading bit for bit,
// layered compositing on a two-depth scene, and the lens reference against the CoC model.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <utility>
#include <vector>

#include "dof_test_util.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"

namespace dof = scandof::dof;
namespace metrics = scandof::metrics;

namespace {

using dof_test::np;
using dof_test::random_depth;
using dof_test::random_rgba;
using dof_test::shape_weight;

const std::pair<int, int> kSizes[] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {7, 5}};
const dof::Shape kShapes[] = {dof::Shape::Box, dof::Shape::Octagon, dof::Shape::Disc};

dof::Params params(dof::Shape s, float rmax = 6.5f) {
  return dof_test::gold_lens(s, rmax);
}

}  // namespace

TEST(DofCamera, CocAndPhysicalConversions) {
  EXPECT_FLOAT_EQ(dof::coc_radius(10.0f, 12.0f, 5.0f, 100.0f), 6.0f);
  EXPECT_FLOAT_EQ(dof::coc_radius(2.5f, 12.0f, 5.0f, 100.0f), 12.0f);
  EXPECT_FLOAT_EQ(dof::coc_radius(2.5f, 12.0f, 5.0f, 7.0f), 7.0f);
  EXPECT_FLOAT_EQ(dof::coc_radius(5.0f, 12.0f, 5.0f, 7.0f), 0.0f);
  // 50 mm f/2 on a 36 mm sensor, focused at 3 m, 1920 px wide.
  const double A = dof::physical_aperture_px(50, 2, 36, 3000, 1920);
  EXPECT_NEAR(A, 2500.0 / (4.0 * 2950.0) * 1920.0 / 36.0, 1e-9);
  EXPECT_NEAR(A, 11.299, 1e-3);
  EXPECT_EQ(dof::physical_aperture_px(50, 2, 36, 40, 1920), 0.0);
  // The blur of a point at z from the thin-lens formula directly (radius = half the diameter
  // D |v - v_f| / v on the sensor) equals coc_radius with that A.
  const double f = 50, N = 2, zf = 3000, D = f / N, vf = f * zf / (zf - f);
  for (double z : {700.0, 2000.0, 5000.0, 1e6}) {
    const double v = f * z / (z - f);
    const double sensor_r = 0.5 * D * std::fabs(v - vf) / v * 1920.0 / 36.0;
    EXPECT_NEAR(sensor_r, dof::coc_radius(float(z), float(A), float(zf), 1e9f), 1e-4 * sensor_r);
  }
  // The lens radius gives each depth its CoC as an image shift.
  const double fpx = dof::focal_length_px(f, 36, 1920);
  EXPECT_NEAR(fpx, 50.0 * 1920.0 / 36.0, 1e-9);
  EXPECT_NEAR(dof::focal_length_px_from_fovy(2 * std::atan(0.5), 1000), 1000.0, 1e-9);
  const double L = dof::lens_radius(A, zf, fpx);
  for (double z : {700.0, 2000.0, 5000.0}) {
    const double shift = fpx * L * std::fabs(1 / zf - 1 / z);
    EXPECT_NEAR(shift, dof::coc_radius(float(z), float(A), float(zf), 1e9f), 1e-4 * shift);
  }
  // Fibonacci lens points lie in the unit disc and average to about the centre.
  double sx = 0, sy = 0;
  for (int i = 0; i < 256; ++i) {
    float x, y;
    dof::lens_sample(i, 256, &x, &y);
    EXPECT_LE(x * x + y * y, 1.0f + 1e-6f);
    sx += x;
    sy += y;
  }
  EXPECT_LT(std::fabs(sx / 256), 0.01);
  EXPECT_LT(std::fabs(sy / 256), 0.01);
}

TEST(DofCamera, NamesAndValidation) {
  dof::Method m;
  dof::Shape s;
  EXPECT_TRUE(dof::parse_method("layered", &m));
  EXPECT_EQ(m, dof::Method::Layered);
  EXPECT_FALSE(dof::parse_method("scatter", &m));
  EXPECT_TRUE(dof::parse_shape("octagon", &s));
  EXPECT_EQ(s, dof::Shape::Octagon);
  EXPECT_STREQ(dof::to_string(dof::Shape::Disc), "disc");
  EXPECT_STREQ(dof::to_string(dof::Method::Spread), "spread");
  dof::Params p;
  EXPECT_NO_THROW(dof::validate(p, dof::Method::Layered));
  p.layers = 1;
  EXPECT_THROW(dof::validate(p, dof::Method::Layered), std::invalid_argument);
  EXPECT_NO_THROW(dof::validate(p, dof::Method::Spread));
  p.max_radius = 300;
  EXPECT_THROW(dof::validate(p, dof::Method::Spread), std::invalid_argument);
  EXPECT_NO_THROW(dof::validate(p, dof::Method::Gather));
  p = dof::Params{};
  p.disc_boxes = 9;
  EXPECT_THROW(dof::validate(p, dof::Method::Gather), std::invalid_argument);
}

TEST(DofShapes, BoxIsTheShadersFourBoxes) {
  dof::ShapeBox b[dof::kMaxShapeBoxes];
  int n = dof::shape_boxes(0.0f, dof::Shape::Box, 4, b);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(b[0].rx, 0);
  EXPECT_EQ(b[0].coef, 1.0f);
  n = dof::shape_boxes(3.0f, dof::Shape::Box, 4, b);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(b[0].rx, 3);
  EXPECT_EQ(b[0].ry, 3);
  n = dof::shape_boxes(2.25f, dof::Shape::Box, 4, b);
  ASSERT_EQ(n, 4);
  const float t = 0.25f;
  EXPECT_FLOAT_EQ(b[0].coef, (1 - t) * (1 - t));
  EXPECT_EQ(b[1].rx, 3);
  EXPECT_EQ(b[1].ry, 2);
  EXPECT_FLOAT_EQ(b[1].coef, t * (1 - t));
  EXPECT_FLOAT_EQ(b[2].coef, t * (1 - t));
  EXPECT_FLOAT_EQ(b[3].coef, t * t);
  EXPECT_FLOAT_EQ(dof::shape_area(b, n), 5.5f * 5.5f);
  // Every shape is the centre pixel alone at r = 0.
  for (auto s : kShapes) {
    n = dof::shape_boxes(0.0f, s, 5, b);
    ASSERT_EQ(n, 1);
    EXPECT_EQ(b[0].rx + b[0].ry, 0);
    EXPECT_FLOAT_EQ(b[0].coef, 1.0f);
  }
}

TEST(DofShapes, WeightsMatchTheDefinitionAndApproximateTheDisc) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> rr(0.0f, 40.0f);
  for (auto s : kShapes)
    for (int k = 1; k <= dof::kMaxDiscBoxes; ++k) {
      if (s != dof::Shape::Disc && k > 1) continue;
      dof::Params p;
      p.shape = s;
      p.disc_boxes = k;
      for (int trial = 0; trial < 40; ++trial) {
        const float r = trial == 0 ? 0.5f : (trial == 1 ? 17.0f : rr(rng));
        dof::ShapeBox b[dof::kMaxShapeBoxes];
        const int n = dof::shape_boxes(r, s, k, b);
        ASSERT_GE(n, 1);
        ASSERT_LE(n, dof::kMaxShapeBoxes);
        const int R = static_cast<int>(r) + 2;
        double area = 0;
        for (int dy = -R; dy <= R; ++dy)
          for (int dx = -R; dx <= R; ++dx) {
            double wsum = 0;  // the boxes' weight at this offset
            for (int j = 0; j < n; ++j)
              if (std::abs(dx) <= b[j].rx && std::abs(dy) <= b[j].ry) wsum += b[j].coef;
            const double want = shape_weight(p, r, dx, dy);
            ASSERT_NEAR(wsum, want, 2e-5)
                << dof::to_string(s) << k << " r " << r << " " << dx << "," << dy;
            ASSERT_GE(want, -1e-6);
            ASSERT_LE(want, 1 + 1e-6);
            ASSERT_NEAR(want, shape_weight(p, r, dy, dx), 1e-5) << "not symmetric in x and y";
            area += want;
          }
        EXPECT_NEAR(dof::shape_area(b, n), area, 1e-3 * area);
        if (s != dof::Shape::Box && r > 10) {
          // Sum of weights = the continuum area plus a one-pixel rim: about pi r^2 + 2 pi r... the
          // staircase has area ~1.0-1.02 pi r^2 before the rim.
          const double pi_r2 = M_PI * r * r;
          EXPECT_GT(area, 0.98 * pi_r2);
          EXPECT_LT(area, 1.02 * pi_r2 + 4.5 * r + 1.5) << dof::to_string(s) << k << " r " << r;
        }
      }
    }
}

TEST(DofSat, InterleavedTablesMatchBruteForce) {
  for (auto [w, h] : kSizes) {
    const auto img = random_rgba(w, h, 5u + w * 7u + h);
    std::vector<uint32_t> t(np(w, h) * 4, 0xDEADBEEFu);
    dof::sat_rgbw_gold(img.data(), w, h, t.data());
    std::mt19937 rng(1);
    std::vector<int32_t> delta(np(w, h) * 4), ts(delta.size(), 0x5A5A5A5A);
    for (auto& d : delta) d = static_cast<int32_t>(rng());  // large: sums wrap
    dof::sat_rgbw_gold(delta.data(), w, h, ts.data());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c) {
          uint32_t s = 0, sd = 0;
          for (int yy = 0; yy <= y; ++yy)
            for (int xx = 0; xx <= x; ++xx) {
              s += img[(np(w, yy) + xx) * 4 + c];
              sd += static_cast<uint32_t>(delta[(np(w, yy) + xx) * 4 + c]);
            }
          ASSERT_EQ(t[(np(w, y) + x) * 4 + c], s) << w << "x" << h;
          ASSERT_EQ(static_cast<uint32_t>(ts[(np(w, y) + x) * 4 + c]), sd) << w << "x" << h;
        }
    // In place.
    dof::sat_rgbw_gold(delta.data(), w, h, delta.data());
    EXPECT_EQ(delta, ts);
  }
}

TEST(DofGather, ZeroRadiusReturnsTheSharpImage) {
  for (auto [w, h] : kSizes)
    for (auto s : kShapes) {
      const auto img = random_rgba(w, h, 3u + w + h);
      const auto depth = random_depth(w, h, 4u);
      auto p = params(s);
      p.aperture_px = 0.0f;
      std::vector<float> out(np(w, h) * 3, -1.0f);
      dof::gather(img.data(), depth.data(), w, h, p, out.data());
      for (std::size_t i = 0; i < np(w, h); ++i)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(out[3 * i + c], img[4 * i + c] / 255.0f);
    }
}

TEST(DofGather, MatchesBruteForceWeightedAverage) {
  for (auto [w, h] : kSizes)
    for (auto s : kShapes) {
      const auto img = random_rgba(w, h, 13u + w + h);
      const auto depth = random_depth(w, h, 14u + w);
      const auto p = params(s);
      std::vector<float> out(np(w, h) * 3, -1.0f);
      dof::gather(img.data(), depth.data(), w, h, p, out.data());
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const float r = dof::coc_radius(depth[np(w, y) + x], p);
          const int R = static_cast<int>(r) + 2;
          double acc[3] = {0, 0, 0}, a = 0;
          for (int yy = std::max(0, y - R); yy <= std::min(h - 1, y + R); ++yy)
            for (int xx = std::max(0, x - R); xx <= std::min(w - 1, x + R); ++xx) {
              const double wt = shape_weight(p, r, xx - x, yy - y);
              for (int c = 0; c < 3; ++c) acc[c] += wt * img[(np(w, yy) + xx) * 4 + c];
              a += wt;
            }
          for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(out[(np(w, y) + x) * 3 + c], acc[c] / (255.0 * a), 2e-5)
                << dof::to_string(s) << " " << w << "x" << h << " at " << x << "," << y;
        }
    }
}

TEST(DofSpread, SatSpreadingEqualsDirectSpreadingExactly) {
  int cases = 0;
  for (auto [w, h] : kSizes)
    for (auto s : kShapes)
      for (auto border : {dof::SpreadBorder::Reflect, dof::SpreadBorder::None})
        for (float rmax : {2.7f, 9.0f}) {
          auto p = params(s, rmax);
          p.border = border;
          p.layers = 3;
          p.disc_boxes = 1 + (cases % dof::kMaxDiscBoxes);
          const auto img = random_rgba(w, h, 100u + cases);
          const auto depth = random_depth(w, h, 200u + cases);
          for (int layer = -1; layer < p.layers; ++layer) {
            std::vector<int32_t> delta(np(w, h) * 4, 0x11111111), sums(delta.size(), 0x22222222);
            dof::spread_delta_gold(img.data(), depth.data(), w, h, p, layer, delta.data());
            dof::sat_rgbw_gold(delta.data(), w, h, delta.data());
            dof::spread_direct_gold(img.data(), depth.data(), w, h, p, layer, sums.data());
            ASSERT_EQ(delta, sums) << dof::to_string(s) << " " << w << "x" << h << " layer "
                                   << layer << " border " << dof::to_string(border);
            ++cases;
          }
        }
  EXPECT_EQ(cases, 5 * 3 * 2 * 2 * 4);
}

TEST(DofSpread, SharpWhenInFocusAndConstantStaysConstant) {
  for (auto [w, h] : kSizes)
    for (auto s : kShapes) {
      const auto img = random_rgba(w, h, 31u + w);
      const auto depth = random_depth(w, h, 32u + h);
      auto p = params(s);
      p.aperture_px = 0.0f;
      std::vector<float> out(np(w, h) * 3, -1.0f);
      dof::spread(img.data(), depth.data(), w, h, p, out.data());
      for (std::size_t i = 0; i < np(w, h); ++i)
        for (int c = 0; c < 3; ++c) ASSERT_NEAR(out[3 * i + c], img[4 * i + c] / 255.0f, 1e-6f);
      p.aperture_px = 5.0f;
      std::vector<uint8_t> flat(img.size());
      for (std::size_t i = 0; i < flat.size(); ++i)
        flat[i] = static_cast<uint8_t>(40 + (i % 4) * 60);
      for (auto border : {dof::SpreadBorder::Reflect, dof::SpreadBorder::None}) {
        p.border = border;
        dof::spread(flat.data(), depth.data(), w, h, p, out.data());
        for (std::size_t i = 0; i < np(w, h); ++i)
          for (int c = 0; c < 3; ++c) ASSERT_NEAR(out[3 * i + c], flat[4 * i + c] / 255.0f, 1e-5f);
        dof::layered(flat.data(), depth.data(), w, h, p, out.data());
        for (std::size_t i = 0; i < np(w, h); ++i)
          for (int c = 0; c < 3; ++c) ASSERT_NEAR(out[3 * i + c], flat[4 * i + c] / 255.0f, 1e-5f);
      }
    }
}

TEST(DofSpread, UniformRadiusEqualsGatherAwayFromTheBorder) {
  // With one radius everywhere spreading a symmetric kernel is the same convolution as gathering
  // it; only the fixed-point weights differ (about 1/2 unit in 2^19 / area).
  const int w = 41, h = 29;
  const auto img = random_rgba(w, h, 8);
  for (auto s : kShapes)
    for (float r : {0.0f, 1.5f, 3.3f, 6.0f}) {
      auto p = params(s, 10.0f);
      p.aperture_px = r;
      p.focus = 1.0f;
      std::vector<float> depth(np(w, h), 1e30f);  // r = aperture (at infinity)
      std::vector<float> a(np(w, h) * 3), b(a.size());
      dof::gather(img.data(), depth.data(), w, h, p, a.data());
      dof::spread(img.data(), depth.data(), w, h, p, b.data());
      const int m = static_cast<int>(r) + 1;
      for (int y = m; y < h - m; ++y)
        for (int x = m; x < w - m; ++x)
          for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(a[(np(w, y) + x) * 3 + c], b[(np(w, y) + x) * 3 + c], 2e-4)
                << dof::to_string(s) << " r " << r;
    }
}

namespace {
// Foreground square (uniform red, z = z_fg) over a far plane (z = 20) textured in green and blue
// only: red in the output measures how much foreground is where.
struct TwoDepth {
  int w = 48, h = 40, x0 = 16, x1 = 32, y0 = 12, y1 = 28;  // foreground [x0, x1) x [y0, y1)
  std::vector<uint8_t> rgba;
  std::vector<float> depth;
  explicit TwoDepth(float z_fg) {
    rgba.resize(np(w, h) * 4);
    depth.resize(np(w, h));
    std::mt19937 rng(5);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint8_t* p = &rgba[(np(w, y) + x) * 4];
        const bool fg = x >= x0 && x < x1 && y >= y0 && y < y1;
        p[0] = fg ? 255 : 0;
        p[1] = fg ? 0 : static_cast<uint8_t>(60 + rng() % 150);
        p[2] = fg ? 0 : static_cast<uint8_t>(60 + rng() % 150);
        p[3] = 255;
        depth[np(w, y) + x] = fg ? z_fg : 20.0f;
      }
  }
  bool inside(int x, int y, int grow) const {
    return x >= x0 - grow && x < x1 + grow && y >= y0 - grow && y < y1 + grow;
  }
  float red(const std::vector<float>& img, int x, int y) const { return img[(np(w, y) + x) * 3]; }
};
}  // namespace

TEST(DofLayered, BlurredForegroundSpreadsOverTheSharpBackground) {
  const TwoDepth sc(5.0f);
  dof::Params p;
  p.focus = 20.0f;  // background sharp
  p.aperture_px = 2.0f;
  p.max_radius = 12.0f;  // foreground r = 2 * 15 / 5 = 6
  p.layers = 2;
  std::vector<float> g(np(sc.w, sc.h) * 3), l(g.size()), s(g.size());
  for (auto shape : kShapes) {
    p.shape = shape;
    dof::gather(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, g.data());
    dof::layered(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, l.data());
    dof::spread(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, s.data());
    for (int y = 0; y < sc.h; ++y)
      for (int x = 0; x < sc.w; ++x) {
        if (sc.inside(x, y, 0)) continue;
        // Gather keeps the silhouette hard: no red outside the square.
        ASSERT_EQ(sc.red(g, x, y), 0.0f);
        // Layered / spread: red within the blur radius of the square, and the far plane
        // untouched (exactly sharp) beyond it.
        if (sc.inside(x, y, 2) && !sc.inside(x, y, -1)) {
          ASSERT_GT(sc.red(l, x, y), 0.1f) << dof::to_string(shape) << " " << x << "," << y;
          ASSERT_GT(sc.red(s, x, y), 0.1f);
        }
        if (!sc.inside(x, y, 8)) {
          for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(l[(np(sc.w, y) + x) * 3 + c], sc.rgba[(np(sc.w, y) + x) * 4 + c] / 255.0f,
                        1e-6f);
        }
      }
    // Deep inside the square the foreground covers fully.
    EXPECT_NEAR(sc.red(l, 24, 20), 1.0f, 1e-6f);
    // The rim is part foreground, part background: the blurred edge is translucent.
    const float rim = sc.red(l, sc.x1, 20);  // first pixel right of the square
    EXPECT_GT(rim, 0.2f);
    EXPECT_LT(rim, 0.8f);
  }
}

TEST(DofLayered, SharpForegroundStaysSharpOverTheBlurredBackground) {
  const TwoDepth sc(5.0f);
  dof::Params p;
  p.aperture_px = 8.0f;
  p.max_radius = 12.0f;
  std::vector<float> g(np(sc.w, sc.h) * 3), l(g.size()), s(g.size());
  for (int variant = 0; variant < 6; ++variant) {
    const auto shape = kShapes[variant % 3];
    p.shape = shape;
    // Focus exactly on the foreground needs the middle layer of K = 3 (background r = 8 * 15 / 20
    // = 6 > 12 / 3); with K = 2 the foreground must lie in front of the focal plane.
    p.layers = variant < 3 ? 3 : 2;
    p.focus = variant < 3 ? 5.0f : 5.01f;
    const float tol = variant < 3 ? 1e-6f : 0.05f;  // K = 2: the foreground's r = 0.016 shows
    dof::gather(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, g.data());
    dof::layered(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, l.data());
    dof::spread(sc.rgba.data(), sc.depth.data(), sc.w, sc.h, p, s.data());
    bool gather_leaks = false, spread_bleeds = false;
    for (int y = 0; y < sc.h; ++y)
      for (int x = 0; x < sc.w; ++x) {
        const std::size_t i = (np(sc.w, y) + x) * 3;
        if (sc.inside(x, y, 0)) {
          // The sharp foreground is exactly itself in layered; plain spread lets the blurred
          // background bleed over its rim.
          ASSERT_NEAR(l[i], 1.0f, tol)
              << dof::to_string(shape) << " K " << p.layers << " " << x << "," << y;
          ASSERT_NEAR(l[i + 1] + l[i + 2], 0.0f, tol);
          spread_bleeds |= s[i + 1] > 0.02f;
        } else {
          // Outside: no red in layered or spread (the sharp foreground spreads nowhere);
          // gather pulls it into the blurred background.
          ASSERT_LE(l[i], tol);
          ASSERT_LE(s[i], tol);
          gather_leaks |= g[i] > 0.02f;
        }
      }
    EXPECT_TRUE(gather_leaks) << "the gather artefact this test is about did not show";
    EXPECT_TRUE(spread_bleeds);
  }
}

TEST(DofLayered, LayerAssignment) {
  dof::Params p;
  p.focus = 10.0f;
  p.aperture_px = 10.0f;
  p.max_radius = 8.0f;
  p.layers = 2;
  EXPECT_EQ(dof::layer_of(9.999f, p), 0);
  EXPECT_EQ(dof::layer_of(10.0f, p), 1);
  EXPECT_EQ(dof::layer_of(1000.0f, p), 1);
  p.layers = 4;                           // bins of s in [-8, 8]: [-8, -4) [-4, 0) [0, 4) [4, 8]
  EXPECT_EQ(dof::layer_of(1.0f, p), 0);   // r clamped to 8
  EXPECT_EQ(dof::layer_of(6.0f, p), 0);   // s = -6.67
  EXPECT_EQ(dof::layer_of(9.0f, p), 1);   // s = -1.1
  EXPECT_EQ(dof::layer_of(11.0f, p), 2);  // s = 0.9
  EXPECT_EQ(dof::layer_of(100.0f, p), 3);
  p.layers = 3;  // [-8, -2.67) [-2.67, 2.67) [2.67, 8]: a middle layer around the focal plane
  EXPECT_EQ(dof::layer_of(1.0f, p), 0);
  EXPECT_EQ(dof::layer_of(9.0f, p), 1);
  EXPECT_EQ(dof::layer_of(10.0f, p), 1);
  EXPECT_EQ(dof::layer_of(11.0f, p), 1);
  EXPECT_EQ(dof::layer_of(100.0f, p), 2);
  p.aperture_px = 0.0f;  // everything in focus: the middle layer
  EXPECT_EQ(dof::layer_of(1.0f, p), 1);
  EXPECT_EQ(dof::layer_of(100.0f, p), 1);
}

namespace {
// A periodic test texture (one period = the frame): smooth sinusoids plus 8-pixel checks with
// soft edges, so a disc blur and a lens average see the same continuous image.
std::vector<uint8_t> plane_texture(int w, int h) {
  std::vector<uint8_t> t(np(w, h) * 4);
  const double pi = M_PI;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double u = (x + 0.5) / w, v = (y + 0.5) / h;
      const double check = (((x / 8) + (y / 8)) & 1) ? 40.0 : -40.0;
      const double vals[3] = {128 + 70 * std::sin(2 * pi * (3 * u + 2 * v)) + 0.5 * check,
                              128 + 60 * std::cos(2 * pi * (5 * u - 1 * v)) + 0.3 * check,
                              128 + 50 * std::sin(2 * pi * (1 * u + 4 * v)) - 0.6 * check};
      for (int c = 0; c < 3; ++c)
        t[(np(w, y) + x) * 4 + c] =
            static_cast<uint8_t>(std::lround(std::min(255.0, std::max(0.0, vals[c]))));
      t[(np(w, y) + x) * 4 + 3] = 255;
    }
  return t;
}
}  // namespace

TEST(DofLens, ReferenceAgreesWithTheCocModel) {
  const int w = 96, h = 64;
  const auto tex = plane_texture(w, h);
  std::vector<uint8_t> sharp(tex.size());
  dof::plane_sharp(tex.data(), w, h, w, h, sharp.data());
  std::vector<float> sharp_f(np(w, h) * 3);
  metrics::rgba8_to_rgb(sharp.data(), w, h, sharp_f.data());
  const double focal_px = 80.0, z = 12.0;
  dof::Params p;
  p.focus = 30.0f;
  p.aperture_px = 7.5f;
  p.max_radius = 20.0f;
  const float r = dof::coc_radius(static_cast<float>(z), p);  // 7.5 * 18 / 12 = 11.25
  ASSERT_NEAR(r, 11.25f, 1e-5f);
  const double L = dof::lens_radius(p.aperture_px, p.focus, focal_px);
  std::vector<float> ref(np(w, h) * 3), disc(ref.size()), g(ref.size());
  dof::plane_lens_reference(tex.data(), w, h, w, h, z, p.focus, L, focal_px, 256, ref.data());
  dof::disc_blur_gold(sharp.data(), w, h, r, disc.data());
  // Away from the border (the reference sees the periodic plane beyond the frame; the blurs do
  // not): pixels at least r + 2 from every edge.
  std::vector<uint8_t> inner(np(w, h), 0);
  const int m = static_cast<int>(r) + 2;
  for (int y = m; y < h - m; ++y)
    for (int x = m; x < w - m; ++x) inner[np(w, y) + x] = 1;
  const double psnr_disc = metrics::psnr(ref.data(), disc.data(), w, h, inner.data());
  std::vector<float> depth(np(w, h), static_cast<float>(z));
  double psnr_shape[3];
  for (auto s : kShapes) {
    p.shape = s;
    p.disc_boxes = 4;
    dof::gather(sharp.data(), depth.data(), w, h, p, g.data());
    psnr_shape[static_cast<int>(s)] = metrics::psnr(ref.data(), g.data(), w, h, inner.data());
  }
  const double psnr_sharp = metrics::psnr(ref.data(), sharp_f.data(), w, h, inner.data());
  std::printf(
      "lens reference (256 samples, r = %.2f px) vs: disc blur %.2f dB, gather disc(4) "
      "%.2f dB, octagon %.2f dB, box %.2f dB, unblurred %.2f dB\n",
      r, psnr_disc, psnr_shape[2], psnr_shape[1], psnr_shape[0], psnr_sharp);
  EXPECT_GT(psnr_disc, 35.0);
  EXPECT_GT(psnr_shape[2], 30.0);                 // gather with the disc shape comes close
  EXPECT_GT(psnr_shape[2], psnr_shape[0] + 3.0);  // and the round shape is what buys it
  EXPECT_GT(psnr_shape[2], psnr_sharp + 10.0);

  // Aperture 0: the reference is the sharp frame.
  dof::plane_lens_reference(tex.data(), w, h, w, h, z, p.focus, 0.0, focal_px, 16, ref.data());
  EXPECT_GT(metrics::psnr(ref.data(), sharp_f.data(), w, h), 50.0);
  // In focus (z = focus): also the sharp frame, whatever the lens.
  dof::plane_lens_reference(tex.data(), w, h, w, h, p.focus, p.focus, L, focal_px, 64, ref.data());
  EXPECT_GT(metrics::psnr(ref.data(), sharp_f.data(), w, h), 50.0);
}

TEST(DofPerformance, Timings) {
  // Not a benchmark (the machine is shared): prints what the demo's CPU fallback would cost, at
  // 480x270 (well under a second) or, with SCANDOF_DOF_TIMINGS=1, at 1920x1080 (about 15 s on 2
  // busy cores). It runs either way, so it never counts as a skip.
  const char* on = std::getenv("SCANDOF_DOF_TIMINGS");
  const bool full = on != nullptr && *on != '\0' && *on != '0';
  const int w = full ? 1920 : 480, h = full ? 1080 : 270;
  const auto img = random_rgba(w, h, 1);
  std::vector<float> depth(np(w, h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)  // a floor (one depth per row) and blocks standing on it
      depth[np(w, y) + x] =
          ((x / (w / 8) + y / (h / 8)) % 3 == 0) ? 6.0f + 0.01f * (y % (h / 8))
                                                 : 60.0f - 55.0f * y / h;
  dof::Params p;
  std::vector<float> out(np(w, h) * 3);
  for (auto m : {dof::Method::Gather, dof::Method::Spread, dof::Method::Layered})
    for (auto s : kShapes) {
      p.shape = s;
      const auto t0 = std::chrono::steady_clock::now();
      const std::clock_t c0 =
          std::clock();  // CPU time of all threads: wall time on a busy box lies
      dof::render(m, img.data(), depth.data(), w, h, p, out.data());
      const double cpu_ms = 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%dx%d %-8s %-8s %8.1f ms wall %8.1f ms CPU\n", w, h, dof::to_string(m),
                  dof::to_string(s), ms, cpu_ms);
      EXPECT_LT(ms, 20000.0);
    }
  std::vector<float> other(out.size(), 0.5f);
  std::vector<uint8_t> band(np(w, h));
  const auto t0 = std::chrono::steady_clock::now();
  metrics::edge_band_mask(depth.data(), w, h, p.max_radius, band.data());
  const auto q = metrics::compare(out.data(), other.data(), w, h, band.data());
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%dx%d edge band + PSNR/SSIM %8.1f ms (%zu edge pixels)\n", w, h, ms, q.edge_pixels);
}

// ---- Aperture blades (dof.hpp, "Polygonal aperture") ---------------------------------------------

namespace blades_test {

// The kernel's weight per pixel offset on a (2 S + 1)^2 grid, S = ceil(R) + 1.
struct Kernel {
  int S;
  std::vector<double> w;
  double at(int dx, int dy) const {
    if (std::abs(dx) > S || std::abs(dy) > S) return 0.0;
    return w[static_cast<std::size_t>((dy + S) * (2 * S + 1) + dx + S)];
  }
  // Bilinear between offsets (0 outside).
  double sample(double x, double y) const {
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const double tx = x - x0, ty = y - y0;
    return (1 - tx) * (1 - ty) * at(x0, y0) + tx * (1 - ty) * at(x0 + 1, y0) +
           (1 - tx) * ty * at(x0, y0 + 1) + tx * ty * at(x0 + 1, y0 + 1);
  }
};

Kernel polygon_kernel(float rho, int blades, float rot) {
  dof::OffsetBox b[dof::kMaxPolyBoxes];
  const int n = dof::polygon_boxes(rho, blades, rot, b);
  Kernel k;
  k.S = static_cast<int>(std::ceil(rho + 0.5f)) + 1;
  k.w.assign(static_cast<std::size_t>((2 * k.S + 1) * (2 * k.S + 1)), 0.0);
  for (int j = 0; j < n; ++j)
    for (int dy = b[j].y0; dy <= b[j].y1; ++dy)
      for (int dx = b[j].x0; dx <= b[j].x1; ++dx) {
        EXPECT_LE(std::abs(dx), k.S);
        EXPECT_LE(std::abs(dy), k.S);
        k.w[static_cast<std::size_t>((dy + k.S) * (2 * k.S + 1) + dx + k.S)] += b[j].coef;
      }
  return k;
}

// L1 distance between the kernel and itself turned by `deg` (bilinear), over its sum.
double turned_difference(const Kernel& k, double deg) {
  const double a = deg * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
  double diff = 0, sum = 0;
  for (int dy = -k.S; dy <= k.S; ++dy)
    for (int dx = -k.S; dx <= k.S; ++dx) {
      // The weight the turned kernel has at (dx, dy): the kernel's at the point turned back.
      const double t = k.sample(c * dx + s * dy, -s * dx + c * dy);
      diff += std::fabs(t - k.at(dx, dy));
      sum += k.at(dx, dy);
    }
  return diff / sum;
}

}  // namespace blades_test

// Every weight in [0, 1], the sum the polygon's area (circumradius rho + 1/2) for radii 1..24, and
// the weights the pixels' exact coverage by the polygon within the stairsteps.
TEST(DofBlades, AreaIsThePolygonsAndWeightsItsCoverage) {
  for (int blades = dof::kMinBlades; blades <= dof::kMaxBlades; ++blades)
    for (float rot : {0.0f, 13.0f, -45.0f})
      for (int R = 1; R <= 24; ++R) {
        const float rho = static_cast<float>(R) - 0.5f;
        // The coverage check (subsampled, the slow part) at a few radii; the area at every one.
        const bool cover = R <= 4 || R == 7 || R == 12 || R == 24;
        const blades_test::Kernel k = blades_test::polygon_kernel(rho, blades, rot);
        double sum = 0, cover_diff = 0;
        for (int dy = -k.S; dy <= k.S; ++dy)
          for (int dx = -k.S; dx <= k.S; ++dx) {
            const double v = k.at(dx, dy);
            ASSERT_GE(v, -1e-6) << blades << " " << rot << " R " << R;
            ASSERT_LE(v, 1 + 1e-5) << blades << " " << rot << " R " << R;
            sum += v;
            if (!cover) continue;
            // The pixel's area inside the polygon, 12 x 12 subsamples.
            int in = 0;
            for (int sy = 0; sy < 12; ++sy) {
              float xl, xr;
              dof::polygon_chord((dy - 0.5f + (sy + 0.5f) / 12) / R, blades, rot, &xl, &xr);
              for (int sx = 0; sx < 12; ++sx) {
                const float px = (dx - 0.5f + (sx + 0.5f) / 12) / R;
                in += px >= xl && px <= xr;
              }
            }
            cover_diff += std::fabs(v - in / 144.0);
          }
        const double area = dof::polygon_area(blades) * R * R;
        // Exact but for float rounding: the bands' midpoint widths integrate a width linear in y.
        EXPECT_NEAR(sum, area, 2e-4 * area + 1e-4) << blades << " blades, rot " << rot << " R " << R;
        // Stairsteps: each band is off the polygon by two triangles of its height h and width
        // h |dx/dy| (<= h cot(pi/N) ... bounded by the band's width change); over the whole
        // shape at most 12 % of the area at R = 1 and 7 % from R = 4 on (measured worst 11.3 %
        // and 6.2 %), sampling error included.
        if (cover)
          EXPECT_LT(cover_diff, (R < 4 ? 0.12 : 0.07) * area + 0.02)
            << blades << " blades, rot " << rot << " R " << R;
      }
}

// The N-fold symmetry of the polygon: the kernel turned by 360 / N degrees is itself within the
// stairsteps and the bilinear resampling (<= 12 % of its weight in L1 from R = 6 on), while half
// that turn, which maps the polygon to a different one, moves clearly more.
TEST(DofBlades, KernelHasTheNFoldSymmetry) {
  for (int blades = dof::kMinBlades; blades <= dof::kMaxBlades; ++blades)
    for (float rot : {0.0f, 11.0f})
      for (int R : {6, 12, 24}) {
        const blades_test::Kernel k =
            blades_test::polygon_kernel(static_cast<float>(R) - 0.5f, blades, rot);
        const double same = blades_test::turned_difference(k, 360.0 / blades);
        const double other = blades_test::turned_difference(k, 180.0 / blades);
        EXPECT_LT(same, 0.12) << blades << " blades, rot " << rot << " R " << R;
        // (The octagon is nearly round: its half turn moves less.)
        EXPECT_LT(same, (blades == 8 ? 1.0 : 0.7) * other) << blades << " blades, rot " << rot << " R " << R << ": "
                                     << same << " against " << other;
      }
}

// Blades 0 is the round aperture: gather and hybrid give the disc bit for bit; 1..4 and 9 are
// refused, and so are blades with spread and layered.
TEST(DofBlades, ZeroBladesIsTheDiscAndBadCountsThrow) {
  const int w = 37, h = 23;
  std::vector<uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
  std::vector<float> depth(static_cast<std::size_t>(w) * h);
  std::mt19937 rng(5);
  for (auto& v : rgba) v = static_cast<uint8_t>(rng());
  for (auto& z : depth) z = 1.0f + static_cast<float>(rng() % 4000) / 100.0f;
  dof::Params p;
  p.shape = dof::Shape::Disc;
  p.focus = 8.0f;
  p.aperture_px = 9.0f;
  p.radius_offset = 0.5f;
  for (dof::Method m : {dof::Method::Gather, dof::Method::Hybrid}) {
    std::vector<float> disc(static_cast<std::size_t>(w) * h * 3, -1.0f), zero(disc);
    dof::render(m, rgba.data(), depth.data(), w, h, p, disc.data());
    dof::Params q = p;
    q.blades = 0;
    q.blade_rotation = 33.0f;  // no blades: the rotation means nothing
    dof::render(m, rgba.data(), depth.data(), w, h, q, zero.data());
    EXPECT_EQ(disc, zero);
  }
  for (int bad : {1, 4, 9, -6}) {
    dof::Params q = p;
    q.blades = bad;
    EXPECT_THROW(dof::validate(q, dof::Method::Gather), std::invalid_argument) << bad;
  }
  dof::Params q = p;
  q.blades = 6;
  EXPECT_NO_THROW(dof::validate(q, dof::Method::Gather));
  EXPECT_NO_THROW(dof::validate(q, dof::Method::Hybrid));
  EXPECT_THROW(dof::validate(q, dof::Method::Spread), std::invalid_argument);
  EXPECT_THROW(dof::validate(q, dof::Method::Layered), std::invalid_argument);
}

// The gather with blades is the kernel's weighted average clipped to the frame, by brute force
// (off-centre boxes, clipped on every side, at odd sizes).
TEST(DofBlades, GatherMatchesBruteForce) {
  for (const auto& sz : {std::pair<int, int>{1, 1}, {29, 13}, {7, 40}}) {
    const int w = sz.first, h = sz.second;
    std::vector<uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
    std::vector<float> depth(static_cast<std::size_t>(w) * h);
    std::mt19937 rng(17);
    for (auto& v : rgba) v = static_cast<uint8_t>(rng());
    for (auto& z : depth) z = 1.0f + static_cast<float>(rng() % 3000) / 100.0f;
    dof::Params p;
    p.focus = 6.0f;
    p.aperture_px = 7.0f;
    p.max_radius = 9.0f;
    p.blades = 5;
    p.blade_rotation = 21.0f;
    std::vector<float> got(static_cast<std::size_t>(w) * h * 3, -1.0f);
    dof::gather(rgba.data(), depth.data(), w, h, p, got.data());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = static_cast<std::size_t>(y) * w + x;
        const float rho = dof::shape_radius(dof::coc_radius(depth[i], p), p);
        const blades_test::Kernel k = blades_test::polygon_kernel(rho, p.blades, p.blade_rotation);
        double s[3] = {0, 0, 0}, a = 0;
        for (int dy = -k.S; dy <= k.S; ++dy)
          for (int dx = -k.S; dx <= k.S; ++dx) {
            const int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
            const double wt = k.at(dx, dy);
            for (int c = 0; c < 3; ++c)
              s[c] += wt * rgba[(static_cast<std::size_t>(yy) * w + xx) * 4 + c];
            a += wt;
          }
        for (int c = 0; c < 3; ++c)
          ASSERT_NEAR(got[3 * i + c], s[c] / (255.0 * a), 2e-5) << x << "," << y << " c " << c;
      }
  }
}

// The lens reference's samples: inside the polygon, centred, with its second moments (a regular
// N-gon's are isotropic: E[x^2] = E[y^2] = (1 + 2 cos^2(pi/N)) / 12 ... measured against the
// polygon's own by subsampling).
TEST(DofBlades, LensSamplesAreUniformInThePolygon) {
  for (int blades = dof::kMinBlades; blades <= dof::kMaxBlades; ++blades) {
    const float rot = 7.0f * blades;
    const int n = 256;
    double mx = 0, my = 0, xx = 0, yy = 0;
    for (int i = 0; i < n; ++i) {
      float x, y;
      dof::polygon_lens_sample(i, n, blades, rot, &x, &y);
      float xl, xr;
      dof::polygon_chord(y, blades, rot, &xl, &xr);
      EXPECT_GE(x, xl - 1e-4f) << blades << " sample " << i;
      EXPECT_LE(x, xr + 1e-4f) << blades << " sample " << i;
      mx += x;
      my += y;
      xx += x * x;
      yy += y * y;
    }
    // The polygon's own moments on a fine grid.
    double ax = 0, ay = 0, cnt = 0;
    for (int gy = 0; gy < 400; ++gy)
      for (int gx = 0; gx < 400; ++gx) {
        const float x = -1 + (gx + 0.5f) / 200, y = -1 + (gy + 0.5f) / 200;
        float xl, xr;
        dof::polygon_chord(y, blades, rot, &xl, &xr);
        if (x < xl || x > xr) continue;
        ax += x * x;
        ay += y * y;
        cnt += 1;
      }
    EXPECT_NEAR(mx / n, 0.0, 0.01) << blades;
    EXPECT_NEAR(my / n, 0.0, 0.01) << blades;
    EXPECT_NEAR(xx / n, ax / cnt, 0.01) << blades;
    EXPECT_NEAR(yy / n, ay / cnt, 0.01) << blades;
  }
}
