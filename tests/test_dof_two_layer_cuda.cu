// The two-layer layered method on the GPU (DofFrame::rgba2 / depth2, kernels/src/dof.cu) against
// its CPU gold (scandof::dof::layered_two), HDR (RGBA16F in and out) and LDR (RGBA8): every shape,
// K = 2 and 3, odd sizes, a second layer that is partly empty (view z 0), partly hidden samples
// the gate lets in and partly samples it refuses (same layer as the first, or in front). Also: an
// empty second layer on the GPU gives the one-layer GPU result bit for bit. Tolerances as
// tests/test_dof_hdr.cu (HDR: relative 1e-3 + 1e-4 after rounding the gold to half) and
// tests/test_dof_cuda.cu (LDR: one 8-bit step).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "dof_cuda_harness.cuh"
#include "dof_test_util.hpp"
#include "gpu_skip.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/dof.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/hdr.hpp"
#include "scandof/util/rng.hpp"

namespace {

using scandof::dof::Method;
using scandof::dof::Params;
using scandof::dof::Shape;

struct Layers {
  int w, h;
  std::vector<uint16_t> half1, half2;  // RGBA16F
  std::vector<float> rgba1, rgba2;     // the same as float
  std::vector<uint8_t> ldr1, ldr2;     // RGBA8
  std::vector<float> z1, z2;
};

// First layer: blocky depths in [1, 40) (dof_test_util); second: per pixel one of empty (0),
// a surface 1.2 .. 6x deeper (usually a later layer), or the first layer's own depth (refused).
Layers make_layers(int w, int h, uint64_t seed) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  Layers s{w, h, std::vector<uint16_t>(n * 4), std::vector<uint16_t>(n * 4),
           std::vector<float>(n * 4), std::vector<float>(n * 4), std::vector<uint8_t>(n * 4),
           std::vector<uint8_t>(n * 4), std::vector<float>(n), std::vector<float>(n)};
  for (int l = 0; l < 2; ++l)
    for (std::size_t i = 0; i < n * 4; ++i) {
      const uint64_t hsh = scandof::util::hash_at(seed + 11 * l, i);
      const double u = scandof::util::unit_double(hsh);
      float v = static_cast<float>(2.0 * u);
      if (hsh % 53 == 0) v = static_cast<float>(30.0 + 60.0 * u);  // bright points
      auto& hf = l ? s.half2 : s.half1;
      auto& fl = l ? s.rgba2 : s.rgba1;
      auto& b = l ? s.ldr2 : s.ldr1;
      hf[i] = scandof::float_to_half(v);
      fl[i] = scandof::half_to_float(hf[i]);
      b[i] = static_cast<uint8_t>(hsh >> 40);
    }
  dof_test::block_depth(w, h, seed + 1, s.z1.data());
  for (std::size_t i = 0; i < n; ++i) {
    const uint64_t k = scandof::util::hash_at(seed + 5, i) % 5;
    const double u = scandof::util::unit_double(scandof::util::hash_at(seed + 6, i));
    s.z2[i] = k < 2 ? 0.0f : k == 2 ? s.z1[i] : s.z1[i] * static_cast<float>(1.2 + 4.8 * u);
  }
  return s;
}

Params lens(Shape sh, int layers) {
  Params p = dof_test::gpu_lens(sh, layers);
  p.radius_offset = 0.5f;
  return p;
}

// The GPU's layered result, 4 floats a pixel (HDR) or 4 bytes widened (LDR); two = with the
// second layer.
std::vector<float> run_gpu(const Layers& s, const Params& p, bool hdr, bool two,
                           const scandof::SatFixedPoint& fp) {
  const void* c1 = hdr ? static_cast<const void*>(s.half1.data()) : s.ldr1.data();
  const void* c2 = hdr ? static_cast<const void*>(s.half2.data()) : s.ldr2.data();
  dof_test::DeviceFrame frame(s.w, s.h, hdr, c1, s.z1.data(), 0x7E7Eu);  // NaN halves
  if (hdr) frame.frame().fixed = fp;
  if (two) frame.set_second_layer(c2, s.z2.data());
  const std::vector<uint8_t> got = frame.render(Method::Layered, p);
  return hdr ? dof_test::halves_to_floats(got) : std::vector<float>(got.begin(), got.end());
}

void expect_close(const Layers& s, bool hdr, const std::vector<float>& got,
                  const std::vector<float>& want, const std::string& what) {
  if (hdr)
    dof_test::expect_close_to_half(s.w, s.h, got, want, 1e-3, 1e-4, false, what);
  else
    dof_test::expect_within_one_step(s.w, s.h, got, want, what);
}

}  // namespace

TEST(DofTwoLayerCuda, MatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {1, 64}, {203, 121}};
  for (const auto& sz : sizes) {
    const Layers s = make_layers(sz[0], sz[1], 900 + sz[0] * 3 + sz[1]);
    for (bool hdr : {true, false})
      for (Shape sh : {Shape::Box, Shape::Octagon, Shape::Disc})
        for (int k : {2, 3}) {
          const Params p = lens(sh, k);
          const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
          std::vector<float> want(static_cast<std::size_t>(s.w) * s.h * 3);
          if (hdr)
            scandof::dof::layered_two(s.rgba1.data(), s.z1.data(), s.rgba2.data(), s.z2.data(),
                                      s.w, s.h, p, fp, want.data());
          else
            scandof::dof::layered_two(s.ldr1.data(), s.z1.data(), s.ldr2.data(), s.z2.data(),
                                      s.w, s.h, p, want.data());
          expect_close(s, hdr, run_gpu(s, p, hdr, true, fp), want,
                       std::string(hdr ? "HDR " : "LDR ") + scandof::dof::to_string(sh) +
                           " K=" + std::to_string(k));
        }
  }
}

TEST(DofTwoLayerCuda, EmptySecondLayerEqualsOneLayer) {
  SCANDOF_SKIP_WITHOUT_GPU();
  Layers s = make_layers(77, 41, 4242);
  std::fill(s.z2.begin(), s.z2.end(), 0.0f);
  for (bool hdr : {true, false}) {
    const Params p = lens(Shape::Disc, 3);
    const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(p.max_radius, 128.0f);
    const std::vector<float> one = run_gpu(s, p, hdr, false, fp);
    const std::vector<float> two = run_gpu(s, p, hdr, true, fp);
    EXPECT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(float)))
        << (hdr ? "HDR" : "LDR");
  }
}

TEST(DofTwoLayerCuda, SecondLayerOnlyForLayered) {
  SCANDOF_SKIP_WITHOUT_GPU();
  scandof::DofFrame f;
  f.rgba = 1;
  f.depth = 1;
  f.out = 1;
  f.width = f.height = 4;
  f.rgba2 = 1;
  scandof::DofGpu gpu;
  EXPECT_THROW(gpu.render(Method::Layered, lens(Shape::Box, 2), f, 0), std::invalid_argument);
  f.depth2 = 1;
  EXPECT_THROW(gpu.render(Method::Spread, lens(Shape::Box, 2), f, 0), std::invalid_argument);
}
