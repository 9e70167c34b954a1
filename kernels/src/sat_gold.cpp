// CPU reference for summed-area tables, the SAT enums' names, and (in a build without CUDA) the
// SatBuilder stubs, so host-only programs link and fail with a clear message instead.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "scandof/sat.hpp"

namespace scandof {

const char* to_string(SatFormat f) {
  switch (f) {
    case SatFormat::U32:
      return "u32";
    case SatFormat::F32:
      return "f32";
  }
  return "?";
}

const char* to_string(SatPixels p) {
  switch (p) {
    case SatPixels::Rgba8:
      return "rgba8";
    case SatPixels::Rgba16F:
      return "rgba16f";
  }
  return "?";
}

const char* to_string(SatMethod m) {
  switch (m) {
    case SatMethod::Paper:
      return "paper";
    case SatMethod::Fused:
      return "fused";
    case SatMethod::FusedTwoPass:
      return "fused-two-pass";
    case SatMethod::FusedOnePass:
      return "fused-one-pass";
    case SatMethod::FusedResident:
      return "fused-resident";
  }
  return "?";
}

namespace {

void check_gold_args(const uint8_t* rgba, int width, int height, const void* out, int channels) {
  if (width < 0 || height < 0) throw std::invalid_argument("sat_gold: negative width or height");
  if (channels < 1 || channels > 4) throw std::invalid_argument("sat_gold: channels must be 1..4");
  if ((width > 0 && height > 0) && (rgba == nullptr || out == nullptr))
    throw std::invalid_argument("sat_gold: null image or output");
}

}  // namespace

namespace {

// Sums per-pixel values (4 per pixel, already in the table's type) into planar or interleaved
// tables, one pass per channel with a running row sum: S(x,y) = S(x,y-1) + rowsum(0..x, y). The
// row sum is kept in the table's type so a float table rounds exactly as a sequential sum would;
// a uint32 table wraps modulo 2^32, which box sums tolerate (see sat.hpp). Interleaved tables are
// the planar ones with the planes zipped (4 words per pixel, zeros past `channels`): the reference
// stays one algorithm, the layout one copy.
template <class T>
void sat_of_values(const T* v, int width, int height, T* out, int channels, SatLayout layout) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  std::vector<T> planes;
  T* dst = out;
  if (layout == SatLayout::Interleaved) {
    planes.resize(n * static_cast<std::size_t>(channels));
    dst = planes.data();
  }
  for (int c = 0; c < channels; ++c) {
    T* o = dst + c * n;
    for (int y = 0; y < height; ++y) {
      const T* row = v + static_cast<std::size_t>(y) * width * 4;
      T* orow = o + static_cast<std::size_t>(y) * width;
      const T* above = y > 0 ? orow - width : nullptr;
      T run = T(0);
      for (int x = 0; x < width; ++x) {
        run = run + row[4 * x + c];
        orow[x] = above ? T(above[x] + run) : run;
      }
    }
  }
  if (layout == SatLayout::Interleaved)
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c) out[4 * i + c] = c < channels ? planes[c * n + i] : T(0);
}

void check_hdr_args(const float* rgba, int width, int height, const void* out, int channels) {
  if (width < 0 || height < 0)
    throw std::invalid_argument("sat_gold_hdr: negative width or height");
  if (channels < 1 || channels > 4)
    throw std::invalid_argument("sat_gold_hdr: channels must be 1..4");
  if ((width > 0 && height > 0) && (rgba == nullptr || out == nullptr))
    throw std::invalid_argument("sat_gold_hdr: null image or output");
}

}  // namespace

uint64_t quantize_frame(const float* rgba, int width, int height, const SatFixedPoint& fp,
                        uint32_t* q, int channels) {
  check_hdr_args(rgba, width, height, q, channels);
  if (fp.frac_bits < 0 || fp.frac_bits > kMaxFracBits || fp.max_value < 1 ||
      fp.max_value > kMaxFixedValue)
    throw std::invalid_argument("quantize_frame: frac_bits must be 0..24, max_value 1..2^24");
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  uint64_t clamped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bool any = false;
    for (int c = 0; c < 4; ++c) {
      bool cl = false;
      q[4 * i + c] = quantize_radiance(rgba[4 * i + c], fp, &cl);
      if (c < channels) any = any || cl;
    }
    clamped += any ? 1u : 0u;
  }
  return clamped;
}

uint64_t sat_gold_hdr(const float* rgba, int width, int height, const SatFixedPoint& fp,
                      uint32_t* out, int channels, SatLayout layout) {
  check_hdr_args(rgba, width, height, out, channels);
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  std::vector<uint32_t> q(4 * n);
  const uint64_t clamped = quantize_frame(rgba, width, height, fp, q.data(), channels);
  sat_of_values<uint32_t>(q.data(), width, height, out, channels, layout);
  return clamped;
}

uint64_t sat_gold_hdr(const float* rgba, int width, int height, float* out, int channels,
                      SatLayout layout) {
  check_hdr_args(rgba, width, height, out, channels);
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  std::vector<float> v(4 * n);
  for (std::size_t i = 0; i < 4 * n; ++i) v[i] = rgba[i] > 0.0f ? rgba[i] : 0.0f;
  sat_of_values<float>(v.data(), width, height, out, channels, layout);
  return 0;
}

// The 8-bit frame: its bytes as the table's type, then the one summation above.
template <class T>
void sat_gold_layout(const uint8_t* rgba, int width, int height, T* out, int channels,
                     SatLayout layout) {
  check_gold_args(rgba, width, height, out, channels);
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  std::vector<T> v(4 * n);
  for (std::size_t i = 0; i < 4 * n; ++i) v[i] = T(rgba[i]);
  sat_of_values<T>(v.data(), width, height, out, channels, layout);
}

void sat_gold(const uint8_t* rgba, int width, int height, uint32_t* out, int channels,
              SatLayout layout) {
  sat_gold_layout<uint32_t>(rgba, width, height, out, channels, layout);
}

void sat_gold(const uint8_t* rgba, int width, int height, float* out, int channels,
              SatLayout layout) {
  sat_gold_layout<float>(rgba, width, height, out, channels, layout);
}

std::size_t SatBuilder::table_bytes(int width, int height, int channels, SatLayout layout) {
  if (width < 0 || height < 0 || channels < 1 || channels > 4)
    throw std::invalid_argument("SatBuilder::table_bytes: bad width, height or channels");
  const std::size_t words =
      layout == SatLayout::Interleaved ? 4u : static_cast<std::size_t>(channels);
  return words * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4u;
}

#if !SCANDOF_WITH_CUDA
struct SatBuilder::Impl {};
SatBuilder::SatBuilder() : impl_(nullptr) {}
SatBuilder::~SatBuilder() = default;
void SatBuilder::build(const SatInput&, void*, SatFormat, SatMethod, ScanAlgorithm, cudaStream_t,
                       bool, int, SatLayout) {
  throw std::runtime_error("SatBuilder::build: scandof was built without CUDA (use sat_gold)");
}
SatStageTimes SatBuilder::stage_times() {
  return SatStageTimes{};
}
bool SatBuilder::poll_stage_times(SatStageTimes&) {
  return false;
}
void SatBuilder::release_scratch() {}  // nothing was allocated
#endif

}  // namespace scandof
