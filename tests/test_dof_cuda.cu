// GPU depth of field (scandof/dof_cuda.hpp) against the CPU gold implementations (scandof/dof.hpp):
// every method x shape on awkward sizes with random colours and depths, each output channel within
// one 8-bit step of the gold's float result (the GPU rounds to RGBA8; float vs double sums and
// fused multiply-adds may move a value across a rounding boundary, never further).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "dof_test_util.hpp"
#include "gpu_skip.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/dof.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/texture_object.hpp"

namespace {

using scandof::dof::Method;
using scandof::dof::Params;
using scandof::dof::Shape;


using Array2D = scandof::util::CudaArray;

struct Scene {
  int w, h;
  std::vector<uint8_t> rgba;
  std::vector<float> depth;
};

// Colours random; depth piecewise (blocks of random depth, so there are discontinuities and runs
// of equal radius) between 1 and 40 around a focus of 8.
Scene make_scene(int w, int h, uint64_t seed) {
  Scene s{w, h, std::vector<uint8_t>(static_cast<std::size_t>(w) * h * 4),
          std::vector<float>(static_cast<std::size_t>(w) * h)};
  for (std::size_t i = 0; i < s.rgba.size(); ++i)
    s.rgba[i] = static_cast<uint8_t>(scandof::util::hash_at(seed, i));
  dof_test::block_depth(w, h, seed + 1, s.depth.data());
  return s;
}

// With `shared`, that DofGpu renders (its scratch kept from earlier calls), else a fresh one.
std::vector<uint8_t> run_gpu(const Scene& s, Method m, const Params& p,
                             scandof::DofGpu* shared = nullptr) {
  Array2D color(cudaCreateChannelDesc<uchar4>(), s.w, s.h);
  Array2D depth(cudaCreateChannelDesc<float>(), s.w, s.h);
  Array2D out(cudaCreateChannelDesc<uchar4>(), s.w, s.h, cudaArraySurfaceLoadStore);
  CUDA_CHECK(cudaMemcpy2DToArray(color.get(), 0, 0, s.rgba.data(), s.w * 4, s.w * 4, s.h,
                                 cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2DToArray(depth.get(), 0, 0, s.depth.data(), s.w * 4, s.w * 4, s.h,
                                 cudaMemcpyHostToDevice));
  // Poison the output: a pixel the kernel misses shows.
  std::vector<uint8_t> poison(static_cast<std::size_t>(s.w) * s.h * 4, 0xA5);
  CUDA_CHECK(cudaMemcpy2DToArray(out.get(), 0, 0, poison.data(), s.w * 4, s.w * 4, s.h,
                                 cudaMemcpyHostToDevice));
  scandof::util::TextureObject ctex(color.get()), dtex(depth.get());
  scandof::util::SurfaceObject surf(out.get());
  scandof::util::DeviceBuffer<uint32_t> px(static_cast<std::size_t>(s.w) * s.h);
  px.upload(reinterpret_cast<const uint32_t*>(s.rgba.data()), px.size());
  scandof::util::DeviceBuffer<uint32_t> sat(static_cast<std::size_t>(s.w) * s.h * 4);
  scandof::SatInput in;
  in.pixels = px.get();
  in.pitch_bytes = static_cast<std::size_t>(s.w) * 4;
  in.width = s.w;
  in.height = s.h;
  scandof::SatBuilder b;
  b.build(in, sat.get(), scandof::SatFormat::U32, scandof::SatMethod::Fused,
          scandof::ScanAlgorithm::SinglePass, 0, false, 3, scandof::SatLayout::Interleaved);
  scandof::DofFrame f;
  f.rgba = ctex.get();
  f.depth = dtex.get();
  f.sat = sat.get();
  f.out = surf.get();
  f.width = s.w;
  f.height = s.h;
  scandof::DofGpu own;
  (shared ? *shared : own).render(m, p, f, 0);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint8_t> got(poison.size());
  CUDA_CHECK(cudaMemcpy2DFromArray(got.data(), s.w * 4, out.get(), 0, 0, s.w * 4, s.h,
                                   cudaMemcpyDeviceToHost));
  return got;
}

void expect_matches_gold(const Scene& s, Method m, const Params& p, const std::string& what,
                         scandof::DofGpu* shared = nullptr) {
  std::vector<float> want(static_cast<std::size_t>(s.w) * s.h * 3);
  scandof::dof::render(m, s.rgba.data(), s.depth.data(), s.w, s.h, p, want.data());
  const std::vector<uint8_t> got = run_gpu(s, m, p, shared);
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(s.w) * s.h; ++i)
    for (int c = 0; c < 3; ++c) {
      const double d = std::fabs(got[4 * i + c] - 255.0 * want[3 * i + c]);
      worst = std::max(worst, d);
      if (d > 1.0 && bad++ == 0) first = i;
    }
  EXPECT_EQ(bad, 0u) << what << " " << s.w << "x" << s.h << ": worst " << worst
                     << "/255, first at x " << first % s.w << " y " << first / s.w;
}

TEST(DofCuda, EveryMethodAndShapeMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {203, 121}};
  for (const auto& sz : sizes) {
    const Scene s = make_scene(sz[0], sz[1], 100 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Gather, Method::Spread, Method::Layered})
      for (Shape sh : {Shape::Box, Shape::Octagon, Shape::Disc}) {
        Params p;
        p.aperture_px = 9.0f;
        p.focus = 8.0f;
        p.max_radius = 7.5f;
        p.shape = sh;
        p.disc_boxes = 4;
        p.layers = 3;
        expect_matches_gold(
            s, m, p, std::string(scandof::dof::to_string(m)) + "/" + scandof::dof::to_string(sh));
      }
  }
}

// One DofGpu across frame sizes, its scratch released between them (a resized frame): spread,
// layered and engine (the two scratch buffers) stay equal to the gold at each size, larger and
// smaller than the scratch held before.
TEST(DofCuda, ReleaseScratchBetweenSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  scandof::DofGpu gpu;
  const int sizes[][2] = {{203, 121}, {33, 17}, {257, 130}, {1, 64}};
  for (const auto& sz : sizes) {
    const Scene s = make_scene(sz[0], sz[1], 900 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Spread, Method::Layered, Method::Engine}) {
      Params p;
      p.aperture_px = 9.0f;
      p.focus = 8.0f;
      p.max_radius = 7.5f;
      p.shape = Shape::Disc;
      p.disc_boxes = 4;
      p.layers = 3;
      p.rings = 3;
      expect_matches_gold(s, m, p, std::string("shared DofGpu, ") + scandof::dof::to_string(m),
                          &gpu);
    }
    gpu.release_scratch();
    gpu.release_scratch();  // twice: nothing left to free
  }
}

// Two layers and no reflection margin; an integer max radius (the t = 0 boxes).
TEST(DofCuda, LayeredTwoLayersAndNoBorder) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const Scene s = make_scene(97, 55, 5);
  Params p;
  p.aperture_px = 12.0f;
  p.focus = 15.0f;
  p.max_radius = 6.0f;
  p.layers = 2;
  p.border = scandof::dof::SpreadBorder::None;
  expect_matches_gold(s, Method::Layered, p, "layered K=2 no border");
  expect_matches_gold(s, Method::Spread, p, "spread no border");
}

// The engine-style near/far gather and the SAT hybrid (scandof/dof_engine.hpp): the same per-pixel
// functions on both sides, float on both, so each channel within one 8-bit step too. Ring counts
// 1 (9 samples), 3 and 8 (the most); focus 8 puts blocks in front (near field) and behind.
TEST(DofCuda, EngineAndHybridMatchGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {203, 121}, {150, 97}};
  for (const auto& sz : sizes) {
    const Scene s = make_scene(sz[0], sz[1], 700 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Engine, Method::Hybrid})
      for (int rings : {1, 3, 8}) {
        Params p;
        p.aperture_px = 14.0f;
        p.focus = 8.0f;
        p.max_radius = 11.5f;
        p.shape = rings == 3 ? Shape::Disc : (rings == 1 ? Shape::Octagon : Shape::Box);
        p.rings = rings;
        expect_matches_gold(s, m, p,
                            std::string(scandof::dof::to_string(m)) + " rings " +
                                std::to_string(rings) + "/" + scandof::dof::to_string(p.shape));
      }
  }
}

// Params::radius_offset = 0.5 (shapes of the lens's area) through every kernel that builds a shape:
// the box gather (4 or 16 corners), the shape gather, spreading (grid and per-box paths), hybrid.
TEST(DofCuda, RadiusOffsetMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const Scene s = make_scene(129, 71, 77);
  struct C {
    Method m;
    Shape sh;
  };
  for (const C c : {C{Method::Gather, Shape::Box}, C{Method::Gather, Shape::Disc},
                    C{Method::Spread, Shape::Box}, C{Method::Spread, Shape::Octagon},
                    C{Method::Layered, Shape::Disc}, C{Method::Hybrid, Shape::Octagon}}) {
    Params p;
    p.aperture_px = 9.0f;
    p.focus = 8.0f;
    p.max_radius = 7.5f;
    p.shape = c.sh;
    p.layers = 3;
    p.radius_offset = 0.5f;
    expect_matches_gold(s, c.m, p,
                        std::string(scandof::dof::to_string(c.m)) + "/" +
                            scandof::dof::to_string(c.sh) + " radius offset 0.5");
  }
}

// Aperture blades (Params::blades): the polygon's bands (off-centre boxes on a 4 x 4 corner grid)
// in the gather and hybrid kernels, odd sizes, every blade count, turned and not, both offsets.
TEST(DofCuda, BladesMatchGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {1, 64}, {131, 73}};
  for (const auto& sz : sizes) {
    const Scene s = make_scene(sz[0], sz[1], 91);
    for (int blades = scandof::dof::kMinBlades; blades <= scandof::dof::kMaxBlades; ++blades)
      for (const Method m : {Method::Gather, Method::Hybrid}) {
        Params p;
        p.aperture_px = 9.0f;
        p.focus = 8.0f;
        p.max_radius = 11.5f;
        p.blades = blades;
        p.blade_rotation = blades == 6 ? 0.0f : 17.0f;
        p.radius_offset = blades % 2 ? 0.5f : 0.0f;
        expect_matches_gold(s, m, p,
                            std::string(scandof::dof::to_string(m)) + " blades " +
                                std::to_string(blades));
      }
  }
}

TEST(DofCuda, BadArgumentsThrow) {
  SCANDOF_SKIP_WITHOUT_GPU();
  scandof::DofGpu gpu;
  scandof::DofFrame f;
  EXPECT_THROW(gpu.render(Method::Gather, Params{}, f, 0), std::invalid_argument);
  Params bad;
  bad.max_radius = 1000.0f;  // beyond kSpreadMaxRadius
  f.width = f.height = 4;
  EXPECT_THROW(gpu.render(Method::Spread, bad, f, 0), std::invalid_argument);
  Params no_rings;
  no_rings.rings = 0;
  EXPECT_THROW(gpu.render(Method::Engine, no_rings, f, 0), std::invalid_argument);
}

}  // namespace
