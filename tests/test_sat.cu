// GPU tests of SatBuilder: every method x ScanAlgorithm x format x input kind (pitched pointer and
// texture object over a cudaArray) on awkward sizes, against the exact CPU table, every element.
//
// Float tolerance. Table element V(x,y) sums (x+1)(y+1) non-negative integers. Whatever order a
// scan adds them in, each output is a binary summation tree whose partial sums are all between 0
// and V, with at most x additions in the row stage and y in the column stage; each addition rounds
// by at most u = 2^-24 relative (round to nearest), so |V_float - V| <= gamma_{x+y} V with
// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical Algorithms, 4.2). Below
// 2^24 every partial sum is an integer that float holds exactly: there the table must be exact.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_skip.hpp"
#include "test_util.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/texture_object.hpp"

namespace {

using scandof::SatBuilder;
using scandof::SatFormat;
using scandof::SatInput;
using scandof::SatMethod;
using scandof::ScanAlgorithm;
using Size = scandof::test::Size2D;
using scandof::test::pixel_input;

constexpr uint8_t kPoisonByte = 0xA5;  // uint32 0xA5A5A5A5 > any table value; float is negative

std::vector<uint8_t> random_rgba(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> img(static_cast<std::size_t>(w) * h * 4);
  for (std::size_t i = 0; i < img.size(); i += 4) {
    const uint32_t r = rng();
    std::memcpy(&img[i], &r, 4);
  }
  return img;
}

struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// The image as a pitched device array (pitch chosen by the caller: aligned or deliberately not).
struct PitchedImage {
  std::unique_ptr<DeviceBuffer> buf;
  std::size_t pitch = 0;
  PitchedImage(const std::vector<uint8_t>& img, int w, int h, std::size_t pitch_bytes)
      : pitch(pitch_bytes) {
    buf = std::make_unique<DeviceBuffer>(pitch * h + 16);
    CUDA_CHECK(cudaMemset(buf->p, 0x5A, pitch * h + 16));  // padding bytes must never be read
    CUDA_CHECK(cudaMemcpy2D(buf->p, pitch, img.data(), static_cast<std::size_t>(w) * 4,
                            static_cast<std::size_t>(w) * 4, h, cudaMemcpyHostToDevice));
  }
  SatInput input(int w, int h) const { return pixel_input(buf->p, pitch, w, h); }
};

// A random image, its exact 3-channel planar tables, a tightly pitched device copy and a table
// buffer: what most tests below start from.
struct Reference {
  int w, h;
  std::vector<uint8_t> img;
  std::vector<uint32_t> exact;
  PitchedImage pi;
  DeviceBuffer out;
  Reference(int width, int height, uint32_t seed)
      : w(width),
        h(height),
        img(random_rgba(width, height, seed)),
        exact(gold_of(img, width, height)),
        pi(img, width, height, static_cast<std::size_t>(width) * 4),
        out(SatBuilder::table_bytes(width, height)) {}
  std::size_t bytes() const { return SatBuilder::table_bytes(w, h); }
  SatInput input() const { return pi.input(w, h); }
  static std::vector<uint32_t> gold_of(const std::vector<uint8_t>& img, int w, int h) {
    std::vector<uint32_t> g(static_cast<std::size_t>(w) * h * 3);
    scandof::sat_gold(img.data(), w, h, g.data(), 3);
    return g;
  }
};

// The image as a cudaArray with a texture object (the demo's GL-interop path reads such an array).
// The texture object is the one the demo makes over the mapped GL texture
// (util/texture_object.hpp).
struct TextureImage {
  cudaArray_t array = nullptr;
  scandof::util::TextureObject tex;
  TextureImage(const std::vector<uint8_t>& img, int w, int h) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    CUDA_CHECK(cudaMallocArray(&array, &desc, w, h));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), static_cast<std::size_t>(w) * 4,
                                   static_cast<std::size_t>(w) * 4, h, cudaMemcpyHostToDevice));
    tex = scandof::util::TextureObject(array);
  }
  ~TextureImage() {
    tex = scandof::util::TextureObject();  // before the array it reads
    if (array) cudaFreeArray(array);
  }
  SatInput input(int w, int h) const {
    SatInput in;
    in.texture = tex.get();
    in.width = w;
    in.height = h;
    return in;
  }
};

// Compares a device table with the exact one; returns "" or a description of the first mismatches.
std::string check_table(const std::vector<uint32_t>& exact, const void* d_out, SatFormat format,
                        int w, int h, int channels) {
  const std::size_t plane = static_cast<std::size_t>(w) * h, n = plane * channels;
  std::vector<uint32_t> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  const double u = std::ldexp(1.0, -24);
  std::size_t bad = 0;
  std::ostringstream msg;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = i % plane;
    const int x = static_cast<int>(p % w), y = static_cast<int>(p / w);
    bool ok;
    double value;
    if (format == SatFormat::U32) {
      ok = got[i] == exact[i];
      value = got[i];
    } else {
      float f;
      std::memcpy(&f, &got[i], 4);
      value = f;
      const double v = exact[i], k = static_cast<double>(x) + y;
      const double tol = v < 16777216.0 ? 0.0 : k * u / (1 - k * u) * v;
      ok = std::fabs(value - v) <= tol;  // false for NaN and for the poison
    }
    if (!ok && bad++ < 5)
      msg << " [c=" << i / plane << " x=" << x << " y=" << y << " got " << value << " want "
          << exact[i] << "]";
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " of " + std::to_string(n) + " wrong:" + msg.str();
}

class SatSweep : public ::testing::TestWithParam<Size> {};

// Every method x algorithm x format x input kind at one size, three channels.
TEST_P(SatSweep, AllMethodsAlgorithmsFormatsInputs) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = GetParam().w, h = GetParam().h, ch = 3;
  const auto img = random_rgba(w, h, 0x5A7u + 7919u * w + h);
  std::vector<uint32_t> exact(static_cast<std::size_t>(w) * h * ch);
  scandof::sat_gold(img.data(), w, h, exact.data(), ch);

  // Pointer input: the tight pitch (16-byte aligned only when w % 4 == 0: covers both the vector
  // and the per-pixel paths) and, for the first kind, cudaMallocPitch-like 512-byte rows.
  PitchedImage tight(img, w, h, static_cast<std::size_t>(w) * 4);
  TextureImage texture(img, w, h);
  const std::size_t bytes = SatBuilder::table_bytes(w, h, ch);
  DeviceBuffer out(bytes);
  SatBuilder builder;
  int builds = 0;
  for (int kind = 0; kind < 2; ++kind) {
    const SatInput in = kind == 0 ? tight.input(w, h) : texture.input(w, h);
    for (SatMethod method : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                             SatMethod::FusedOnePass, SatMethod::FusedResident}) {
      for (SatFormat format : {SatFormat::U32, SatFormat::F32}) {
        for (ScanAlgorithm algo : scandof::all_scan_algorithms()) {
          if (method != SatMethod::Paper && algo != ScanAlgorithm::Naive) continue;  // ignored
          SCOPED_TRACE(std::string(kind == 0 ? "pointer" : "texture") + " " +
                       scandof::to_string(method) + " " + scandof::to_string(format) + " " +
                       scandof::to_string(algo));
          CUDA_CHECK(cudaMemset(out.p, kPoisonByte, bytes));
          builder.build(in, out.p, format, method, algo, 0, (builds % 3) == 0, ch);
          CUDA_CHECK(cudaDeviceSynchronize());
          const std::string err = check_table(exact, out.p, format, w, h, ch);
          EXPECT_EQ(err, "");
          ++builds;
        }
      }
    }
  }
}

SCANDOF_FRAME_SIZE_SUITE(SatSweep, {1, 1}, {1, 7}, {7, 1}, {31, 33}, {640, 480}, {1025, 769},
                         {1920, 1080}, {4096, 2160});

// One and four channels, padded and misaligned pitches (forces the per-pixel path at a width the
// vector path would take).
TEST(Sat, ChannelsAndPitches) {
  SCANDOF_SKIP_WITHOUT_GPU();
  struct Case {
    int w, h, ch;
    std::size_t pitch;
  };
  const Case cases[] = {{640, 37, 1, 640 * 4 + 4},
                        {640, 37, 4, 640 * 4 + 512},
                        {333, 65, 4, 333 * 4 + 12},
                        {96, 300, 2, 96 * 4},
                        // 3 and more rounds of the fused row kernel (2048 pixels per round)
                        {6000, 5, 3, 6000 * 4},
                        {4999, 3, 4, 4999 * 4 + 4}};
  SatBuilder builder;
  for (const Case& c : cases) {
    const auto img = random_rgba(c.w, c.h, 77u + c.w + c.ch);
    std::vector<uint32_t> exact(static_cast<std::size_t>(c.w) * c.h * c.ch);
    scandof::sat_gold(img.data(), c.w, c.h, exact.data(), c.ch);
    PitchedImage pi(img, c.w, c.h, c.pitch);
    const std::size_t bytes = SatBuilder::table_bytes(c.w, c.h, c.ch);
    DeviceBuffer out(bytes);
    for (SatMethod method : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                             SatMethod::FusedOnePass, SatMethod::FusedResident})
      for (SatFormat format : {SatFormat::U32, SatFormat::F32})
        for (ScanAlgorithm algo : {ScanAlgorithm::Optimized, ScanAlgorithm::Cub}) {
          SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) +
                       " ch=" + std::to_string(c.ch) + " pitch=" + std::to_string(c.pitch) + " " +
                       scandof::to_string(method) + " " + scandof::to_string(format) + " " +
                       scandof::to_string(algo));
          CUDA_CHECK(cudaMemset(out.p, kPoisonByte, bytes));
          builder.build(pi.input(c.w, c.h), out.p, format, method, algo, 0, false, c.ch);
          CUDA_CHECK(cudaDeviceSynchronize());
          EXPECT_EQ(check_table(exact, out.p, format, c.w, c.h, c.ch), "");
        }
  }
}

// A stream other than the default, timed builds, and stage times that add up.
TEST(Sat, StreamAndStageTimes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 1920, h = 1080;
  Reference ref(w, h, 4242u);
  const auto& exact = ref.exact;
  const auto& pi = ref.pi;
  const auto& out = ref.out;
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  SatBuilder builder;
  for (SatMethod method : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedTwoPass,
                           SatMethod::FusedOnePass, SatMethod::FusedResident}) {
    SCOPED_TRACE(scandof::to_string(method));
    CUDA_CHECK(cudaMemsetAsync(out.p, kPoisonByte, SatBuilder::table_bytes(w, h), s));
    builder.build(pi.input(w, h), out.p, SatFormat::U32, method, ScanAlgorithm::WarpShuffle, s,
                  true);
    const scandof::SatStageTimes t = builder.stage_times();  // synchronizes on the end event
    EXPECT_EQ(check_table(exact, out.p, SatFormat::U32, w, h, 3), "");
    EXPECT_GT(t.total_ms, 0.0f);
    if (method != SatMethod::FusedOnePass && method != SatMethod::FusedResident)
      EXPECT_GT(t.row_scan_ms, 0.0f);  // one kernel
    EXPECT_GT(t.column_scan_ms, 0.0f);
    const float sum =
        t.deinterleave_ms + t.row_scan_ms + t.transpose_ms + t.column_scan_ms + t.transpose_back_ms;
    EXPECT_NEAR(sum, t.total_ms, 0.01f + 0.01f * t.total_ms);
    if (method != SatMethod::Paper) {
      EXPECT_EQ(t.deinterleave_ms, 0.0f);
      EXPECT_EQ(t.transpose_ms, 0.0f);
      EXPECT_EQ(t.transpose_back_ms, 0.0f);
    } else {
      EXPECT_GT(t.deinterleave_ms, 0.0f);
      EXPECT_GT(t.transpose_ms, 0.0f);
      EXPECT_GT(t.transpose_back_ms, 0.0f);
    }
  }
  // An untimed build reports zeros rather than stale times.
  builder.build(pi.input(w, h), out.p, SatFormat::U32, SatMethod::Fused, ScanAlgorithm::Cub, s);
  EXPECT_EQ(builder.stage_times().total_ms, 0.0f);
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaStreamDestroy(s));
}

// Scratch grows with the image: a small build after a big one and a big one after a small one.
TEST(Sat, RebuildsAtChangingSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  SatBuilder builder;
  for (Size sz : {Size{100, 50}, Size{1500, 900}, Size{17, 3}, Size{2000, 1001}}) {
    Reference ref(sz.w, sz.h, 11u * sz.w + sz.h);
    const auto& pi = ref.pi;
    const auto& out = ref.out;
    const auto& exact = ref.exact;
    CUDA_CHECK(cudaMemset(out.p, kPoisonByte, ref.bytes()));
    builder.build(pi.input(sz.w, sz.h), out.p, SatFormat::F32, SatMethod::Paper,
                  ScanAlgorithm::ConflictFree);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(check_table(exact, out.p, SatFormat::F32, sz.w, sz.h, 3), "") << sz.w << "x" << sz.h;
  }
}

// A wide tile grid (125 x 35 tiles): corners summed over more than 32 tile columns (more than a
// warp's one pass), and for the resident method more than its staged corner words (256).
TEST(Sat, FusedTileGridBeyondSharedMemory) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const int w = 16000, h = 1100;
  Reference ref(w, h, 2025u);
  SatBuilder builder;
  for (SatMethod method : {SatMethod::Fused, SatMethod::FusedOnePass, SatMethod::FusedResident}) {
    CUDA_CHECK(cudaMemset(ref.out.p, kPoisonByte, ref.bytes()));
    builder.build(ref.input(), ref.out.p, SatFormat::U32, method, ScanAlgorithm::Cub);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(check_table(ref.exact, ref.out.p, SatFormat::U32, w, h, 3), "")
        << scandof::to_string(method);
  }
}

// The resident kernel's launch shapes (grid, stashed tiles, dynamic shared memory) are cached per
// kernel and tile count, and a kernel's shared-memory limit only grows: shapes that need more and
// less stash, in both orders, each into a poisoned table (a limit set for a smaller shape once
// broke the next launch of a bigger cached one).
TEST(Sat, ResidentAcrossSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  SatBuilder builder;
  const Size sizes[] = {{4096, 2160}, {129, 33}, {1920, 1080}, {1, 1}, {4096, 2160}, {300, 2049}};
  for (Size sz : sizes) {
    Reference ref(sz.w, sz.h, 7u * sz.w + sz.h);
    for (SatFormat format : {SatFormat::U32, SatFormat::F32}) {
      CUDA_CHECK(cudaMemset(ref.out.p, kPoisonByte, ref.bytes()));
      builder.build(ref.input(), ref.out.p, format, SatMethod::FusedResident, ScanAlgorithm::Cub);
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_EQ(check_table(ref.exact, ref.out.p, format, sz.w, sz.h, 3), "")
          << sz.w << "x" << sz.h << " " << scandof::to_string(format);
    }
  }
}

// The one-pass look-back keeps its flags across builds (epoch-stamped, never cleared): many builds
// in a row at changing sizes, each into a poisoned table, must each be exact. The grids include
// tile rows and columns longer than the 32 predecessors one scouting window covers, and a grid
// that shrinks, leaving flags of the bigger one behind.
TEST(Sat, OnePassAcrossBuilds) {
  SCANDOF_SKIP_WITHOUT_GPU();
  SatBuilder builder;
  const Size sizes[] = {{8192, 70}, {129, 33}, {100, 4500}, {1, 1}, {1921, 1079}, {300, 200}};
  for (int round = 0; round < 3; ++round)
    for (Size sz : sizes) {
      Reference ref(sz.w, sz.h, 31u * sz.w + sz.h + 1000u * round);
      for (int rep = 0; rep < 4; ++rep) {
        CUDA_CHECK(cudaMemset(ref.out.p, kPoisonByte, ref.bytes()));
        builder.build(ref.input(), ref.out.p, SatFormat::U32, SatMethod::FusedOnePass,
                      ScanAlgorithm::Cub);
        CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_EQ(check_table(ref.exact, ref.out.p, SatFormat::U32, sz.w, sz.h, 3), "")
            << sz.w << "x" << sz.h << " round " << round << " build " << rep;
      }
    }
}

// release_scratch between builds (a resized frame): every method rebuilds its scratch at the next
// size and stays exact; the one-pass flags start afresh (epoch 0) in a new allocation, and the
// device memory the scratch held comes back.
TEST(Sat, ReleaseScratchBetweenSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  SatBuilder builder;
  const Size sizes[] = {{2000, 1001}, {129, 33}, {1025, 1}, {1921, 1079}};
  for (SatMethod method : {SatMethod::Paper, SatMethod::Fused, SatMethod::FusedOnePass,
                           SatMethod::FusedResident}) {
    for (Size sz : sizes) {
      Reference ref(sz.w, sz.h, 13u * sz.w + sz.h);
      for (int rep = 0; rep < 2; ++rep) {
        CUDA_CHECK(cudaMemset(ref.out.p, kPoisonByte, ref.bytes()));
        builder.build(ref.input(), ref.out.p, SatFormat::U32, method, ScanAlgorithm::Cub);
        CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_EQ(check_table(ref.exact, ref.out.p, SatFormat::U32, sz.w, sz.h, 3), "")
            << scandof::to_string(method) << " " << sz.w << "x" << sz.h << " build " << rep;
      }
      builder.release_scratch();
      builder.release_scratch();  // twice: nothing left to free
    }
  }
  // The paper's pipeline holds a table's worth of scratch at 4096x2160 (106 MB): freed, it shows.
  Reference big(4096, 2160, 99u);
  builder.build(big.input(), big.out.p, SatFormat::F32, SatMethod::Paper, ScanAlgorithm::Cub);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::size_t free_before = 0, free_after = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
  builder.release_scratch();
  CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
  EXPECT_GE(free_after, free_before + SatBuilder::table_bytes(4096, 2160, 3) / 2);
}

// Builds captured into a CUDA graph and replayed (satbench's graph timing; a frame loop could do
// the same): every replay into a poisoned table must be exact. fused-one-pass takes host state
// per build, so capturing it must throw instead of recording a build that replays wrongly.
TEST(Sat, GraphReplay) {
  SCANDOF_SKIP_WITHOUT_GPU();
  SatBuilder builder;
  cudaStream_t s = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (Size sz : {Size{1921, 1079}, Size{640, 480}, Size{33, 17}}) {
    Reference ref(sz.w, sz.h, 5u * sz.w + sz.h);
    for (SatMethod method : {SatMethod::Fused, SatMethod::FusedResident})
      for (SatFormat format : {SatFormat::U32, SatFormat::F32}) {
        SCOPED_TRACE(std::to_string(sz.w) + "x" + std::to_string(sz.h) + " " +
                     scandof::to_string(method) + " " + scandof::to_string(format));
        // Outside the capture first: scratch and launch shapes are set up on first use.
        builder.build(ref.input(), ref.out.p, format, method, ScanAlgorithm::Cub, s);
        CUDA_CHECK(cudaStreamSynchronize(s));
        cudaGraph_t graph = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        builder.build(ref.input(), ref.out.p, format, method, ScanAlgorithm::Cub, s);
        CUDA_CHECK(cudaStreamEndCapture(s, &graph));
        cudaGraphExec_t exec = nullptr;
        CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
        for (int replay = 0; replay < 3; ++replay) {
          CUDA_CHECK(cudaMemsetAsync(ref.out.p, kPoisonByte, ref.bytes(), s));
          CUDA_CHECK(cudaGraphLaunch(exec, s));
          CUDA_CHECK(cudaStreamSynchronize(s));
          EXPECT_EQ(check_table(ref.exact, ref.out.p, format, sz.w, sz.h, 3), "")
              << "replay " << replay;
        }
        CUDA_CHECK(cudaGraphExecDestroy(exec));
        CUDA_CHECK(cudaGraphDestroy(graph));
      }
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    EXPECT_THROW(builder.build(ref.input(), ref.out.p, SatFormat::U32, SatMethod::FusedOnePass,
                               ScanAlgorithm::Cub, s),
                 std::invalid_argument);
    cudaGraph_t unused = nullptr;
    cudaStreamEndCapture(s, &unused);
    if (unused) CUDA_CHECK(cudaGraphDestroy(unused));
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaStreamDestroy(s));
}

// Argument checks happen before any CUDA call, so they run without a device too.
TEST(Sat, BadArgumentsThrow) {
  SatBuilder b;
  alignas(16) static uint32_t dummy[64];
  SatInput in = pixel_input(nullptr, 0, 4, 4);
  EXPECT_THROW(b.build(in, dummy, SatFormat::U32, SatMethod::Paper, ScanAlgorithm::Cub),
               std::invalid_argument);  // neither texture nor pixels
  in.pixels = dummy;
  in.pitch_bytes = 8;  // < 4 * width
  EXPECT_THROW(b.build(in, dummy, SatFormat::U32, SatMethod::Paper, ScanAlgorithm::Cub),
               std::invalid_argument);
  in.pitch_bytes = 18;  // not a multiple of 4
  EXPECT_THROW(b.build(in, dummy, SatFormat::U32, SatMethod::Paper, ScanAlgorithm::Cub),
               std::invalid_argument);
  in.pitch_bytes = 16;
  EXPECT_THROW(
      b.build(in, dummy, SatFormat::U32, SatMethod::Paper, ScanAlgorithm::Cub, 0, false, 0),
      std::invalid_argument);
  EXPECT_THROW(
      b.build(in, dummy, SatFormat::U32, SatMethod::Paper, ScanAlgorithm::Cub, 0, false, 5),
      std::invalid_argument);
  EXPECT_THROW(b.build(in, nullptr, SatFormat::U32, SatMethod::Fused, ScanAlgorithm::Cub),
               std::invalid_argument);
  EXPECT_THROW(b.build(in, reinterpret_cast<char*>(dummy) + 4, SatFormat::U32, SatMethod::Fused,
                       ScanAlgorithm::Cub),
               std::invalid_argument);
  EXPECT_THROW(b.build(in, dummy, SatFormat::U32, SatMethod::Fused, static_cast<ScanAlgorithm>(9)),
               std::invalid_argument);
  in.width = -1;
  EXPECT_THROW(b.build(in, dummy, SatFormat::U32, SatMethod::Fused, ScanAlgorithm::Cub),
               std::invalid_argument);
  in.width = 0;  // empty image: nothing to do, no throw, no device access
  EXPECT_NO_THROW(b.build(in, nullptr, SatFormat::U32, SatMethod::Fused, ScanAlgorithm::Cub));
  EXPECT_EQ(b.stage_times().total_ms, 0.0f);
}

}  // namespace
