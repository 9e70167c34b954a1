// The tone-map pass (passes/tonemap_pass.*) on whatever EGL offers (Mesa llvmpipe surfaceless in
// CI) against the CPU gold scandof::tone_map on random HDR images: every tone mapper, manual and
// auto exposure, odd sizes, NaN/infinite/negative pixels; the GPU's measured EV read back through
// the pass's non-blocking ring; the temporal smoothing; and the GLSL twin's constants against the
// header's. Built by tests/tonemap_gl.cmake (not a *_test.cpp: scandof_app_tests has no GL).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "passes/tonemap_pass.hpp"
#include "scandof/gl/context.hpp"
#include "scandof/hdr.hpp"
#include "scandof/tonemap.hpp"

namespace demo {
namespace {

namespace sd = scandof;
namespace gl = scandof::gl;

const sd::ToneMapper kMappers[] = {sd::ToneMapper::Aces, sd::ToneMapper::AgX,
                                   sd::ToneMapper::Reinhard};

struct Gl {
  std::unique_ptr<gl::HeadlessContext> ctx;
  std::unique_ptr<TonemapPass> pass;
  std::string error;
};
Gl& gl_state() {
  static Gl g = [] {
    Gl r;
    try {
      r.ctx = std::make_unique<gl::HeadlessContext>();
      r.pass = std::make_unique<TonemapPass>(SCANDOF_SOURCE_DIR);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    return r;
  }();
  return g;
}
// No context is a failure, not a skip: CI has Mesa.
#define REQUIRE_GL() ASSERT_TRUE(gl_state().pass) << "no usable GL context: " << gl_state().error

// Random radiance as RGBA halves (what an RGBA16F target holds) and the same values as floats:
// each channel log-uniform over 2^-13 .. 2^13 (normal halves only: a driver may flush subnormal
// ones), a few zeros, negatives, NaNs and infinities.
struct HdrImage {
  int w, h;
  std::vector<uint16_t> half;
  std::vector<float> rgba;
};
HdrImage random_hdr(int w, int h, uint32_t seed, float scale = 1.0f) {
  HdrImage im{w, h, {}, {}};
  const std::size_t n = static_cast<std::size_t>(w) * h * 4;
  im.half.resize(n);
  im.rgba.resize(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> lg(-13.0f, 13.0f);
  std::uniform_int_distribution<int> special(0, 99);
  for (std::size_t i = 0; i < n; ++i) {
    float v = std::exp2(lg(rng)) * scale;
    if (i % 4 != 3) {
      const int s = special(rng);
      if (s == 0) v = 0.0f;
      else if (s == 1) v = -0.01f;
      else if (s == 2 && i > 4) v = std::numeric_limits<float>::quiet_NaN();
      else if (s == 3 && i > 4) v = std::numeric_limits<float>::infinity();
    }
    im.half[i] = sd::float_to_half(v);
    im.rgba[i] = sd::half_to_float(im.half[i]);
  }
  return im;
}

struct Textures {
  gl::GlTexture radiance, out;
};
Textures upload(const HdrImage& im) {
  Textures t;
  t.radiance = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(t.radiance.get(), 1, GL_RGBA16F, im.w, im.h);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.radiance.get(), 0, 0, 0, im.w, im.h, GL_RGBA, GL_HALF_FLOAT,
                      im.half.data());
  t.out = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(t.out.get(), 1, GL_RGBA8, im.w, im.h);
  return t;
}
std::vector<uint8_t> read_rgba8(GLuint tex, int w, int h) {
  std::vector<uint8_t> v(static_cast<std::size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(v.size()), v.data());
  return v;
}

// Largest per-channel difference; also how many channels differ at all.
int max_diff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, std::size_t* differ) {
  int m = 0;
  *differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const int d = std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
    m = std::max(m, d);
    *differ += d != 0;
  }
  return m;
}

const std::pair<int, int> kSizes[] = {{97, 61}, {1, 1}, {300, 17}, {16, 16}};

TEST(TonemapPassGl, ManualExposureMatchesTheGold) {
  REQUIRE_GL();
  for (auto [w, h] : kSizes) {
    const HdrImage im = random_hdr(w, h, 17u + static_cast<uint32_t>(w * 1000 + h));
    Textures t = upload(im);
    for (auto m : kMappers)
      for (float ev : {0.0f, -2.5f, 3.0f}) {
        sd::ToneMapSettings s;
        s.mapper = m;
        s.exposure_ev = ev;
        s.reinhard_white = 12.0f;
        gl_state().pass->run(t.radiance.get(), t.out.get(), w, h, s);
        const auto gpu = read_rgba8(t.out.get(), w, h);
        std::vector<uint8_t> gold(gpu.size());
        sd::tone_map(im.rgba.data(), 4, w, h, s, gold.data());
        std::size_t differ = 0;
        EXPECT_LE(max_diff(gpu, gold, &differ), 1)
            << w << "x" << h << " " << sd::to_string(m) << " EV " << ev;
        // Off by one only at rounding ties: a few per cent of the channels at most.
        EXPECT_LE(differ, gpu.size() / 20 + 1) << sd::to_string(m) << " EV " << ev;
      }
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(TonemapPassGl, AutoExposureMatchesTheGold) {
  REQUIRE_GL();
  TonemapPass& pass = *gl_state().pass;
  for (auto [w, h] : kSizes) {
    for (float scale : {1.0f, 1.0f / 64.0f}) {
      const HdrImage im = random_hdr(w, h, 99u + static_cast<uint32_t>(w + h), scale);
      Textures t = upload(im);
      for (auto m : kMappers) {
        sd::ToneMapSettings s;
        s.mapper = m;
        s.auto_exposure = true;
        s.exposure_ev = 0.5f;  // compensation
        pass.run(t.radiance.get(), t.out.get(), w, h, s);
        const auto gpu = read_rgba8(t.out.get(), w, h);
        std::vector<uint8_t> gold(gpu.size());
        const float ev = sd::tone_map(im.rgba.data(), 4, w, h, s, gold.data());
        std::size_t differ = 0;
        EXPECT_LE(max_diff(gpu, gold, &differ), 1) << w << "x" << h << " " << sd::to_string(m);
        // The EV the GPU measured, through the non-blocking readback once the GPU is done.
        glFinish();
        const TonemapPass::Exposure& e = pass.exposure();
        const sd::LogAverage la = sd::log_average_luminance(im.rgba.data(), 4, w, h);
        EXPECT_NEAR(e.ev_measured, ev, 1e-3) << w << "x" << h;
        EXPECT_EQ(e.ev_applied, e.ev_measured) << "no smoothing asked for";
        EXPECT_EQ(e.pixels, la.pixels);
        EXPECT_NEAR(e.log2_average, la.log2_average, 1e-3);
        EXPECT_EQ(pass.last_measured_ev(), e.ev_measured);
      }
    }
  }
}

TEST(TonemapPassGl, ConstantImageGetsMiddleGrey) {
  REQUIRE_GL();
  const int w = 33, h = 21;
  HdrImage im{w, h, std::vector<uint16_t>(w * h * 4), std::vector<float>(w * h * 4)};
  for (std::size_t i = 0; i < im.half.size(); ++i) {
    im.half[i] = sd::float_to_half(5.0f);
    im.rgba[i] = 5.0f;
  }
  Textures t = upload(im);
  sd::ToneMapSettings s;
  s.auto_exposure = true;
  gl_state().pass->run(t.radiance.get(), t.out.get(), w, h, s);
  glFinish();
  EXPECT_NEAR(gl_state().pass->last_measured_ev(), std::log2(0.18 / 5.0), 1e-4);
}

// Smoothing: frame A exposes for itself (reset), frame B (4x brighter: 2 stops less) moves
// 1 - e^(-dt / tau) of the way, and its image is the gold's at that EV.
TEST(TonemapPassGl, TemporalSmoothing) {
  REQUIRE_GL();
  TonemapPass& pass = *gl_state().pass;
  const int w = 64, h = 40;
  const HdrImage a = random_hdr(w, h, 5u), b = random_hdr(w, h, 5u, 4.0f);
  Textures ta = upload(a), tb = upload(b);
  sd::ToneMapSettings s;
  s.auto_exposure = true;
  s.adaptation_s = 0.5f;
  pass.reset_adaptation();
  pass.run(ta.radiance.get(), ta.out.get(), w, h, s, 0.016f);
  const float ev_a = sd::auto_exposure_ev(a.rgba.data(), 4, w, h, 0.0f);
  const float ev_b = sd::auto_exposure_ev(b.rgba.data(), 4, w, h, 0.0f);
  // About 2 stops less (not exactly: 4x pushes the top pixels past the halves' range).
  EXPECT_LT(ev_b, ev_a - 1.9f);
  glFinish();
  EXPECT_NEAR(pass.exposure().ev_applied, ev_a, 1e-3);
  pass.run(tb.radiance.get(), tb.out.get(), w, h, s, 0.25f);
  glFinish();
  const float want = sd::adapt_exposure_ev(ev_a, ev_b, 0.25f, 0.5f);
  const TonemapPass::Exposure& e = pass.exposure();
  EXPECT_NEAR(e.ev_measured, ev_b, 1e-3);
  EXPECT_NEAR(e.ev_applied, want, 1e-3);
  const auto gpu = read_rgba8(tb.out.get(), w, h);
  std::vector<uint8_t> gold(gpu.size());
  sd::ToneMapSettings manual;
  manual.exposure_ev = e.ev_applied;
  sd::tone_map(b.rgba.data(), 4, w, h, manual, gold.data());
  std::size_t differ = 0;
  EXPECT_LE(max_diff(gpu, gold, &differ), 1);
  // Manual exposure in between leaves the adaptation's state alone.
  pass.run(tb.radiance.get(), tb.out.get(), w, h, sd::ToneMapSettings{}, 0.25f);
  pass.run(tb.radiance.get(), tb.out.get(), w, h, s, 0.25f);
  glFinish();
  EXPECT_NEAR(pass.exposure().ev_applied, sd::adapt_exposure_ev(want, ev_b, 0.25f, 0.5f), 1e-3);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The GLSL twin carries the same constants: every float literal of the header's maths (digits
// with a decimal point and an f suffix) appears, spelled the same, in shaders/tonemap.glsl. Not
// there: Reinhard's default white (a C++ setting, passed as a uniform) and the 8-bit rounding's
// 255 and 0.5 (the rgba8 image store converts).
TEST(TonemapPassGl, ShaderTwinHasTheSameConstants) {
  const std::string root = SCANDOF_SOURCE_DIR;
  const std::string hdr = slurp(root + "/kernels/include/scandof/tonemap.hpp");
  const std::string glsl = slurp(root + "/shaders/tonemap.glsl");
  ASSERT_FALSE(hdr.empty());
  ASSERT_FALSE(glsl.empty());
  std::size_t n = 0;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 0; i < hdr.size(); ++i) {
    if (!digit(hdr[i]) || (i > 0 && (std::isalnum(static_cast<unsigned char>(hdr[i - 1])) ||
                                     hdr[i - 1] == '.' || hdr[i - 1] == '_'))) {
      continue;
    }
    std::size_t j = i;
    while (j < hdr.size() && (digit(hdr[j]) || hdr[j] == '.' || hdr[j] == 'e' ||
                              (hdr[j] == '-' && hdr[j - 1] == 'e')))
      ++j;
    const std::string num = hdr.substr(i, j - i);
    if (j < hdr.size() && hdr[j] == 'f' && num.find_first_of(".e") != std::string::npos &&
        num != "0.0" && num != "1.0" && num != "2.0" && num != "16.0" && num != "255.0" &&
        num != "0.5") {
      EXPECT_NE(glsl.find(num + "f"), std::string::npos) << num << " is not in tonemap.glsl";
      ++n;
    }
    i = j;
  }
  EXPECT_GE(n, 45u) << "the scan of the header found too few constants";
}

}  // namespace
}  // namespace demo
