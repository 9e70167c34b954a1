// Float SAT tables are run-to-run deterministic: every method sums each table element in an order
// fixed by the pixel's position (block scans of rows and columns, no look-back over floats), so
// 20 builds of the same frame give the same bits. RGBA8 and RGBA16F pixels, both layouts, ragged
// sizes. Skips (with the reason) without a CUDA device.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "test_util.hpp"

namespace {

using scandof::SatBuilder;
using scandof::SatFormat;
using scandof::SatLayout;
using scandof::SatMethod;
using scandof::SatPixels;
using scandof::ScanAlgorithm;
namespace t = scandof::test;

class SatDeterminism : public ::testing::Test {
 protected:
  void SetUp() override { SCANDOF_SKIP_WITHOUT_GPU(); }
};

// RGBA16F radiance over several decades (so a float sum rounds), or RGBA8 bytes.
std::vector<std::uint16_t> hdr_pixels(int w, int h, std::uint64_t seed) {
  std::vector<std::uint16_t> v(std::size_t(w) * h * 4);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint64_t r = t::hash_at(seed, i);
    const float x = float(r >> 40) * 0x1p-24f * float(1 << ((r >> 8) % 12));
    v[i] = scandof::float_to_half(x);
  }
  return v;
}
std::vector<std::uint8_t> ldr_pixels(int w, int h, std::uint64_t seed) {
  std::vector<std::uint8_t> v(std::size_t(w) * h * 4);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint8_t(t::hash_at(seed, i));
  return v;
}

void expect_same_bits(SatPixels px, SatMethod method, SatLayout layout, int w, int h) {
  const std::size_t px_bytes = std::size_t(w) * h * 8;
  t::DeviceBuffer<unsigned char> d_px(px == SatPixels::Rgba16F ? px_bytes : px_bytes / 2);
  if (px == SatPixels::Rgba16F) {
    const auto hp = hdr_pixels(w, h, std::uint64_t(w) * 7 + h);
    CUDA_CHECK(cudaMemcpy(d_px.data(), hp.data(), px_bytes, cudaMemcpyHostToDevice));
  } else {
    const auto lp = ldr_pixels(w, h, std::uint64_t(w) * 5 + h);
    CUDA_CHECK(cudaMemcpy(d_px.data(), lp.data(), lp.size(), cudaMemcpyHostToDevice));
  }
  scandof::SatInput in =
      t::pixel_input(d_px.data(), std::size_t(w) * (px == SatPixels::Rgba16F ? 8 : 4), w, h);
  in.format = px;
  const std::size_t bytes = SatBuilder::table_bytes(w, h, 3, layout);
  t::DeviceBuffer<unsigned char> d_out(bytes);
  SatBuilder b;
  std::vector<unsigned char> first;
  for (int run = 0; run < 20; ++run) {
    d_out.poison();
    b.build(in, d_out.data(), SatFormat::F32, method, ScanAlgorithm::SinglePass, 0, false, 3,
            layout);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> got = d_out.download();
    if (run == 0) {
      first = std::move(got);
    } else {
      ASSERT_EQ(std::memcmp(first.data(), got.data(), bytes), 0)
          << scandof::to_string(px) << " " << scandof::to_string(method) << " " << w << "x" << h
          << (layout == SatLayout::Interleaved ? " interleaved" : " planar") << ": build " << run
          << " differs from build 0";
    }
  }
}

TEST_F(SatDeterminism, FloatTablesAreTheSameEveryBuild) {
  for (SatPixels px : {SatPixels::Rgba8, SatPixels::Rgba16F})
    for (SatMethod m : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                        SatMethod::FusedOnePass, SatMethod::FusedResident})
      for (SatLayout l : {SatLayout::Planar, SatLayout::Interleaved})
        for (auto [w, h] : {std::pair<int, int>{1001, 777}, {1920, 1080}}) {
          expect_same_bits(px, m, l, w, h);
        }
}

}  // namespace
