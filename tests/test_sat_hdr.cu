// GPU tests of RGBA16F (HDR) input to SatBuilder: every method (the paper's pipeline with every
// scan algorithm, and each fused path) x layout x source (a texture object over a half4 cudaArray,
// a pitched pointer of halves) x table format, on awkward sizes, against the CPU reference
// sat_gold_hdr. uint32 tables equal it word for word and the clamp counter equals its count; float
// tables agree within the rounding of two summation orders. Random radiance is log-uniform over
// [2^-12, limit] as halves, with zeros and a sprinkle of values that clamp (above the limit, NaN,
// negative). Outputs and counters are poisoned before each build.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_skip.hpp"
#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_pixels.cuh"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/texture_object.hpp"

namespace {

using scandof::SatBuilder;
using scandof::SatFixedPoint;
using scandof::SatFormat;
using scandof::SatInput;
using scandof::SatLayout;
using scandof::SatMethod;
using scandof::SatPixels;
using scandof::ScanAlgorithm;
using scandof::util::DeviceBuffer;
using Size = scandof::test::Size2D;
using scandof::test::pixel_input;

// Uniform in [0, 1) from the i-th hash of a seed.
double unit(uint64_t seed, uint64_t i) {
  return static_cast<double>(scandof::util::hash_at(seed, i) >> 11) * 0x1.0p-53;
}

// An HDR frame as halves (4 per pixel). Log-uniform radiance over [2^-12, limit] (kept inside the
// limit), 1 in 16 an exact zero; with `specials`, 1 in 64 a value that must clamp: above the limit,
// NaN, negative (or -0, which is 0 and not counted), or +inf where `inf` allows.
std::vector<uint16_t> random_halves(int w, int h, double limit, uint64_t seed, bool specials,
                                    bool inf = false) {
  using scandof::float_to_half;
  using scandof::half_to_float;
  std::vector<uint16_t> img(static_cast<std::size_t>(w) * h * 4);
  const double lg_hi = std::log2(limit);
  for (std::size_t i = 0; i < img.size(); ++i) {
    const double a = unit(seed, 3 * i), b = unit(seed, 3 * i + 1), c = unit(seed, 3 * i + 2);
    if (specials && a < 1.0 / 64) {
      const int kind = static_cast<int>(b * (inf ? 5 : 4));
      const float above = static_cast<float>(std::fmin(limit * (1.5 + 50 * c), 60000.0));
      const float v = kind == 0   ? above
                      : kind == 1 ? std::nanf("")
                      : kind == 2 ? -static_cast<float>(1 + c)
                      : kind == 3 ? -0.0f
                                  : INFINITY;
      img[i] = float_to_half(v);
      continue;
    }
    if (a < 1.0 / 16 + 1.0 / 64) {
      img[i] = 0;
      continue;
    }
    float v =
        half_to_float(float_to_half(static_cast<float>(std::exp2(-12.0 + (lg_hi + 12.0) * c))));
    uint16_t hv = float_to_half(v);
    while (half_to_float(hv) > limit) --hv;  // positive halves order as integers
    img[i] = hv;
  }
  return img;
}

std::vector<float> to_floats(const std::vector<uint16_t>& halves) {
  std::vector<float> f(halves.size());
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = scandof::half_to_float(halves[i]);
  return f;
}

// The frame as pitched device rows (pitch >= 8 * w) and as a half4 cudaArray behind a texture
// object (what the demo's HDR colour target maps to).
struct HdrImage {
  int w, h;
  std::size_t pitch;
  DeviceBuffer<unsigned char> rows;
  cudaArray_t array = nullptr;
  scandof::util::TextureObject tex;
  HdrImage(const std::vector<uint16_t>& img, int w_, int h_, std::size_t pitch_)
      : w(w_), h(h_), pitch(pitch_), rows(pitch_ * h_) {
    const std::size_t row = static_cast<std::size_t>(w) * 8;
    CUDA_CHECK(cudaMemcpy2D(rows.get(), pitch, img.data(), row, row, h, cudaMemcpyHostToDevice));
    const cudaChannelFormatDesc desc = cudaCreateChannelDescHalf4();
    CUDA_CHECK(cudaMallocArray(&array, &desc, w, h));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), row, row, h, cudaMemcpyHostToDevice));
    tex = scandof::util::TextureObject(array);
  }
  ~HdrImage() {
    tex = scandof::util::TextureObject();  // before the array it reads
    if (array) cudaFreeArray(array);
  }
  HdrImage(const HdrImage&) = delete;
  HdrImage& operator=(const HdrImage&) = delete;
  SatInput input(bool texture, const SatFixedPoint& fp, uint32_t* counter) const {
    SatInput in;
    if (texture) {
      in.texture = tex.get();
    } else {
      in.pixels = rows.get();
      in.pitch_bytes = pitch;
    }
    in.width = w;
    in.height = h;
    in.format = SatPixels::Rgba16F;
    in.fixed = fp;
    in.clamp_count = counter;
    return in;
  }
};

// Reference tables, computed once per (format, layout, channels) of an image.
struct Gold {
  const std::vector<float>* img;
  int w, h;
  SatFixedPoint fp;
  std::map<std::tuple<int, int, int>, std::pair<std::vector<uint32_t>, uint64_t>> cache;
  const std::pair<std::vector<uint32_t>, uint64_t>& get(SatFormat f, SatLayout l, int ch) {
    auto& e = cache[{static_cast<int>(f), static_cast<int>(l), ch}];
    if (e.first.empty()) {
      e.first.resize(SatBuilder::table_bytes(w, h, ch, l) / 4);
      if (f == SatFormat::U32) {
        e.second = scandof::sat_gold_hdr(img->data(), w, h, fp, e.first.data(), ch, l);
      } else {
        std::vector<float> t(e.first.size());
        e.second = scandof::sat_gold_hdr(img->data(), w, h, t.data(), ch, l);
        std::memcpy(e.first.data(), t.data(), t.size() * 4);
      }
    }
    return e;
  }
};

// "" or the first mismatches. U32: every word equal. F32: both sides sum nonnegative terms in
// float, each element's rounding bounded by its summation depth (at most x + y + 2 additions in
// either order) times 2^-24 relative; the bound is doubled for the two orders.
std::string compare(const std::vector<uint32_t>& want, const std::vector<uint32_t>& got,
                    SatFormat f, SatLayout l, int w, int ch) {
  const std::size_t n = want.size();
  const std::size_t plane = n / (l == SatLayout::Interleaved ? 1 : ch);
  std::size_t bad = 0;
  std::ostringstream msg;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = l == SatLayout::Interleaved ? i / 4 : i % plane;
    bool ok;
    double gv, wv;
    if (f == SatFormat::U32) {
      ok = got[i] == want[i];
      gv = got[i];
      wv = want[i];
    } else {
      float a, b;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, &want[i], 4);
      gv = a;
      wv = b;
      const double k = static_cast<double>(p % w) + static_cast<double>(p / w) + 2;
      ok = std::fabs(gv - wv) <= 2 * k * std::ldexp(1.0, -24) * std::fabs(wv);  // NaN: false
    }
    if (!ok && bad++ < 4)
      msg << " [word " << i << " pixel " << p << " got " << gv << " want " << wv << "]";
  }
  return bad == 0 ? "" : std::to_string(bad) + " of " + std::to_string(n) + " wrong:" + msg.str();
}

using MethodList = std::vector<std::pair<SatMethod, ScanAlgorithm>>;

// Every method of `methods` x layout x source x format at one size; the channel count cycles
// 1..4 over the builds, so each method meets each count across the sizes.
void check_every(int w, int h, const MethodList& methods) {
  // Two encodings across the sizes: the demo's default (r = 24, up to 100) and a wider box.
  const SatFixedPoint fp = scandof::hdr_fixed_point((w + h) % 2 ? 24.0f : 64.0f, 100.0f);
  const auto halves = random_halves(w, h, fp.max_radiance(), 0x4D5u * w + h, true);
  const auto img = to_floats(halves);
  // Pitches: tight (16-byte aligned rows exactly when w is even) or one padded 16-byte row more.
  const std::size_t pitch = static_cast<std::size_t>(w) * 8 + ((w / 2) % 2 ? 16 : 0);
  HdrImage image(halves, w, h, pitch);
  Gold gold{&img, w, h, fp, {}};
  DeviceBuffer<uint32_t> counter(1);
  SatBuilder builder;
  int build = 0;
  for (const auto& [method, algo] : methods)
    for (SatLayout layout : {SatLayout::Planar, SatLayout::Interleaved})
      for (bool texture : {false, true})
        for (SatFormat format : {SatFormat::U32, SatFormat::F32}) {
          const int ch = 1 + (build++ + w) % 4;
          SCOPED_TRACE(std::string(scandof::to_string(method)) + " " + scandof::to_string(algo) +
                       (layout == SatLayout::Interleaved ? " interleaved " : " planar ") +
                       (texture ? "texture " : "pitched ") + scandof::to_string(format) +
                       " channels " + std::to_string(ch));
          const auto& want = gold.get(format, layout, ch);
          DeviceBuffer<uint32_t> out(want.first.size());
          out.poison();
          counter.poison();
          builder.build(image.input(texture, fp, counter.get()), out.get(), format, method, algo, 0,
                        build % 5 == 0, ch, layout);
          CUDA_CHECK(cudaDeviceSynchronize());
          std::vector<uint32_t> got(want.first.size());
          out.download(got.data(), got.size());
          uint32_t count = 0;
          counter.download(&count, 1);
          EXPECT_EQ(compare(want.first, got, format, layout, w, ch), "");
          EXPECT_EQ(count, format == SatFormat::U32 ? want.second : 0u);
        }
}

class SatHdrSweep : public ::testing::TestWithParam<Size> {};

// The paper's pipeline with every scan algorithm and each fused path.
TEST_P(SatHdrSweep, EveryMethodLayoutSourceFormat) {
  SCANDOF_SKIP_WITHOUT_GPU();
  MethodList methods;
  for (ScanAlgorithm a : scandof::all_scan_algorithms()) methods.push_back({SatMethod::Paper, a});
  for (SatMethod m : {SatMethod::Fused, SatMethod::FusedTwoPass, SatMethod::FusedOnePass,
                      SatMethod::FusedResident})
    methods.push_back({m, ScanAlgorithm::WarpShuffle});
  check_every(GetParam().w, GetParam().h, methods);
}

// The awkward sizes, a frame, and one of over 2^20 + 7 pixels (odd sides: no vector loads).
SCANDOF_FRAME_SIZE_SUITE(SatHdrSweep, {1, 1}, {31, 1}, {1, 33}, {33, 17}, {36, 5}, {1025, 31},
                         {1920, 1080}, {1031, 1019});

// A 3 x 2 grid of tiles (look-backs along rows and columns, several resident tiles) through each
// method once, the paper's with one scan (the others differ in the row scans alone, which know
// nothing of the input): the sweep compute-sanitizer runs.
TEST(SatHdr, EveryMethodSmallGrid) {
  SCANDOF_SKIP_WITHOUT_GPU();
  check_every(260, 40,
              {{SatMethod::Paper, ScanAlgorithm::Cub},
               {SatMethod::Fused, ScanAlgorithm::Cub},
               {SatMethod::FusedTwoPass, ScanAlgorithm::Cub},
               {SatMethod::FusedOnePass, ScanAlgorithm::Cub},
               {SatMethod::FusedResident, ScanAlgorithm::Cub}});
}

// Clamps: an encoding whose limit many values pass (frac_bits 24, limit 1.0), +inf among the
// specials, and the coarsest one (frac_bits 0, max_value 1: everything at or above 0.5 rounds to
// 1 or clamps). Every tiled method and the paper's pipeline, both sources, uint32, counts equal.
TEST(SatHdr, ClampsAreCountedLikeTheReference) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 300, h = 70;
  for (const SatFixedPoint fp : {SatFixedPoint{24, 1u << 24}, SatFixedPoint{0, 1u}}) {
    const auto halves = random_halves(w, h, 4.0, 77u + fp.frac_bits, true, true);
    const auto img = to_floats(halves);
    HdrImage image(halves, w, h, static_cast<std::size_t>(w) * 8);
    Gold gold{&img, w, h, fp, {}};
    DeviceBuffer<uint32_t> counter(1);
    SatBuilder builder;
    for (SatMethod m : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                        SatMethod::FusedOnePass, SatMethod::FusedResident})
      for (bool texture : {false, true})
        for (int ch : {1, 3, 4}) {
          SCOPED_TRACE(std::string(scandof::to_string(m)) + (texture ? " texture" : " pitched") +
                       " frac_bits " + std::to_string(fp.frac_bits) + " channels " +
                       std::to_string(ch));
          const auto& want = gold.get(SatFormat::U32, SatLayout::Interleaved, ch);
          ASSERT_GT(want.second, 0u);
          DeviceBuffer<uint32_t> out(want.first.size());
          out.poison();
          counter.poison();
          builder.build(image.input(texture, fp, counter.get()), out.get(), SatFormat::U32, m,
                        ScanAlgorithm::Cub, 0, false, ch, SatLayout::Interleaved);
          std::vector<uint32_t> got(want.first.size());
          out.download(got.data(), got.size());
          uint32_t count = 0;
          counter.download(&count, 1);
          EXPECT_EQ(compare(want.first, got, SatFormat::U32, SatLayout::Interleaved, w, ch), "");
          EXPECT_EQ(count, want.second);
        }
  }
}

// A frame with nothing to clamp counts 0; RGBA8 input and float tables set the counter to 0 too.
TEST(SatHdr, CounterIsZeroWhereNothingClamps) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 64, h = 40;
  const SatFixedPoint fp = scandof::hdr_fixed_point(24.0f, 100.0f);
  const auto halves = random_halves(w, h, fp.max_radiance(), 5, false);
  HdrImage image(halves, w, h, static_cast<std::size_t>(w) * 8);
  DeviceBuffer<uint32_t> counter(1),
      out(SatBuilder::table_bytes(w, h, 4, SatLayout::Interleaved) / 4);
  DeviceBuffer<uint32_t> rgba8(static_cast<std::size_t>(w) * h);
  rgba8.poison();  // any bytes are valid RGBA8
  const auto bright = random_halves(w, h, fp.max_radiance(), 6, true);
  HdrImage bright_image(bright, w, h, static_cast<std::size_t>(w) * 8);
  SatBuilder builder;
  for (SatMethod m : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                      SatMethod::FusedOnePass, SatMethod::FusedResident}) {
    SCOPED_TRACE(scandof::to_string(m));
    uint32_t count = 1;
    counter.poison();
    builder.build(image.input(false, fp, counter.get()), out.get(), SatFormat::U32, m,
                  ScanAlgorithm::Cub, 0, false, 4, SatLayout::Interleaved);
    counter.download(&count, 1);
    EXPECT_EQ(count, 0u) << "HDR, nothing above the limit";
    // Float tables of a frame that would clamp: nothing is quantized, nothing counted.
    counter.poison();
    builder.build(bright_image.input(true, fp, counter.get()), out.get(), SatFormat::F32, m,
                  ScanAlgorithm::Cub, 0, false, 4, SatLayout::Interleaved);
    counter.download(&count, 1);
    EXPECT_EQ(count, 0u) << "HDR into float tables";
    SatInput in = pixel_input(rgba8.get(), static_cast<std::size_t>(w) * 4, w, h);
    in.clamp_count = counter.get();
    counter.poison();
    builder.build(in, out.get(), SatFormat::U32, m, ScanAlgorithm::Cub, 0, false, 4,
                  SatLayout::Interleaved);
    counter.download(&count, 1);
    EXPECT_EQ(count, 0u) << "RGBA8";
  }
}

// Host only: the tiled kernels skip the exact clamp test where the halves' maximum is at most
// HalfFormat's top_half, so it must be the last half that quantizes unclamped, for every encoding.
TEST(SatHdr, TopHalfIsTheLastUnclampedHalf) {
  using scandof::half_to_float;
  using scandof::sat_detail::HalfFormat;
  std::vector<SatFixedPoint> fps = {SatFixedPoint{24, 1u << 24}, SatFixedPoint{0, 1u},
                                    SatFixedPoint{14, 1651275u}, SatFixedPoint{0, 1u << 24},
                                    SatFixedPoint{3, 7u}};
  for (float r : {0.0f, 1.0f, 24.0f, 64.0f, 500.0f})
    for (float l : {0.5f, 1.0f, 100.0f, 4000.0f}) fps.push_back(scandof::hdr_fixed_point(r, l));
  for (const SatFixedPoint& fp : fps) {
    SCOPED_TRACE("frac_bits " + std::to_string(fp.frac_bits) + " max " +
                 std::to_string(fp.max_value));
    const HalfFormat f = HalfFormat::make(fp, nullptr, 4);
    const auto unclamped = [&](uint16_t h) {
      bool clamped = false;
      (void)scandof::quantize_radiance(half_to_float(h), fp, &clamped);
      return !clamped;
    };
    EXPECT_TRUE(unclamped(f.top_half));
    if (f.top_half < 0x7BFF) EXPECT_FALSE(unclamped(static_cast<uint16_t>(f.top_half + 1)));
    EXPECT_EQ(f.max_value, fp.max_value);
  }
}

// The fixed point, pitch and alignment are checked before any CUDA call (no device needed), and
// the message names the field.
TEST(SatHdr, BadFixedPointOrPitchThrows) {
  SatBuilder b;
  alignas(16) static uint32_t dummy[256];
  SatInput in = pixel_input(dummy, 32, 4, 4);
  in.format = SatPixels::Rgba16F;
  in.fixed = SatFixedPoint{8, 1000};
  auto throws_naming = [&](const SatInput& bad, SatFormat f, const std::string& field) {
    try {
      b.build(bad, dummy, f, SatMethod::Fused, ScanAlgorithm::Cub);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "no std::invalid_argument for " << field;
  };
  for (const SatFixedPoint fp : {SatFixedPoint{-1, 1000}, SatFixedPoint{25, 1000}}) {
    SatInput bad = in;
    bad.fixed = fp;
    throws_naming(bad, SatFormat::U32, "fixed.frac_bits");
  }
  for (const SatFixedPoint fp : {SatFixedPoint{8, 0}, SatFixedPoint{8, (1u << 24) + 1}}) {
    SatInput bad = in;
    bad.fixed = fp;
    throws_naming(bad, SatFormat::U32, "fixed.max_value");
  }
  {
    SatInput bad = in;
    bad.pitch_bytes = 24;  // < 8 * width (RGBA8's 4 * width would pass)
    throws_naming(bad, SatFormat::U32, "pitch_bytes");
    throws_naming(bad, SatFormat::F32, "pitch_bytes");
    bad.pitch_bytes = 36;  // >= 8 * width, not a multiple of 8
    throws_naming(bad, SatFormat::U32, "pitch_bytes");
  }
  {
    SatInput bad = in;
    bad.pixels = reinterpret_cast<const char*>(dummy) + 4;  // 4-byte aligned, not 8
    throws_naming(bad, SatFormat::U32, "pixels");
  }
  {
    SatInput bad = in;
    bad.format = static_cast<SatPixels>(7);
    throws_naming(bad, SatFormat::U32, "format");
  }
}

}  // namespace
