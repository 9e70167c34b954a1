// Where SAT kernels read RGBA8 pixels from: a texture object (the demo's GL interop path) or a
// pitched device pointer (tests, tools). Both expose the same two reads so every SAT kernel is
// written once and instantiated for each source.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace scandof {
namespace sat_detail {

// Pitched uchar4 rows. `quad` reads 4 neighbouring pixels with one 16-byte load, which needs the
// row base and x to be 16-byte aligned (the host checks pitch and base before choosing it).
struct PitchedPixels {
  const unsigned char* base;
  std::size_t pitch;
  __device__ __forceinline__ uchar4 pixel(int x, int y) const {
    return __ldg(reinterpret_cast<const uchar4*>(base + static_cast<std::size_t>(y) * pitch) + x);
  }
  __device__ __forceinline__ uint4 quad(int x, int y) const {
    return __ldg(reinterpret_cast<const uint4*>(base + static_cast<std::size_t>(y) * pitch +
                                                static_cast<std::size_t>(x) * 4u));
  }
  // The same, for pixels read for the last time (evict-first: ld.global.cs).
  __device__ __forceinline__ uint4 quad_last(int x, int y) const {
    return __ldcs(reinterpret_cast<const uint4*>(base + static_cast<std::size_t>(y) * pitch +
                                                 static_cast<std::size_t>(x) * 4u));
  }
};

// Texture over a cudaArray of uchar4, read as elements with unnormalized coordinates; +0.5 hits
// texel centres, so the result does not depend on the filter mode. A texture fetch returns one
// texel, so `quad` costs four fetches (the texture cache merges them into one line).
struct TexturePixels {
  cudaTextureObject_t tex;
  __device__ __forceinline__ uchar4 pixel(int x, int y) const {
    return tex2D<uchar4>(tex, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
  }
  __device__ __forceinline__ uint4 quad(int x, int y) const {
    uchar4 p[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) p[i] = pixel(x + i, y);
    uint4 q;
    q.x = pack(p[0]);
    q.y = pack(p[1]);
    q.z = pack(p[2]);
    q.w = pack(p[3]);
    return q;
  }
  __device__ __forceinline__ uint4 quad_last(int x, int y) const {
    return quad(x, y);
  }
  __device__ __forceinline__ static uint32_t pack(uchar4 p) {
    return uint32_t(p.x) | (uint32_t(p.y) << 8) | (uint32_t(p.z) << 16) | (uint32_t(p.w) << 24);
  }
};

// Channel c (0 = R) of a pixel packed little-endian in 32 bits, as loaded by `quad`.
__device__ __forceinline__ uint32_t channel_of(uint32_t packed, int c) {
  return (packed >> (8 * c)) & 0xFFu;
}

__device__ __forceinline__ uint32_t pack_pixel(uchar4 p) {
  return TexturePixels::pack(p);
}

}  // namespace sat_detail
}  // namespace scandof
