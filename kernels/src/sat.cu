// SatBuilder: summed-area tables on the GPU (the paper's pipeline and the fused path).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_deinterleave.cuh"
#include "scandof/device/sat_fused.cuh"
#include "scandof/device/sat_one_pass.cuh"
#include "scandof/device/sat_pixels.cuh"
#include "scandof/device/sat_resident.cuh"
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
  static constexpr int kRing = SatBuilder::kTimingRing;
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
  // FusedOnePass's look-back state: its own allocation, kept across builds (epoch-stamped flags).
  sat_detail::OnePassScratch one_pass_ws;
  // One event set per ring slot: a timed build records into slot `cur`; poll_stage_times reads
  // older slots once their last event has passed, so a frame loop never waits on the GPU.
  cudaEvent_t ring[kRing][kNumEvents] = {};
  SatMethod slot_method[kRing] = {};
  bool slot_pending[kRing] = {};
  unsigned long long slot_seq[kRing] = {};
  unsigned long long seq = 0;
  int cur = 0, last = -1;
  bool last_timed = false;  // whether the most recent build() was timed (stage_times' subject)
  bool have_events = false;
  cudaEvent_t* ev = ring[0];

  ~Impl() {
    // Destructors must not throw: errors here are dropped (the context may already be gone).
    if (scratch) cudaFree(scratch);
    if (one_pass_ws.bytes) cudaFree(one_pass_ws.bytes);
    if (have_events)
      for (auto& set : ring)
        for (auto& e : set) cudaEventDestroy(e);
  }

  static float elapsed(cudaEvent_t a, cudaEvent_t b) {
    float v = 0;
    CUDA_CHECK(cudaEventElapsedTime(&v, a, b));
    return v;
  }
  // The times of slot k (its events must have completed).
  SatStageTimes times_of(int k) const {
    const cudaEvent_t* e = ring[k];
    SatStageTimes t;
    if (slot_method[k] == SatMethod::Paper) {
      t.deinterleave_ms = elapsed(e[0], e[1]);
      t.row_scan_ms = elapsed(e[1], e[2]);
      t.transpose_ms = elapsed(e[2], e[3]);
      t.column_scan_ms = elapsed(e[3], e[4]);
      t.transpose_back_ms = elapsed(e[4], e[5]);
      t.total_ms = elapsed(e[0], e[5]);
    } else {
      t.row_scan_ms = elapsed(e[0], e[2]);
      t.column_scan_ms = elapsed(e[2], e[4]);
      t.total_ms = elapsed(e[0], e[4]);
    }
    return t;
  }
  cudaEvent_t end_event(int k) const { return ring[k][slot_method[k] == SatMethod::Paper ? 5 : 4]; }

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

  sat_detail::OnePassScratch& reserve_one_pass(std::size_t bytes) {
    if (bytes > one_pass_ws.size) {
      if (one_pass_ws.bytes) CUDA_CHECK(cudaFree(one_pass_ws.bytes));
      one_pass_ws = {};
      CUDA_CHECK(cudaMalloc(&one_pass_ws.bytes, bytes));
      one_pass_ws.size = bytes;  // epoch 0: cleared before the first launch
    }
    return one_pass_ws;
  }

  void record(bool timed, int i, cudaStream_t s) {
    if (timed) CUDA_CHECK(cudaEventRecord(ev[i], s));
  }

  template <class Pixels, class T>
  void paper(Pixels px, int w, int h, int ch, T* out, ScanAlgorithm algo, cudaStream_t s,
             bool timed, bool interleaved) {
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
    if (interleaved)
      sat_detail::transpose_planes_interleaved<T>(tmp, out, w, h, ch, s);
    else
      sat_detail::transpose_planes<T>(tmp, out, w, h, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 5, s);
  }

  template <class Pixels, class Acc, class Out>
  void fused(Pixels px, bool vec, int w, int h, int ch, void* out, cudaStream_t s, bool timed,
             bool interleaved) {
    Acc* a = static_cast<Acc*>(out);
    if (interleaved) {
      if (vec)
        sat_detail::fused_rows<Pixels, Acc, true, true>(px, w, h, ch, a, s);
      else
        sat_detail::fused_rows<Pixels, Acc, false, true>(px, w, h, ch, a, s);
    } else {
      if (vec)
        sat_detail::fused_rows<Pixels, Acc, true>(px, w, h, ch, a, s);
      else
        sat_detail::fused_rows<Pixels, Acc, false>(px, w, h, ch, a, s);
    }
    CUDA_CHECK_LAUNCH();
    record(timed, 2, s);
    // Interleaved rows are one plane of 4*w columns: column c of pixel x is column 4x + c.
    if (interleaved)
      sat_detail::fused_columns<Acc, Out>(a, 4 * w, h, 1, s);
    else
      sat_detail::fused_columns<Acc, Out>(a, w, h, ch, s);
    CUDA_CHECK_LAUNCH();
    record(timed, 4, s);
  }

  template <class Pixels>
  void run(Pixels px, bool vec_ok, int w, int h, int ch, void* out, SatFormat format,
           SatMethod method, ScanAlgorithm algo, cudaStream_t s, bool timed, bool il) {
    if (method == SatMethod::Paper) {
      if (format == SatFormat::U32)
        paper<Pixels, uint32_t>(px, w, h, ch, static_cast<uint32_t*>(out), algo, s, timed, il);
      else
        paper<Pixels, float>(px, w, h, ch, static_cast<float*>(out), algo, s, timed, il);
      return;
    }
    // 16-byte stores of 4 table elements need every row start 16-byte aligned: width % 4 == 0.
    const bool vec = vec_ok && (w % 4 == 0);
    // uint32 sums are exact up to 2^32/255 pixels; float tables of larger images accumulate in
    // float, which only the two-pass kernels do. So do float tables of HDR radiance (summed in
    // float, as sat_gold_hdr's), whatever the size: the tiled methods sum integers only.
    const bool u32_exact = static_cast<double>(w) * h * 255.0 < 4294967296.0;
    const bool int_sums = format == SatFormat::U32 || (u32_exact && !Pixels::kHalf);
    if (method == SatMethod::FusedOnePass && int_sums) {
      // Each build hands the kernel a new look-back epoch from the host; a graph would replay the
      // captured one, and its tiles would take the previous replay's flags for their own.
      cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
      CUDA_CHECK(cudaStreamIsCapturing(s, &capture));
      if (capture != cudaStreamCaptureStatusNone)
        throw std::invalid_argument(
            "SatBuilder::build: fused-one-pass cannot be captured into a CUDA graph (each build "
            "takes a new look-back epoch from the host); use fused or fused-resident");
      auto& ws = reserve_one_pass(sat_detail::one_pass_scratch_bytes(w, h, ch));
      record(timed, 2, s);  // one stage: reported as the column (scan) stage
      tiled_variant<Pixels>(vec, il, format == SatFormat::U32, [&](auto o, auto v, auto l) {
        sat_detail::one_pass_sat<Pixels, decltype(o), decltype(v)::value, decltype(l)::value>(
            px, w, h, ch, static_cast<uint32_t*>(out), ws, s);
      });
      record(timed, 4, s);
      return;
    }
    if ((method == SatMethod::Fused || method == SatMethod::FusedResident) && int_sums) {
      uint32_t* scratch_words = static_cast<uint32_t*>(
          reserve(sat_detail::tile_scratch_words(w, h, ch) * sizeof(uint32_t)));
      const sat_detail::TileArrays arrays = sat_detail::tile_arrays(scratch_words, w, h, ch);
      if (method == SatMethod::FusedResident) {
        bool launched = false;
        record(timed, 2, s);  // one stage: reported as the column (scan) stage
        tiled_variant<Pixels>(vec, il, format == SatFormat::U32, [&](auto o, auto v, auto l) {
          launched =
              sat_detail::resident_sat<Pixels, decltype(o), decltype(v)::value, decltype(l)::value>(
                  px, w, h, ch, arrays, static_cast<uint32_t*>(out), s);
        });
        if (launched) {
          CUDA_CHECK_LAUNCH();
          record(timed, 4, s);
          return;
        }
      }
      if (vec) {
        sat_detail::tile_offsets<Pixels, true>(px, w, h, ch, arrays, s);
      } else {
        sat_detail::tile_offsets<Pixels, false>(px, w, h, ch, arrays, s);
      }
      record(timed, 2, s);
      tiled_variant<Pixels>(vec, il, format == SatFormat::U32, [&](auto o, auto v, auto l) {
        sat_detail::tile_scans<Pixels, decltype(o), decltype(v)::value, decltype(l)::value>(
            px, w, h, ch, arrays, static_cast<uint32_t*>(out), s);
      });
      record(timed, 4, s);
      return;
    }
    if (format == SatFormat::U32) {
      fused<Pixels, uint32_t, uint32_t>(px, vec, w, h, ch, out, s, timed, il);
    } else if (int_sums) {
      // Exact, rounded once. (HDR float tables never come here: see int_sums.)
      if constexpr (!Pixels::kHalf)
        fused<Pixels, uint32_t, float>(px, vec, w, h, ch, out, s, timed, il);
    } else {
      fused<Pixels, float, float>(px, vec, w, h, ch, out, s, timed, il);  // would wrap in 32 bits
    }
  }

  // The tiled paths' eight instantiations (vector loads x layout x element type): calls
  // f(Out{}, VEC, INTERLEAVED) with the last two as std::bool_constant. HDR pixels reach them for
  // uint32 tables only, so float Out is not instantiated for them.
  template <class Pixels, class F>
  static void tiled_variant(bool vec, bool il, bool u32, F&& f) {
    auto layout = [&](auto out, auto v) {
      if (il)
        f(out, v, std::true_type{});
      else
        f(out, v, std::false_type{});
    };
    auto loads = [&](auto out) {
      if (vec)
        layout(out, std::true_type{});
      else
        layout(out, std::false_type{});
    };
    if constexpr (Pixels::kHalf) {
      (void)u32;
      loads(uint32_t{});
    } else {
      if (u32)
        loads(uint32_t{});
      else
        loads(float{});
    }
  }
};

SatBuilder::SatBuilder() : impl_(new Impl) {}
SatBuilder::~SatBuilder() {
  delete impl_;
}

void SatBuilder::release_scratch() {
  if (impl_->scratch) CUDA_CHECK(cudaFree(impl_->scratch));
  impl_->scratch = nullptr;
  impl_->scratch_bytes = 0;
  if (impl_->one_pass_ws.bytes) CUDA_CHECK(cudaFree(impl_->one_pass_ws.bytes));
  impl_->one_pass_ws = {};  // epoch 0: the next one-pass build clears its flags first
}

void SatBuilder::build(const SatInput& in, void* d_out, SatFormat format, SatMethod method,
                       ScanAlgorithm algo, cudaStream_t stream, bool timed, int channels,
                       SatLayout layout) {
  if (channels < 1 || channels > 4)
    throw std::invalid_argument("SatBuilder::build: channels must be 1..4");
  if (in.width < 0 || in.height < 0 || in.width > kMaxSide || in.height > kMaxSide)
    throw std::invalid_argument("SatBuilder::build: width and height must be in 0.." +
                                std::to_string(kMaxSide));
  if (format != SatFormat::U32 && format != SatFormat::F32)
    throw std::invalid_argument("SatBuilder::build: unknown SatFormat");
  if (static_cast<int>(method) < 0 || static_cast<int>(method) >= kNumSatMethods)
    throw std::invalid_argument("SatBuilder::build: unknown SatMethod");
  if (static_cast<int>(algo) < 0 || static_cast<int>(algo) >= kNumScanAlgorithms)
    throw std::invalid_argument("SatBuilder::build: unknown ScanAlgorithm");
  if (layout != SatLayout::Planar && layout != SatLayout::Interleaved)
    throw std::invalid_argument("SatBuilder::build: unknown SatLayout");
  if (layout == SatLayout::Interleaved && in.width > kMaxSide / 4)
    throw std::invalid_argument("SatBuilder::build: interleaved tables need width <= " +
                                std::to_string(kMaxSide / 4));
  if (in.format != SatPixels::Rgba8 && in.format != SatPixels::Rgba16F)
    throw std::invalid_argument("SatBuilder::build: unknown SatInput::format");
  const bool hdr = in.format == SatPixels::Rgba16F;
  const bool quantized = hdr && format == SatFormat::U32;
  if (quantized && (in.fixed.frac_bits < 0 || in.fixed.frac_bits > kMaxFracBits))
    throw std::invalid_argument("SatBuilder::build: SatInput::fixed.frac_bits must be 0.." +
                                std::to_string(kMaxFracBits) + " (hdr_fixed_point())");
  if (quantized && (in.fixed.max_value < 1 || in.fixed.max_value > kMaxFixedValue))
    throw std::invalid_argument(
        "SatBuilder::build: SatInput::fixed.max_value must be 1..2^24 (hdr_fixed_point())");
  if (reinterpret_cast<std::uintptr_t>(in.clamp_count) % 4u != 0)
    throw std::invalid_argument("SatBuilder::build: SatInput::clamp_count must be 4-byte aligned");
  // Pixels of 4 bytes (RGBA8) or 8 (4 halves), each read with one load of its size.
  const std::size_t px_bytes = hdr ? 8u : 4u;
  if (in.width != 0 && in.height != 0 && in.texture == 0) {
    if (in.pixels == nullptr)
      throw std::invalid_argument("SatBuilder::build: neither a texture nor pixels given");
    if (in.pitch_bytes < static_cast<std::size_t>(in.width) * px_bytes ||
        in.pitch_bytes % px_bytes != 0)
      throw std::invalid_argument("SatBuilder::build: SatInput::pitch_bytes must be >= " +
                                  std::to_string(px_bytes) + "*width and a multiple of " +
                                  std::to_string(px_bytes) + " (" + to_string(in.format) + ")");
    if (reinterpret_cast<std::uintptr_t>(in.pixels) % px_bytes != 0)
      throw std::invalid_argument("SatBuilder::build: SatInput::pixels must be " +
                                  std::to_string(px_bytes) + "-byte aligned (" +
                                  to_string(in.format) + ")");
  }
  impl_->last_timed = false;
  // Zeroed first on the stream, so the count is this build's (and 0 where nothing is quantized).
  if (in.clamp_count != nullptr)
    CUDA_CHECK(cudaMemsetAsync(in.clamp_count, 0, sizeof(uint32_t), stream));
  if (in.width == 0 || in.height == 0) return;
  if (d_out == nullptr) throw std::invalid_argument("SatBuilder::build: null output");
  if (reinterpret_cast<std::uintptr_t>(d_out) % 16u != 0)
    throw std::invalid_argument("SatBuilder::build: d_out must be 16-byte aligned (cudaMalloc is)");

  if (timed && !impl_->have_events) {
    for (auto& set : impl_->ring)
      for (auto& e : set) CUDA_CHECK(cudaEventCreate(&e));
    impl_->have_events = true;
  }
  const bool il = layout == SatLayout::Interleaved;
  if (timed) {
    // Claim the next slot. An unread slot is overwritten: its build is kRing - 1 timed builds old,
    // and a reader that has not polled since only wants the newest anyway.
    impl_->cur = (impl_->last + 1) % Impl::kRing;
    impl_->ev = impl_->ring[impl_->cur];
  }
  impl_->record(timed, 0, stream);
  // Each source is instantiated per format (sat_pixels.cuh); 16-byte pixel loads need 16-byte
  // aligned rows.
  const bool vec_ok =
      reinterpret_cast<std::uintptr_t>(in.pixels) % 16u == 0 && in.pitch_bytes % 16u == 0;
  auto run_with = [&](auto fmt) {
    using Format = decltype(fmt);
    if (in.texture != 0)
      impl_->run(sat_detail::TexturePixels<Format>(fmt, in.texture), true, in.width, in.height,
                 channels, d_out, format, method, algo, stream, timed, il);
    else
      impl_->run(sat_detail::PitchedPixels<Format>(fmt, in.pixels, in.pitch_bytes), vec_ok,
                 in.width, in.height, channels, d_out, format, method, algo, stream, timed, il);
  };
  if (hdr)
    // (Float tables ignore the fixed point, which was not checked: a harmless one stands in.)
    run_with(quantized ? sat_detail::HalfFormat::make(in.fixed, in.clamp_count, channels)
                       : sat_detail::HalfFormat::make(SatFixedPoint{0, 1}, nullptr, channels));
  else
    run_with(sat_detail::Rgba8Format{});
  if (timed) {
    const int k = impl_->cur;
    impl_->slot_method[k] = method;
    impl_->slot_pending[k] = true;
    impl_->slot_seq[k] = ++impl_->seq;
    impl_->last = k;
    impl_->last_timed = true;
  }
}

SatStageTimes SatBuilder::stage_times() {
  const int k = impl_->last;
  if (k < 0 || !impl_->last_timed) return SatStageTimes{};
  CUDA_CHECK(cudaEventSynchronize(impl_->end_event(k)));
  return impl_->times_of(k);
}

bool SatBuilder::poll_stage_times(SatStageTimes& out) {
  // The newest finished slot wins; every finished slot is retired so it is reported once.
  int best = -1;
  for (int k = 0; k < Impl::kRing; ++k) {
    if (!impl_->slot_pending[k]) continue;
    const cudaError_t err = cudaEventQuery(impl_->end_event(k));
    if (err == cudaErrorNotReady) continue;
    CUDA_CHECK(err);
    if (best < 0 || impl_->slot_seq[k] > impl_->slot_seq[best]) best = k;
  }
  if (best < 0) return false;
  out = impl_->times_of(best);
  for (int k = 0; k < Impl::kRing; ++k)
    if (impl_->slot_pending[k] && impl_->slot_seq[k] <= impl_->slot_seq[best])
      impl_->slot_pending[k] = false;
  return true;
}

}  // namespace scandof
