// Device-wide LSD radix sort with 8-bit digits, the classic three kernels per digit:
//  1. upsweep: each of a fixed number of blocks (one resident wave) histograms the digits of its
//     contiguous chunk of tiles (warp-aggregated through a ballot-based digit match so equal keys
//     cost one shared-memory update per warp, not 32 serialized ones) and adds them to 256 digit
//     totals;
//  2. scan: one block per digit scans that digit's per-block counts and adds the count of all
//     smaller digits, giving every (digit, block) its first output position;
//  3. downsweep: each block walks its tiles in order, ranks every key stably inside the tile
//     (warp-striped loads, ballot-matched peers, per-warp digit counters, a scan over warps and
//     digits), stages the tile in shared memory in digit order and writes it out, so keys of one
//     digit leave as contiguous runs.
// Traffic per digit: read n keys twice, write once (+ values read once, written once).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "scandof/cuda_check.hpp"
#include "scandof/sort.hpp"

namespace scandof {
namespace detail {
namespace lsd {

constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
constexpr int kThreads = 256;  // one thread per digit in the per-digit steps
constexpr int kWarps = kThreads / 32;
constexpr int kMaxBlocks = 1024;  // the scan kernel holds one block count per thread
static_assert(kThreads == kRadix, "per-digit steps map digit t to thread t");

struct NoValue {};

template <class K>
struct Tuning {
  // 16 keys of 4 bytes per thread keep 64 bytes in flight per thread; 8-byte keys keep the same
  // bytes with half the items so the staging buffers stay within 48 KiB of static shared memory.
  static constexpr int kItems = sizeof(K) <= 4 ? 16 : 8;
  static constexpr int kTile = kThreads * kItems;
  static_assert(kTile <= 65535, "local positions are packed into 16 bits");
};

template <class K>
__device__ __forceinline__ unsigned digit_of(K k, int shift, unsigned mask) {
  return static_cast<unsigned>((RadixTraits<K>::to_bits(k) >> shift) & mask);
}

// The lanes of the warp whose (valid) digit equals this lane's: one ballot per digit bit, ANDed
// (the warp-level multisplit). __match_any_sync gives the same set, but match.any is not a
// full-rate instruction: with it our first H100 run sorted at 0.28-0.38x CUB, and CUB's own
// MatchAny notes that a ballot loop is faster for a few label bits. 9 ballots per key instead.
__device__ __forceinline__ unsigned match_digit(unsigned d, bool valid) {
  unsigned peers = __ballot_sync(0xffffffffu, valid);
#pragma unroll
  for (int b = 0; b < kRadixBits; ++b) {
    const unsigned ones = __ballot_sync(0xffffffffu, (d >> b) & 1u);
    peers &= ((d >> b) & 1u) ? ones : ~ones;
  }
  return peers;
}

template <class K, bool kBallot>
__global__ void __launch_bounds__(kThreads)
    upsweep_kernel(const K* __restrict__ in, std::uint64_t n, int shift, unsigned mask,
                   std::uint64_t tiles_per_block, unsigned* hist, unsigned* totals, int blocks) {
  constexpr int kItems = Tuning<K>::kItems, kTile = Tuning<K>::kTile;
  __shared__ unsigned wh[kWarps][kRadix];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  for (int i = t; i < kWarps * kRadix; i += kThreads) (&wh[0][0])[i] = 0;
  __syncthreads();
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * tiles_per_block * kTile;
  const std::uint64_t last = std::min<std::uint64_t>(n, first + tiles_per_block * kTile);
  for (std::uint64_t base = first; base < last; base += kTile) {
    K k[kItems];
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const std::uint64_t i = base + j * kThreads + t;
      if (i < last) k[j] = in[i];
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool valid = base + j * kThreads + t < last;
      const unsigned d = valid ? digit_of(k[j], shift, mask) : 0u;
      if (kBallot) {
        const unsigned peers = match_digit(d, valid);
        // One leader per distinct digit: distinct addresses, so a plain add is race-free.
        if (valid && lane == __ffs(peers) - 1) wh[warp][d] += __popc(peers);
        __syncwarp();
      } else if (valid) {
        atomicAdd(&wh[warp][d], 1u);  // equal digits in a warp serialize on one address
      }
    }
  }
  __syncthreads();
  unsigned s = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) s += wh[w][t];
  hist[static_cast<std::size_t>(t) * blocks + blockIdx.x] = s;
  if (s) atomicAdd(totals + t, s);
}

// Block d: exclusive scan of hist[d][0 .. blocks) plus the number of keys with smaller digits.
// (A template only so that this header can be included by many translation units.)
template <int kUnused = 0>
__global__ void __launch_bounds__(1024)
    scan_kernel(unsigned* hist, const unsigned* totals, int blocks) {
  __shared__ unsigned warp_sum[32];
  __shared__ unsigned s_base;
  const int d = blockIdx.x, t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned* row = hist + static_cast<std::size_t>(d) * blocks;
  const unsigned x = t < blocks ? row[t] : 0u;
  unsigned inc = x;
#pragma unroll
  for (int s = 1; s < 32; s <<= 1) {
    const unsigned y = __shfl_up_sync(0xffffffffu, inc, s);
    if (lane >= s) inc += y;
  }
  if (lane == 31) warp_sum[warp] = inc;
  if (warp == 0) {
    unsigned b = 0;
    for (int i = lane; i < d; i += 32) b += totals[i];
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) b += __shfl_xor_sync(0xffffffffu, b, s);
    if (lane == 0) s_base = b;
  }
  __syncthreads();
  unsigned before = s_base;
  for (int w = 0; w < warp; ++w) before += warp_sum[w];
  if (t < blocks) row[t] = before + inc - x;
}

template <class T, int N>
struct alignas(16) SmemArray {
  T v[N];
};

template <class K, class V, bool kHasValues, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    downsweep_kernel(const K* __restrict__ kin, K* __restrict__ kout, const V* __restrict__ vin,
                     V* __restrict__ vout, std::uint64_t n, int shift, unsigned mask,
                     std::uint64_t tiles_per_block, const unsigned* __restrict__ hist, int blocks) {
  constexpr int kItems = Tuning<K>::kItems, kTile = Tuning<K>::kTile;
  __shared__ unsigned wh[kWarps][kRadix];
  __shared__ unsigned tile_start[kRadix];
  __shared__ unsigned run_off[kRadix];
  __shared__ unsigned warp_sum[kWarps];
  __shared__ SmemArray<K, kTile> kst;
  __shared__ SmemArray<V, kHasValues ? kTile : 1> vst;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const unsigned lt = (1u << lane) - 1u;
  run_off[t] = hist[static_cast<std::size_t>(t) * blocks + blockIdx.x];
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * tiles_per_block * kTile;
  const std::uint64_t last = std::min<std::uint64_t>(n, first + tiles_per_block * kTile);
  const int wbase = warp * 32 * kItems;
  for (std::uint64_t base = first; base < last; base += kTile) {
    const int valid = static_cast<int>(std::min<std::uint64_t>(kTile, last - base));
    K k[kItems];
    V v[kHasValues ? kItems : 1];
    unsigned dp[kItems];  // digit << 16 | rank among the warp's earlier keys of that digit
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int L = wbase + j * 32 + lane;
      if (L < valid) {
        k[j] = kin[base + L];
        if (kHasValues) v[kHasValues ? j : 0] = vin[base + L];
      }
    }
#pragma unroll
    for (int i = 0; i < kRadix / 32; ++i) wh[warp][lane + 32 * i] = 0;
    __syncwarp();
    // Warp-striped: the warp owns tile items [wbase, wbase + 32*kItems), row j holds 32
    // consecutive ones, so (j, lane) order is input order and the ranking is stable.
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool ok = wbase + j * 32 + lane < valid;
      const unsigned d = ok ? digit_of(k[j], shift, mask) : 0u;
      const unsigned peers = match_digit(d, ok);
      const unsigned cnt = ok ? wh[warp][d] : 0u;
      __syncwarp();
      if (ok && lane == __ffs(peers) - 1) wh[warp][d] = cnt + __popc(peers);
      __syncwarp();
      dp[j] = ok ? (d << 16) | (cnt + __popc(peers & lt)) : 0xffffffffu;
    }
    __syncthreads();
    // Thread t owns digit t: exclusive scan over warps, then over digits.
    unsigned count = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const unsigned c = wh[w][t];
      wh[w][t] = count;
      count += c;
    }
    unsigned inc = count;
#pragma unroll
    for (int s = 1; s < 32; s <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, inc, s);
      if (lane >= s) inc += y;
    }
    if (lane == 31) warp_sum[warp] = inc;
    __syncthreads();
    unsigned start = inc - count;
    for (int w = 0; w < warp; ++w) start += warp_sum[w];
    tile_start[t] = start;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      if (dp[j] != 0xffffffffu) {
        const unsigned d = dp[j] >> 16;
        const unsigned local = tile_start[d] + wh[warp][d] + (dp[j] & 0xffffu);
        kst.v[local] = k[j];
        if (kHasValues) vst.v[kHasValues ? local : 0] = v[kHasValues ? j : 0];
      }
    }
    __syncthreads();
    for (int i = t; i < valid; i += kThreads) {
      const K key = kst.v[i];
      const unsigned d = digit_of(key, shift, mask);
      const unsigned dst = run_off[d] + (static_cast<unsigned>(i) - tile_start[d]);
      kout[dst] = key;
      if (kHasValues) vout[dst] = vst.v[kHasValues ? i : 0];
    }
    __syncthreads();
    run_off[t] += count;
  }
}

inline std::size_t align_up(std::size_t x) {
  return (x + 255) & ~std::size_t(255);
}

inline int num_passes(int begin_bit, int end_bit) {
  return (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
}

template <class K, class V, bool kHasValues>
std::size_t workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  std::size_t b = align_up(n * sizeof(K));
  if (kHasValues) b += align_up(n * sizeof(V));
  b += align_up(sizeof(unsigned) * kRadix * kMaxBlocks);
  b += align_up(sizeof(unsigned) * kRadix * (8 * sizeof(K) / kRadixBits));
  return b;
}

// Implementation choices, fixed for the public API; the benchmark compares them.
struct Knobs {
  bool upsweep_ballot = true;    // digit counts by ballot-matched warp aggregation, else atomics
  int downsweep_min_blocks = 3;  // __launch_bounds__ residency (3: <= 80 registers, 4: <= 64)
};

template <class K, class V, bool kHasValues>
void sort(const K* kin, K* kout, const V* vin, V* vout, std::size_t n, void* ws,
          std::size_t ws_bytes, cudaStream_t stream, int begin_bit, int end_bit,
          Knobs knobs = Knobs()) {
  const int passes = num_passes(begin_bit, end_bit);
  if (passes == 0) {
    if (kin != kout)
      CUDA_CHECK(cudaMemcpyAsync(kout, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (kHasValues && vin != vout)
      CUDA_CHECK(cudaMemcpyAsync(vout, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  (void)ws_bytes;
  auto* p = static_cast<unsigned char*>(ws);
  K* kalt = reinterpret_cast<K*>(p);
  p += align_up(n * sizeof(K));
  V* valt = nullptr;
  if (kHasValues) {
    valt = reinterpret_cast<V*>(p);
    p += align_up(n * sizeof(V));
  }
  auto* hist = reinterpret_cast<unsigned*>(p);
  p += align_up(sizeof(unsigned) * kRadix * kMaxBlocks);
  auto* totals = reinterpret_cast<unsigned*>(p);
  CUDA_CHECK(cudaMemsetAsync(totals, 0, sizeof(unsigned) * kRadix * passes, stream));

  // One resident wave of blocks, each owning an equal run of tiles.
  int dev = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const bool four = knobs.downsweep_min_blocks >= 4;
  if (four)
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, downsweep_kernel<K, V, kHasValues, 4>, kThreads, 0));
  else
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, downsweep_kernel<K, V, kHasValues, 3>, kThreads, 0));
  constexpr int kTile = Tuning<K>::kTile;
  const std::uint64_t tiles = (n + kTile - 1) / kTile;
  const std::uint64_t cap = std::min<std::uint64_t>(kMaxBlocks, std::max(1, sms * per_sm));
  const std::uint64_t want = std::max<std::uint64_t>(1, std::min(tiles, cap));
  const std::uint64_t tiles_per_block = (tiles + want - 1) / want;
  const int blocks = static_cast<int>((tiles + tiles_per_block - 1) / tiles_per_block);

  // Ping-pong so that the last pass lands in kout. Sorting in place with an odd pass count
  // first moves the input to the spare buffer (one extra copy).
  const K* ksrc = kin;
  const V* vsrc = vin;
  if (kin == kout && passes % 2 == 1) {
    CUDA_CHECK(cudaMemcpyAsync(kalt, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    ksrc = kalt;
  }
  if (kHasValues && vin == vout && passes % 2 == 1) {
    CUDA_CHECK(cudaMemcpyAsync(valt, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    vsrc = valt;
  }
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const int width = std::min(kRadixBits, end_bit - shift);
    const unsigned mask = (1u << width) - 1u;
    const bool to_out = (passes - 1 - pass) % 2 == 0;
    K* kdst = to_out ? kout : kalt;
    V* vdst = to_out ? vout : valt;
    unsigned* tot = totals + kRadix * pass;
    if (knobs.upsweep_ballot)
      upsweep_kernel<K, true><<<blocks, kThreads, 0, stream>>>(ksrc, n, shift, mask,
                                                               tiles_per_block, hist, tot, blocks);
    else
      upsweep_kernel<K, false><<<blocks, kThreads, 0, stream>>>(ksrc, n, shift, mask,
                                                                tiles_per_block, hist, tot, blocks);
    CUDA_CHECK_LAUNCH();
    scan_kernel<><<<kRadix, 1024, 0, stream>>>(hist, tot, blocks);
    CUDA_CHECK_LAUNCH();
    if (four)
      downsweep_kernel<K, V, kHasValues, 4><<<blocks, kThreads, 0, stream>>>(
          ksrc, kdst, vsrc, vdst, n, shift, mask, tiles_per_block, hist, blocks);
    else
      downsweep_kernel<K, V, kHasValues, 3><<<blocks, kThreads, 0, stream>>>(
          ksrc, kdst, vsrc, vdst, n, shift, mask, tiles_per_block, hist, blocks);
    CUDA_CHECK_LAUNCH();
    ksrc = kdst;
    vsrc = vdst;
  }
}

}  // namespace lsd
}  // namespace detail
}  // namespace scandof
