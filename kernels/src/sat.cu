// SatBuilder: summed-area tables on the GPU (the paper's pipeline and the fused path).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_deinterleave.cuh"
#include "scandof/device/sat_fused.cuh"
#include "scandof/device/sat_pixels.cuh"
#include "scandof/device/sat_row_scan.cuh"
#include "scandof/device/sat_tiled.cuh"
#include "scandof/device/sat_transpose.cuh"
#include "scandof/sat.hpp"

namespace scandof {

namespace {
// Events: 0 start, 1 after de-interleave, 2 after row scans, 3 after transpose, 4 after column
// scans, 5 after transpose back. The fused paths record 0, 2 and 4 only (Fused: 2 = after the
// tile-reduce and small scans, 4 = after the tile scan).
constexpr int kNumEvents = 6;
// Transposes launch ceil(rows/32) blocks in gridDim.y (max 65535): 2^20 keeps every side legal.
constexpr int kMaxSide = 1 << 20;
}  // namespace

struct SatBuilder::Impl {
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
  cudaEvent_t ev[kNumEvents] = {};
  bool have_events = false;
  bool have_times = false;
  SatMethod last_method = SatMethod::Paper;

  ~Impl() {
    // Destructors must not throw: errors here are dropped (the context may already be gone).
    if (scratch) cudaFree(scratch);
    if (have_events)
      for (auto& e : ev) cudaEventDestroy(e);
  }

  void* reserve(std::size_t bytes) {
    if (bytes > scratch_bytes) {
      // cudaFree/cudaMalloc synchronize the device: a demo that keeps its resolution pays once.
      if (scratch) CUDA_CHECK(cudaFree(scratch));
      scratch = nullptr;
      scratch_bytes = 0;
      CUDA_CHECK(cudaMalloc(&scratch, bytes));
      scratch_bytes = bytes;
    }
    return scratch;
  }

  void record(bool timed, int i, cudaStream_t s) {
    if (timed) CUDA_CHECK(cudaEventRecord(ev[i], s));
  }

  template <class Pixels, class T>
  void paper(Pixels px, int w, int h, int ch, T* out, ScanAlgorithm algo, cudaStream_t s,
             bool timed) {
    sat_detail::deinterleave<Pixels, T>(px, w, h, ch, out, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 1, s);
    sat_detail::batched_row_scan<T>(algo, out, h, w, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 2, s);
    T* tmp = static_cast<T*>(reserve(SatBuilder::table_bytes(w, h, ch)));
    sat_detail::transpose_planes<T>(out, tmp, h, w, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 3, s);
    sat_detail::batched_row_scan<T>(algo, tmp, w, h, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 4, s);
    sat_detail::transpose_planes<T>(tmp, out, w, h, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 5, s);
  }

  template <class Pixels, class Acc, class Out>
  void fused(Pixels px, bool vec, int w, int h, int ch, void* out, cudaStream_t s, bool timed) {
    Acc* a = static_cast<Acc*>(out);
    if (vec)
      sat_detail::fused_rows<Pixels, Acc, true>(px, w, h, ch, a, s);
    else
      sat_detail::fused_rows<Pixels, Acc, false>(px, w, h, ch, a, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 2, s);
    sat_detail::fused_columns<Acc, Out>(a, w, h, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 4, s);
  }

  template <class Pixels>
  void run(Pixels px, bool vec_ok, int w, int h, int ch, void* out, SatFormat format,
           SatMethod method, ScanAlgorithm algo, cudaStream_t s, bool timed) {
    if (method == SatMethod::Paper) {
      if (format == SatFormat::U32)
        paper<Pixels, uint32_t>(px, w, h, ch, static_cast<uint32_t*>(out), algo, s, timed);
      else
        paper<Pixels, float>(px, w, h, ch, static_cast<float*>(out), algo, s, timed);
      return;
    }
    // 16-byte stores of 4 table elements need every row start 16-byte aligned: width % 4 == 0.
    const bool vec = vec_ok && (w % 4 == 0);
    // uint32 sums are exact up to 2^32/255 pixels; float tables of larger images accumulate in
    // float, which only the two-pass kernels do.
    const bool u32_exact = static_cast<double>(w) * h * 255.0 < 4294967296.0;
    if (method == SatMethod::Fused && (format == SatFormat::U32 || u32_exact)) {
      uint32_t* scratch_words = static_cast<uint32_t*>(
          reserve(sat_detail::tile_scratch_words(w, h, ch) * sizeof(uint32_t)));
      cudaEvent_t mid = timed ? ev[2] : nullptr;
      uint32_t* o = static_cast<uint32_t*>(out);
      if (format == SatFormat::U32) {
        if (vec)
          sat_detail::tiled_sat<Pixels, uint32_t, true>(px, w, h, ch, o, scratch_words, s, mid);
        else
          sat_detail::tiled_sat<Pixels, uint32_t, false>(px, w, h, ch, o, scratch_words, s, mid);
      } else {
        if (vec)
          sat_detail::tiled_sat<Pixels, float, true>(px, w, h, ch, o, scratch_words, s, mid);
        else
          sat_detail::tiled_sat<Pixels, float, false>(px, w, h, ch, o, scratch_words, s, mid);
      }
      record(timed, 4, s);
      return;
    }
    if (format == SatFormat::U32) {
      fused<Pixels, uint32_t, uint32_t>(px, vec, w, h, ch, out, s, timed);
    } else if (u32_exact) {
      fused<Pixels, uint32_t, float>(px, vec, w, h, ch, out, s, timed);  // exact, rounded once
    } else {
      fused<Pixels, float, float>(px, vec, w, h, ch, out, s, timed);  // would wrap in 32 bits
    }
  }
};

SatBuilder::SatBuilder() : impl_(new Impl) {}
SatBuilder::~SatBuilder() {
  delete impl_;
}

void SatBuilder::build(const SatInput& in, void* d_out, SatFormat format, SatMethod method,
                       ScanAlgorithm algo, cudaStream_t stream, bool timed, int channels) {
  if (channels < 1 || channels > 4)
    throw std::invalid_argument("SatBuilder::build: channels must be 1..4");
  if (in.width < 0 || in.height < 0 || in.width > kMaxSide || in.height > kMaxSide)
    throw std::invalid_argument("SatBuilder::build: width and height must be in 0.." +
                                std::to_string(kMaxSide));
  if (format != SatFormat::U32 && format != SatFormat::F32)
    throw std::invalid_argument("SatBuilder::build: unknown SatFormat");
  if (method != SatMethod::Paper && method != SatMethod::Fused && method != SatMethod::FusedTwoPass)
    throw std::invalid_argument("SatBuilder::build: unknown SatMethod");
  if (static_cast<int>(algo) < 0 || static_cast<int>(algo) >= kNumScanAlgorithms)
    throw std::invalid_argument("SatBuilder::build: unknown ScanAlgorithm");
  impl_->have_times = false;
  if (in.width == 0 || in.height == 0) return;
  if (d_out == nullptr) throw std::invalid_argument("SatBuilder::build: null output");
  if (in.texture == 0) {
    if (in.pixels == nullptr)
      throw std::invalid_argument("SatBuilder::build: neither a texture nor pixels given");
    if (in.pitch_bytes < static_cast<std::size_t>(in.width) * 4u || in.pitch_bytes % 4u != 0 ||
        reinterpret_cast<std::uintptr_t>(in.pixels) % 4u != 0)
      throw std::invalid_argument(
          "SatBuilder::build: pitch_bytes must be >= 4*width, pitches and pixels 4-byte aligned");
  }
  if (reinterpret_cast<std::uintptr_t>(d_out) % 16u != 0)
    throw std::invalid_argument("SatBuilder::build: d_out must be 16-byte aligned (cudaMalloc is)");

  if (timed && !impl_->have_events) {
    for (auto& e : impl_->ev) CUDA_CHECK(cudaEventCreate(&e));
    impl_->have_events = true;
  }
  impl_->record(timed, 0, stream);
  if (in.texture != 0) {
    impl_->run(sat_detail::TexturePixels{in.texture}, true, in.width, in.height, channels, d_out,
               format, method, algo, stream, timed);
  } else {
    const bool vec_ok =
        reinterpret_cast<std::uintptr_t>(in.pixels) % 16u == 0 && in.pitch_bytes % 16u == 0;
    impl_->run(
        sat_detail::PitchedPixels{static_cast<const unsigned char*>(in.pixels), in.pitch_bytes},
        vec_ok, in.width, in.height, channels, d_out, format, method, algo, stream, timed);
  }
  impl_->have_times = timed;
  impl_->last_method = method;
}

SatStageTimes SatBuilder::stage_times() {
  SatStageTimes t;
  if (!impl_->have_times) return t;
  auto ms = [&](int a, int b) {
    float v = 0;
    CUDA_CHECK(cudaEventElapsedTime(&v, impl_->ev[a], impl_->ev[b]));
    return v;
  };
  if (impl_->last_method == SatMethod::Paper) {
    CUDA_CHECK(cudaEventSynchronize(impl_->ev[5]));
    t.deinterleave_ms = ms(0, 1);
    t.row_scan_ms = ms(1, 2);
    t.transpose_ms = ms(2, 3);
    t.column_scan_ms = ms(3, 4);
    t.transpose_back_ms = ms(4, 5);
    t.total_ms = ms(0, 5);
  } else {
    CUDA_CHECK(cudaEventSynchronize(impl_->ev[4]));
    t.row_scan_ms = ms(0, 2);
    t.column_scan_ms = ms(2, 4);
    t.total_ms = ms(0, 4);
  }
  return t;
}

}  // namespace scandof
