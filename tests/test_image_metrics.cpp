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

// ---- HDR radiance metrics ----

namespace {

// Radiance with highlights: log-uniform over 2^-8 .. 2^6 per channel.
std::vector<float> random_radiance(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> lg(-8.0f, 6.0f);
  std::vector<float> v(static_cast<std::size_t>(w) * h * 3);
  for (auto& x : v) x = std::exp2(lg(rng));
  return v;
}

double y709(const float* p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }

}  // namespace

TEST(ImageMetricsHdr, IdenticalImagesGiveNoErrorAndInfinitePsnr) {
  const int w = 41, h = 23;
  const auto r = random_radiance(w, h, 1);
  const auto e = m::highlight_energy_error(r.data(), r.data(), w, h);
  EXPECT_EQ(e.relative_error, 0.0);
  EXPECT_EQ(e.signed_error, 0.0);
  std::size_t want = 0;
  for (int i = 0; i < w * h; ++i) want += y709(&r[3 * i]) > 1.0;
  EXPECT_EQ(e.pixels, want);
  EXPECT_GT(e.pixels, 0u);
  const double p = m::log_luminance_psnr(r.data(), r.data(), w, h);
  EXPECT_TRUE(std::isinf(p) && p > 0);
}

TEST(ImageMetricsHdr, ScalingByTenPercent) {
  const int w = 41, h = 23;
  const auto r = random_radiance(w, h, 2);
  std::vector<float> up(r), down(r);
  for (std::size_t i = 0; i < r.size(); ++i) {
    up[i] = r[i] * 1.1f;
    down[i] = r[i] * 0.9f;
  }
  const auto e = m::highlight_energy_error(up.data(), r.data(), w, h);
  EXPECT_NEAR(e.relative_error, 0.1, 1e-6);
  EXPECT_NEAR(e.signed_error, 0.1, 1e-6);
  const auto d = m::highlight_energy_error(down.data(), r.data(), w, h);
  EXPECT_NEAR(d.relative_error, 0.1, 1e-6);
  EXPECT_NEAR(d.signed_error, -0.1, 1e-6);
  EXPECT_EQ(d.pixels, e.pixels);  // the mask is the reference's
  // log2(eps + 1.1 Y) - log2(eps + Y) ~ log2(1.1) wherever Y >> eps (here Y >= 2^-8 = 39 eps),
  // so PSNR ~ 20 log10(range / log2(1.1)), range the reference's in log2(eps + Y).
  double lo = 1e300, hi = -1e300;
  for (int i = 0; i < w * h; ++i) {
    const double l = std::log2(m::kLogLuminanceEps + y709(&r[3 * i]));
    lo = std::min(lo, l);
    hi = std::max(hi, l);
  }
  const double want = 20.0 * std::log10((hi - lo) / std::log2(1.1));
  EXPECT_NEAR(m::log_luminance_psnr(up.data(), r.data(), w, h), want, 0.1);
  // The error of a stop is about 20 log10(1 / log2(1.1)) = 17.2 dB worse than that of 10 %.
  std::vector<float> twice(r);
  for (auto& x : twice) x *= 2.0f;
  EXPECT_NEAR(m::log_luminance_psnr(up.data(), r.data(), w, h) -
                  m::log_luminance_psnr(twice.data(), r.data(), w, h),
              20.0 * std::log10(1.0 / std::log2(1.1)), 0.1);
}

TEST(ImageMetricsHdr, OnlyHighlightsCount) {
  // Two pixels: reference luminance 0.5 (not a highlight) and 4 (one). The image keeps the
  // highlight and changes the dim pixel: no energy error; it then loses a quarter of the highlight.
  std::vector<float> ref = {0.5f, 0.5f, 0.5f, 4.0f, 4.0f, 4.0f};
  std::vector<float> img = {0.1f, 0.1f, 0.1f, 4.0f, 4.0f, 4.0f};
  auto e = m::highlight_energy_error(img.data(), ref.data(), 2, 1);
  EXPECT_EQ(e.pixels, 1u);
  EXPECT_NEAR(e.relative_error, 0.0, 1e-12);
  img[3] = img[4] = img[5] = 3.0f;
  e = m::highlight_energy_error(img.data(), ref.data(), 2, 1);
  EXPECT_NEAR(e.signed_error, -0.25, 1e-12);
  EXPECT_NEAR(e.relative_error, 0.25, 1e-12);
  // A lower threshold takes the dim pixel in: (0.1 + 3) vs (0.5 + 4).
  e = m::highlight_energy_error(img.data(), ref.data(), 2, 1, 0.25);
  EXPECT_EQ(e.pixels, 2u);
  EXPECT_NEAR(e.signed_error, (3.1 - 4.5) / 4.5, 1e-6);
  // No highlight: NaN, count 0.
  const std::vector<float> dim = {0.5f, 0.5f, 0.5f, 0.9f, 0.9f, 0.9f};
  e = m::highlight_energy_error(dim.data(), dim.data(), 2, 1);
  EXPECT_TRUE(std::isnan(e.relative_error));
  EXPECT_TRUE(std::isnan(e.signed_error));
  EXPECT_EQ(e.pixels, 0u);
}

TEST(ImageMetricsHdr, LogLuminancePsnrByHand) {
  // Reference luminances 1 and 2^10 - eps (so l = 0 .. 10 after the eps): peak = 10 stops.
  const float eps = static_cast<float>(m::kLogLuminanceEps);
  const float y1 = 1.0f - eps, y2 = 1024.0f - eps;
  std::vector<float> ref = {y1, y1, y1, y2, y2, y2};
  // The image one stop off at the bright pixel: l = 9 there; MSE = 1 / 2.
  const float y3 = 512.0f - eps;
  std::vector<float> img = {y1, y1, y1, y3, y3, y3};
  EXPECT_NEAR(m::log_luminance_psnr(img.data(), ref.data(), 2, 1), 10.0 * std::log10(100.0 / 0.5),
              1e-3);
  // Black and negative pixels count as luminance 0: l = log2(eps), finite.
  std::vector<float> black = {0.0f, -1e-3f, 0.0f, y2, y2, y2};
  const double p = m::log_luminance_psnr(black.data(), ref.data(), 2, 1);
  EXPECT_TRUE(std::isfinite(p));
  // A flat reference has no range: NaN unless identical.
  const std::vector<float> flat = {2, 2, 2, 2, 2, 2};
  EXPECT_TRUE(std::isnan(m::log_luminance_psnr(ref.data(), flat.data(), 2, 1)));
  EXPECT_TRUE(std::isinf(m::log_luminance_psnr(flat.data(), flat.data(), 2, 1)));
  // NaN in the image: NaN.
  img[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(m::log_luminance_psnr(img.data(), ref.data(), 2, 1)));
  EXPECT_TRUE(std::isnan(m::log_luminance_psnr(nullptr, nullptr, 0, 0)));
}
