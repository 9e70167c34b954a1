// The paper's first SAT stage: pixels (RGBA8 or RGBA16F, sat_pixels.cuh) -> `channels` planes of T
// (uint32 or float), one element per thread. Reads 4 (8) bytes and writes 4*channels bytes per
// pixel; purely bandwidth-bound.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "scandof/device/sat_pixels.cuh"

namespace scandof {
namespace sat_detail {

constexpr int kDeinterleaveBlockX = 32, kDeinterleaveBlockY = 8;

template <class Pixels, class T>
__global__ void __launch_bounds__(kDeinterleaveBlockX* kDeinterleaveBlockY)
    deinterleave_kernel(Pixels pixels, int width, int height, int channels, T* __restrict__ out) {
  const int x = blockIdx.x * kDeinterleaveBlockX + threadIdx.x;
  const int y = blockIdx.y * kDeinterleaveBlockY + threadIdx.y;
  if (x >= width || y >= height) return;
  const typename Pixels::Raw p = pixels.pixel(x, y);
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t i = static_cast<std::size_t>(y) * width + x;
  bool clamped = false;  // the paper's pipeline reads the pixels here only: counted here
#pragma unroll
  for (int c = 0; c < 4; ++c)
    if (c < channels) out[c * plane + i] = pixels.template value<T>(p, c, clamped);
  pixels.count_clamped(clamped ? 1u : 0u);
}

// Grid: (ceil(w/32), ceil(h/8)); gridDim.y caps h at 524280 rows, far beyond any frame.
template <class Pixels, class T>
void deinterleave(Pixels pixels, int width, int height, int channels, T* out, cudaStream_t stream) {
  const dim3 block(kDeinterleaveBlockX, kDeinterleaveBlockY);
  const dim3 grid((width + kDeinterleaveBlockX - 1) / kDeinterleaveBlockX,
                  (height + kDeinterleaveBlockY - 1) / kDeinterleaveBlockY);
  deinterleave_kernel<Pixels, T><<<grid, block, 0, stream>>>(pixels, width, height, channels, out);
}

}  // namespace sat_detail
}  // namespace scandof
