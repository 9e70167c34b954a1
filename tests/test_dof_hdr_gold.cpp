// CPU tests of the HDR forms of the depth-of-field gold code (scandof/dof.hpp, "HDR radiance"):
// aperture 0 gives the fixed-point input back, 64-bit SAT spreading equals direct spreading bit
// for bit, a bright pixel on black spreads into a disc that keeps its energy, an LDR-range image
// gives the LDR methods' output to the fixed point's step, gather matches a brute-force weighted
// average, and the float tables' error against the exact ones is measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dof_test_util.hpp"
#include "scandof/dof.hpp"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"

namespace dof = scandof::dof;
using scandof::SatFixedPoint;

namespace {

using dof_test::np;
using dof_test::random_depth;
using dof_test::random_hdr;
using dof_test::shape_weight;

const std::pair<int, int> kSizes[] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {7, 5}};
const dof::Shape kShapes[] = {dof::Shape::Box, dof::Shape::Octagon, dof::Shape::Disc};
const dof::Method kMethods[] = {dof::Method::Gather, dof::Method::Spread, dof::Method::Layered};

dof::Params params(dof::Shape s, float rmax = 6.5f) {
  return dof_test::gold_lens(s, rmax, 3);
}

std::string name(dof::Method m, dof::Shape s, int w, int h) {
  return std::string(dof::to_string(m)) + "/" + dof::to_string(s) + " " + std::to_string(w) + "x" +
         std::to_string(h);
}

}  // namespace

TEST(DofHdr, ZeroApertureGivesTheFixedPointInputBack) {
  for (const auto& [w, h] : kSizes) {
    const std::vector<float> img = random_hdr(w, h, 11u + static_cast<uint32_t>(w * 3 + h));
    const std::vector<float> z = random_depth(w, h, 12u);
    for (dof::Shape s : kShapes) {
      dof::Params p = params(s);
      p.aperture_px = 0.0f;  // every radius 0
      const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
      std::vector<uint32_t> q(np(w, h) * 4);
      ASSERT_EQ(scandof::quantize_frame(img.data(), w, h, fp, q.data(), 3), 0u);
      for (dof::Method m : kMethods) {
        std::vector<float> out(np(w, h) * 3, -1.0f);
        dof::render(m, img.data(), z.data(), w, h, p, fp, out.data());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < np(w, h); ++i)
          for (int c = 0; c < 3; ++c) {
            // Exactly q 2^-F, which is within half a step of the radiance.
            const float want = scandof::dequantize_radiance(q[4 * i + c], fp);
            if (out[3 * i + c] != want) ++bad;
            EXPECT_LE(std::fabs(out[3 * i + c] - img[4 * i + c]), std::ldexp(0.5, -fp.frac_bits));
          }
        EXPECT_EQ(bad, 0u) << name(m, s, w, h);
      }
    }
  }
}

TEST(DofHdr, SatSpreadingEqualsDirectSpreadingExactly) {
  for (const auto& [w, h] : kSizes) {
    const std::vector<float> img = random_hdr(w, h, 21u + static_cast<uint32_t>(w + h));
    const std::vector<float> z = random_depth(w, h, 22u);
    for (dof::Shape s : kShapes)
      for (dof::SpreadBorder b : {dof::SpreadBorder::Reflect, dof::SpreadBorder::None}) {
        dof::Params p = params(s);
        p.border = b;
        const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
        for (int layer = -1; layer < p.layers; ++layer) {
          std::vector<int64_t> sat(np(w, h) * 4), direct(np(w, h) * 4);
          dof::spread_delta_gold(img.data(), z.data(), w, h, p, fp, layer, sat.data());
          dof::sat_rgbw_gold(sat.data(), w, h, sat.data());
          dof::spread_direct_gold(img.data(), z.data(), w, h, p, fp, layer, direct.data());
          EXPECT_EQ(sat, direct) << name(dof::Method::Spread, s, w, h) << " layer " << layer;
        }
      }
  }
}

// A single bright pixel on black, every pixel at one depth: the spread disc's total radiance is
// the pixel's. Per pixel the output is q_b W_b(p) / sum W(p); with one radius everywhere sum W(p)
// is one source's total weight, so the total is q_b (sum_p W_b(p)) / 2^19 / (sum W / 2^19): each
// factor is 1 within the rounding of the W_j, 1/2 unit times the box's area each, which the test
// bounds from the boxes themselves.
TEST(DofHdr, SpreadKeepsTheEnergyOfABrightPoint) {
  const int w = 71, h = 64;
  for (dof::Shape s : kShapes)
    for (float r : {0.0f, 4.0f, 6.3f, 11.75f})
      for (dof::Method m : {dof::Method::Spread, dof::Method::Layered}) {
        dof::Params p = params(s, 12.0f);
        p.disc_boxes = 4;
        // One depth whose radius is r: A |z - f| / z = r at z = 2 f (behind the focus).
        p.focus = 10.0f;
        p.aperture_px = 2.0f * r;
        const float radiance = 3000.0f;
        const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, radiance);
        std::vector<float> img(np(w, h) * 4, 0.0f), z(np(w, h), 20.0f);
        const std::size_t centre = np(w, 30) + 33;
        for (int c = 0; c < 3; ++c) img[4 * centre + c] = radiance * (c + 1) / 3.0f;
        std::vector<float> out(np(w, h) * 3);
        dof::render(m, img.data(), z.data(), w, h, p, fp, out.data());
        dof::ShapeBox boxes[dof::kMaxShapeBoxes];
        const int n = dof::shape_boxes(dof::coc_radius(20.0f, p), s, p.disc_boxes, boxes);
        double slack = 0;
        for (int j = 0; j < n; ++j)
          slack += 0.5 * (2 * boxes[j].rx + 1) * (2 * boxes[j].ry + 1) / dof::kSpreadScale;
        for (int c = 0; c < 3; ++c) {
          double total = 0;
          std::size_t lit = 0;
          for (std::size_t i = 0; i < np(w, h); ++i) {
            total += out[3 * i + c];
            lit += out[3 * i + c] > 0.0f;
          }
          const double want = img[4 * centre + c];
          EXPECT_NEAR(total, want, want * (2.0 * slack + 1e-6))
              << name(m, s, w, h) << " r " << r << " channel " << c;
          // It is a disc, not a point: about the shape's area of pixels lit.
          if (r >= 4.0f) {
            EXPECT_GT(lit, static_cast<std::size_t>(2.0 * r * r)) << name(m, s, w, h);
          }
        }
      }
}

// Values k / 255: the HDR forms give the LDR forms' output to one step of the fixed point (each
// colour is off by at most half a step and the weights are a convex combination up to a rounding
// dip of 1 in 2^19; the LDR form clamps at 1 where such a dip lifts a value past it).
TEST(DofHdr, LdrRangeImageMatchesTheLdrMethods) {
  for (const auto& [w, h] : kSizes) {
    std::mt19937 rng(31u + static_cast<uint32_t>(w * 5 + h));
    std::vector<uint8_t> ldr(np(w, h) * 4);
    for (auto& x : ldr) x = static_cast<uint8_t>(rng() & 255u);
    std::vector<float> hdr(ldr.size());
    for (std::size_t i = 0; i < ldr.size(); ++i) hdr[i] = ldr[i] / 255.0f;
    const std::vector<float> z = random_depth(w, h, 32u);
    for (float limit : {1.0f, 100.0f})
      for (dof::Shape s : kShapes)
        for (dof::Method m : kMethods) {
          const dof::Params p = params(s);
          const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, limit);
          std::vector<float> a(np(w, h) * 3), b(np(w, h) * 3);
          dof::render(m, ldr.data(), z.data(), w, h, p, a.data());
          dof::render(m, hdr.data(), z.data(), w, h, p, fp, b.data());
          const double tol = std::ldexp(1.0, -fp.frac_bits) + 1e-6;
          double worst = 0;
          for (std::size_t i = 0; i < a.size(); ++i)
            worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - b[i]));
          EXPECT_LE(worst, tol) << name(m, s, w, h) << " F " << fp.frac_bits;
        }
  }
}

TEST(DofHdr, GatherMatchesBruteForceWeightedAverage) {
  for (const auto& [w, h] : kSizes) {
    const std::vector<float> img = random_hdr(w, h, 41u + static_cast<uint32_t>(w * 7 + h));
    const std::vector<float> z = random_depth(w, h, 42u);
    for (dof::Shape s : kShapes) {
      const dof::Params p = params(s);
      const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
      std::vector<uint32_t> q(np(w, h) * 4);
      scandof::quantize_frame(img.data(), w, h, fp, q.data(), 3);
      std::vector<float> out(np(w, h) * 3);
      dof::gather(img.data(), z.data(), w, h, p, fp, out.data());
      const int R = static_cast<int>(std::floor(p.max_radius)) + 1;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const std::size_t i = np(w, y) + static_cast<std::size_t>(x);
          const float r = dof::coc_radius(z[i], p);
          double acc[3] = {0, 0, 0}, a = 0;
          for (int dy = -R; dy <= R; ++dy)
            for (int dx = -R; dx <= R; ++dx) {
              const int xx = x + dx, yy = y + dy;
              if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
              const double wt = shape_weight(p, r, dx, dy);
              const std::size_t j = np(w, yy) + static_cast<std::size_t>(xx);
              for (int c = 0; c < 3; ++c) acc[c] += wt * q[4 * j + c];
              a += wt;
            }
          for (int c = 0; c < 3; ++c) {
            const double want = acc[c] / a * std::ldexp(1.0, -fp.frac_bits);
            ASSERT_NEAR(out[3 * i + c], want, 1e-5 * want + 1e-6)
                << name(dof::Method::Gather, s, w, h) << " at " << x << "," << y;
          }
        }
    }
  }
}

TEST(DofHdr, OutputIsFiniteNonNegativeAndClampsAboveTheLimit) {
  const int w = 40, h = 23;
  std::vector<float> img = random_hdr(w, h, 51u);
  img[4 * 5 + 0] = std::nanf("");
  img[4 * 6 + 1] = -3.0f;
  img[4 * 7 + 2] = 65504.0f;  // the largest half: above the limit, clamped to it
  const std::vector<float> z = random_depth(w, h, 52u);
  for (dof::Shape s : kShapes)
    for (dof::Method m : kMethods) {
      const dof::Params p = params(s);
      const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
      std::vector<float> out(np(w, h) * 3);
      dof::render(m, img.data(), z.data(), w, h, p, fp, out.data());
      for (float v : out) {
        ASSERT_TRUE(std::isfinite(v)) << name(m, s, w, h);
        ASSERT_GE(v, 0.0f) << name(m, s, w, h);
        ASSERT_LE(v, fp.max_radiance() * (1 + 1e-6)) << name(m, s, w, h);
      }
    }
}

TEST(DofHdr, BadFixedPointThrows) {
  std::vector<float> img(16, 0.5f), z(4, 5.0f), out(12);
  SatFixedPoint bad;
  bad.frac_bits = 30;
  bad.max_value = 1;
  for (dof::Method m : kMethods)
    EXPECT_THROW(dof::render(m, img.data(), z.data(), 2, 2, dof::Params{}, bad, out.data()),
                 std::invalid_argument);
}

// Float tables of radiance against the exact fixed-point ones, gather/box, at 1920x1080 (a frame
// of radiance 0..2 with bright points, the demo's lens): the float table's running sums reach
// about 2 x 10^6, where one float step is 0.25, so a dark box's sum loses its low bits. Prints
// the error (quoted in dof.hpp): a box's sum is off by up to about 4 float steps of the running
// sums, which an area-1 box (a pixel in focus) passes on undivided.
TEST(DofHdr, FloatTablesErrorAgainstExactTables) {
  const int w = 1920, h = 1080;
  const std::vector<float> img = random_hdr(w, h, 61u);
  std::vector<float> z(np(w, h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float v = static_cast<float>(y) / h, u = static_cast<float>(x) / w;
      z[np(w, y) + static_cast<std::size_t>(x)] = 6.f + 54.f * v * v + 4.f * std::sin(12.f * u);
    }
  dof::Params p;  // the demo's lens: aperture 12, focus 15, max radius 24, box
  const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 100.0f);
  std::vector<uint32_t> su(np(w, h) * 4);
  std::vector<float> sf(np(w, h) * 4);
  scandof::sat_gold_hdr(img.data(), w, h, fp, su.data(), 3, scandof::SatLayout::Interleaved);
  scandof::sat_gold_hdr(img.data(), w, h, sf.data(), 3, scandof::SatLayout::Interleaved);
  std::vector<float> exact(np(w, h) * 3), fl(np(w, h) * 3);
  dof::gather_from_sat(su.data(), z.data(), w, h, p, fp, exact.data());
  dof::gather_from_sat(sf.data(), z.data(), w, h, p, fl.data());
  double worst_abs = 0, worst_rel = 0, sum_rel = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double d = std::fabs(static_cast<double>(fl[i]) - exact[i]);
    worst_abs = std::max(worst_abs, d);
    const double rel = d / std::max(1e-3, static_cast<double>(exact[i]));
    worst_rel = std::max(worst_rel, rel);
    sum_rel += rel;
  }
  std::printf("float tables vs exact (1920x1080, gather/box, r_max 24, F %d): worst abs %.3g, "
              "worst rel %.3g, mean rel %.3g\n",
              fp.frac_bits, worst_abs, worst_rel, sum_rel / static_cast<double>(exact.size()));
  EXPECT_LT(worst_abs, 1.0);
  EXPECT_GT(worst_abs, 1e-3);  // the float tables do lose bits where the exact ones cannot
}

// ---- Bokeh from highlights (gather with bokeh_threshold) ----

TEST(DofHdrBokeh, BaseEncodingSplitsEveryValueExactly) {
  const SatFixedPoint fp = scandof::hdr_fixed_point(24.0f, 200.0f);
  EXPECT_EQ(dof::bokeh_base(fp, 0.0f), fp);
  EXPECT_EQ(dof::bokeh_base(fp, 1.0e6f), fp);  // at or above the limit: no split
  EXPECT_EQ(dof::bokeh_base(fp, 1.0f).max_value, 1u << fp.frac_bits);
  EXPECT_EQ(dof::bokeh_base(fp, 1.0e-9f).max_value, 1u);
  const SatFixedPoint b = dof::bokeh_base(fp, 1.5f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> v(0.0f, 300.0f);
  for (int i = 0; i < 10000; ++i) {
    const float x = v(rng);
    bool c1 = false, c2 = false;
    const uint32_t q = scandof::quantize_radiance(x, fp, &c1);
    const uint32_t base = scandof::quantize_radiance(x, b, &c2);
    EXPECT_EQ(base, std::min(q, b.max_value)) << x;
  }
}

// With no value above the threshold the split changes nothing: bit for bit the plain gather.
TEST(DofHdrBokeh, NothingAboveTheThresholdIsThePlainGather) {
  for (auto [w, h] : kSizes)
    for (dof::Shape s : kShapes) {
      dof::Params p = params(s);
      const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 200.0f);
      const std::vector<float> img = random_hdr(w, h, 11), z = random_depth(w, h, 12);
      std::vector<float> plain(np(w, h) * 3), split(np(w, h) * 3, -1.0f);
      dof::render(dof::Method::Gather, img.data(), z.data(), w, h, p, fp, plain.data());
      p.bokeh_threshold = 150.0f;  // random_hdr's brightest is 100
      dof::render(dof::Method::Gather, img.data(), z.data(), w, h, p, fp, split.data());
      EXPECT_EQ(plain, split) << name(dof::Method::Gather, s, w, h);
    }
}

// One bright point on a dim background: its excess spreads over its own shape with its energy
// kept, so the frame's total radiance is the input's; the plain gather keeps it too (inside the
// frame), but bunched up around the point, where the split draws the disc: pixels at 3/4 of the
// radius from the point are lit by it only with the split.
TEST(DofHdrBokeh, ABrightPointBecomesADiscWithItsEnergy) {
  const int w = 71, h = 64;
  for (dof::Shape s : kShapes)
    for (float r : {0.0f, 4.0f, 6.3f, 11.75f}) {
      dof::Params p = params(s, 12.0f);
      p.disc_boxes = 4;
      p.focus = 10.0f;
      p.aperture_px = 2.0f * r;  // radius r at z = 20
      const SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 3000.0f);
      std::vector<float> img(np(w, h) * 4, 0.25f), z(np(w, h), 20.0f);
      const std::size_t centre = np(w, 30) + 33;
      // The point sits in front of the rest (in focus there): the gather keeps it sharp.
      z[centre] = 10.0f;
      for (int c = 0; c < 3; ++c) img[4 * centre + c] = 1000.0f * (c + 1) / 3.0f;
      std::vector<float> plain(np(w, h) * 3), split(np(w, h) * 3);
      dof::render(dof::Method::Gather, img.data(), z.data(), w, h, p, fp, plain.data());
      p.bokeh_threshold = 1.0f;
      dof::render(dof::Method::Gather, img.data(), z.data(), w, h, p, fp, split.data());
      // The point is in focus (r = 0 at z = f): its excess stays on its pixel, whatever r.
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(split[3 * centre + c], plain[3 * centre + c], 1e-3f * plain[3 * centre + c]);
      // Now behind the focus with radius r: a disc of its light.
      z[centre] = 20.0f;
      dof::render(dof::Method::Gather, img.data(), z.data(), w, h, p, fp, split.data());
      const float rr = dof::shape_radius(dof::coc_radius(20.0f, p), p);
      dof::ShapeBox boxes[dof::kMaxShapeBoxes];
      const int n = dof::shape_boxes(rr, s, p.disc_boxes, boxes);
      double slack = 0;
      for (int j = 0; j < n; ++j)
        slack += 0.5 * (2 * boxes[j].rx + 1) * (2 * boxes[j].ry + 1) / dof::kSpreadScale;
      for (int c = 0; c < 3; ++c) {
        double total = 0, want = 0;
        for (std::size_t i = 0; i < np(w, h); ++i) {
          total += split[3 * i + c];
          want += std::min(img[4 * i + c], 1.0f);  // the base, blurred in place (no light lost)
        }
        want += img[4 * centre + c] - 1.0f;
        EXPECT_NEAR(total, want, 1e-3 * want + img[4 * centre + c] * 2.0 * slack)
            << name(dof::Method::Gather, s, w, h) << " r " << r << " channel " << c;
        if (rr >= 4.0f) {
          // Inside every shape at full weight (the widest band of each reaches 0.95 r), where
          // the ring pixel's own gather (the same shape) and the point's disc each weigh the
          // other 1 / area: 0.25 + (base - 0.25 + excess) / area.
          const int off = static_cast<int>(0.75f * rr);
          const std::size_t ring = centre + static_cast<std::size_t>(off);
          const float expect = 0.25f + (img[4 * centre + c] - 0.25f) / dof::shape_area(boxes, n);
          EXPECT_NEAR(split[3 * ring + c], expect, 0.01f * expect)
              << name(dof::Method::Gather, s, w, h) << " r " << r << " offset " << off;
        }
      }
    }
}

TEST(DofHdrBokeh, RefusedWhereItDoesNotApply) {
  dof::Params p = params(dof::Shape::Octagon);
  p.bokeh_threshold = -1.0f;
  EXPECT_THROW(dof::validate(p, dof::Method::Gather), std::invalid_argument);
  p.bokeh_threshold = std::nanf("");
  EXPECT_THROW(dof::validate(p, dof::Method::Gather), std::invalid_argument);
  p.bokeh_threshold = 1.0f;
  EXPECT_NO_THROW(dof::validate(p, dof::Method::Gather));
  for (dof::Method m : {dof::Method::Spread, dof::Method::Layered, dof::Method::Engine,
                        dof::Method::Hybrid})
    EXPECT_THROW(dof::validate(p, m), std::invalid_argument) << dof::to_string(m);
  p.blades = 6;
  EXPECT_THROW(dof::validate(p, dof::Method::Gather), std::invalid_argument);
}
