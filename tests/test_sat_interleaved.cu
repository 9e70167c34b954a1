// GPU tests of SatLayout::Interleaved (4 words per pixel, the depth-of-field pass's layout):
// every SAT method x format x a spread of scan variants x channel counts, on awkward sizes,
// against the CPU reference of the same layout, every element; and the non-blocking stage timer.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_skip.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/stream.hpp"

namespace {

using scandof::SatBuilder;
using scandof::SatFormat;
using scandof::SatInput;
using scandof::SatLayout;
using scandof::SatMethod;
using scandof::ScanAlgorithm;
using scandof::util::DeviceBuffer;


std::vector<uint8_t> random_rgba(int w, int h, uint64_t seed) {
  std::vector<uint8_t> img(static_cast<std::size_t>(w) * h * 4);
  for (std::size_t i = 0; i < img.size(); i += 8) {
    const uint64_t r = scandof::util::hash_at(seed, i);
    std::memcpy(&img[i], &r, std::min<std::size_t>(8, img.size() - i));
  }
  return img;
}

struct Case {
  int w, h;
};
const Case kSizes[] = {{1, 1}, {64, 1}, {1, 64}, {33, 17}, {129, 33}, {1001, 777}, {1921, 1079}};

// Builds with the given parameters from a pitched copy of img (16-byte aligned rows when w % 4 ==
// 0, so both the vector and the scalar load paths run) and returns the table, poisoned first.
template <class T>
std::vector<T> build(const std::vector<uint8_t>& img, int w, int h, SatFormat fmt, SatMethod m,
                     ScanAlgorithm a, int channels, SatLayout layout) {
  const std::size_t pitch = static_cast<std::size_t>(w) * 4;
  DeviceBuffer<uint8_t> px(pitch * h);
  px.upload(img.data(), img.size());
  const std::size_t words = SatBuilder::table_bytes(w, h, channels, layout) / 4;
  DeviceBuffer<T> out(words);
  out.poison();
  SatInput in;
  in.pixels = px.get();
  in.pitch_bytes = pitch;
  in.width = w;
  in.height = h;
  SatBuilder b;
  b.build(in, out.get(), fmt, m, a, 0, false, channels, layout);
  CUDA_CHECK(cudaGetLastError());
  std::vector<T> host(words);
  out.download(host.data(), words);
  return host;
}

TEST(SatInterleaved, MatchesReferenceU32) {
  SCANDOF_SKIP_WITHOUT_GPU();
  for (const Case& c : kSizes)
    for (SatMethod m : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                        SatMethod::FusedOnePass, SatMethod::FusedResident})
      for (ScanAlgorithm a : {ScanAlgorithm::Naive, ScanAlgorithm::SinglePass, ScanAlgorithm::Cub})
        for (int ch : {3, 4}) {
          if (m != SatMethod::Paper && a != ScanAlgorithm::SinglePass) continue;  // ignores algo
          const auto img = random_rgba(c.w, c.h, 1000u * c.w + c.h);
          std::vector<uint32_t> want(static_cast<std::size_t>(c.w) * c.h * 4);
          scandof::sat_gold(img.data(), c.w, c.h, want.data(), ch, SatLayout::Interleaved);
          const auto got =
              build<uint32_t>(img, c.w, c.h, SatFormat::U32, m, a, ch, SatLayout::Interleaved);
          std::size_t bad = 0, first = 0;
          for (std::size_t i = 0; i < want.size(); ++i)
            if (got[i] != want[i] && bad++ == 0) first = i;
          EXPECT_EQ(bad, 0u) << c.w << "x" << c.h << " " << scandof::to_string(m) << " "
                             << scandof::to_string(a) << " channels " << ch << ": first bad word "
                             << first << " (pixel " << first / 4 << ", word " << first % 4
                             << ") got " << got[first] << " want " << want[first];
        }
}

// Float tables: each element is a sum of (x+1)(y+1) bytes; below 2^24 it is exact, above it each
// addition rounds by at most 2^-24 relative (see test_sat.cu for the bound).
TEST(SatInterleaved, MatchesReferenceF32) {
  SCANDOF_SKIP_WITHOUT_GPU();
  for (const Case& c : kSizes)
    for (SatMethod m : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                        SatMethod::FusedOnePass, SatMethod::FusedResident}) {
      const auto img = random_rgba(c.w, c.h, 7u * c.w + c.h);
      std::vector<uint32_t> exact(static_cast<std::size_t>(c.w) * c.h * 4);
      scandof::sat_gold(img.data(), c.w, c.h, exact.data(), 3, SatLayout::Interleaved);
      const auto got = build<float>(img, c.w, c.h, SatFormat::F32, m, ScanAlgorithm::SinglePass, 3,
                                    SatLayout::Interleaved);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < exact.size(); ++i) {
        const std::size_t p = i / 4;
        const double x = static_cast<double>(p % c.w), y = static_cast<double>(p / c.w);
        const double v = exact[i];
        const double u = std::ldexp(1.0, -24), k = x + y + 2;
        const double tol = v < 16777216.0 ? 0.0 : k * u / (1 - k * u) * v;
        if (std::fabs(static_cast<double>(got[i]) - v) > tol) ++bad;
      }
      EXPECT_EQ(bad, 0u) << c.w << "x" << c.h << " " << scandof::to_string(m);
    }
}

// Planar output is unchanged by the layout option (the default argument keeps old callers).
TEST(SatInterleaved, PlanarDefaultUnchanged) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 257, h = 31;
  const auto img = random_rgba(w, h, 3);
  std::vector<uint32_t> want(static_cast<std::size_t>(w) * h * 3);
  scandof::sat_gold(img.data(), w, h, want.data(), 3);
  const auto got = build<uint32_t>(img, w, h, SatFormat::U32, SatMethod::Fused,
                                   ScanAlgorithm::SinglePass, 3, SatLayout::Planar);
  EXPECT_EQ(got, want);
}

TEST(SatInterleaved, TableBytes) {
  EXPECT_EQ(SatBuilder::table_bytes(10, 3, 3, SatLayout::Interleaved), 10u * 3 * 16);
  EXPECT_EQ(SatBuilder::table_bytes(10, 3, 1, SatLayout::Interleaved), 10u * 3 * 16);
  EXPECT_EQ(SatBuilder::table_bytes(10, 3, 3), 10u * 3 * 12);
}

// poll_stage_times never waits: it reports a timed build once the GPU has passed it, newest first,
// and each build once.
TEST(SatInterleaved, PollStageTimesDoesNotBlockAndReportsOnce) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 640, h = 360;
  const auto img = random_rgba(w, h, 11);
  DeviceBuffer<uint8_t> px(img.size());
  px.upload(img.data(), img.size());
  DeviceBuffer<uint32_t> out(SatBuilder::table_bytes(w, h, 3, SatLayout::Interleaved) / 4);
  SatInput in;
  in.pixels = px.get();
  in.pitch_bytes = static_cast<std::size_t>(w) * 4;
  in.width = w;
  in.height = h;
  SatBuilder b;
  scandof::SatStageTimes t;
  EXPECT_FALSE(b.poll_stage_times(t));  // nothing built yet
  for (int i = 0; i < 10; ++i)
    b.build(in, out.get(), SatFormat::U32, SatMethod::Paper, ScanAlgorithm::SinglePass, 0, true, 3,
            SatLayout::Interleaved);
  CUDA_CHECK(cudaDeviceSynchronize());
  ASSERT_TRUE(b.poll_stage_times(t));
  EXPECT_GT(t.total_ms, 0.f);
  EXPECT_GT(t.row_scan_ms, 0.f);
  EXPECT_FALSE(b.poll_stage_times(t));  // reported once
  const scandof::SatStageTimes last = b.stage_times();
  EXPECT_GT(last.total_ms, 0.f);
}

}  // namespace
