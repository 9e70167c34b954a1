// CPU tests of the image metrics: PSNR and SSIM on identical and known pairs, SSIM against the
// independent numpy values of tests/dof_reference.py, masks, the edge band against brute force,
// and the heat map.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "scandof/image_metrics.hpp"

namespace m = scandof::metrics;

namespace {

std::vector<float> random_rgb(int w, int h, uint32_t seed, float lo = 0.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<std::size_t>(w) * h * 3);
  for (auto& x : v) x = d(rng);
  return v;
}

const std::pair<int, int> kSizes[] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {2, 3}};

}  // namespace

TEST(ImageMetrics, IdenticalImagesGiveInfinitePsnrAndSsimOne) {
  for (auto [w, h] : kSizes) {
    const auto a = random_rgb(w, h, 7u + w * 100u + h);
    EXPECT_TRUE(std::isinf(m::psnr(a.data(), a.data(), w, h))) << w << "x" << h;
    EXPECT_GT(m::psnr(a.data(), a.data(), w, h), 0.0);
    EXPECT_NEAR(m::ssim(a.data(), a.data(), w, h), 1.0, 1e-12) << w << "x" << h;
    EXPECT_NEAR(m::ssim(a.data(), a.data(), w, h, nullptr, m::SsimChannels::RgbMean), 1.0, 1e-12);
    std::vector<uint8_t> mask(static_cast<std::size_t>(w) * h, 0);
    mask[0] = 1;
    EXPECT_TRUE(std::isinf(m::psnr(a.data(), a.data(), w, h, mask.data())));
    EXPECT_NEAR(m::ssim(a.data(), a.data(), w, h, mask.data()), 1.0, 1e-12);
  }
}

TEST(ImageMetrics, KnownMseGivesKnownPsnr) {
  for (auto [w, h] : kSizes) {
    auto a = random_rgb(w, h, 11u + w, 0.25f, 0.75f);
    auto b = a;
    // Every channel off by exactly 0.1 (+ or -): MSE = 0.01 up to float rounding, PSNR = 20 dB.
    std::mt19937 rng(3);
    for (auto& x : b) x += (rng() & 1) ? 0.1f : -0.1f;
    const double want_mse = [&] {
      double s = 0;
      for (std::size_t i = 0; i < a.size(); ++i) s += double(a[i] - b[i]) * double(a[i] - b[i]);
      return s / a.size();
    }();
    EXPECT_NEAR(want_mse, 0.01, 1e-7);
    EXPECT_DOUBLE_EQ(m::mse(a.data(), b.data(), w, h), want_mse);
    EXPECT_NEAR(m::psnr(a.data(), b.data(), w, h), 20.0, 1e-4) << w << "x" << h;
    // Peak 255 on the same error in 8-bit units gives the same dB.
    EXPECT_NEAR(m::psnr_from_mse(want_mse * 255.0 * 255.0, 255.0),
                m::psnr(a.data(), b.data(), w, h), 1e-9);
  }
  // A hand value: one pixel of 2, error 0.5 in one channel of one pixel: MSE = 0.25 / 6.
  const float a[6] = {0, 0, 0, 0.5f, 0.5f, 0.5f}, b[6] = {0, 0, 0.5f, 0.5f, 0.5f, 0.5f};
  EXPECT_NEAR(m::psnr(a, b, 2, 1), 10.0 * std::log10(6.0 / 0.25), 1e-12);
}

TEST(ImageMetrics, MaskSelectsPixels) {
  const int w = 33, h = 17;
  const auto a = random_rgb(w, h, 5);
  auto b = a;
  std::vector<uint8_t> mask(static_cast<std::size_t>(w) * h, 1);
  for (int x = 0; x < w; ++x) {
    b[3 * (5 * w + x)] = 1.0f - a[3 * (5 * w + x)];  // row 5 damaged...
    mask[5 * w + x] = 0;                             // ...and masked out
  }
  EXPECT_TRUE(std::isinf(m::psnr(a.data(), b.data(), w, h, mask.data())));
  EXPECT_TRUE(std::isfinite(m::psnr(a.data(), b.data(), w, h)));
  std::vector<uint8_t> none(mask.size(), 0);
  EXPECT_TRUE(std::isnan(m::psnr(a.data(), b.data(), w, h, none.data())));
  EXPECT_TRUE(std::isnan(m::ssim(a.data(), b.data(), w, h, none.data())));
}

// The fixed pair of tests/dof_reference.py (integer formulas, float32).
TEST(ImageMetrics, SsimMatchesIndependentNumpyValues) {
  const int w = 23, h = 17;
  std::vector<float> a(static_cast<std::size_t>(w) * h * 3), b(a.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 3 + c;
        a[i] = static_cast<float>((x * 7 + y * 13 + c * 29) % 64) / 63.0f;
        const float d = static_cast<float>(((x * y + 3 * c) % 7) - 3) / 40.0f;
        b[i] = std::min(1.0f, std::max(0.0f, a[i] + d));
      }
  // Values printed by `python3 tests/dof_reference.py` (the map is float: 1e-7).
  EXPECT_NEAR(m::ssim(a.data(), b.data(), w, h), 0.989266996308, 1e-7);
  EXPECT_NEAR(m::ssim(a.data(), b.data(), w, h, nullptr, m::SsimChannels::RgbMean), 0.985144006361,
              1e-7);
  std::vector<uint8_t> inner(static_cast<std::size_t>(w) * h, 0);
  for (int y = 5; y < h - 5; ++y)
    for (int x = 5; x < w - 5; ++x) inner[static_cast<std::size_t>(y) * w + x] = 1;
  EXPECT_NEAR(m::ssim(a.data(), b.data(), w, h, inner.data()), 0.988933526748, 1e-7);
  EXPECT_NEAR(m::mse(a.data(), b.data(), w, h), 0.00261333775127, 1e-12);
  EXPECT_NEAR(m::psnr(a.data(), b.data(), w, h), 25.828044578450, 1e-8);
}

TEST(ImageMetrics, SsimFallsWithNoise) {
  const int w = 64, h = 48;
  const auto a = random_rgb(w, h, 21, 0.2f, 0.8f);
  double last = 1.0;
  for (float sigma : {0.01f, 0.05f, 0.2f}) {
    auto b = a;
    std::mt19937 rng(9);
    std::normal_distribution<float> n(0.0f, sigma);
    for (auto& x : b) x += n(rng);
    const double s = m::ssim(a.data(), b.data(), w, h);
    EXPECT_LT(s, last);
    EXPECT_GT(s, -1.0);
    last = s;
  }
}

TEST(ImageMetrics, EdgeBandOfAStep) {
  const int w = 33, h = 17;
  std::vector<float> depth(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) depth[static_cast<std::size_t>(y) * w + x] = x < 10 ? 1.0f : 5.0f;
  std::vector<uint8_t> mask(depth.size(), 7);
  // Discontinuity pixels: columns 9 and 10; within 3 of them: columns 6..13.
  EXPECT_EQ(m::edge_band_mask(depth.data(), w, h, 3.0f, mask.data()), std::size_t(8 * h));
  for (int x = 0; x < w; ++x) EXPECT_EQ(mask[x], (x >= 6 && x <= 13) ? 1 : 0) << x;
  // No discontinuity: empty band.
  std::vector<float> flat(depth.size(), 2.0f);
  EXPECT_EQ(m::edge_band_mask(flat.data(), w, h, 3.0f, mask.data()), 0u);
  for (auto v : mask) EXPECT_EQ(v, 0);
  // A smooth ramp under the threshold is no discontinuity.
  for (int x = 0; x < w; ++x)
    for (int y = 0; y < h; ++y) flat[static_cast<std::size_t>(y) * w + x] = 10.0f + 0.5f * x;
  EXPECT_EQ(m::edge_band_mask(flat.data(), w, h, 3.0f, mask.data()), 0u);
}

TEST(ImageMetrics, EdgeBandMatchesBruteForce) {
  for (auto [w, h] : {std::pair<int, int>{33, 17}, {64, 1}, {1, 64}, {1, 1}, {40, 40}}) {
    std::mt19937 rng(77u + w * 3u + h);
    std::vector<float> depth(static_cast<std::size_t>(w) * h);
    // Blocks of random depth, so discontinuities are sparse lines.
    std::uniform_real_distribution<float> z(1.0f, 3.0f);
    const int bs = 7;
    std::vector<float> blocks(static_cast<std::size_t>((w / bs + 1) * (h / bs + 1)));
    for (auto& b : blocks) b = z(rng);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        depth[static_cast<std::size_t>(y) * w + x] =
            blocks[static_cast<std::size_t>((y / bs) * (w / bs + 1) + x / bs)];
    for (float r : {0.0f, 1.0f, 2.5f, 6.0f}) {
      std::vector<uint8_t> edges(depth.size()), mask(depth.size());
      m::depth_edges(depth.data(), w, h, m::kEdgeRelativeJump, edges.data());
      m::edge_band_mask(depth.data(), w, h, r, mask.data());
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          bool near = false;
          for (int yy = 0; yy < h && !near; ++yy)
            for (int xx = 0; xx < w && !near; ++xx)
              near = edges[static_cast<std::size_t>(yy) * w + xx] &&
                     double(xx - x) * (xx - x) + double(yy - y) * (yy - y) <= double(r) * r;
          ASSERT_EQ(mask[static_cast<std::size_t>(y) * w + x], near ? 1 : 0)
              << w << "x" << h << " r " << r << " at " << x << "," << y;
        }
    }
  }
}

TEST(ImageMetrics, HeatMapAndLegend) {
  float r, g, b;
  m::heat_color(0.0f, &r, &g, &b);
  EXPECT_EQ(r + g + b, 0.0f);
  m::heat_color(1.0f, &r, &g, &b);
  EXPECT_GT(r + g + b, 2.5f);
  m::heat_color(7.0f, &r, &g, &b);  // clamped
  EXPECT_GT(r + g + b, 2.5f);
  float last = -1.0f;
  for (int i = 0; i <= 100; ++i) {
    m::heat_color(i / 100.0f, &r, &g, &b);
    const float y = 0.299f * r + 0.587f * g + 0.114f * b;
    EXPECT_GT(y, last) << "luma must rise with the error, " << i;
    last = y;
  }
  const int w = 9, h = 3;
  const auto a = random_rgb(w, h, 1);
  std::vector<uint8_t> img(static_cast<std::size_t>(w) * h * 4, 1);
  m::error_heatmap(a.data(), a.data(), w, h, 0.1f, img.data());
  for (std::size_t i = 0; i < img.size(); ++i) EXPECT_EQ(img[i], (i % 4 == 3) ? 255 : 0);
  auto bimg = a;
  for (auto& x : bimg) x = x > 0.5f ? x - 0.5f : x + 0.5f;  // error 0.5 everywhere: saturated
  m::error_heatmap(a.data(), bimg.data(), w, h, 0.1f, img.data());
  m::heat_color(1.0f, &r, &g, &b);
  EXPECT_EQ(img[0], static_cast<uint8_t>(std::floor(r * 255.0f + 0.5f)));
  std::vector<uint8_t> legend(static_cast<std::size_t>(w) * h * 4);
  m::heatmap_legend(w, h, legend.data());
  EXPECT_EQ(legend[0], 0);
  EXPECT_EQ(legend[4 * (w - 1)], img[0]);
}

TEST(ImageMetrics, Rgba8RoundTripAndCompare) {
  const int w = 5, h = 4;
  std::vector<uint8_t> px(static_cast<std::size_t>(w) * h * 4), back(px.size());
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 37 % 256);
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  m::rgba8_to_rgb(px.data(), w, h, rgb.data());
  m::rgb_to_rgba8(rgb.data(), w, h, back.data());
  for (std::size_t i = 0; i < px.size(); ++i) EXPECT_EQ(back[i], i % 4 == 3 ? 255 : px[i]);
  std::vector<float> depth(static_cast<std::size_t>(w) * h, 1.0f);
  depth[7] = 9.0f;
  std::vector<uint8_t> band(depth.size());
  EXPECT_GT(m::edge_band_mask(depth.data(), w, h, 1.0f, band.data()), 0u);
  const auto q = m::compare(rgb.data(), rgb.data(), w, h, band.data());
  EXPECT_TRUE(std::isinf(q.psnr_db));
  EXPECT_TRUE(std::isinf(q.edge_psnr_db));
  EXPECT_NEAR(q.ssim, 1.0, 1e-12);
  EXPECT_NEAR(q.edge_ssim, 1.0, 1e-12);
  EXPECT_GT(q.edge_pixels, 0u);
}
