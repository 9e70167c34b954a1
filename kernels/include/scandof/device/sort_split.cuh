// The chapter's radix sort (section 39.3.3), kept as the paper describes it rather than tuned:
//  1. chunk kernel: each block sorts a 1024-key chunk in shared memory, one bit per pass with the
//     split primitive: e = !bit, f = exclusive scan of e over the chunk (one block scan per bit),
//     keys with e go to f, the others to i - f + totalFalses;
//  2. bitonic merge of the sorted chunks: for each doubling of the sorted run length, a "flip"
//     compare-exchange (i against the mirrored position, which merges two ascending runs) and then
//     half-cleaners of decreasing stride; strides that fit a 2048-key segment run in shared memory,
//     larger ones as one global-memory kernel each.
// Keys are sorted as their order-preserving unsigned images in a power-of-two work buffer padded
// with all-ones (the largest image, so padding collects at the end). Cost: 1 pass per key bit in
// the chunk kernel (cheap: on chip), then O(log^2(n / 1024)) global passes over the whole buffer
// for the merge: the merge, not the split, dominates at large n.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "scandof/block/exclusive_sum.cuh"
#include "scandof/cuda_check.hpp"
#include "scandof/sort.hpp"

namespace scandof {
namespace detail {
namespace split {

constexpr int kChunkThreads = 256;
constexpr int kChunkItems = 4;
constexpr int kChunk = kChunkThreads * kChunkItems;  // 1024 keys sorted on chip
constexpr int kSegThreads = 1024;
constexpr int kSeg = 2 * kSegThreads;  // shared-memory half-cleaners for strides < kSeg

template <class K>
__global__ void __launch_bounds__(kChunkThreads)
    chunk_kernel(const K* __restrict__ in, typename RadixTraits<K>::Bits* __restrict__ work,
                 std::uint64_t n, int begin_bit, int end_bit) {
  using Bits = typename RadixTraits<K>::Bits;
  __shared__ Bits buf[2][kChunk];
  __shared__ unsigned warp_sum[kChunkThreads / 32];
  const int t = threadIdx.x;
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * kChunk;
#pragma unroll
  for (int i = 0; i < kChunkItems; ++i) {
    const int idx = i * kChunkThreads + t;
    buf[0][idx] = base + idx < n ? RadixTraits<K>::to_bits(in[base + idx]) : ~Bits(0);
  }
  __syncthreads();
  int cur = 0;
  for (int bit = begin_bit; bit < end_bit; ++bit) {
    Bits x[kChunkItems];
    unsigned e[kChunkItems], zeros = 0;
#pragma unroll
    for (int i = 0; i < kChunkItems; ++i) {
      x[i] = buf[cur][t * kChunkItems + i];
      e[i] = ((x[i] >> bit) & 1u) ? 0u : 1u;
      zeros += e[i];
    }
    // The split's scan: exclusive scan of the per-thread false counts across the block; the
    // prefix callback hands out the block total (totalFalses) and puts nothing in front.
    unsigned total = 0;
    unsigned f = block::exclusive_sum<kChunkThreads>(zeros, warp_sum, [&](unsigned agg) {
      total = agg;
      return 0u;
    });
#pragma unroll
    for (int i = 0; i < kChunkItems; ++i) {
      const unsigned idx = t * kChunkItems + i;
      const unsigned dst = e[i] ? f : idx - f + total;
      buf[cur ^ 1][dst] = x[i];
      f += e[i];
    }
    cur ^= 1;
    __syncthreads();  // also protects warp_sum for the next bit
  }
#pragma unroll
  for (int i = 0; i < kChunkItems; ++i) {
    const int idx = i * kChunkThreads + t;
    work[base + idx] = buf[cur][idx];
  }
}

template <class Bits>
__device__ __forceinline__ void compare_exchange(Bits* w, std::uint64_t a, std::uint64_t b) {
  const Bits x = w[a], y = w[b];
  if (y < x) {
    w[a] = y;
    w[b] = x;
  }
}

// Merges the two ascending halves of every 2s-block: pair (i, 2s-1-i).
template <class Bits>
__global__ void flip_kernel(Bits* w, std::uint64_t pairs, std::uint64_t s) {
  const std::uint64_t p = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pairs) return;
  const std::uint64_t blk = p / s, i = p % s;
  compare_exchange(w, blk * 2 * s + i, blk * 2 * s + 2 * s - 1 - i);
}

template <class Bits>
__global__ void half_kernel(Bits* w, std::uint64_t pairs, std::uint64_t stride) {
  const std::uint64_t p = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= pairs) return;
  const std::uint64_t a = (p / stride) * 2 * stride + p % stride;
  compare_exchange(w, a, a + stride);
}

// Half-cleaners of strides first_stride, first_stride/2, ..., 1 inside each kSeg-key segment.
template <class Bits>
__global__ void __launch_bounds__(kSegThreads) local_half_kernel(Bits* w, int first_stride) {
  __shared__ Bits seg[kSeg];
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * kSeg;
  const int t = threadIdx.x;
  seg[t] = w[base + t];
  seg[t + kSegThreads] = w[base + t + kSegThreads];
  __syncthreads();
  for (int stride = first_stride; stride > 0; stride >>= 1) {
    const int a = (t / stride) * 2 * stride + t % stride;
    const Bits x = seg[a], y = seg[a + stride];
    if (y < x) {
      seg[a] = y;
      seg[a + stride] = x;
    }
    __syncthreads();
  }
  w[base + t] = seg[t];
  w[base + t + kSegThreads] = seg[t + kSegThreads];
}

template <class K>
__global__ void unmap_kernel(const typename RadixTraits<K>::Bits* __restrict__ work,
                             K* __restrict__ out, std::uint64_t n) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = RadixTraits<K>::from_bits(work[i]);
}

inline std::uint64_t padded_size(std::size_t n) {
  std::uint64_t p = kSeg;
  while (p < n) p <<= 1;
  return p;
}

template <class K>
std::size_t workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  return padded_size(n) * sizeof(typename RadixTraits<K>::Bits);
}

inline unsigned grid_1d(std::uint64_t work, int threads) {
  return static_cast<unsigned>((work + threads - 1) / threads);
}

template <class K>
void sort(const K* in, K* out, std::size_t n, void* ws, cudaStream_t stream, int begin_bit,
          int end_bit) {
  using Bits = typename RadixTraits<K>::Bits;
  Bits* work = static_cast<Bits*>(ws);
  const std::uint64_t P = padded_size(n);
  chunk_kernel<K><<<static_cast<unsigned>(P / kChunk), kChunkThreads, 0, stream>>>(
      in, work, n, begin_bit, end_bit);
  CUDA_CHECK_LAUNCH();
  constexpr int kT = 256;
  for (std::uint64_t s = kChunk; s < P; s <<= 1) {
    flip_kernel<Bits><<<grid_1d(P / 2, kT), kT, 0, stream>>>(work, P / 2, s);
    CUDA_CHECK_LAUNCH();
    std::uint64_t stride = s / 2;
    for (; stride >= static_cast<std::uint64_t>(kSeg); stride >>= 1) {
      half_kernel<Bits><<<grid_1d(P / 2, kT), kT, 0, stream>>>(work, P / 2, stride);
      CUDA_CHECK_LAUNCH();
    }
    local_half_kernel<Bits><<<static_cast<unsigned>(P / kSeg), kSegThreads, 0, stream>>>(
        work, static_cast<int>(stride));
    CUDA_CHECK_LAUNCH();
  }
  const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 65535));
  unmap_kernel<K><<<grid, 256, 0, stream>>>(work, out, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace split
}  // namespace detail
}  // namespace scandof
