// The OpenGL compute SAT backend (glsat/, scandof::gl::GlSatBuilder) against the CPU reference,
// run wherever EGL offers desktop GL 4.3+: Mesa llvmpipe through EGL surfaceless in CI (no GPU),
// the GPU's driver elsewhere. Every variant at awkward sizes, the fused path in both shapes
// (GlSatPolicy) and through every pixel path: uint32 tables bit-exact, float tables within the
// bound documented at float_bound(), both against scandof::sat_gold's SatLayout::Interleaved.
// Output buffers are poisoned before every build.
//
// The one-pass fused build's decoupled look-back runs on every context (GlSatSupport::lookback:
// the storage blocks it binds): a workgroup that has polled a predecessor long enough computes
// that tile's sums itself (the decoupled fallback), so no wait depends on scheduling and none can
// end early. ctest runs the one-pass tests with LP_NUM_THREADS 1, 2, 4 and 8 (gl_sat.cmake), where
// threads preempted by the OS make the fallback run for real; policies with no polls (the
// fallback on every tile) and with one poll run everywhere. Every build is compared word for word.
//
// The subgroup variants (HAVE_SUBGROUP, FUSED_SUBGROUP) run only where the context offers
// GL_KHR_shader_subgroup arithmetic: NVIDIA's driver, not Mesa 22.3's llvmpipe, where their tests
// skip saying so and glslangValidator (ctest glsat_shaders_compile) is their only check.
//
// Environment: SCANDOF_TEST_SEED (base seed), SCANDOF_GLSAT_SHADERS (shader folder; default the
// source tree's glsat/shaders/; set it where the binary runs away from its source tree, as on the
// GPU machine), SCANDOF_GLSAT_HAMMER (rounds of GlSat.FusedOnePassHammer; default 3),
// SCANDOF_GLSAT_SWEEP_BUILDS (builds of GlSat.FusedOnePassSweep; default 200, 40 on software
// rasterizers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "scandof/gl/context.hpp"
#include "scandof/gl/sat_builder.hpp"
#include "scandof/gl/util.hpp"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/rng.hpp"

namespace {

using scandof::SatFormat;
using scandof::gl::GlSatBuilder;
using scandof::gl::GlSatFusedBuild;
using scandof::gl::GlSatPolicy;
using scandof::gl::GlSatVariant;

constexpr std::uint32_t kPoison = 0xDEADBEEFu;

std::string shader_dir() {
  const char* s = std::getenv("SCANDOF_GLSAT_SHADERS");
  return s && *s ? s : SCANDOF_SOURCE_DIR "/glsat/shaders";
}

std::uint64_t base_seed() {
  const char* s = std::getenv("SCANDOF_TEST_SEED");
  return s && *s ? std::strtoull(s, nullptr, 0) : 0x5CA9D0Full;
}

// One context and builder for the whole run (EGL displays are costly to make and tear down).
struct Gl {
  std::unique_ptr<scandof::gl::HeadlessContext> ctx;
  std::unique_ptr<GlSatBuilder> builder;
  std::string error;
};
Gl& gl() {
  static Gl g = [] {
    Gl r;
    try {
      r.ctx = std::make_unique<scandof::gl::HeadlessContext>();
      r.builder = std::make_unique<GlSatBuilder>(shader_dir());
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    return r;
  }();
  return g;
}

// The shared builder with the fused build `fused` (and `polls` for the one pass's look-back)
// while it lives, then back to what the builder starts with on this context (default_policy).
struct FusedBuild {
  explicit FusedBuild(GlSatFusedBuild fused,
                      int polls = GlSatPolicy::kDefaultLookbackPolls) {
    GlSatPolicy p{fused};
    p.lookback_polls = polls;
    gl().builder->set_policy(p);
  }
  ~FusedBuild() { gl().builder->set_policy(scandof::gl::default_policy(gl().builder->support())); }
};

// No context is a failure, not a skip: CI has Mesa, and this is the GPU code CI itself executes.
#define REQUIRE_GL() ASSERT_TRUE(gl().builder) << "no usable GL context: " << gl().error

std::vector<std::uint8_t> random_rgba(int w, int h, std::uint64_t seed) {
  std::vector<std::uint8_t> v(static_cast<std::size_t>(w) * h * 4);
  scandof::util::SplitMix64 rng(seed);
  for (std::size_t i = 0; i < v.size(); i += 8) {
    const std::uint64_t r = rng.next();
    for (std::size_t k = 0; k < 8 && i + k < v.size(); ++k)
      v[i + k] = static_cast<std::uint8_t>(r >> (8 * k));
  }
  return v;
}

// `pad` more texels right and above the image, filled with random bytes the tables must not
// see; `mutable_storage`: glTexImage2D instead of glTexStorage2D (no texture view possible).
scandof::gl::GlTexture upload(const std::vector<std::uint8_t>& rgba, int w, int h, int pad = 0,
                              bool mutable_storage = false) {
  scandof::gl::GlTexture tex = scandof::gl::make_texture(GL_TEXTURE_2D);
  const int tw = w + pad, th = h + pad;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const auto noise = random_rgba(tw, th, 0xBADC0FFEEull);
  if (mutable_storage) {
    glBindTexture(GL_TEXTURE_2D, tex.get());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, tw, th, 0, GL_RGBA, GL_UNSIGNED_BYTE, noise.data());
    glTextureParameteri(tex.get(), GL_TEXTURE_MAX_LEVEL, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
  } else {
    glTextureStorage2D(tex.get(), 1, GL_RGBA8, tw, th);
    glTextureSubImage2D(tex.get(), 0, 0, 0, tw, th, GL_RGBA, GL_UNSIGNED_BYTE, noise.data());
  }
  glTextureSubImage2D(tex.get(), 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  return tex;
}

// Builds into a poisoned buffer and reads it back (4 words per pixel).
std::vector<std::uint32_t> build(GlSatBuilder& builder, const scandof::gl::GlTexture& tex, int w,
                                 int h, GlSatVariant v, SatFormat f) {
  const std::size_t bytes = GlSatBuilder::table_bytes(w, h);
  scandof::gl::GlBuffer buf = scandof::gl::make_buffer();
  glNamedBufferData(buf.get(), static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_READ);
  glClearNamedBufferData(buf.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &kPoison);
  builder.build_into(tex.get(), w, h, v, f, buf.get(), true);
  std::vector<std::uint32_t> out(bytes / 4);
  glGetNamedBufferSubData(buf.get(), 0, static_cast<GLsizeiptr>(bytes), out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR)) << "OpenGL error during the build";
  return out;
}

// Float tables. The fused path sums in uint32 and converts once: the exact value rounded, so
// within 1 ulp of it (0.5 ulp with round-to-nearest; GLSL leaves the rounding of uint -> float to
// the implementation). The paper's pipeline sums in float: each output is a tree of at most
// ~2 log2(512) + 8 additions of non-negative partial sums (two block scans, their block-sum
// scans and adds, subgroup subtractions), each rounding by at most 2^-24 of a partial sum <= the
// output, so |gpu - exact| <= 32 * 2^-24 * exact bounds it with room.
double float_bound(GlSatVariant v, double exact) {
  if (v == GlSatVariant::Fused)
    return std::nextafter(static_cast<float>(exact), INFINITY) - static_cast<float>(exact);
  return 32.0 * std::ldexp(exact, -24);
}

struct Case {
  GlSatVariant variant;
  int w, h;
  int pad = 0;                   // texels of noise beyond the image (upload())
  bool mutable_storage = false;  // a glTexImage2D texture
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << scandof::gl::to_string(c.variant) << ' ' << c.w << 'x' << c.h;
}

class GlSatSweep : public ::testing::TestWithParam<Case> {};

// With `builder` (default: the shared one).
void check_case(const Case& c, GlSatBuilder* builder = nullptr) {
  GlSatBuilder& b = builder ? *builder : *gl().builder;
  const std::uint64_t seed = base_seed() ^ (static_cast<std::uint64_t>(c.w) << 32) ^ c.h;
  const auto rgba = random_rgba(c.w, c.h, seed);
  const std::size_t plane = static_cast<std::size_t>(c.w) * c.h;
  std::vector<std::uint32_t> gold(plane * 4);
  scandof::sat_gold(rgba.data(), c.w, c.h, gold.data(), 3, scandof::SatLayout::Interleaved);
  const scandof::gl::GlTexture tex = upload(rgba, c.w, c.h, c.pad, c.mutable_storage);

  {
    const auto out = build(b, tex, c.w, c.h, c.variant, SatFormat::U32);
    std::size_t bad = 0;
    for (std::size_t p = 0; p < plane; ++p)
      for (int ch = 0; ch < 4; ++ch) {
        const std::uint32_t want = gold[4 * p + ch], got = out[4 * p + ch];
        if (got != want && bad++ < 5)
          ADD_FAILURE() << "u32 (" << p % c.w << "," << p / c.w << ") channel " << ch << ": got "
                        << got << " want " << want << " (seed " << seed << ")";
      }
    EXPECT_EQ(bad, 0u) << "u32 mismatches of " << plane * 4 << " words";
  }
  {
    const auto out = build(b, tex, c.w, c.h, c.variant, SatFormat::F32);
    std::size_t bad = 0;
    double worst = 0;  // in units of the bound
    for (std::size_t p = 0; p < plane; ++p)
      for (int ch = 0; ch < 4; ++ch) {
        float got;
        std::memcpy(&got, &out[4 * p + ch], 4);
        // No wrap at the tested sizes (< 2^32 / 255 pixels): the u32 reference is exact.
        const double exact = static_cast<double>(gold[4 * p + ch]);
        const double err = std::fabs(static_cast<double>(got) - exact);
        const double bound = ch < 3 ? float_bound(c.variant, exact) : 0.0;
        if (bound > 0) worst = std::max(worst, err / bound);
        if (!(err <= bound) && bad++ < 5)
          ADD_FAILURE() << "f32 (" << p % c.w << "," << p / c.w << ") channel " << ch << ": got "
                        << got << " want " << exact << " +- " << bound << " (seed " << seed << ")";
      }
    EXPECT_EQ(bad, 0u) << "f32 values outside the bound of " << plane * 4;
    ::testing::Test::RecordProperty("f32_worst_error_over_bound", std::to_string(worst));
  }
}

TEST_P(GlSatSweep, MatchesCpuReference) {
  REQUIRE_GL();
  check_case(GetParam());
}

// The builder starts with the one-pass fused build exactly where the context supports it (every
// context with the storage blocks it binds); the three passes, the default elsewhere, are checked
// here wherever the sweep above ran the one pass.
TEST(GlSat, FusedDefaultAndThreePasses) {
  REQUIRE_GL();
  const auto& s = gl().builder->support();
  EXPECT_EQ(scandof::gl::default_policy(s).fused,
            s.one_pass ? GlSatFusedBuild::OnePass : GlSatFusedBuild::ThreePasses);
  // RGBA16F textures have their own choice, the same one today; a policy without it gives them
  // `fused`.
  EXPECT_EQ(scandof::gl::default_policy(s).fused_for(true),
            s.one_pass ? GlSatFusedBuild::OnePass : GlSatFusedBuild::ThreePasses);
  EXPECT_EQ(GlSatPolicy{GlSatFusedBuild::OnePass}.fused_for(true), GlSatFusedBuild::OnePass);
  EXPECT_TRUE(!s.one_pass || s.lookback);
  std::printf("[glsat] fused path by default: %s\n", s.one_pass ? "one pass" : "three passes");
  const FusedBuild three(GlSatFusedBuild::ThreePasses);
  for (const auto& z :
       std::vector<std::pair<int, int>>{{1, 1}, {33, 17}, {1001, 777}, {1921, 1079}})
    check_case({GlSatVariant::Fused, z.first, z.second});
}

// The one-pass fused build (sat_fused_single.comp) needs the storage blocks GlSatSupport::lookback
// names; skipped where they are missing. 1001x777, 2049x300 and 300x2049 give chains longer than
// the 32 lanes that scout them.
#define REQUIRE_LOOKBACK(b)                                                                   \
  if (!(b).support().lookback)                                                                \
  GTEST_SKIP() << "no look-back on this context (" << (b).support().reason                    \
               << "): the one pass cannot run here"

TEST(GlSat, FusedOnePass) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  const FusedBuild one(GlSatFusedBuild::OnePass);
  for (const auto& s : std::vector<std::pair<int, int>>{
           {1, 1}, {33, 17}, {129, 33}, {1001, 777}, {1921, 1079}, {2049, 300}, {300, 2049}})
    check_case({GlSatVariant::Fused, s.first, s.second});
}

// A policy asking for the one pass where look-back is not safe is refused, by set_policy and by
// the constructor, with the reason; the builder keeps its policy.
TEST(GlSat, PolicyRefusesOnePassWithoutLookback) {
  REQUIRE_GL();
  GlSatBuilder& b = *gl().builder;
  const GlSatPolicy before = b.policy();
  if (!b.support().lookback) {
    EXPECT_THROW(b.set_policy({GlSatFusedBuild::OnePass}), std::invalid_argument);
    EXPECT_EQ(b.policy().fused, before.fused);
  }
  scandof::gl::GlSatSupport no_lookback = b.support();
  no_lookback.lookback = false;
  try {
    GlSatBuilder limited(shader_dir(), {GlSatFusedBuild::OnePass}, no_lookback);
    ADD_FAILURE() << "the one pass was accepted without look-back";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lookback"), std::string::npos) << e.what();
  }
  GlSatPolicy bad_polls;
  for (const int polls : {-1, GlSatPolicy::kMaxLookbackPolls + 1}) {
    bad_polls.lookback_polls = polls;
    EXPECT_THROW(b.set_policy(bad_polls), std::invalid_argument) << polls;
  }
  EXPECT_EQ(b.policy().lookback_polls, before.lookback_polls);
  GlSatBuilder three(shader_dir(), {GlSatFusedBuild::ThreePasses}, no_lookback);
  EXPECT_FALSE(three.support().lookback);
  EXPECT_FALSE(three.support().one_pass);
  EXPECT_EQ(scandof::gl::default_policy(three.support()).fused, GlSatFusedBuild::ThreePasses);
}

// Pixels by image loads, one per pixel (what textures without immutable storage get: no texture
// view), against the gathers through an r32ui view that immutable ones get; and a texture larger
// than the image, whose texels beyond it the gathers fetch and must drop.
TEST(GlSat, FusedPixelLoads) {
  REQUIRE_GL();
  for (bool mutable_storage : {false, true})
    for (const auto& s : std::vector<std::pair<int, int>>{{1, 1}, {33, 17}, {1001, 777}}) {
      check_case({GlSatVariant::Fused, s.first, s.second, 0, mutable_storage});
      check_case({GlSatVariant::Fused, s.first, s.second, 7, mutable_storage});
    }
  check_case({GlSatVariant::Fused, 130, 35, 3, true});
}

// More tiles (65 x 34 = 2210) than the small-scans pass keeps in shared memory (2048): the
// corner sums are scanned in the buffer instead (sat_fused_aux.comp's last branch).
TEST(GlSat, FusedTileGridBeyondSharedMemory) {
  REQUIRE_GL();
  check_case({GlSatVariant::Fused, 8193, 1057});
}

// The small scans take a sequence in rounds (64 tile rows of ct, 16 tile columns of rt per round,
// sat_fused_aux.comp): 66 tile rows and 17 tile columns need a second round, with its carry.
TEST(GlSat, FusedSmallScansInRounds) {
  REQUIRE_GL();
  check_case({GlSatVariant::Fused, 2049, 2085});
  check_case({GlSatVariant::Fused, 33, 2049});
}

// Builds back to back with nothing between them but what build_into issues: several images, each
// into its own poisoned table, round after round, then every table checked. Consecutive builds
// reuse the builder's scratch with other images' sums in it, so a pass reading sums before the
// pass writing them has finished (a missing or ineffective barrier) gives a wrong table. One test
// per fused build, so that a context without the one pass skips that half saying why. 4 rounds on
// software rasterizers: llvmpipe took 500 s for 25 rounds of the one pass on a busy machine, and
// ctest runs it with four thread counts (FusedOnePassHammer repeats builds there instead).
void back_to_back(GlSatFusedBuild fused) {
  constexpr int kImages = 4;
  const int kRounds = scandof::gl::software_renderer() ? 4 : 25;
  const bool one_pass = fused == GlSatFusedBuild::OnePass;
  const FusedBuild policy(fused);
  GlSatBuilder& b = *gl().builder;
  for (const auto& s : std::vector<std::pair<int, int>>{{1921, 1079}, {513, 300}}) {
    const int w = s.first, h = s.second;
    const std::size_t plane = static_cast<std::size_t>(w) * h, bytes = plane * 16;
    std::vector<scandof::gl::GlTexture> texs;
    std::vector<scandof::gl::GlBuffer> bufs;
    std::vector<std::vector<std::uint32_t>> golds;
    for (int i = 0; i < kImages; ++i) {
      const auto rgba = random_rgba(w, h, base_seed() + 977u * static_cast<unsigned>(i));
      golds.emplace_back(plane * 4);
      scandof::sat_gold(rgba.data(), w, h, golds.back().data(), 3,
                        scandof::SatLayout::Interleaved);
      texs.push_back(upload(rgba, w, h));
      bufs.push_back(scandof::gl::make_buffer());
      glNamedBufferData(bufs.back().get(), static_cast<GLsizeiptr>(bytes), nullptr,
                        GL_DYNAMIC_READ);
    }
    for (int i = 0; i < kImages; ++i)
      glClearNamedBufferData(bufs[i].get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &kPoison);
    glFinish();
    for (int r = 0; r < kRounds; ++r)
      for (int i = 0; i < kImages; ++i)
        b.build_into(texs[i].get(), w, h, GlSatVariant::Fused, SatFormat::U32, bufs[i].get());
    for (int i = 0; i < kImages; ++i) {
      std::vector<std::uint32_t> out(plane * 4);
      glGetNamedBufferSubData(bufs[i].get(), 0, static_cast<GLsizeiptr>(bytes), out.data());
      std::size_t bad = 0;
      for (std::size_t k = 0; k < out.size(); ++k) bad += out[k] != golds[i][k];
      EXPECT_EQ(bad, 0u) << w << "x" << h << " image " << i << ": wrong words after " << kRounds
                         << " rounds of back-to-back builds"
                         << (one_pass ? " (one pass)" : " (three passes)");
    }
  }
}

TEST(GlSat, FusedBackToBackThreePasses) {
  REQUIRE_GL();
  back_to_back(GlSatFusedBuild::ThreePasses);
}

TEST(GlSat, FusedBackToBackOnePass) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  back_to_back(GlSatFusedBuild::OnePass);
}

// The one pass hammered: rounds of builds at sizes whose tile grids have ragged edges, a single
// tile row or column, chains longer than a scouting team (32) and more tiles than run at once,
// each build into a poisoned table compared word for word with the CPU gold, uint32 and float.
// With several threads (ctest test_gl_sat_lookback_threads_N) tiles wait on one another for real.
TEST(GlSat, FusedOnePassHammer) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  const char* e = std::getenv("SCANDOF_GLSAT_HAMMER");
  const int rounds = e && *e ? std::max(1, std::atoi(e)) : 3;
  const FusedBuild one(GlSatFusedBuild::OnePass);
  const std::uint64_t helps = gl().builder->lookback_helps();
  for (int r = 0; r < rounds; ++r)
    for (const auto& s : std::vector<std::pair<int, int>>{{129, 33},
                                                          {127, 4099},
                                                          {4099, 31},
                                                          {257, 65},
                                                          {1001, 777},
                                                          {4097, 97},
                                                          {300, 2049},
                                                          {1921, 1079}})
      check_case({GlSatVariant::Fused, s.first, s.second});
  std::printf("[glsat] one pass hammered: %d builds, %llu tiles computed by the fallback\n",
              rounds * 8 * 2,
              static_cast<unsigned long long>(gl().builder->lookback_helps() - helps));
}

// Sizes of the sweep and fallback tests: one tile, ragged edges, chains longer than a scouting
// team, the demo's 1080p frame.
const std::vector<std::pair<int, int>> kRaggedSizes = {{1, 1}, {33, 17}, {1001, 777}, {1920, 1080}};

// The decoupled fallback on every tile: a policy of no polls makes each look-back's first round
// take no flag and compute every predecessor it needs from the pixels; exact all the same, and
// the fallback counted. Then one poll a flag, where tiles fall back whenever a predecessor is a
// moment late (on llvmpipe with several threads, often).
TEST(GlSat, FusedOnePassForcedFallback) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  for (const int polls : {0, 1}) {
    const FusedBuild one(GlSatFusedBuild::OnePass, polls);
    const std::uint64_t before = gl().builder->lookback_helps();
    for (const auto& z : kRaggedSizes) check_case({GlSatVariant::Fused, z.first, z.second});
    check_case({GlSatVariant::Fused, 300, 2049});  // a column chain of 64 tiles
    const std::uint64_t helps = gl().builder->lookback_helps() - before;
    std::printf("[glsat] %d polls: %llu tiles computed by the fallback\n", polls,
                static_cast<unsigned long long>(helps));
    if (polls == 0) EXPECT_GT(helps, 0u) << "no polls, yet no tile fell back";
  }
}

// Back-to-back builds of the ragged sizes, each into its own poisoned table, every table
// compared with the CPU gold: SCANDOF_GLSAT_SWEEP_BUILDS builds in all (ctest's
// test_gl_sat_lookback_threads_N make it 200 under LP_NUM_THREADS N).
TEST(GlSat, FusedOnePassSweep) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  const char* e = std::getenv("SCANDOF_GLSAT_SWEEP_BUILDS");
  const int want = e && *e ? std::max(1, std::atoi(e))
                           : (scandof::gl::software_renderer() ? 40 : 200);
  const FusedBuild one(GlSatFusedBuild::OnePass);
  GlSatBuilder& b = *gl().builder;
  const int n = static_cast<int>(kRaggedSizes.size());
  std::vector<scandof::gl::GlTexture> texs;
  std::vector<scandof::gl::GlBuffer> bufs;
  std::vector<std::vector<std::uint32_t>> golds;
  for (int i = 0; i < n; ++i) {
    const int w = kRaggedSizes[i].first, h = kRaggedSizes[i].second;
    const auto rgba = random_rgba(w, h, base_seed() + 7919u * static_cast<unsigned>(i));
    golds.emplace_back(static_cast<std::size_t>(w) * h * 4);
    scandof::sat_gold(rgba.data(), w, h, golds.back().data(), 3, scandof::SatLayout::Interleaved);
    texs.push_back(upload(rgba, w, h));
    bufs.push_back(scandof::gl::make_buffer());
    glNamedBufferData(bufs.back().get(), static_cast<GLsizeiptr>(golds.back().size() * 4),
                      nullptr, GL_DYNAMIC_READ);
  }
  const std::uint64_t helps = b.lookback_helps();
  int builds = 0, wrong = 0;
  std::vector<std::uint32_t> out;
  while (builds < want) {
    const int k = std::min(n, want - builds);
    for (int i = 0; i < k; ++i)
      glClearNamedBufferData(bufs[i].get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &kPoison);
    for (int i = 0; i < k; ++i)
      b.build_into(texs[i].get(), kRaggedSizes[i].first, kRaggedSizes[i].second,
                   GlSatVariant::Fused, SatFormat::U32, bufs[i].get());
    for (int i = 0; i < k; ++i) {
      out.resize(golds[i].size());
      glGetNamedBufferSubData(bufs[i].get(), 0, static_cast<GLsizeiptr>(out.size() * 4),
                              out.data());
      if (out != golds[i] && wrong++ < 5)
        ADD_FAILURE() << kRaggedSizes[i].first << "x" << kRaggedSizes[i].second << ": build "
                      << builds + i << " differs from the CPU gold";
    }
    builds += k;
  }
  EXPECT_EQ(wrong, 0) << "of " << builds << " builds";
  std::printf("[glsat] one-pass sweep: %d builds, %d wrong, %llu tiles computed by the fallback\n",
              builds, wrong, static_cast<unsigned long long>(b.lookback_helps() - helps));
}

std::vector<Case> cases() {
  std::vector<Case> v;
  const int sizes[][2] = {{1, 1},   {33, 17},  {1001, 777}, {1921, 1079},
                          {513, 2}, {2, 1030}, {129, 33}};
  for (int k = 0; k < scandof::gl::kNumGlSatVariants; ++k)
    for (const auto& s : sizes) v.push_back({static_cast<GlSatVariant>(k), s[0], s[1]});
  return v;
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  std::string n = scandof::gl::to_string(i.param.variant);
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n + "_" + std::to_string(i.param.w) + "x" + std::to_string(i.param.h);
}

INSTANTIATE_TEST_SUITE_P(Variants, GlSatSweep, ::testing::ValuesIn(cases()), case_name);

// Says what this context runs. Where GL_KHR_shader_subgroup (arithmetic) is missing the subgroup
// variant above ran its shared-memory fallback; the native subgroup scan is reported as skipped.
TEST(GlSat, Support) {
  REQUIRE_GL();
  const auto& s = gl().builder->support();
  std::printf("[gl] %s\n[glsat] %s\n", scandof::gl::gl_description().c_str(), s.reason.c_str());
  EXPECT_TRUE(s.usable);
  if (!s.subgroup)
    GTEST_SKIP() << "native subgroup scan skipped: " << s.reason
                 << " (the subgroup variant was tested through its shared-memory fallback)";
  std::printf("[glsat] native subgroup scan tested (subgroup size %d%s)\n", s.subgroup_size,
              s.fused_subgroup ? ", fused path on subgroups too" : "");
}

// The subgroup variants on the context's own subgroups: the paper's subgroup scan (HAVE_SUBGROUP)
// and the fused path's 32-lane teams (FUSED_SUBGROUP), three passes and one. Mesa 22.3's llvmpipe
// offers no GL_KHR_shader_subgroup, so there this skips saying so and the variants are only
// compiled (glslangValidator, ctest glsat_shaders_compile); NVIDIA's driver runs them.
TEST(GlSat, SubgroupVariantsNative) {
  REQUIRE_GL();
  const auto& s = gl().builder->support();
  if (!s.subgroup)
    GTEST_SKIP() << "subgroup variants not run: " << scandof::gl::gl_description()
                 << " offers no GL_KHR_shader_subgroup arithmetic in compute shaders ("
                 << s.reason << "); glslangValidator compiles them (glsat_shaders_compile)";
  for (const auto& z : std::vector<std::pair<int, int>>{{33, 17}, {1001, 777}, {2, 1030}})
    check_case({GlSatVariant::Subgroup, z.first, z.second});
  if (!s.fused_subgroup)
    GTEST_SKIP() << "subgroup size " << s.subgroup_size
                 << ": the fused path's teams use shared memory (FUSED_SUBGROUP needs 32)";
  {
    const FusedBuild three(GlSatFusedBuild::ThreePasses);
    for (const auto& z : std::vector<std::pair<int, int>>{{33, 17}, {1921, 1079}})
      check_case({GlSatVariant::Fused, z.first, z.second});
  }
  REQUIRE_LOOKBACK(*gl().builder);
  const FusedBuild one(GlSatFusedBuild::OnePass);
  for (const auto& z : std::vector<std::pair<int, int>>{{33, 17}, {1921, 1079}, {300, 2049}})
    check_case({GlSatVariant::Fused, z.first, z.second});
}

// Pixels through an rgba8 image (what drivers that match image formats by class get), every
// variant, on immutable and mutable textures: the packUnorm4x8 repacking must give back the bytes
// exactly. A builder limited to no pixels_by_size takes that path on any driver.
TEST(GlSat, PixelsThroughRgba8Image) {
  REQUIRE_GL();
  scandof::gl::GlSatSupport limits = gl().builder->support();
  limits.pixels_by_size = false;
  GlSatBuilder b(shader_dir(), gl().builder->policy(), limits);
  ASSERT_FALSE(b.support().pixels_by_size);
  for (int k = 0; k < scandof::gl::kNumGlSatVariants; ++k)
    for (const auto& s : std::vector<std::pair<int, int>>{{33, 17}, {530, 20}})
      for (bool mutable_storage : {false, true})
        check_case({static_cast<GlSatVariant>(k), s.first, s.second, 0, mutable_storage}, &b);
}

// The shared-memory teams that contexts without subgroup arithmetic get (the subgroup variant's
// emulation, the fused path's 32-lane teams), checked where the context has subgroups by a builder
// limited to none; llvmpipe (no GL_KHR_shader_subgroup) ran them in the sweep above.
TEST(GlSat, SharedMemoryTeams) {
  REQUIRE_GL();
  if (!gl().builder->support().subgroup)
    GTEST_SKIP() << "no GL_KHR_shader_subgroup here: the sweep above ran the shared-memory teams";
  scandof::gl::GlSatSupport limits = gl().builder->support();
  limits.subgroup = limits.fused_subgroup = false;
  GlSatBuilder b(shader_dir(), {GlSatFusedBuild::ThreePasses}, limits);
  ASSERT_FALSE(b.support().fused_subgroup);
  for (const auto& s : std::vector<std::pair<int, int>>{{33, 17}, {1001, 777}})
    check_case({GlSatVariant::Fused, s.first, s.second}, &b);
  check_case({GlSatVariant::Subgroup, 1001, 777}, &b);
  REQUIRE_LOOKBACK(b);
  b.set_policy({GlSatFusedBuild::OnePass});
  for (const auto& s : std::vector<std::pair<int, int>>{{33, 17}, {1001, 777}})
    check_case({GlSatVariant::Fused, s.first, s.second}, &b);
}

TEST(GlSat, OwnBufferAndTimers) {
  REQUIRE_GL();
  const int w = 300, h = 200;
  const auto rgba = random_rgba(w, h, base_seed());
  const scandof::gl::GlTexture tex = upload(rgba, w, h);
  std::vector<std::uint32_t> gold(static_cast<std::size_t>(w) * h * 4);
  scandof::sat_gold(rgba.data(), w, h, gold.data(), 3, scandof::SatLayout::Interleaved);
  GlSatBuilder& b = *gl().builder;
  for (int i = 0; i < 8; ++i) b.build(tex.get(), w, h, GlSatVariant::Fused, SatFormat::U32, true);
  glFinish();
  for (int i = 0; i < 2; ++i) b.build(tex.get(), w, h, GlSatVariant::Fused, SatFormat::U32, true);
  std::vector<std::uint32_t> out(static_cast<std::size_t>(w) * h * 4);
  glGetNamedBufferSubData(b.output(), 0, static_cast<GLsizeiptr>(out.size() * 4), out.data());
  EXPECT_EQ(out, gold);
  const auto t = b.stage_times();
  EXPECT_TRUE(t.valid) << "timer results never arrived";
  EXPECT_GE(t.total_ms, 0.0f);
  std::printf("[glsat] fused %dx%d: rows %.3f ms, columns %.3f ms\n", w, h, t.rows_ms,
              t.columns_ms);
}

TEST(GlSat, RejectsBadInput) {
  REQUIRE_GL();
  scandof::gl::GlTexture tex = scandof::gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(tex.get(), 1, GL_RGBA16F, 4, 4);
  EXPECT_THROW(gl().builder->build(tex.get(), 4, 4, GlSatVariant::Fused, SatFormat::U32),
               std::invalid_argument);
  EXPECT_THROW(gl().builder->build(tex.get(), 0, 4, GlSatVariant::Naive, SatFormat::U32),
               std::invalid_argument);
  scandof::gl::GlTexture small = scandof::gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(small.get(), 1, GL_RGBA8, 4, 4);
  EXPECT_THROW(gl().builder->build(small.get(), 5, 4, GlSatVariant::Fused, SatFormat::U32),
               std::invalid_argument);
  EXPECT_EQ(scandof::gl::parse_gl_sat_variant("conflict-free"), GlSatVariant::ConflictFree);
  EXPECT_THROW(scandof::gl::parse_gl_sat_variant("cub"), std::invalid_argument);
}

// ---- RGBA16F (HDR) frames ------------------------------------------------------------------------
// Every variant, U32 (the fixed point of scandof/hdr.hpp) and F32, against scandof::sat_gold_hdr:
// uint32 tables word for word (4 words a pixel, the 4th 0), float tables within hdr_float_bound();
// a frame with values above the limit, NaN, negative values and -0, whose clamped pixels the
// builder counts as the gold does. The one-pass tests are named GlSat.FusedOnePassHdr* so the
// LP_NUM_THREADS runs of gl_sat.cmake take them too.

// Radiance up to the limit (the frame's halves), log-uniform over [2^-12, limit] with 1 in 16
// exact zeros; alpha random too (never summed). `wild`: also values above the limit (1 in 8, up
// to 16x), NaN, negative values, -0 and (with `inf`) +inf, each 1 in 32. Returns the halves; the
// floats they are go to `f`.
std::vector<std::uint16_t> random_hdr(int w, int h, double limit, std::uint64_t seed, bool wild,
                                      bool inf, std::vector<float>& f) {
  scandof::util::SplitMix64 rng(seed);
  auto uniform = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  const std::size_t n = static_cast<std::size_t>(w) * h * 4;
  std::vector<std::uint16_t> halves(n);
  f.resize(n);
  const double lo = -12.0, hi = std::log2(limit);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t pick = rng.next() % 32;
    float v;
    if (pick < 2) {
      v = 0.0f;
    } else if (wild && pick < 6) {
      v = static_cast<float>(limit * (1.0 + 15.0 * uniform()));
    } else if (wild && pick == 6) {
      v = std::nanf("");
    } else if (wild && pick == 7) {
      v = -static_cast<float>(std::exp2(lo + (hi - lo) * uniform()));
    } else if (wild && pick == 8) {
      v = -0.0f;
    } else if (wild && inf && pick == 9) {
      v = INFINITY;
    } else {
      v = static_cast<float>(std::exp2(lo + (hi - lo) * uniform()));
    }
    std::uint16_t hv = scandof::float_to_half(v);
    // Not wild: stay at or below the limit, so nothing clamps (one half step down at most).
    if (!wild && scandof::half_to_float(hv) > limit) --hv;
    halves[i] = hv;
    f[i] = scandof::half_to_float(hv);
  }
  return halves;
}

// An immutable GL_RGBA16F texture of the halves, with `pad` texels of +inf right and above the
// image that no table may see (they would clamp and be counted).
scandof::gl::GlTexture upload_hdr(const std::vector<std::uint16_t>& halves, int w, int h,
                                  int pad = 0) {
  scandof::gl::GlTexture tex = scandof::gl::make_texture(GL_TEXTURE_2D);
  const int tw = w + pad, th = h + pad;
  glTextureStorage2D(tex.get(), 1, GL_RGBA16F, tw, th);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (pad > 0) {
    const std::vector<std::uint16_t> noise(static_cast<std::size_t>(tw) * th * 4, 0x7C00u);
    glTextureSubImage2D(tex.get(), 0, 0, 0, tw, th, GL_RGBA, GL_HALF_FLOAT, noise.data());
  }
  glTextureSubImage2D(tex.get(), 0, 0, 0, w, h, GL_RGBA, GL_HALF_FLOAT, halves.data());
  return tex;
}

// build() for RGBA16F: a poisoned buffer; *clamps gets the builder's clamp_count().
std::vector<std::uint32_t> build_hdr(GlSatBuilder& builder, const scandof::gl::GlTexture& tex,
                                     int w, int h, GlSatVariant v, SatFormat f,
                                     const scandof::SatFixedPoint& fp, std::uint32_t* clamps) {
  const std::size_t bytes = GlSatBuilder::table_bytes(w, h);
  scandof::gl::GlBuffer buf = scandof::gl::make_buffer();
  glNamedBufferData(buf.get(), static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_READ);
  glClearNamedBufferData(buf.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &kPoison);
  builder.build_into(tex.get(), w, h, v, f, fp, buf.get(), true);
  *clamps = builder.clamp_count();
  std::vector<std::uint32_t> out(bytes / 4);
  glGetNamedBufferSubData(buf.get(), 0, static_cast<GLsizeiptr>(bytes), out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR)) << "OpenGL error during the build";
  return out;
}

// Float tables of radiance. Both the builder (the paper's pipeline: float sums, see float_bound)
// and the gold (a running row sum, then the row above added: at most w + h roundings in
// sequence, each of at most 2^-24 of a partial sum <= the value) are within a relative bound of
// the exact sum, so they differ by at most the two bounds together.
double hdr_float_bound(int w, int h, double exact) {
  return (32.0 + w + h) * std::ldexp(exact, -24) + 1e-30;
}

// The exact table of the frame's radiance in float64 (NaN, negative -> 0), 4 words a pixel.
std::vector<double> exact_radiance_sat(const std::vector<float>& f, int w, int h) {
  std::vector<double> t(static_cast<std::size_t>(w) * h * 4, 0.0);
  for (int y = 0; y < h; ++y)
    for (int c = 0; c < 3; ++c) {
      double run = 0;
      for (int x = 0; x < w; ++x) {
        const std::size_t i = 4 * (static_cast<std::size_t>(y) * w + x) + c;
        run += f[i] > 0.0f ? static_cast<double>(f[i]) : 0.0;
        t[i] = run + (y > 0 ? t[i - 4 * static_cast<std::size_t>(w)] : 0.0);
      }
    }
  return t;
}

// One HDR frame through variant v (the fused path in the builder's current shape), both formats.
void check_hdr(GlSatVariant v, int w, int h, const scandof::SatFixedPoint& fp, bool wild,
               int pad = 0) {
  GlSatBuilder& b = *gl().builder;
  const std::uint64_t seed =
      base_seed() ^ 0x4D52ull ^ (static_cast<std::uint64_t>(w) << 32) ^ (h * 7919ull);
  std::vector<float> f;
  const auto halves = random_hdr(w, h, fp.max_radiance(), seed, wild, true, f);
  const scandof::gl::GlTexture tex = upload_hdr(halves, w, h, pad);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::string what = std::string(scandof::gl::to_string(v)) + " " + std::to_string(w) +
                           "x" + std::to_string(h) + (wild ? " wild" : "") + " (seed " +
                           std::to_string(seed) + ")";
  {
    std::vector<std::uint32_t> gold(plane * 4);
    const std::uint64_t gold_clamps = scandof::sat_gold_hdr(f.data(), w, h, fp, gold.data(), 3,
                                                            scandof::SatLayout::Interleaved);
    if (!wild) EXPECT_EQ(gold_clamps, 0u) << what;
    if (wild && plane >= 64) EXPECT_GT(gold_clamps, 0u) << what;
    std::uint32_t clamps = 0;
    const auto out = build_hdr(b, tex, w, h, v, SatFormat::U32, fp, &clamps);
    std::size_t bad = 0;
    for (std::size_t p = 0; p < plane; ++p)
      for (int ch = 0; ch < 4; ++ch) {
        const std::uint32_t want = gold[4 * p + ch], got = out[4 * p + ch];
        if (got != want && bad++ < 5)
          ADD_FAILURE() << "u32 " << what << " (" << p % w << "," << p / w << ") channel " << ch
                        << ": got " << got << " want " << want;
      }
    EXPECT_EQ(bad, 0u) << "u32 " << what << ": mismatches of " << plane * 4 << " words";
    EXPECT_EQ(clamps, gold_clamps) << "clamped pixels, " << what;
  }
  {
    // The wild frame again without +inf (inf sums are inf in both; the bound wants finite ones).
    const auto tex_f = wild ? upload_hdr(random_hdr(w, h, fp.max_radiance(), seed, wild, false, f),
                                         w, h, pad)
                            : scandof::gl::GlTexture();
    std::vector<float> gold(plane * 4);
    EXPECT_EQ(scandof::sat_gold_hdr(f.data(), w, h, gold.data(), 3,
                                    scandof::SatLayout::Interleaved),
              0u);
    const auto exact = exact_radiance_sat(f, w, h);
    std::uint32_t clamps = 1;
    const auto out = build_hdr(b, wild ? tex_f : tex, w, h, v, SatFormat::F32, fp, &clamps);
    EXPECT_EQ(clamps, 0u) << "float tables count nothing, " << what;
    std::size_t bad = 0;
    for (std::size_t p = 0; p < plane; ++p)
      for (int ch = 0; ch < 4; ++ch) {
        float got;
        std::memcpy(&got, &out[4 * p + ch], 4);
        const double want = gold[4 * p + ch];
        const double bound = ch < 3 ? hdr_float_bound(w, h, exact[4 * p + ch]) : 0.0;
        if (!(std::fabs(static_cast<double>(got) - want) <= bound) && bad++ < 5)
          ADD_FAILURE() << "f32 " << what << " (" << p % w << "," << p / w << ") channel " << ch
                        << ": got " << got << " want " << want << " +- " << bound;
      }
    EXPECT_EQ(bad, 0u) << "f32 " << what << ": values outside the bound of " << plane * 4;
  }
}

// F = 14, limit 100.8 (the demo's radius 24): the fixed point DoF uses.
scandof::SatFixedPoint demo_fixed_point() {
  return scandof::hdr_fixed_point(24.0f, 100.0f);
}

const std::vector<std::pair<int, int>>& hdr_sizes() {
  static const std::vector<std::pair<int, int>> s = {{1, 1},    {31, 1},    {1, 33},
                                                     {33, 17},  {1025, 31}, {257, 129}};
  return s;
}

class GlSatHdrSweep : public ::testing::TestWithParam<GlSatVariant> {};

// The fused path here in three passes; GlSat.FusedOnePassHdr takes the one pass.
TEST_P(GlSatHdrSweep, MatchesCpuReference) {
  REQUIRE_GL();
  const FusedBuild three(GlSatFusedBuild::ThreePasses);
  for (const auto& z : hdr_sizes()) check_hdr(GetParam(), z.first, z.second, demo_fixed_point(),
                                              false);
  // Above the limit, NaN, negative, -0, +inf; a texture larger than the image, its +inf texels
  // outside the table (and its clamp count).
  check_hdr(GetParam(), 33, 17, demo_fixed_point(), true, 3);
  check_hdr(GetParam(), 257, 129, demo_fixed_point(), true);
}

INSTANTIATE_TEST_SUITE_P(Variants, GlSatHdrSweep,
                         ::testing::Values(GlSatVariant::Naive, GlSatVariant::WorkEfficient,
                                           GlSatVariant::ConflictFree, GlSatVariant::Subgroup,
                                           GlSatVariant::Fused),
                         [](const ::testing::TestParamInfo<GlSatVariant>& i) {
                           std::string n = scandof::gl::to_string(i.param);
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

TEST(GlSat, FusedOnePassHdr) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  const FusedBuild one(GlSatFusedBuild::OnePass);
  for (const auto& z : hdr_sizes())
    check_hdr(GlSatVariant::Fused, z.first, z.second, demo_fixed_point(), false);
  check_hdr(GlSatVariant::Fused, 33, 17, demo_fixed_point(), true, 3);
  check_hdr(GlSatVariant::Fused, 257, 129, demo_fixed_point(), true);
  // F = 24 at radius 0 (limit 1.0, max_value 2^24: the largest values the encoding allows, whose
  // uint32 sums wrap) and F = 0 at radius 5000 (integers, limit 42).
  check_hdr(GlSatVariant::Fused, 257, 129, scandof::hdr_fixed_point(0.0f, 1.0f), true);
  check_hdr(GlSatVariant::Fused, 129, 33, scandof::hdr_fixed_point(5000.0f, 64.0f), true);
}

// The RGBA16F one pass with the fallback on every tile (no polls).
TEST(GlSat, FusedOnePassHdrForcedFallback) {
  REQUIRE_GL();
  REQUIRE_LOOKBACK(*gl().builder);
  const FusedBuild one(GlSatFusedBuild::OnePass, 0);
  const std::uint64_t before = gl().builder->lookback_helps();
  // Wild pixels: the helpers quantize without counting, so the clamp count stays the gold's.
  check_hdr(GlSatVariant::Fused, 1001, 777, demo_fixed_point(), true);
  check_hdr(GlSatVariant::Fused, 33, 17, demo_fixed_point(), true, 3);
  EXPECT_GT(gl().builder->lookback_helps() - before, 0u) << "no polls, yet no tile fell back";
}

// Other encodings through the paper's pipeline and the three passes: F = 24 (the largest
// values, up to 2^24, whose uint32 sums wrap) and F = 0.
TEST(GlSat, HdrFixedPointExtremes) {
  REQUIRE_GL();
  const FusedBuild three(GlSatFusedBuild::ThreePasses);
  for (auto v : {GlSatVariant::WorkEfficient, GlSatVariant::Fused}) {
    check_hdr(v, 257, 129, scandof::hdr_fixed_point(0.0f, 1.0f), true);
    check_hdr(v, 129, 33, scandof::hdr_fixed_point(5000.0f, 64.0f), true);
  }
}

// Three w x h RGBA16F textures for the clamp-count tests, the first within the limit (counts 0),
// the others wild (their counts differ), and the gold's count of each; polls the builder empty.
struct ClampTextures {
  std::vector<std::uint64_t> want;
  std::vector<scandof::gl::GlTexture> texs;
};
ClampTextures clamp_textures(GlSatBuilder& b, const scandof::SatFixedPoint& fp, int w, int h,
                             std::uint64_t seed) {
  std::uint32_t sink = 0;
  while (b.poll_clamp_count(sink)) {
  }
  ClampTextures c;
  for (int k = 0; k < 3; ++k) {
    std::vector<float> f;
    const auto halves = random_hdr(w, h, fp.max_radiance(), seed + k, k > 0, true, f);
    std::vector<std::uint32_t> gold(static_cast<std::size_t>(w) * h * 4);
    c.want.push_back(
        scandof::sat_gold_hdr(f.data(), w, h, fp, gold.data(), 3, scandof::SatLayout::Interleaved));
    c.texs.push_back(upload_hdr(halves, w, h));
  }
  return c;
}

// The non-stalling clamp count: builds with different counts, then (after glFinish) polls give
// the newest finished one; an RGBA8 build counts 0; clamp_count() is the last build's.
TEST(GlSat, HdrClampCountPolled) {
  REQUIRE_GL();
  GlSatBuilder& b = *gl().builder;
  const scandof::SatFixedPoint fp = demo_fixed_point();
  const int w = 64, h = 16;
  const ClampTextures c = clamp_textures(b, fp, w, h, base_seed());
  const std::vector<std::uint64_t>& want = c.want;
  const std::vector<scandof::gl::GlTexture>& texs = c.texs;
  ASSERT_NE(want[1], want[2]);
  for (int k = 0; k < 3; ++k)
    b.build(texs[k].get(), w, h, GlSatVariant::Fused, SatFormat::U32, fp);
  EXPECT_EQ(b.clamp_count(), want[2]);
  glFinish();
  std::uint32_t got = 0xFFFFFFFFu;
  EXPECT_TRUE(b.poll_clamp_count(got));
  EXPECT_EQ(got, want[2]);
  EXPECT_FALSE(b.poll_clamp_count(got));
  // More builds than the ring holds, unpolled: the newest is still read.
  for (int k = 0; k < GlSatBuilder::kClampRing + 2; ++k)
    b.build(texs[(k + 1) % 3].get(), w, h, GlSatVariant::Naive, SatFormat::U32, fp);
  glFinish();
  EXPECT_TRUE(b.poll_clamp_count(got));
  EXPECT_EQ(got, want[(GlSatBuilder::kClampRing + 2) % 3]);
  // An RGBA8 build after them: 0.
  const auto rgba = random_rgba(w, h, base_seed());
  const scandof::gl::GlTexture ldr = upload(rgba, w, h);
  b.build(ldr.get(), w, h, GlSatVariant::Fused, SatFormat::U32, fp);
  EXPECT_EQ(b.clamp_count(), 0u);
  glFinish();
  EXPECT_TRUE(b.poll_clamp_count(got));
  EXPECT_EQ(got, 0u);
}

// Each build counts into a word of its own that the counting build before it zeroed: over more
// builds than the counters have words, mixing counting builds of every shape (one pass, three
// passes, the paper's row pass) with builds that count nothing (RGBA8), every count is its own
// build's, read at once and by poll.
TEST(GlSat, HdrClampCountsAcrossBuilds) {
  REQUIRE_GL();
  GlSatBuilder& b = *gl().builder;
  const scandof::SatFixedPoint fp = demo_fixed_point();
  const int w = 67, h = 35;
  const ClampTextures c = clamp_textures(b, fp, w, h, base_seed() + 40);
  const std::vector<std::uint64_t>& want = c.want;
  const std::vector<scandof::gl::GlTexture>& texs = c.texs;
  ASSERT_EQ(want[0], 0u);
  ASSERT_NE(want[1], want[2]);
  const scandof::gl::GlTexture ldr = upload(random_rgba(w, h, base_seed()), w, h);
  const GlSatFusedBuild shapes[2] = {GlSatFusedBuild::OnePass, GlSatFusedBuild::ThreePasses};
  for (int i = 0; i < 4 * GlSatBuilder::kClampRing + 3; ++i) {
    const int k = (i * 2 + 1) % 3;
    SCOPED_TRACE("build " + std::to_string(i));
    if (i % 4 == 3) {
      b.build(ldr.get(), w, h, GlSatVariant::Fused, SatFormat::U32, fp);
      EXPECT_EQ(b.clamp_count(), 0u);
      continue;
    }
    const GlSatFusedBuild shape = shapes[i % 2];
    if (shape == GlSatFusedBuild::OnePass && !b.support().lookback) continue;
    const FusedBuild fused(shape);
    const GlSatVariant v = i % 5 == 2 ? GlSatVariant::Naive : GlSatVariant::Fused;
    b.build(texs[k].get(), w, h, v, SatFormat::U32, fp);
    EXPECT_EQ(b.clamp_count(), want[k]);
    glFinish();
    std::uint32_t got = 0xFFFFFFFFu;
    EXPECT_TRUE(b.poll_clamp_count(got));
    EXPECT_EQ(got, want[k]);
  }
}

TEST(GlSat, HdrRejectsBadFixedPoint) {
  REQUIRE_GL();
  scandof::gl::GlTexture tex = scandof::gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(tex.get(), 1, GL_RGBA16F, 4, 4);
  GlSatBuilder& b = *gl().builder;
  scandof::SatFixedPoint bad;  // max_value 0
  EXPECT_THROW(b.build(tex.get(), 4, 4, GlSatVariant::Naive, SatFormat::U32, bad),
               std::invalid_argument);
  bad = demo_fixed_point();
  bad.frac_bits = 25;
  EXPECT_THROW(b.build(tex.get(), 4, 4, GlSatVariant::Naive, SatFormat::U32, bad),
               std::invalid_argument);
  bad = demo_fixed_point();
  bad.max_value = scandof::kMaxFixedValue + 1;
  EXPECT_THROW(b.build(tex.get(), 4, 4, GlSatVariant::Naive, SatFormat::U32, bad),
               std::invalid_argument);
  // Float tables need no fixed point.
  EXPECT_NO_THROW(b.build(tex.get(), 4, 4, GlSatVariant::Naive, SatFormat::F32));
  scandof::gl::GlTexture rgba32f = scandof::gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(rgba32f.get(), 1, GL_RGBA32F, 4, 4);
  EXPECT_THROW(b.build(rgba32f.get(), 4, 4, GlSatVariant::Naive, SatFormat::F32),
               std::invalid_argument);
}

}  // namespace
