// GPU depth of field on HDR frames (scandof/dof_cuda.hpp, DofFrame::pixels = Rgba16F) against the
// CPU gold's HDR forms (scandof/dof.hpp): every method x shape on awkward sizes, random radiance
// with bright points, the frame an RGBA16F cudaArray, the table sat_gold_hdr's fixed-point one
// (interleaved), the output an RGBA16F surface.
//
// Tolerance: the GPU writes half, so the gold is rounded to half first. The GPU sums in float
// where the gold sums in double (about 1e-6 apart, relative), which can move a value across one
// half rounding boundary: one half step is 2^-10 of the value, under the relative 1e-3 allowed.
// The absolute 1e-4 covers values near 0, where float cancellation of large box sums (a bright
// point inside both a positive and a negative box of a shape) leaves about 2^-24 of the box sum.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "dof_cuda_harness.cuh"
#include "dof_test_util.hpp"
#include "gpu_skip.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/dof.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/rng.hpp"

namespace {

using namespace dof_test;  // dof_test_util.hpp and dof_cuda_harness.cuh

struct HdrScene {
  int w, h;
  std::vector<uint16_t> half;  // RGBA16F, 4 halves a pixel
  std::vector<float> rgba;     // the same values as float (exact)
  std::vector<float> depth;
};

// Radiance 0..2 with one pixel in 40 a bright point of 20..100 (sometimes one channel only), some
// zeros; depth in blocks between 1 and 40 around a focus of 8 (as tests/test_dof_cuda.cu).
HdrScene make_scene(int w, int h, uint64_t seed) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  HdrScene s{w, h, std::vector<uint16_t>(n * 4), std::vector<float>(n * 4), std::vector<float>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    const uint64_t kind = scandof::util::hash_at(seed + 7, i) % 40;
    for (int c = 0; c < 4; ++c) {
      const double u = scandof::util::unit_double(scandof::util::hash_at(seed, 4 * i + c));
      float v = static_cast<float>(2.0 * u);
      if (kind == 0 || (kind == 1 && c == 0)) v = static_cast<float>(20.0 + 80.0 * u);
      if (kind == 2) v = 0.0f;
      s.half[4 * i + c] = scandof::float_to_half(v);
      s.rgba[4 * i + c] = scandof::half_to_float(s.half[4 * i + c]);
    }
  }
  block_depth(w, h, seed + 1, s.depth.data());
  return s;
}

// The GPU result as float radiance, 4 per pixel (alpha included).
std::vector<float> run_gpu(const HdrScene& s, Method m, const Params& p,
                           const scandof::SatFixedPoint& fp, scandof::SatFormat format,
                           scandof::DofGpu* reuse = nullptr) {
  DeviceFrame frame(s.w, s.h, true, s.half.data(), s.depth.data(), 0x7E55u);
  // The table: sat_gold_hdr's, which every backend's build equals bit for bit (U32), so the DoF
  // pass is tested apart from the table build.
  const std::size_t words = np(s.w, s.h) * 4;
  std::vector<uint32_t> table(words);
  if (format == scandof::SatFormat::U32) {
    // Under the bokeh split the tables hold the clamped frame (dof::bokeh_base; fp itself when
    // the split is off).
    scandof::sat_gold_hdr(s.rgba.data(), s.w, s.h,
                          scandof::dof::bokeh_base(fp, p.bokeh_threshold), table.data(), 3,
                          scandof::SatLayout::Interleaved);
  } else {
    std::vector<float> t(words);
    scandof::sat_gold_hdr(s.rgba.data(), s.w, s.h, t.data(), 3, scandof::SatLayout::Interleaved);
    std::memcpy(table.data(), t.data(), words * 4);
  }
  scandof::util::DeviceBuffer<uint32_t> sat(words);
  sat.upload(table.data(), words);
  scandof::DofFrame& f = frame.frame();
  f.sat = sat.get();
  f.format = format;
  f.fixed = fp;
  return halves_to_floats(frame.render(m, p, reuse));
}

// The gold's HDR image of method m, 3 floats a pixel.
std::vector<float> gold(const HdrScene& s, Method m, const Params& p,
                        const scandof::SatFixedPoint& fp) {
  std::vector<float> want(np(s.w, s.h) * 3);
  scandof::dof::render(m, s.rgba.data(), s.depth.data(), s.w, s.h, p, fp, want.data());
  return want;
}

// got (4 per pixel, alpha 1) against want (3 per pixel) rounded to half: |d| <= rel |want| + abs.
void expect_close(const HdrScene& s, const std::vector<float>& got, const std::vector<float>& want,
                  double rel, double abs, const std::string& what) {
  expect_close_to_half(s.w, s.h, got, want, rel, abs, true, what);
}

// Method m on the GPU (U32 tables in the fixed point for radiance up to 128 at p's r_max) against
// the gold: within 1e-3 relative + abs.
void expect_matches_gold(const HdrScene& s, Method m, const Params& p, double abs,
                         const std::string& what, scandof::DofGpu* reuse = nullptr) {
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
  const std::vector<float> want = gold(s, m, p, fp);
  expect_close(s, run_gpu(s, m, p, fp, scandof::SatFormat::U32, reuse), want, 1e-3, abs, what);
}

TEST(DofHdrCuda, EveryMethodAndShapeMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {203, 121}};
  for (const auto& sz : sizes) {
    const HdrScene s = make_scene(sz[0], sz[1], 300 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Gather, Method::Spread, Method::Layered})
      for (Shape sh : {Shape::Box, Shape::Octagon, Shape::Disc}) {
        expect_matches_gold(
            s, m, gpu_lens(sh), 1e-4,
            std::string(scandof::dof::to_string(m)) + "/" + scandof::dof::to_string(sh));
      }
  }
}

// Two layers, no reflection margin, an integer max radius, and a coarse fixed point (r_max 24,
// radiance up to 1000: F = 11).
TEST(DofHdrCuda, LayeredTwoLayersNoBorderCoarseFixedPoint) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const HdrScene s = make_scene(97, 55, 5);
  Params p = lens(12.0f, 15.0f, 6.0f);
  p.layers = 2;
  p.border = scandof::dof::SpreadBorder::None;
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(24.0f, 1000.0f);
  for (Method m : {Method::Spread, Method::Layered, Method::Gather}) {
    const std::vector<float> want = gold(s, m, p, fp);
    expect_close(s, run_gpu(s, m, p, fp, scandof::SatFormat::U32), want, 1e-3, 1e-4,
                 std::string(scandof::dof::to_string(m)) + " K=2 no border F=" +
                     std::to_string(fp.frac_bits));
  }
}

// Float tables of radiance (gather, box kernel for every shape) on the same float table as the
// gold. The GPU subtracts the four corners in float, the gold in double: each subtraction rounds
// at the scale of the entries, up to the frame's total radiance T, and a pixel in focus (a box of
// one pixel) keeps that error undivided: the tolerance is 16 * 2^-24 * T absolute (about 0.05
// here, against values around 1; dof.hpp quotes the float tables' error at 1080p).
TEST(DofHdrCuda, FloatTablesGatherMatchesTheFloatGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const HdrScene s = make_scene(203, 121, 9);
  const Params p = gpu_lens(Shape::Box);
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
  const std::size_t n = np(s.w, s.h);
  std::vector<float> table(n * 4), want(n * 3);
  scandof::sat_gold_hdr(s.rgba.data(), s.w, s.h, table.data(), 3, scandof::SatLayout::Interleaved);
  scandof::dof::gather_from_sat(table.data(), s.depth.data(), s.w, s.h, p, want.data());
  double total = 0;  // the last entry of each channel's table is its whole frame's sum
  for (int c = 0; c < 3; ++c) total = std::max(total, static_cast<double>(table[4 * (n - 1) + c]));
  expect_close(s, run_gpu(s, Method::Gather, p, fp, scandof::SatFormat::F32), want, 1e-3,
               16.0 * std::ldexp(total, -24), "gather/box f32");
}

// Engine and hybrid on radiance: float sums on both sides (the gold's per-pixel functions are the
// kernels'), so only fused multiply-adds and the half output separate them; the absolute 1e-3
// covers sums of bright points (up to 100) cancelling to near 0 in a weighted mean.
TEST(DofHdrCuda, EngineAndHybridMatchGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {203, 121}, {64, 1}};
  for (const auto& sz : sizes) {
    const HdrScene s = make_scene(sz[0], sz[1], 900 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Engine, Method::Hybrid})
      for (Shape sh : {Shape::Octagon, Shape::Disc}) {
        Params p = gpu_lens(sh);
        p.aperture_px = 14.0f;
        p.max_radius = 11.5f;
        p.rings = sh == Shape::Disc ? 4 : 2;
        expect_matches_gold(
            s, m, p, 1e-3,
            std::string(scandof::dof::to_string(m)) + "/" + scandof::dof::to_string(sh));
      }
  }
}

// Params::radius_offset = 0.5 on radiance: gather (box and disc), spread, hybrid.
TEST(DofHdrCuda, RadiusOffsetMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const HdrScene s = make_scene(129, 71, 78);
  for (Method m : {Method::Gather, Method::Spread, Method::Hybrid})
    for (Shape sh : {Shape::Box, Shape::Disc}) {
      Params p = gpu_lens(sh);
      p.radius_offset = 0.5f;
      expect_matches_gold(s, m, p, m == Method::Hybrid ? 1e-3 : 1e-4,
                          std::string(scandof::dof::to_string(m)) + "/" +
                              scandof::dof::to_string(sh) + " radius offset 0.5");
    }
}

// Bokeh from highlights: the gather of the clamped tables plus the spread excess, every shape,
// awkward sizes, a threshold below most of the frame's values (1: half the dim pixels and every
// bright point are sources) and one only the bright points pass (10), and the radius offset.
TEST(DofHdrCuda, BokehMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {203, 121}, {64, 1}, {1, 31}};
  for (const auto& sz : sizes) {
    const HdrScene s = make_scene(sz[0], sz[1], 1300 + sz[0] * 5 + sz[1]);
    for (Shape sh : {Shape::Box, Shape::Octagon, Shape::Disc})
      for (float t : {1.0f, 10.0f}) {
        Params p = gpu_lens(sh);
        p.bokeh_threshold = t;
        p.radius_offset = sh == Shape::Box ? 0.0f : 0.5f;
        expect_matches_gold(s, Method::Gather, p, 1e-4,
                            std::string("gather/") + scandof::dof::to_string(sh) + " bokeh " +
                                std::to_string(t) + " " + std::to_string(s.w) + "x" +
                                std::to_string(s.h));
      }
  }
}

// One DofGpu across frames of other sizes, with and without the split, its scratch reused and
// released between them: a frame leaves nothing behind for the next.
TEST(DofHdrCuda, BokehAcrossFramesAndSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  scandof::DofGpu gpu;
  const HdrScene a = make_scene(203, 121, 41), b = make_scene(77, 300, 42);
  Params p = gpu_lens(Shape::Octagon);
  p.radius_offset = 0.5f;
  const float thresholds[] = {1.0f, 1.0f, 0.0f, 10.0f, 1.0f};
  const HdrScene* scenes[] = {&a, &b, &a, &b, &a};
  for (int i = 0; i < 5; ++i) {
    const HdrScene& s = *scenes[i];
    p.bokeh_threshold = thresholds[i];
    expect_matches_gold(s, Method::Gather, p, 1e-4, "frame " + std::to_string(i), &gpu);
    if (i == 2) gpu.release_scratch();
  }
}

TEST(DofHdrCuda, BadFixedPointThrows) {
  SCANDOF_SKIP_WITHOUT_GPU();
  scandof::DofGpu gpu;
  scandof::DofFrame f;
  f.width = f.height = 4;
  f.depth = f.out = f.rgba = 1;  // never reached: the fixed point is checked first
  f.sat = reinterpret_cast<const void*>(uintptr_t{256});
  f.pixels = scandof::SatPixels::Rgba16F;
  f.fixed.frac_bits = 25;
  f.fixed.max_value = 1;
  EXPECT_THROW(gpu.render(Method::Spread, Params{}, f, 0), std::invalid_argument);
  EXPECT_THROW(scandof::dof_gather(f, Params{}, 0), std::invalid_argument);
}

}  // namespace
