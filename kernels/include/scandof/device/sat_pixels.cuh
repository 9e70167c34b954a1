// Where SAT kernels read pixels from and what a pixel is. A pixel source is a *format* (how a raw
// pixel decodes into channel values: Rgba8Format, HalfFormat) combined with a *fetch* (a pitched
// device pointer, PitchedPixels<F>, or a texture object, TexturePixels<F>). Every SAT kernel is
// written once against this interface and instantiated per source:
//   using Raw                    the raw pixel in registers (uint32_t RGBA8, uint2 4 halves)
//   Raw pixel(x, y)              one pixel
//   quad(x, y, Raw (&)[4])       4 neighbouring pixels, x a multiple of 4 (16-byte loads: the host
//                                checks the row base and pitch before choosing it); quad_last: the
//                                same for pixels read for the last time (evict-first)
//   T value<T>(raw, c, clamped)  channel c as the table's accumulator: uint32 (RGBA8: the byte;
//                                HDR: quantize_radiance) or float (RGBA8: the byte; HDR: radiance,
//                                NaN and negative as 0)
//   kWords, word(raw, k), channel(words, c), word_channels(k, w, channels, f)
//                                the tiled kernels' packed form (sat_tiled.cuh): sums of kWords
//                                words per pixel carry all 4 channels (RGBA8: two channels per word
//                                in 16-bit halves; HDR: one fixed-point channel per word); word()
//                                does not look for clamps
//   clamped_pixels(px[R][4])     how many of a lane's pixels value<uint32_t> would flag clamped
//                                (the tiled kernels' count; 0 for RGBA8)
//   count_clamped(n)             adds this lane's count of clamped pixels to the build's counter
//                                (HDR into uint32 only; a no-op elsewhere)
// `clamped` is set by HDR values only, so the RGBA8 path compiles to what it was before.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "scandof/hdr.hpp"

namespace scandof {
namespace sat_detail {

// Channel c (0 = R) of a pixel packed little-endian in 32 bits.
__device__ __forceinline__ uint32_t channel_of(uint32_t packed, int c) {
  return (packed >> (8 * c)) & 0xFFu;
}

// Two 8-bit channels of a packed RGBA8 pixel in the two 16-bit halves of a word: pair 0 holds
// R | B << 16, pair 1 holds G | A << 16. Sums of up to 257 pixels fit each half, so a tile row
// (128 pixels) or a tile column (32) is summed or scanned for two channels in one word: one
// shuffle chain where there were two.
__device__ __forceinline__ uint32_t channel_pair(uint32_t packed, int p) {
  return (p == 0 ? packed : packed >> 8) & 0x00FF00FFu;
}
// Channel c (0 R, 1 G, 2 B, 3 A) of pair-0 and pair-1 sums; selects, not an indexed array, so
// that a run-time c keeps everything in registers.
__device__ __forceinline__ uint32_t pair_channel(uint32_t p0, uint32_t p1, int c) {
  const uint32_t w = (c & 1) ? p1 : p0;
  return c < 2 ? (w & 0xFFFFu) : (w >> 16);
}

__device__ __forceinline__ uint32_t pack_rgba8(uchar4 p) {
  return uint32_t(p.x) | (uint32_t(p.y) << 8) | (uint32_t(p.z) << 16) | (uint32_t(p.w) << 24);
}

// RGBA8: integers 0..255.
struct Rgba8Format {
  using Raw = uint32_t;
  static constexpr bool kHalf = false;
  static constexpr int kWords = 2;
  template <class T>
  __device__ __forceinline__ T value(Raw p, int c, bool&) const {
    return T(channel_of(p, c));
  }
  __device__ __forceinline__ uint32_t word(Raw p, int k) const { return channel_pair(p, k); }
  template <int R>
  __device__ __forceinline__ uint32_t clamped_pixels(const Raw (&)[R][4]) const {
    return 0;
  }
  __device__ __forceinline__ static uint32_t channel(const uint32_t (&w)[kWords], int c) {
    return pair_channel(w[0], w[1], c);
  }
  // A column sum of pairs (at most 32 rows: fits 16 bits) as its channels.
  template <class F>
  __device__ __forceinline__ static void word_channels(int k, uint32_t w, int channels, F&& f) {
    if (k < channels) f(k, w & 0xFFFFu);
    if (k + 2 < channels) f(k + 2, w >> 16);
  }
  __device__ __forceinline__ void count_clamped(uint32_t) const {}
  __device__ __forceinline__ static Raw from_texture(cudaTextureObject_t tex, float x, float y) {
    return pack_rgba8(tex2D<uchar4>(tex, x, y));
  }
  // 4 pixels as 16-byte vectors and back (vector loads, shared-memory stashes).
  __device__ __forceinline__ static void unpack(const uint4 (&v)[1], Raw (&q)[4]) {
    q[0] = v[0].x;
    q[1] = v[0].y;
    q[2] = v[0].z;
    q[3] = v[0].w;
  }
  __device__ __forceinline__ static void pack(const Raw (&q)[4], uint4 (&v)[1]) {
    v[0] = make_uint4(q[0], q[1], q[2], q[3]);
  }
};

// RGBA16F: 4 IEEE halves per pixel, R | G << 16 in .x and B | A << 16 in .y, linear radiance.
// Into uint32 tables each channel goes through quantize_radiance (scandof/hdr.hpp, the encoding
// every backend shares); into float tables as radiance. Words past `channels` read as 0 (a fourth
// quantization per pixel saved at RGB).
struct HalfFormat {
  using Raw = uint2;
  static constexpr bool kHalf = true;
  static constexpr int kWords = 4;
  float scale;            // 2^frac_bits
  float max_q;            // max_value (<= 2^24: exact in float)
  uint32_t* clamp_count;  // null: not counted (float tables, or the caller asked for no count)
  int channels;
  uint32_t max_value;  // max_q as an integer
  uint16_t top_half;   // the largest half whose radiance quantizes unclamped (max_half_below)
  static HalfFormat make(const SatFixedPoint& fp, uint32_t* clamp_count, int channels) {
    return {static_cast<float>(1u << fp.frac_bits),
            static_cast<float>(fp.max_value),
            clamp_count,
            channels,
            fp.max_value,
            max_half_below(fp)};
  }
  // The largest finite half h >= 0 with h * 2^F <= max_value (positive halves order as their bits).
  static uint16_t max_half_below(const SatFixedPoint& fp) {
    const double limit = std::ldexp(static_cast<double>(fp.max_value), -fp.frac_bits);
    uint16_t lo = 0, hi = 0x7BFF;  // +0 always passes; 0x7BFF = 65504
    if (static_cast<double>(half_to_float(hi)) <= limit) return hi;
    while (hi - lo > 1) {
      const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
      if (static_cast<double>(half_to_float(mid)) <= limit)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }

  // quantize_radiance (scandof/hdr.hpp) bit for bit, without its branches: the same float product
  // v * 2^F; fmaxf turns NaN and negative products into 0, fminf clamps to max_value exactly, and
  // __float2uint_rn rounds half to even as it does. `clamped` as quantize_radiance sets it: NaN,
  // negative (not -0) or above the limit. Five instructions from the half: the tiled kernels
  // decode every value twice (reduce, scan), and the branchy form cost more there.
  __device__ __forceinline__ uint32_t quantize(float v, bool& clamped) const {
    const float x = v * scale;
    clamped = clamped || !(v >= 0.0f && x <= max_q);
    return __float2uint_rn(fminf(fmaxf(x, 0.0f), max_q));
  }

  __device__ __forceinline__ static float radiance(Raw p, int c) {
    const uint32_t h = ((c < 2 ? p.x : p.y) >> (16 * (c & 1))) & 0xFFFFu;
    return __half2float(__ushort_as_half(static_cast<unsigned short>(h)));
  }
  template <class T>
  __device__ __forceinline__ T value(Raw p, int c, bool& clamped) const {
    const float v = radiance(p, c);
    if constexpr (std::is_same<T, float>::value) {
      return v > 0.0f ? v : 0.0f;  // NaN and negative as 0, as sat_gold_hdr's float tables
    } else {
      return quantize(v, clamped);
    }
  }
  // quantize() without the clamp test: the conversion saturates (negative and NaN to 0, as
  // quantize gives) and the integer min clamps above, so the words equal quantize()'s. The tiled
  // kernels decode every value twice (reduce, scan) and test clamps per pixel (clamped_pixels):
  // 6 instructions a value where the tested form took 9 (H100: the HDR reduce issued 4.85M warp
  // instructions at 1080p, RGBA8's 1.45M).
  __device__ __forceinline__ uint32_t word(Raw p, int k) const {
    const float x = radiance(p, k) * scale;
    return k < channels ? min(__float2uint_rn(x), max_value) : 0u;
  }
  // The pixels of px that quantize() flags (any channel below `channels` negative, NaN or above
  // max_value), counted exactly. sm_80+: the halves' NaN-propagating max and min first, two half2
  // instructions a pixel word, and the exact count only where they find one.
  template <int R>
  __device__ __forceinline__ uint32_t clamped_pixels(const Raw (&px)[R][4]) const {
    if (clamp_count == nullptr) return 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const uint32_t xmask = channels > 1 ? 0xFFFFFFFFu : 0xFFFFu;
    const uint32_t ymask = channels > 3 ? 0xFFFFFFFFu : (channels > 2 ? 0xFFFFu : 0u);
    const __half2 zero = __float2half2_rn(0.0f);
    __half2 hi = zero, lo = zero;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const uint32_t wx = px[r][i].x & xmask, wy = px[r][i].y & ymask;
        const __half2 a = *reinterpret_cast<const __half2*>(&wx);
        const __half2 b = *reinterpret_cast<const __half2*>(&wy);
        hi = __hmax2_nan(hi, __hmax2_nan(a, b));
        lo = __hmin2_nan(lo, __hmin2_nan(a, b));
      }
    const __half top = __ushort_as_half(top_half);
    if (__hble2(hi, __halves2half2(top, top)) && __hbge2(lo, zero)) return 0;
#endif
    uint32_t n = 0;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        bool any = false;
#pragma unroll
        for (int c = 0; c < 4; ++c)
          if (c < channels) (void)quantize(radiance(px[r][i], c), any);
        n += any ? 1u : 0u;
      }
    return n;
  }
  __device__ __forceinline__ static uint32_t channel(const uint32_t (&w)[kWords], int c) {
    return c == 0 ? w[0] : c == 1 ? w[1] : c == 2 ? w[2] : w[3];
  }
  template <class F>
  __device__ __forceinline__ static void word_channels(int k, uint32_t w, int channels, F&& f) {
    if (k < channels) f(k, w);
  }
  // Warp-aggregated: one atomic per warp that saw a clamp, none otherwise (n < 256 per lane). Any
  // set of converged lanes may call it (it ballots over __activemask()).
  __device__ __forceinline__ void count_clamped(uint32_t n) const {
    if (clamp_count == nullptr) return;
    const unsigned active = __activemask();
    if (!__any_sync(active, n != 0u)) return;
    uint32_t total = 0;
#pragma unroll
    for (int b = 0; b < 8; ++b) total += __popc(__ballot_sync(active, (n >> b) & 1u)) << b;
    if ((threadIdx.x & 31) == __ffs(active) - 1) atomicAdd(clamp_count, total);
  }
  // A 16-bit float array reads as float4; every half is a float, so packing back is exact.
  __device__ __forceinline__ static Raw from_texture(cudaTextureObject_t tex, float x, float y) {
    const float4 f = tex2D<float4>(tex, x, y);
    const __half2 lo = __floats2half2_rn(f.x, f.y), hi = __floats2half2_rn(f.z, f.w);
    return make_uint2(*reinterpret_cast<const uint32_t*>(&lo),
                      *reinterpret_cast<const uint32_t*>(&hi));
  }
  __device__ __forceinline__ static void unpack(const uint4 (&v)[2], Raw (&q)[4]) {
    q[0] = make_uint2(v[0].x, v[0].y);
    q[1] = make_uint2(v[0].z, v[0].w);
    q[2] = make_uint2(v[1].x, v[1].y);
    q[3] = make_uint2(v[1].z, v[1].w);
  }
  __device__ __forceinline__ static void pack(const Raw (&q)[4], uint4 (&v)[2]) {
    v[0] = make_uint4(q[0].x, q[0].y, q[1].x, q[1].y);
    v[1] = make_uint4(q[2].x, q[2].y, q[3].x, q[3].y);
  }
};

// 16-byte vectors per 4 pixels of a format.
template <class Format>
constexpr int kQuadVecs = static_cast<int>(sizeof(typename Format::Raw) * 4 / 16);

// Pitched rows of Raw pixels.
template <class Format = Rgba8Format>
struct PitchedPixels : Format {
  using Raw = typename Format::Raw;
  static constexpr int kVecs = kQuadVecs<Format>;
  const unsigned char* base;
  std::size_t pitch;
  PitchedPixels(Format f, const void* b, std::size_t p)
      : Format(f), base(static_cast<const unsigned char*>(b)), pitch(p) {}
  __device__ __forceinline__ const unsigned char* row(int y) const {
    return base + static_cast<std::size_t>(y) * pitch;
  }
  __device__ __forceinline__ Raw pixel(int x, int y) const {
    return __ldg(reinterpret_cast<const Raw*>(row(y)) + x);
  }
  __device__ __forceinline__ const uint4* vecs(int x, int y) const {
    return reinterpret_cast<const uint4*>(row(y) + static_cast<std::size_t>(x) * sizeof(Raw));
  }
  __device__ __forceinline__ void quad(int x, int y, Raw (&q)[4]) const {
    load_quad<false>(x, y, q);
  }
  // The same, for pixels read for the last time (evict-first: ld.global.cs).
  __device__ __forceinline__ void quad_last(int x, int y, Raw (&q)[4]) const {
    load_quad<true>(x, y, q);
  }
  template <bool kLast>
  __device__ __forceinline__ void load_quad(int x, int y, Raw (&q)[4]) const {
    const uint4* p = vecs(x, y);
    uint4 v[kVecs];
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      if constexpr (kLast)
        v[j] = __ldcs(p + j);
      else
        v[j] = __ldg(p + j);
    }
    Format::unpack(v, q);
  }
};

// Texture over a cudaArray (uchar4 for RGBA8, a 16-bit float4 for halves), read as elements with
// unnormalized coordinates; +0.5 hits texel centres, so the result does not depend on the filter
// mode. A texture fetch returns one texel, so `quad` costs four fetches (the texture cache merges
// them into one line).
template <class Format = Rgba8Format>
struct TexturePixels : Format {
  using Raw = typename Format::Raw;
  cudaTextureObject_t tex;
  TexturePixels(Format f, cudaTextureObject_t t) : Format(f), tex(t) {}
  __device__ __forceinline__ Raw pixel(int x, int y) const {
    return Format::from_texture(tex, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
  }
  __device__ __forceinline__ void quad(int x, int y, Raw (&q)[4]) const {
#pragma unroll
    for (int i = 0; i < 4; ++i) q[i] = pixel(x + i, y);
  }
  __device__ __forceinline__ void quad_last(int x, int y, Raw (&q)[4]) const {
    quad(x, y, q);
  }
};

}  // namespace sat_detail
}  // namespace scandof
