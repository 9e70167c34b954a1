// CPU tests of the summed-area-table reference: hand-checked tiny images, then random images
// against a brute-force box sum (O(w^2 h^2), so only small sizes), float against exact integers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "scandof/sat.hpp"

namespace {

std::vector<uint8_t> random_rgba(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<uint8_t> img(static_cast<std::size_t>(w) * h * 4);
  for (auto& v : img) v = static_cast<uint8_t>(d(rng));
  return img;
}

uint64_t brute(const std::vector<uint8_t>& img, int w, int x, int y, int c) {
  uint64_t s = 0;
  for (int yy = 0; yy <= y; ++yy)
    for (int xx = 0; xx <= x; ++xx) s += img[(static_cast<std::size_t>(yy) * w + xx) * 4 + c];
  return s;
}

TEST(SatGold, HandChecked2x2) {
  // pixels (R,G,B,A): (1,10,100,0) (2,20,200,0) / (3,30,30,0) (4,40,40,0)
  const std::vector<uint8_t> img = {1, 10, 100, 0, 2, 20, 200, 0, 3, 30, 30, 0, 4, 40, 40, 0};
  std::vector<uint32_t> out(12, 0xDEADBEEFu);
  scandof::sat_gold(img.data(), 2, 2, out.data(), 3);
  const std::vector<uint32_t> want = {1,   3,   4,   10,    // R: 1 1+2 / 1+3 1+2+3+4
                                      10,  30,  40,  100,   // G
                                      100, 300, 130, 370};  // B
  EXPECT_EQ(out, want);
}

TEST(SatGold, HandCheckedRowAndColumn) {
  const std::vector<uint8_t> row = {5, 0, 0, 0, 7, 0, 0, 0, 255, 0, 0, 0};  // 3x1
  std::vector<uint32_t> out(3, 1u);
  scandof::sat_gold(row.data(), 3, 1, out.data(), 1);
  EXPECT_EQ(out, (std::vector<uint32_t>{5, 12, 267}));
  std::vector<uint32_t> col(3, 1u);
  scandof::sat_gold(row.data(), 1, 3, col.data(), 1);  // same bytes read as a 1x3 column
  EXPECT_EQ(col, (std::vector<uint32_t>{5, 12, 267}));
}

TEST(SatGold, AlphaChannelWhenAskedFor) {
  const std::vector<uint8_t> img = {1, 2, 3, 4, 5, 6, 7, 8};  // 2x1
  std::vector<uint32_t> out(8, 0u);
  scandof::sat_gold(img.data(), 2, 1, out.data(), 4);
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 6, 2, 8, 3, 10, 4, 12}));
}

TEST(SatGold, EmptyImageIsANoOp) {
  std::vector<uint32_t> out(1, 42u);
  scandof::sat_gold(nullptr, 0, 5, out.data(), 3);
  EXPECT_EQ(out[0], 42u);
}

TEST(SatGold, BadArgumentsThrow) {
  uint8_t px[4] = {1, 2, 3, 4};
  uint32_t o[4];
  EXPECT_THROW(scandof::sat_gold(px, 1, 1, o, 0), std::invalid_argument);
  EXPECT_THROW(scandof::sat_gold(px, 1, 1, o, 5), std::invalid_argument);
  EXPECT_THROW(scandof::sat_gold(px, -1, 1, o, 3), std::invalid_argument);
  EXPECT_THROW(scandof::sat_gold(nullptr, 1, 1, o, 3), std::invalid_argument);
  EXPECT_EQ(scandof::SatBuilder::table_bytes(1920, 1080), 1920u * 1080u * 3u * 4u);
  EXPECT_THROW(scandof::SatBuilder::table_bytes(4, 4, 0), std::invalid_argument);
}

class SatGoldRandom : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(SatGoldRandom, MatchesBruteForceBoxSum) {
  const auto [w, h] = GetParam();
  const auto img = random_rgba(w, h, 1234u + w * 31u + h);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  std::vector<uint32_t> u(plane * 4, 0xA5A5A5A5u);
  std::vector<float> f(plane * 4, std::nanf(""));
  scandof::sat_gold(img.data(), w, h, u.data(), 4);
  scandof::sat_gold(img.data(), w, h, f.data(), 4);
  for (int c = 0; c < 4; ++c)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = c * plane + static_cast<std::size_t>(y) * w + x;
        const uint64_t want = brute(img, w, x, y, c);
        ASSERT_EQ(u[i], static_cast<uint32_t>(want)) << "c=" << c << " x=" << x << " y=" << y;
        // Integers below 2^24 are exact in float and so is every partial sum: no rounding.
        ASSERT_EQ(f[i], static_cast<float>(want)) << "c=" << c << " x=" << x << " y=" << y;
      }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SatGoldRandom,
                         ::testing::Values(std::make_pair(1, 1), std::make_pair(1, 7),
                                           std::make_pair(7, 1), std::make_pair(5, 3),
                                           std::make_pair(31, 33), std::make_pair(40, 17)));

// Past 2^24 the float table rounds: sequential sums of non-negative terms stay within
// gamma_{x+y} = (x+y)u / (1-(x+y)u) of the exact value (u = 2^-24, one rounding per addition).
TEST(SatGold, FloatWithinSummationBoundOnLargeImage) {
  const int w = 1500, h = 1200;  // totals reach ~2.3e8 > 2^24
  std::vector<uint8_t> img(static_cast<std::size_t>(w) * h * 4, 0);
  std::mt19937 rng(99);
  for (auto& v : img) v = static_cast<uint8_t>(200 + rng() % 56);
  std::vector<uint32_t> u(static_cast<std::size_t>(w) * h);
  std::vector<float> f(u.size(), std::nanf(""));
  scandof::sat_gold(img.data(), w, h, u.data(), 1);
  scandof::sat_gold(img.data(), w, h, f.data(), 1);
  const double unit = std::ldexp(1.0, -24);
  double worst = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      const double exact = u[i], k = x + y;
      const double bound = k * unit / (1 - k * unit) * exact;
      const double err = std::fabs(double(f[i]) - exact);
      ASSERT_LE(err, bound) << "x=" << x << " y=" << y;
      worst = std::max(worst, err);
    }
  EXPECT_GT(worst, 0.0) << "expected some rounding past 2^24";
}

}  // namespace
