// CPU tests of the tone mapping gold (scandof/tonemap.hpp): every curve monotonic, 0 -> 0 and
// finite for any input; exposure as a doubling of radiance per stop; auto exposure of constant
// images; the sRGB encoding at the standard's breakpoints; the names; whole-image tone_map.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/tonemap.hpp"

namespace sd = scandof;

namespace {

const sd::ToneMapper kMappers[] = {sd::ToneMapper::Aces, sd::ToneMapper::AgX,
                                   sd::ToneMapper::Reinhard};

// Radiance from 0 to 1e4 in geometric steps (dense where the curves bend), 0 first.
std::vector<float> radiance_ramp() {
  std::vector<float> v = {0.0f};
  for (float x = 1e-6f; x <= 1e4f; x *= 1.01f) v.push_back(x);
  v.push_back(1e4f);
  return v;
}

void curve(sd::ToneMapper m, float r, float g, float b, float* out) {
  sd::tone_curve(m, r, g, b, sd::kReinhardDefaultWhite, out);
}

float lum(const float* c) { return sd::bt709_luminance(c[0], c[1], c[2]); }

}  // namespace

TEST(ToneMap, GreyIsMonotonicInEveryChannel) {
  const auto ramp = radiance_ramp();
  for (auto m : kMappers) {
    float prev[3] = {0, 0, 0};
    curve(m, 0, 0, 0, prev);
    for (float x : ramp) {
      float o[3];
      curve(m, x, x, x, o);
      for (int c = 0; c < 3; ++c) {
        ASSERT_GE(o[c], prev[c]) << sd::to_string(m) << " channel " << c << " at " << x;
        ASSERT_GE(o[c], 0.0f);
        ASSERT_LE(o[c], 1.0f);
      }
      std::copy(o, o + 3, prev);
    }
    // A curve that ends anywhere but white would be a bug in its constants.
    EXPECT_GT(prev[0], 0.99f) << sd::to_string(m);
  }
}

// Strictly (to float rounding) for ACES and Reinhard. AgX's published polynomial ends at 0.99838,
// not 1, so once one inset channel has saturated the outset matrix's negative terms let the
// others' last rise pull its output down a little: luminance falls by up to about 3e-4 near white
// (2000 random colours), a tenth of an 8-bit level there. The bound below is that, not a licence.
TEST(ToneMap, ColouredInputsAreMonotonicInLuminance) {
  std::vector<std::array<float, 3>> colours = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0.5f, 0.1f},
                                               {0.2f, 0.3f, 1}, {0.9f, 0.9f, 0.1f}};
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int i = 0; i < 200; ++i) colours.push_back({u(rng), u(rng), u(rng)});
  const auto ramp = radiance_ramp();
  for (auto m : kMappers) {
    const float tol = m == sd::ToneMapper::AgX ? 5e-4f : 1e-6f;
    for (const auto& c : colours) {
      float prev = 0;
      for (float x : ramp) {
        float o[3];
        curve(m, c[0] * x, c[1] * x, c[2] * x, o);
        ASSERT_GE(lum(o), prev - tol)
            << sd::to_string(m) << " colour " << c[0] << "," << c[1] << "," << c[2] << " x " << x;
        prev = std::max(prev, lum(o));
      }
    }
  }
}

TEST(ToneMap, ZeroMapsToZeroAndHugeValuesStayFinite) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (auto m : kMappers) {
    uint8_t px[3];
    sd::tone_map_pixel(0, 0, 0, 1.0f, m, sd::kReinhardDefaultWhite, px);
    EXPECT_EQ(px[0], 0);
    EXPECT_EQ(px[1], 0);
    EXPECT_EQ(px[2], 0);
    float o[3];
    curve(m, 0, 0, 0, o);
    EXPECT_EQ(o[0], 0.0f) << sd::to_string(m);
    EXPECT_EQ(lum(o), 0.0f) << sd::to_string(m);
    for (float big : {1e4f, 1e8f, 1e20f, 3e38f, inf}) {
      curve(m, big, big, big, o);
      for (float v : o) EXPECT_TRUE(std::isfinite(v)) << sd::to_string(m) << " " << big;
      EXPECT_GT(o[1], 0.99f) << sd::to_string(m) << " " << big;
      curve(m, big, 0, 0.5f, o);
      for (float v : o) EXPECT_TRUE(std::isfinite(v)) << sd::to_string(m) << " " << big;
    }
    // NaN and negative channels count as 0.
    curve(m, nan, -5.0f, 0.0f, o);
    EXPECT_EQ(lum(o), 0.0f) << sd::to_string(m);
  }
}

TEST(ToneMap, OneStopDoublesTheRadiance) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> lg(-14.0f, 12.0f);
  for (auto m : kMappers)
    for (int i = 0; i < 2000; ++i) {
      const float r = std::exp2(lg(rng)), g = std::exp2(lg(rng)), b = std::exp2(lg(rng));
      for (float ev : {-3.0f, 0.0f, 2.0f}) {
        // 2^EV and 2^(EV + 1) are exact, so the exposed radiances are equal bit for bit.
        uint8_t a[3], d[3];
        sd::tone_map_pixel(r, g, b, std::exp2(ev + 1.0f), m, 11.0f, a);
        sd::tone_map_pixel(2 * r, 2 * g, 2 * b, std::exp2(ev), m, 11.0f, d);
        ASSERT_EQ(a[0], d[0]);
        ASSERT_EQ(a[1], d[1]);
        ASSERT_EQ(a[2], d[2]);
      }
    }
  // Through whole images, the settings' EV included.
  const int w = 7, h = 5;
  std::vector<float> img(w * h * 3), twice(img.size());
  for (std::size_t i = 0; i < img.size(); ++i) {
    img[i] = std::exp2(lg(rng));
    twice[i] = 2 * img[i];
  }
  for (auto m : kMappers) {
    sd::ToneMapSettings s;
    s.mapper = m;
    std::vector<uint8_t> a(w * h * 4), b(a.size());
    s.exposure_ev = 1.0f;
    EXPECT_EQ(sd::tone_map(img.data(), 3, w, h, s, a.data()), 1.0f);
    s.exposure_ev = 0.0f;
    sd::tone_map(twice.data(), 3, w, h, s, b.data());
    EXPECT_EQ(a, b) << sd::to_string(m);
  }
}

TEST(ToneMap, AutoExposureOfAConstantImage) {
  const int w = 13, h = 9;
  for (float L : {1e-3f, 0.18f, 1.0f, 37.5f, 6e4f}) {
    std::vector<float> img(w * h * 4, L);
    EXPECT_NEAR(sd::auto_exposure_ev(img.data(), 4, w, h, 0.0f), std::log2(0.18 / L), 1e-5) << L;
    EXPECT_NEAR(sd::auto_exposure_ev(img.data(), 4, w, h, -1.5f), std::log2(0.18 / L) - 1.5, 1e-5);
    // Grey of luminance L: the auto exposure moves it to middle grey exactly as EV does.
    sd::ToneMapSettings s;
    s.auto_exposure = true;
    std::vector<uint8_t> a(w * h * 4), b(a.size());
    const float ev = sd::tone_map(img.data(), 4, w, h, s, a.data());
    EXPECT_NEAR(ev, std::log2(0.18 / L), 1e-5);
    s.auto_exposure = false;
    s.exposure_ev = ev;
    sd::tone_map(img.data(), 4, w, h, s, b.data());
    EXPECT_EQ(a, b);
  }
}

TEST(ToneMap, AutoExposureIgnoresNanAndFloorsBlack) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Two pixels of 2.0, one NaN, one infinite: the average is 2.0.
  std::vector<float> img = {2, 2, 2, nan, 1, 1, 2, 2, 2, inf, 0, 0};
  auto a = sd::log_average_luminance(img.data(), 3, 4, 1);
  EXPECT_EQ(a.pixels, 2u);
  EXPECT_NEAR(a.log2_average, 1.0, 1e-6);
  EXPECT_NEAR(sd::auto_exposure_ev(img.data(), 3, 2, 2, 0.0f), std::log2(0.18 / 2.0), 1e-5);
  // Black pixels count as the floor, so a black frame has a finite exposure.
  std::vector<float> black(12, 0.0f);
  EXPECT_NEAR(sd::auto_exposure_ev(black.data(), 3, 2, 2, 0.0f),
              std::log2(0.18 / sd::kAutoExposureMinLuminance), 1e-4);
  // Nothing finite: the compensation alone.
  std::vector<float> nans(12, nan);
  EXPECT_EQ(sd::auto_exposure_ev(nans.data(), 3, 2, 2, 0.75f), 0.75f);
  EXPECT_EQ(sd::auto_exposure_ev(nullptr, 3, 0, 0, 0.25f), 0.25f);
}

TEST(ToneMap, AdaptationMovesTowardsTheTarget) {
  EXPECT_EQ(sd::adapt_exposure_ev(1.0f, 3.0f, 0.016f, 0.0f), 3.0f);
  EXPECT_NEAR(sd::adapt_exposure_ev(1.0f, 3.0f, 0.5f, 0.5f), 1.0f + 2.0f * (1.0f - std::exp(-1.0f)),
              1e-6);
  // Two half steps = one whole step (frame-rate independence).
  const float half = sd::adapt_exposure_ev(sd::adapt_exposure_ev(0.0f, 4.0f, 0.1f, 0.3f), 4.0f,
                                           0.1f, 0.3f);
  EXPECT_NEAR(half, sd::adapt_exposure_ev(0.0f, 4.0f, 0.2f, 0.3f), 1e-5);
}

TEST(ToneMap, SrgbEncodeMatchesTheStandard) {
  // IEC 61966-2-1: 12.92 v up to 0.0031308, 1.055 v^(1/2.4) - 0.055 above; continuous there.
  EXPECT_EQ(sd::srgb_encode(0.0f), 0.0f);
  EXPECT_FLOAT_EQ(sd::srgb_encode(1.0f), 1.0f);
  // The breakpoint: linear 0.0031308 <-> encoded 0.04045 from either branch (the standard's
  // decoding breakpoint); the slope just above is about 12.7, so 1e-7 further moves 1.3e-6.
  EXPECT_FLOAT_EQ(sd::srgb_encode(0.0031308f), 12.92f * 0.0031308f);
  EXPECT_NEAR(sd::srgb_encode(0.0031308f), 0.04045f, 1e-6);
  EXPECT_NEAR(sd::srgb_encode(0.0031309f), 0.04045f + 12.7f * 1e-7f, 2e-7);
  EXPECT_NEAR(1.055 * std::pow(0.0031308, 1 / 2.4) - 0.055, 0.04045, 1e-6);
  EXPECT_NEAR(sd::srgb_encode(0.18f), 0.4613561, 1e-6);
  EXPECT_NEAR(sd::srgb_encode(0.5f), 0.7353570, 1e-6);
  EXPECT_EQ(sd::srgb_encode(-1.0f), 0.0f);
  EXPECT_FLOAT_EQ(sd::srgb_encode(7.0f), 1.0f);
  // 8 bits, rounding to nearest: middle grey is 118 (117.64), 50 % is 188 (187.52).
  EXPECT_EQ(sd::unorm8(sd::srgb_encode(0.18f)), 118);
  EXPECT_EQ(sd::unorm8(sd::srgb_encode(0.5f)), 188);
  EXPECT_EQ(sd::unorm8(0.5f / 255.0f - 1e-6f), 0);
  EXPECT_EQ(sd::unorm8(0.5f / 255.0f + 1e-6f), 1);
  EXPECT_EQ(sd::unorm8(1.0f), 255);
  // Monotonic and continuous across the breakpoint.
  float prev = 0;
  for (float v = 0; v <= 1.0f; v += 1e-5f) {
    const float e = sd::srgb_encode(v);
    ASSERT_GE(e, prev) << v;
    ASSERT_LT(e - prev, 2e-3f) << v;
    prev = e;
  }
}

TEST(ToneMap, NamesRoundTrip) {
  for (auto m : kMappers) EXPECT_EQ(sd::parse_tone_mapper(sd::to_string(m)), m);
  EXPECT_STREQ(sd::to_string(sd::ToneMapper::Aces), "aces");
  EXPECT_STREQ(sd::to_string(sd::ToneMapper::AgX), "agx");
  EXPECT_STREQ(sd::to_string(sd::ToneMapper::Reinhard), "reinhard");
  EXPECT_THROW(sd::parse_tone_mapper("ACES"), std::invalid_argument);
  EXPECT_THROW(sd::parse_tone_mapper(""), std::invalid_argument);
}

TEST(ToneMap, CurvesAtKnownPoints) {
  float o[3];
  // Reinhard: white maps to 1, 1 to (1 + 1/W^2) / 2.
  sd::tone_curve(sd::ToneMapper::Reinhard, 4, 4, 4, 4.0f, o);
  EXPECT_NEAR(o[0], 1.0f, 1e-6);
  sd::tone_curve(sd::ToneMapper::Reinhard, 1, 1, 1, 4.0f, o);
  EXPECT_NEAR(o[1], (1.0f + 1.0f / 16.0f) / 2.0f, 1e-6);
  sd::tone_curve(sd::ToneMapper::Reinhard, 1, 1, 1, std::numeric_limits<float>::infinity(), o);
  EXPECT_NEAR(o[2], 0.5f, 1e-6);
  // ACES fitted keeps grey grey (matrix rows sum to 1) and tends to white.
  sd::tone_curve(sd::ToneMapper::Aces, 0.18f, 0.18f, 0.18f, 0, o);
  EXPECT_NEAR(o[0], o[1], 1e-4);
  EXPECT_NEAR(o[1], o[2], 1e-4);
  EXPECT_NEAR(o[1], sd::aces_rrt_odt_fit(0.18f), 1e-4);
  // AgX: the outset is the inset's inverse, so grey stays (nearly) grey; its log encoding puts
  // middle grey at 10/16.5 of the way up.
  sd::tone_curve(sd::ToneMapper::AgX, 0.18f, 0.18f, 0.18f, 0, o);
  EXPECT_NEAR(o[0], o[1], 2e-3);
  EXPECT_NEAR(o[1], o[2], 2e-3);
  EXPECT_NEAR(sd::agx_encode(std::exp2(sd::kAgxMinEv)), sd::agx_contrast(0.0f), 1e-6);
  EXPECT_NEAR(sd::agx_contrast(1.0f), 1.0f, 2e-3);
}

TEST(ToneMap, WholeImageMatchesThePixelFunction) {
  const int w = 31, h = 17;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> lg(-10.0f, 10.0f);
  std::vector<float> rgba(w * h * 4), rgb(w * h * 3);
  for (int i = 0; i < w * h; ++i)
    for (int c = 0; c < 4; ++c) {
      rgba[4 * i + c] = std::exp2(lg(rng));
      if (c < 3) rgb[3 * i + c] = rgba[4 * i + c];
    }
  for (auto m : kMappers) {
    sd::ToneMapSettings s;
    s.mapper = m;
    s.exposure_ev = -1.25f;
    s.reinhard_white = 8.0f;
    std::vector<uint8_t> a(w * h * 4), b(a.size());
    sd::tone_map(rgba.data(), 4, w, h, s, a.data());
    sd::tone_map(rgb.data(), 3, w, h, s, b.data());
    EXPECT_EQ(a, b);
    for (int i = 0; i < w * h; ++i) {
      uint8_t px[3];
      sd::tone_map_pixel(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], std::exp2(-1.25f), m, 8.0f,
                         px);
      ASSERT_EQ(a[4 * i], px[0]);
      ASSERT_EQ(a[4 * i + 2], px[2]);
      ASSERT_EQ(a[4 * i + 3], 255);
    }
  }
  std::vector<uint8_t> out(4);
  EXPECT_THROW(sd::tone_map(rgb.data(), 2, 1, 1, {}, out.data()), std::invalid_argument);
  EXPECT_THROW(sd::tone_map(nullptr, 3, 1, 1, {}, out.data()), std::invalid_argument);
}
