// The HDR fixed-point encoding (scandof/hdr.hpp) and the CPU reference of HDR tables: every box up
// to the largest one a DoF pass reads equals a float64 direct sum of the quantized radiance, on
// random HDR images with values up to the stated limit, at awkward sizes; values above the limit
// clamp and are counted; the radius-0 box returns the input exactly; half conversions are exact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"

namespace {

using scandof::SatFixedPoint;

// Random radiance as halves (the frame's precision), log-uniform over [2^-12, limit] with some
// exact zeros: the dark end exercises the low fraction bits, the bright end the limit.
std::vector<float> random_hdr(int w, int h, double limit, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> lg(-12.0, std::log2(limit));
  std::uniform_int_distribution<int> zero(0, 15);
  std::vector<float> img(static_cast<std::size_t>(w) * h * 4);
  for (auto& v : img) {
    float f = zero(rng) == 0 ? 0.0f : static_cast<float>(std::exp2(lg(rng)));
    v = scandof::half_to_float(scandof::float_to_half(f));
    if (v > limit) v = scandof::half_to_float(scandof::float_to_half(static_cast<float>(limit)));
    while (v > limit) v = std::nextafter(v, 0.0f);  // keep inside: no clamps expected
  }
  return img;
}

uint32_t box_sum(const std::vector<uint32_t>& t, int w, int h, int c, int x0, int y0, int x1,
                 int y1) {
  // Inclusive box [x0, x1] x [y0, y1] from an interleaved table, wrapping arithmetic.
  auto at = [&](int x, int y) -> uint32_t {
    if (x < 0 || y < 0) return 0u;
    return t[4 * (static_cast<std::size_t>(y) * w + x) + c];
  };
  (void)h;
  return at(x1, y1) - at(x0 - 1, y1) - at(x1, y0 - 1) + at(x0 - 1, y0 - 1);
}

TEST(HdrFixedPoint, ChoosesFromTheLargestBox) {
  const SatFixedPoint a = scandof::hdr_fixed_point(24.0f, 100.0f);
  EXPECT_EQ(scandof::hdr_box_side(24.0f), 51);
  EXPECT_EQ(a.max_value, 4294967295u / (51u * 51u));
  EXPECT_EQ(a.frac_bits, 14);
  EXPECT_GE(a.max_radiance(), 100.0);
  EXPECT_LT(a.max_radiance() / 2.0, 100.0);  // one more fraction bit would not reach 100
  // Every box the DoF reads fits: side^2 * max_value < 2^32.
  for (float r : {0.0f, 0.5f, 1.0f, 7.3f, 24.0f, 64.0f, 255.9f, 1000.0f}) {
    const SatFixedPoint fp = scandof::hdr_fixed_point(r, 64.0f);
    const uint64_t side = static_cast<uint64_t>(scandof::hdr_box_side(r));
    EXPECT_LE(side * side * fp.max_value, 0xFFFFFFFFull) << r;
    EXPECT_LE(fp.max_value, scandof::kMaxFixedValue);
    EXPECT_GE(fp.frac_bits, 0);
    EXPECT_LE(fp.frac_bits, scandof::kMaxFracBits);
  }
  // A radius so large that even F = 0 cannot hold 64: F = 0, the limit is max_value.
  const SatFixedPoint big = scandof::hdr_fixed_point(5000.0f, 64.0f);
  EXPECT_EQ(big.frac_bits, 0);
  EXPECT_LT(big.max_radiance(), 64.0);
}

TEST(HdrFixedPoint, QuantizeRoundsHalfEvenClampsAndCounts) {
  SatFixedPoint fp;
  fp.frac_bits = 2;
  fp.max_value = 40;  // limit 10.0
  bool cl = false;
  EXPECT_EQ(scandof::quantize_radiance(0.0f, fp, &cl), 0u);
  EXPECT_EQ(scandof::quantize_radiance(-0.0f, fp, &cl), 0u);
  EXPECT_FALSE(cl);
  EXPECT_EQ(scandof::quantize_radiance(0.125f, fp, &cl), 0u);  // 0.5 -> 0 (even)
  EXPECT_EQ(scandof::quantize_radiance(0.375f, fp, &cl), 2u);  // 1.5 -> 2
  EXPECT_EQ(scandof::quantize_radiance(2.5f, fp, &cl), 10u);
  EXPECT_EQ(scandof::quantize_radiance(10.0f, fp, &cl), 40u);  // at the limit: not clamped
  EXPECT_FALSE(cl);
  EXPECT_EQ(scandof::quantize_radiance(10.1f, fp, &cl), 40u);
  EXPECT_TRUE(cl);
  for (float bad : {-1.0f, std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::infinity()}) {
    cl = false;
    EXPECT_EQ(scandof::quantize_radiance(bad, fp, &cl), bad > 0 ? 40u : 0u);
    EXPECT_TRUE(cl) << bad;
  }
}

TEST(HdrHalf, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = scandof::half_to_float(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(scandof::half_to_float(scandof::float_to_half(f))));
      continue;
    }
    ASSERT_EQ(scandof::float_to_half(f), h) << h;
  }
  // Rounding to nearest even between neighbours, and overflow.
  EXPECT_EQ(scandof::float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);  // tie -> even
  EXPECT_EQ(scandof::float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);
  EXPECT_EQ(scandof::float_to_half(65504.0f), 0x7BFFu);
  EXPECT_EQ(scandof::float_to_half(65520.0f), 0x7C00u);
  EXPECT_EQ(scandof::float_to_half(std::ldexp(1.0f, -25)), 0x0000u);  // tie -> 0
  EXPECT_EQ(scandof::float_to_half(std::ldexp(1.5f, -25)), 0x0001u);
}

class SatHdrGold : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(SatHdrGold, EveryBoxUpToTheMaxRadiusIsExact) {
  const int w = GetParam().first, h = GetParam().second;
  const float max_radius = 3.0f;  // side 9: every box up to 9 x 9 below
  const SatFixedPoint fp = scandof::hdr_fixed_point(max_radius, 256.0f);
  const std::vector<float> img = random_hdr(w, h, fp.max_radiance(), 1234u + w * 7 + h);
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<uint32_t> table(4 * n, 0xDEADBEEFu);
  const uint64_t clamped =
      scandof::sat_gold_hdr(img.data(), w, h, fp, table.data(), 3, scandof::SatLayout::Interleaved);
  EXPECT_EQ(clamped, 0u);
  const int side = static_cast<int>(scandof::hdr_box_side(max_radius));
  const double scale = std::ldexp(1.0, fp.frac_bits);
  for (int y0 = 0; y0 < h; ++y0)
    for (int x0 = 0; x0 < w; ++x0)
      for (int bh = 1; bh <= side && y0 + bh <= h; bh += 2)
        for (int bw = 1; bw <= side && x0 + bw <= w; bw += 3)
          for (int c = 0; c < 3; ++c) {
            double want = 0;  // float64 direct sum of the rounded values
            for (int y = y0; y < y0 + bh; ++y)
              for (int x = x0; x < x0 + bw; ++x)
                want += std::nearbyint(img[4 * (static_cast<std::size_t>(y) * w + x) + c] * scale);
            const uint32_t got = box_sum(table, w, h, c, x0, y0, x0 + bw - 1, y0 + bh - 1);
            ASSERT_EQ(static_cast<double>(got), want)
                << w << "x" << h << " box " << x0 << "," << y0 << " " << bw << "x" << bh;
          }
  // Radius 0: the one-pixel box is the input, exactly (to the fixed point's step).
  for (std::size_t i = 0; i < n; ++i) {
    const int x = static_cast<int>(i % w), y = static_cast<int>(i / w);
    for (int c = 0; c < 3; ++c) {
      const double v = box_sum(table, w, h, c, x, y, x, y) / scale;
      ASSERT_NEAR(v, img[4 * i + c], 0.5 / scale);
    }
  }
  // The 4th word of the interleaved layout is 0 for channels = 3.
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(table[4 * i + 3], 0u);
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SatHdrGold,
                         ::testing::Values(std::make_pair(1, 1), std::make_pair(31, 1),
                                           std::make_pair(1, 33), std::make_pair(33, 17),
                                           std::make_pair(64, 9)));

TEST(SatHdrGold, BigTablesWrapAndBoxesStayExact) {
  // At the limit everywhere, a 1025 x 31 table's corner sums pass 2^32 many times over; every
  // largest box is still exact.
  const int w = 1025, h = 31;
  const SatFixedPoint fp = scandof::hdr_fixed_point(10.0f, 1.0f);
  std::vector<float> img(static_cast<std::size_t>(w) * h * 4,
                         static_cast<float>(fp.max_radiance()));
  std::vector<uint32_t> t(4 * static_cast<std::size_t>(w) * h);
  EXPECT_EQ(scandof::sat_gold_hdr(img.data(), w, h, fp, t.data(), 3,
                                  scandof::SatLayout::Interleaved),
            0u);
  const int s = static_cast<int>(scandof::hdr_box_side(10.0f));
  for (int y0 = 0; y0 + s <= h; y0 += 5)
    for (int x0 = 0; x0 + s <= w; x0 += 97)
      ASSERT_EQ(box_sum(t, w, h, 1, x0, y0, x0 + s - 1, y0 + s - 1),
                static_cast<uint32_t>(s * s) * fp.max_value);
}

TEST(SatHdrGold, AboveTheLimitClampsAndCounts) {
  SatFixedPoint fp;
  fp.frac_bits = 4;
  fp.max_value = 160;  // limit 10
  // 3 x 1: a pixel above the limit in G, one NaN in B, one fine; alpha above the limit is not a
  // built channel and is not counted.
  const std::vector<float> img = {1.0f, 50.0f, 0.0f, 0.0f, 2.0f, 1.0f,
                                  std::numeric_limits<float>::quiet_NaN(), 0.0f, 3.0f, 3.0f,
                                  3.0f, 99.0f};
  std::vector<uint32_t> t(12);
  EXPECT_EQ(scandof::sat_gold_hdr(img.data(), 3, 1, fp, t.data(), 3), 2u);
  // Planar: R 16 48 96, G 160 176 224, B 0 0 48.
  const std::vector<uint32_t> want = {16, 48, 96, 160, 176, 224, 0, 0, 48};
  EXPECT_EQ(std::vector<uint32_t>(t.begin(), t.begin() + 9), want);
  std::vector<uint32_t> q(12);
  EXPECT_EQ(scandof::quantize_frame(img.data(), 3, 1, fp, q.data(), 4), 3u);
}

TEST(SatHdrGold, FloatTablesSumRadiance) {
  const std::vector<float> img = {0.5f, -1.0f, 1e3f, 0.0f, 0.25f, 2.0f,
                                  std::numeric_limits<float>::quiet_NaN(), 0.0f};
  std::vector<float> t(6);
  scandof::sat_gold_hdr(img.data(), 2, 1, t.data(), 3);
  const std::vector<float> want = {0.5f, 0.75f, 0.0f, 2.0f, 1e3f, 1e3f};
  EXPECT_EQ(t, want);
}

TEST(SatHdrGold, RejectsBadArguments) {
  std::vector<float> img(4, 1.0f);
  std::vector<uint32_t> t(4);
  SatFixedPoint fp = scandof::hdr_fixed_point(4.0f, 10.0f);
  EXPECT_THROW(scandof::sat_gold_hdr(img.data(), -1, 1, fp, t.data()), std::invalid_argument);
  EXPECT_THROW(scandof::sat_gold_hdr(img.data(), 1, 1, fp, t.data(), 5), std::invalid_argument);
  EXPECT_THROW(scandof::sat_gold_hdr(nullptr, 1, 1, fp, t.data()), std::invalid_argument);
  SatFixedPoint bad = fp;
  bad.frac_bits = 25;
  EXPECT_THROW(scandof::sat_gold_hdr(img.data(), 1, 1, bad, t.data()), std::invalid_argument);
  EXPECT_EQ(scandof::sat_gold_hdr(nullptr, 0, 0, fp, static_cast<uint32_t*>(nullptr)), 0u);
}

}  // namespace
