// GPU depth of field (scandof/dof_cuda.hpp) against the CPU gold implementations (scandof/dof.hpp):
// every method x shape on awkward sizes with random colours and depths, each output channel within
// one 8-bit step of the gold's float result (the GPU rounds to RGBA8; float vs double sums and
// fused multiply-adds may move a value across a rounding boundary, never further).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "dof_cuda_harness.cuh"
#include "dof_test_util.hpp"
#include "gpu_skip.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "scandof/dof.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/device_buffer.hpp"

namespace {

using namespace dof_test;  // dof_test_util.hpp and dof_cuda_harness.cuh

struct Scene {
  int w, h;
  std::vector<uint8_t> rgba;
  std::vector<float> depth;
};

// Colours random; depth piecewise (blocks of random depth, so there are discontinuities and runs
// of equal radius) between 1 and 40 around a focus of 8.
Scene make_scene(int w, int h, uint64_t seed) {
  Scene s{w, h, hashed_rgba(w, h, seed), std::vector<float>(np(w, h))};
  block_depth(w, h, seed + 1, s.depth.data());
  return s;
}

// With `shared`, that DofGpu renders (its scratch kept from earlier calls), else a fresh one. The
// table is SatBuilder's (interleaved, U32) of the frame.
std::vector<uint8_t> run_gpu(const Scene& s, Method m, const Params& p,
                             scandof::DofGpu* shared = nullptr) {
  DeviceFrame frame(s.w, s.h, false, s.rgba.data(), s.depth.data(), 0xA5A5u);
  scandof::util::DeviceBuffer<uint32_t> px(np(s.w, s.h));
  px.upload(reinterpret_cast<const uint32_t*>(s.rgba.data()), px.size());
  scandof::util::DeviceBuffer<uint32_t> sat(np(s.w, s.h) * 4);
  scandof::SatInput in;
  in.pixels = px.get();
  in.pitch_bytes = static_cast<std::size_t>(s.w) * 4;
  in.width = s.w;
  in.height = s.h;
  scandof::SatBuilder b;
  b.build(in, sat.get(), scandof::SatFormat::U32, scandof::SatMethod::Fused,
          scandof::ScanAlgorithm::SinglePass, 0, false, 3, scandof::SatLayout::Interleaved);
  frame.frame().sat = sat.get();
  return frame.render(m, p, shared);
}

void expect_matches_gold(const Scene& s, Method m, const Params& p, const std::string& what,
                         scandof::DofGpu* shared = nullptr) {
  std::vector<float> want(np(s.w, s.h) * 3);
  scandof::dof::render(m, s.rgba.data(), s.depth.data(), s.w, s.h, p, want.data());
  expect_within_one_step(s.w, s.h, run_gpu(s, m, p, shared), want, what);
}

TEST(DofCuda, EveryMethodAndShapeMatchesGold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int sizes[][2] = {{1, 1}, {33, 17}, {64, 1}, {1, 64}, {203, 121}};
  for (const auto& sz : sizes) {
    const Scene s = make_scene(sz[0], sz[1], 100 + sz[0] * 7 + sz[1]);
    for (Method m : {Method::Gather, Method::Spread, Method::Layered})
      for (Shape sh : {Shape::Box, Shape::Octagon, Shape::Disc}) {
        const Params p = gpu_lens(sh);
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
      Params p = gpu_lens(Shape::Disc);
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
  Params p = lens(12.0f, 15.0f, 6.0f);
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
        Params p = lens(14.0f, 8.0f, 11.5f);
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
    Params p = gpu_lens(c.sh);
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
        Params p = lens(9.0f, 8.0f, 11.5f);
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
