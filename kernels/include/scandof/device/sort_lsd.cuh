// Device-wide LSD radix sort with 8-bit digits ("onesweep", Adinets & Merrill 2022): one histogram
// kernel for all digits, then one kernel per digit that ranks a tile and finds its digit offsets
// by decoupled look-back; n <= one tile runs every pass in one block. Read + write of the keys per
// digit. On the H100 against cub::DeviceRadixSort's faster call, each with its own allocations,
// medians over six memory layouts (results/sort/README.md): uniform uint32 1.13x / 1.13x / 1.07x
// at 2^24 / 2^26 / 2^28, int32 1.08 / 1.07 / 1.06x, float 1.16 / 1.16 / 1.15x, uint64 1.11 /
// 1.05 / 1.08x, pairs 1.04 / 1.02-1.03 / 1.05-1.06x, uint64 pairs 1.00 / 1.00 / 1.01x, 1.19-1.35x
// at 2^20. What got it there: a digit match of half the instructions, early digit counts, batched
// look-back loads, tiles of 7680-12288 keys, a bounds-free copy for whole tiles, single-digit
// tiles skipping the ranking, a padded staging tile (sorted keys' bank conflicts), a histogram of
// 16-byte loads, no memsets between passes, 4-byte pairs packed into 64-bit words between the
// first and last passes (16 bytes of scratch a pair), values after the keys through the keys'
// staging buffer (uint64 pairs).
//
// The shape of the per-digit kernel is a policy type (OnesweepPolicy): the library sorts with
// DefaultOnesweepPolicy, or where a block's shared memory cannot stage its tile the earlier
// EightBitOnesweepPolicy or SmallTilesPolicy; the benchmark (bench/sortbench.cu) and the tests
// pass their own to sort(), 11-bit digits (WideOnesweepPolicy, wide_onesweep_kernel: three passes
// for 32-bit keys) among them, which measured at about half the 8-bit kernel's speed and are not
// the default.
// The classic three kernels per digit (upsweep histogram, scan of the per-block counts,
// downsweep), which read the keys twice per digit, sorted 2^28 uint32 in 17.79 ms against
// onesweep's 8.35 at the time (H100, results/sort/README.md); removed after a4930a6.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "scandof/arch.cuh"
#include "scandof/block/exclusive_sum.cuh"
#include "scandof/device/dependent_launch.cuh"
#include "scandof/cuda_check.hpp"
#include "scandof/device/tile_status.cuh"
#include "scandof/sort.hpp"

namespace scandof {
namespace detail {
namespace lsd {

constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
// One thread per digit in the per-digit steps. Blocks of 384 or 512 threads (two warps' digit
// counters packed a word, the threads past the 256th idle in those steps) were slower at the same
// tile of 8192 keys: uint32 2^28 5.09 -> 5.81 ms, pairs 9.49 -> 9.88 (H100, 3 memory layouts,
// results/sort/README.md; removed after 26b61f4).
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
static_assert(kThreads == kRadix, "per-digit steps map digit t to thread t");

struct NoValue {};

// The one-block path's tile (n <= kTile keys: single_tile_kernel).
template <class K>
struct Tuning {
  // 16 keys of 4 bytes per thread keep 64 bytes in flight per thread; 8-byte keys keep the same
  // bytes with half the items so the staging buffers stay within 48 KiB of static shared memory.
  static constexpr int kItems = sizeof(K) <= 4 ? 16 : 8;
  static constexpr int kTile = kThreads * kItems;
  static_assert(kTile <= 65535, "local positions are packed into 16 bits");
};

// The fewest keys per thread any onesweep policy stages (8-byte keys, 4-byte keys in small tiles,
// the benchmark's 16-per-thread policies). The look-back status rows are planned for tiles of
// this size, so every policy fits them; planning for Tuning<K>'s 2048-key tile gave 8-byte keys
// twice the rows they use (128 MiB too many at 2^28 uint64).
constexpr int kMinOnesweepItems = 16;

// Digit passes over bits [begin_bit, end_bit) with digits of `bits` bits (8, or 11 for the wide
// policies: 11 + 11 + 10 for 32-bit keys).
__host__ __device__ __forceinline__ int num_passes_dev(int begin_bit, int end_bit,
                                                       int bits = kRadixBits) {
  return (end_bit - begin_bit + bits - 1) / bits;
}

template <class K>
__device__ __forceinline__ unsigned digit_of(K k, int shift, unsigned mask) {
  return static_cast<unsigned>((RadixTraits<K>::to_bits(k) >> shift) & mask);
}

// Where a digit pass reads its keys and where it writes them: arrays of K, or 4-byte keys and
// 4-byte values in two arrays, read or written as one 64-bit word per pair (the key's radix bits
// above, the value's bits below) for the packed pairs sort (packed_pairs_passes).
template <class K, class V>
struct PairsIn {
  const K* keys;
  const V* values;
};
template <class K, class V>
struct PairsOut {
  K* keys;
  V* values;
};
// Kernel parameters keep __restrict__ on plain arrays.
template <class T>
struct RestrictArg {
  using type = T;
};
template <class T>
struct RestrictArg<T*> {
  using type = T* __restrict__;
};

template <class K, class I>
__device__ __forceinline__ K load_key(const K* __restrict__ kin, I i) {
  return kin[i];
}
// Pairs that pack into one 64-bit word: 4-byte keys with 4-byte, 4-byte aligned values whose bits
// may be copied (PackedPairsPolicy; others take its Fallback).
template <class K, class V, bool kHasValues>
constexpr bool kPackablePairs = kHasValues && sizeof(K) == 4 && sizeof(V) == 4 &&
                                alignof(V) == 4 && std::is_trivially_copyable<V>::value;

template <class K, class V, class I>
__device__ __forceinline__ std::uint64_t load_key(const PairsIn<K, V>& in, I i) {
  static_assert(kPackablePairs<K, V, true>, "4-byte keys and values pack into 64 bits");
  const auto k = RadixTraits<K>::to_bits(__ldg(in.keys + i));
  const std::uint32_t vb = __ldg(reinterpret_cast<const std::uint32_t*>(in.values) + i);
  return (static_cast<std::uint64_t>(k) << 32) | vb;
}
template <class K, class I>
__device__ __forceinline__ void store_key(K* __restrict__ kout, I i, K k) {
  kout[i] = k;
}
template <class K, class V, class I>
__device__ __forceinline__ void store_key(const PairsOut<K, V>& out, I i, std::uint64_t e) {
  out.keys[i] = RadixTraits<K>::from_bits(static_cast<std::uint32_t>(e >> 32));
  const auto vb = static_cast<std::uint32_t>(e);
  V v;
  memcpy(&v, &vb, 4);
  out.values[i] = v;
}

// a & b & c in one instruction (LOP3).
__device__ __forceinline__ unsigned and3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

// The lanes of the warp whose (valid) digit equals this lane's: one vote per digit bit, ANDed (the
// warp-level multisplit). __match_any_sync gives the same set, but match.any is not a full-rate
// instruction: with it the sort ran at 10.9 ms against 6.65 for these votes (H100, 2^28 uint32,
// results/sort/README.md). Each digit bit costs a bit test (setting a predicate), a vote and a
// conditional complement, and the eight masks are ANDed three at a time. From C++ (peers &= bit ?
// ones : ~ones) nvcc extracts each bit twice, as a value and as a predicate, and picks the
// complement with a SEL: 7 SASS instructions per bit against about 3.5 here (H100, CUDA 13.0),
// which took a digit pass at 2^24 from 74.8M to 49.5M warp instructions, 2^28 from 7.80 to 6.65 ms.
template <bool kAllValid>
__device__ __forceinline__ unsigned match_digit_vote(unsigned d, bool valid) {
  unsigned same[kRadixBits];
#pragma unroll
  for (int b = 0; b < kRadixBits; ++b)
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t"
        "}"
        : "=r"(same[b])
        : "r"(d), "r"(1u << b));
  static_assert(kRadixBits == 8, "the AND tree below is written for 8 digit bits");
  const unsigned all = kAllValid ? 0xffffffffu : __ballot_sync(0xffffffffu, valid);
  // Written as three-input ANDs: ptxas otherwise chains eight two-input ones.
  return and3(and3(same[0], same[1], same[2]), and3(same[3], same[4], same[5]),
              and3(same[6], same[7], all));
}

// A predicated shared-memory atomicAdd: the C++ form (if (leader) old = atomicAdd(...)) costs a
// branch and its reconvergence per key. Returns 0 where !pred.
__device__ __forceinline__ unsigned atomic_add_shared_if(bool pred, unsigned* addr, unsigned v) {
  unsigned old;
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0;\n\t"
      "mov.u32 %0, 0;\n\t"
      "@p atom.shared.add.u32 %0, [%2], %3;\n\t"
      "}"
      : "=r"(old)
      : "r"(static_cast<unsigned>(pred)),
        "r"(static_cast<unsigned>(__cvta_generic_to_shared(addr))), "r"(v)
      : "memory");
  return old;
}

// Thread t owns digit t: turns the warps' counts of digit t (wh[w][t]) into exclusive offsets
// over the warps and returns the block's count of digit t. The caller synchronizes first.
__device__ __forceinline__ unsigned warp_offsets_of_digit(unsigned (&wh)[kWarps][kRadix]) {
  const int t = threadIdx.x;
  unsigned count = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const unsigned c = wh[w][t];
    wh[w][t] = count;
    count += c;
  }
  return count;
}

// Exclusive scan of one value per thread over the 256 threads (digits); every thread calls it.
template <class T>
__device__ __forceinline__ T block_exclusive_256(T x, T* warp_sum) {
  return block::exclusive_sum<kThreads>(x, warp_sum);
}

// A tile staged in digit order, with one padding item after every 32. Without it a warp whose
// lanes store keys 32 tile positions apart hits one bank 32 times: that is every row of sorted
// (or iota) keys, where each of the 256 digits holds exactly 32 of a tile's 8192 keys and lane
// l's key belongs to the digit after lane l-1's. On the H100 that cost pairs of sorted keys 32.6M
// bank conflicts per pass at 2^24 (against 2.8M for uniform keys) and 0.74x CUB. The padding
// costs 1/32 of the staging memory and an add per access; reads of 32 consecutive items stay
// conflict-free.
template <class T, int N>
struct alignas(16) StagedTile {
  T v[N + N / 32];
  template <class I>
  __device__ __forceinline__ T& operator[](I i) {
    return v[i + (i >> 5)];
  }
};

// Warp-striped tile load: warp w owns items [w*32*kItems, (w+1)*32*kItems), row j of it is 32
// consecutive items, so (warp, j, lane) order is input order. Plain loads: the evict-first hint
// (ld.global.cs, to leave the L2 to the scatter's partly written sectors) made 2^28 uint32 keys
// 5.65 -> 5.81 ms and pairs 9.61 -> 10.10 ms (H100, median over 3 memory layouts; removed
// after a7d33d4).
template <class K, class V, bool kHasValues, bool kFull = false, int kItems, class Src>
__device__ __forceinline__ void load_striped(Src kin, const V* __restrict__ vin, std::uint64_t base,
                                             int valid, K (&k)[kItems],
                                             V (&v)[kHasValues ? kItems : 1]) {
  const int lane = threadIdx.x & 31, wbase = (threadIdx.x >> 5) * 32 * kItems;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int L = wbase + j * 32 + lane;
    if (kFull || L < valid) {
      k[j] = load_key(kin, base + L);
      if constexpr (kHasValues) v[j] = vin[base + L];
    }
  }
}

// ---------------------------------------------------------------- onesweep
// One histogram kernel reads the keys once for every digit; then one kernel per digit ranks a
// tile, publishes its 256 digit counts and finds each digit's global offset by decoupled
// look-back over the earlier tiles' counts. Per digit that is one read and one write of the keys,
// one launch, and every tile is its own block (tile ids from an atomic counter, so look-back only
// ever waits on tiles that already started), so loads of new tiles overlap the ranking of others.

constexpr int kMaxPasses = 8;  // 64-bit keys
// Digit totals of every pass of any policy: 8 passes of 256 digits, or 6 of 2048 (11-bit digits
// of 64-bit keys; 32-bit keys take 3). Pass p's totals start at p << radix bits.
constexpr int kWideRadixBits = 11;
constexpr int kMaxTotals = 6 * (1 << kWideRadixBits);
static_assert(kMaxTotals >= kMaxPasses * kRadix, "the 8-bit passes' totals fit too");
// Control block: 64-bit digit totals per pass (a digit may hold 2^32 keys or more), then one tile
// counter per pass.
struct Ctrl {
  unsigned long long totals[kMaxTotals];
  unsigned counters[kMaxPasses];
};

// Look-back status word (lookback::CountWord): 2 flag bits on top, the count below. 32-bit words
// while n < 2^30 (half the status traffic), 64-bit beyond.

// Off: the type of global positions, unsigned while n < 2^32 (1 KiB less shared memory and 32-bit
// address arithmetic in the scatter), 64-bit beyond.
// kTileKeys: threads x keys per thread of the kernel that uses it.
template <class K, class V, bool kHasValues, class Off = unsigned, int kTileKeys = Tuning<K>::kTile>
struct TileSmem {
  static constexpr int kItems = kTileKeys / kThreads;
  static_assert(kItems * kThreads == kTileKeys && kItems % 2 == 0,
                "whole rows per thread, ranks packed two per register");
  static_assert(kTileKeys <= 65535, "tile positions are packed into 16 bits");
  unsigned wh[kWarps][kRadix];  // per-warp digit counters, then their exclusive offsets
  unsigned tile_start[kRadix];  // first local position of each digit in the staged tile
  Off run_off[kRadix];          // global position of digit d's first key, minus tile_start[d]
  unsigned warp_sum[kWarps];
  Off scan_sum[kWarps];  // second block scan (digit totals) without racing warp_sum
  unsigned tile_id;
  unsigned first_digit;  // digit of the tile's first key (count_digits_early)
  StagedTile<K, kTileKeys> kst;
  StagedTile<V, kHasValues ? kTileKeys : 1> vst;
};

// How a warp ranks a row of 32 keys among its earlier keys of the same digit: match_digit_vote
// finds the lanes sharing this lane's digit; only the highest of them touches the warp's digit
// counter, with one predicated shared atomicAdd that returns the old count, and a shuffle hands
// that to its peers: one shared access per distinct digit and no __syncwarp. Every lane reading
// the counter and the lowest peer writing it back (two __syncwarp per row) sorted 2^28 uint32 in
// 7.80 ms against 7.45 (H100, results/sort/README.md); removed after a4930a6.
//
// Stable local ranking of a loaded tile: on return rk holds each key's
// rank among the warp's earlier keys of its digit, two 16-bit ranks per register (item j in half
// j & 1 of rk[j / 2]; the digit is recomputed from the key: 8 registers fewer, which is what
// keeps this kernel from spilling at 80), s.wh the per-warp exclusive offsets, s.tile_start the
// digit starts (synchronized). Returns the count of digit threadIdx.x in this tile.
// kEarly: count_digits_early() has already set s.wh[w][d] to the tile position of warp w's first
// key of digit d, so the ranks come out as tile positions and no scan follows (returns 0).
template <bool kEarly = false, bool kFull = false, class K, class V, bool kHasValues, class Off,
          int kTileKeys, int kItems>
__device__ __forceinline__ unsigned rank_striped(TileSmem<K, V, kHasValues, Off, kTileKeys>& s,
                                                 const K (&k)[kItems], int valid, int shift,
                                                 unsigned mask, unsigned (&rk)[kItems / 2]) {
  static_assert(kItems * kThreads == kTileKeys, "the registers hold the whole tile");
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const unsigned lt = (1u << lane) - 1u;
  const int wbase = warp * 32 * kItems;
  if constexpr (!kEarly) {
#pragma unroll
    for (int i = 0; i < kRadix / 32; ++i) s.wh[warp][lane + 32 * i] = 0;
    __syncwarp();
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const bool ok = kFull || wbase + j * 32 + lane < valid;
    const unsigned d = ok ? digit_of(k[j], shift, mask) : 0u;
    // Lanes past the end match only each other (the valid ballot) and touch no counter.
    const unsigned peers = match_digit_vote<kFull>(d, ok);
    const int leader = 31 - __clz(peers);
    const unsigned below = __popc(peers & lt);
    const unsigned cnt = atomic_add_shared_if(ok && lane == leader, &s.wh[warp][d], below + 1u);
    const unsigned r = __shfl_sync(0xffffffffu, cnt, leader) + below;
    if (j & 1)
      rk[j / 2] |= r << 16;
    else
      rk[j / 2] = r;
  }
  __syncthreads();
  if constexpr (kEarly) return 0;
  const unsigned count = warp_offsets_of_digit(s.wh);
  s.tile_start[t] = block_exclusive_256(count, s.warp_sum);
  __syncthreads();
  return count;
}

// Early counts: the tile's per-warp digit counts by one shared atomicAdd per key (a warp's adds to
// one address are folded by the hardware), then the same scans the ranking does at its end, so
// that the tile can publish its digit counts before it ranks: successors waiting on its
// aggregate stop waiting a ranking sooner. s.wh[w][d] ends as the tile position of warp w's first
// key of digit d (what rank_striped<kEarly> counts up from), s.tile_start as usual
// (synchronized). Returns the count of digit threadIdx.x in this tile.
template <bool kFull = false, class K, class V, bool kHasValues, class Off, int kTileKeys,
          int kItems>
__device__ __forceinline__ unsigned count_digits_early(
    TileSmem<K, V, kHasValues, Off, kTileKeys>& s, const K (&k)[kItems], int valid, int shift,
    unsigned mask) {
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int wbase = warp * 32 * kItems;
#pragma unroll
  for (int i = 0; i < kRadix / 32; ++i) s.wh[warp][lane + 32 * i] = 0;
  if (t == 0) s.first_digit = digit_of(k[0], shift, mask);
  __syncwarp();
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (kFull || wbase + j * 32 + lane < valid)
      atomicAdd(&s.wh[warp][digit_of(k[j], shift, mask)], 1u);
  __syncthreads();
  const unsigned count = warp_offsets_of_digit(s.wh);
  const unsigned start = block_exclusive_256(count, s.warp_sum);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) s.wh[w][t] += start;
  s.tile_start[t] = start;
  __syncthreads();
  return count;
}

// Writes the ranked keys (and values) to the staging buffers in digit order. The caller
// synchronizes before reading them.
// kStage: what to write, StageBoth, StageKeys or StageValues (the onesweep kernel stages keys and
// values apart, so that it can load the values after staging the keys; StageValues reads k only
// without kEarly).
enum Stage { StageBoth, StageKeys, StageValues };
template <bool kEarly = false, Stage kStage = StageBoth, bool kFull = false, class K, class V,
          bool kHasValues, class Off, int kTileKeys, int kItems>
__device__ __forceinline__ void stage_striped(TileSmem<K, V, kHasValues, Off, kTileKeys>& s,
                                              const K (&k)[kItems],
                                              const V (&v)[kHasValues ? kItems : 1],
                                              const unsigned (&rk)[kItems / 2], int valid,
                                              int shift, unsigned mask) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wbase = warp * 32 * kItems;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (kFull || wbase + j * 32 + lane < valid) {
      const unsigned r = (rk[j / 2] >> (16 * (j & 1))) & 0xffffu;
      unsigned local = r;  // kEarly: the rank is the tile position
      if constexpr (!kEarly) {
        const unsigned d = digit_of(k[j], shift, mask);
        local += s.tile_start[d] + s.wh[warp][d];
      }
      if (kStage != StageValues) s.kst[local] = k[j];
      if (kHasValues && kStage != StageKeys) s.vst[kHasValues ? local : 0] = v[kHasValues ? j : 0];
    }
  }
}

// All digit histograms in one read of the keys: per-block shared counters, one global atomic per
// (pass, digit) per block; the hardware folds a warp's atomics on one address. A warp whose keys
// all share a digit adding 32 once (a shuffle and a vote per key and pass) made this kernel
// issue-bound: 2^28 uint32 sorted in 8.06 ms with it against 7.75 without (H100,
// results/sort/README.md); removed after a4930a6.
template <class K>
__global__ void __launch_bounds__(kThreads)
    histogram_kernel(const K* __restrict__ in, std::uint64_t n, int begin_bit, int end_bit,
                     unsigned long long* totals) {
  constexpr int kItems = 8;
  constexpr int kKeyPasses = 8 * sizeof(K) / kRadixBits;
  __shared__ unsigned h[kMaxPasses][kRadix];  // one block's keys: < 2^32 while n < 2^41
  const int t = threadIdx.x;
  const int passes = num_passes_dev(begin_bit, end_bit);
  for (int i = t; i < kMaxPasses * kRadix; i += kThreads) (&h[0][0])[i] = 0;
  __syncthreads();
  const std::uint64_t chunk = std::uint64_t(kThreads) * kItems;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * chunk; base < n;
       base += std::uint64_t(gridDim.x) * chunk) {
    typename RadixTraits<K>::Bits b[kItems];
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const std::uint64_t i = base + j * kThreads + t;
      b[j] = i < n ? RadixTraits<K>::to_bits(in[i]) : 0;
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool ok = base + j * kThreads + t < n;
#pragma unroll
      for (int p = 0; p < kKeyPasses; ++p) {
        if (p >= passes) break;
        const int shift = begin_bit + p * kRadixBits;
        const int width = min(kRadixBits, end_bit - shift);
        const unsigned d = static_cast<unsigned>(b[j] >> shift) & ((1u << width) - 1u);
        if (ok) atomicAdd(&h[p][d], 1u);
      }
    }
  }
  __syncthreads();
  for (int p = 0; p < passes; ++p)
    if (h[p][t]) atomicAdd(totals + p * kRadix + t, static_cast<unsigned long long>(h[p][t]));
}

// Calls f(p, d) for each digit d of a key's first `passes` digits of kBits from begin_bit (the
// last one cut at end_bit), p = 0 the lowest.
template <int kBits, int kKeyPasses, class K, class F>
__device__ __forceinline__ void for_each_digit(K key, int passes, int begin_bit, int end_bit,
                                               F&& f) {
  const typename RadixTraits<K>::Bits b = RadixTraits<K>::to_bits(key);
#pragma unroll
  for (int p = 0; p < kKeyPasses; ++p) {
    if (p >= passes) break;
    const int shift = begin_bit + p * kBits;
    f(p, static_cast<unsigned>(b >> shift) & ((1u << min(kBits, end_bit - shift)) - 1u));
  }
}

// Calls count(key) for every key of in[0, n), over a grid of kBlock-thread blocks: 16-byte loads
// (4 keys of 4 bytes, 2 of 8), kVecs of them a thread and loop, all issued before any key is
// counted. Keys before the first 16-byte boundary and after the last whole vector (fewer than
// 16 / sizeof(K) each) are counted one by one in block 0.
template <class K, int kVecs, int kBlock, class Count>
__device__ __forceinline__ void for_each_key_vectorised(const K* __restrict__ in, std::uint64_t n,
                                                        Count& count) {
  constexpr int kPer = 16 / sizeof(K);
  const int t = threadIdx.x;
  const auto addr = reinterpret_cast<std::uintptr_t>(in);
  const std::uint64_t head = std::min<std::uint64_t>(n, ((16 - (addr & 15)) & 15) / sizeof(K));
  const std::uint64_t nvec = (n - head) / kPer;
  const std::uint64_t tail = head + nvec * kPer;
  if (blockIdx.x == 0) {
    if (static_cast<std::uint64_t>(t) < head) count(in[t]);
    if (tail + t < n) count(in[tail + t]);
  }
  const uint4* __restrict__ vin = reinterpret_cast<const uint4*>(in + head);
  const std::uint64_t chunk = std::uint64_t(kBlock) * kVecs;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * chunk; base < nvec;
       base += std::uint64_t(gridDim.x) * chunk) {
    uint4 v[kVecs];
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const std::uint64_t i = base + j * kBlock + t;
      v[j] = i < nvec ? vin[i] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      if (base + j * kBlock + t < nvec) {
        K keys[kPer];
        memcpy(keys, &v[j], 16);
#pragma unroll
        for (int e = 0; e < kPer; ++e) count(keys[e]);
      }
    }
  }
}

// The same counts with 16-byte loads, kVecs of them a thread and loop (for_each_key_vectorised):
// fewer load instructions and more bytes in flight per thread. The library's histogram for 11-bit
// digits, and where a block cannot have the shared memory of histogram_copies_kernel below
// (histogram_kernel above is kept for sortbench --probe's comparison).
// kBits: the digit width (8, or 11 for the wide policies: 2048 counters a digit, 24 KiB of shared
// memory for 32-bit keys); pass p's totals at totals[p << kBits].
// kLetPassesStart: the first pass may start its blocks as this kernel's last blocks run
// (pdl::launch_dependent; the packed pairs' passes).
template <class K, int kVecs, int kBits = kRadixBits, bool kLetPassesStart = false>
__global__ void __launch_bounds__(kThreads)
    histogram_vec_kernel(const K* __restrict__ in, std::uint64_t n, int begin_bit, int end_bit,
                         unsigned long long* totals) {
  constexpr int kR = 1 << kBits;
  constexpr int kKeyPasses = (8 * sizeof(K) + kBits - 1) / kBits;
  static_assert(kKeyPasses * kR * sizeof(unsigned) <= 48 * 1024,
                "the counters of every digit fit static shared memory");
  __shared__ unsigned h[kKeyPasses][kR];  // one block's keys: < 2^32 while n < 2^41
  if constexpr (kLetPassesStart) pdl::allow_dependents();
  const int t = threadIdx.x;
  const int passes = num_passes_dev(begin_bit, end_bit, kBits);
  for (int i = t; i < kKeyPasses * kR; i += kThreads) (&h[0][0])[i] = 0;
  __syncthreads();
  auto count = [&](K key) {
    for_each_digit<kBits, kKeyPasses>(key, passes, begin_bit, end_bit,
                                      [&](int p, unsigned d) { atomicAdd(&h[p][d], 1u); });
  };
  for_each_key_vectorised<K, kVecs, kThreads>(in, n, count);
  __syncthreads();
  for (int p = 0; p < passes; ++p)
    for (int d = t; d < kR; d += kThreads)
      if (h[p][d]) atomicAdd(totals + p * kR + d, static_cast<unsigned long long>(h[p][d]));
}

// The same counts in kCopies copies of the counters, lane l counting into copy l % kCopies, digit
// d's copies side by side (word (p * 256 + d) * kCopies + copy): a warp's atomics on one pass
// then meet in a bank only where lanes of one copy's residue class share d's low bits, where in
// histogram_vec_kernel 32 uniform digits pile up about 3.5 deep on one bank. 32-bit counters
// added 1 at a time (one ATOMS.POPC.INC a key and pass). passes x 256 digits x kCopies words:
// 4-byte keys 64 KiB for 16 copies, 8-byte keys 128 KiB.
template <class K, int kCopies>
constexpr std::size_t histogram_copies_smem_bytes() {
  return std::size_t(8 * sizeof(K) / kRadixBits) * kRadix * kCopies * sizeof(unsigned);
}

template <class K, int kVecs, int kBlock, int kCopies, bool kLetPassesStart = false>
__global__ void __launch_bounds__(kBlock)
    histogram_copies_kernel(const K* __restrict__ in, std::uint64_t n, int begin_bit, int end_bit,
                            unsigned long long* totals) {
  static_assert(kBlock % 32 == 0 && 32 % kCopies == 0, "whole warps; copies divide a warp");
  constexpr int kKeyPasses = 8 * sizeof(K) / kRadixBits;
  constexpr int kWords = kKeyPasses * kRadix * kCopies;
  extern __shared__ __align__(16) unsigned hist_copies_smem[];
  unsigned* h = hist_copies_smem;
  if constexpr (kLetPassesStart) pdl::allow_dependents();
  const int t = threadIdx.x;
  const unsigned copy = t & (kCopies - 1);
  const int passes = num_passes_dev(begin_bit, end_bit);
  for (int i = t; i < kWords / 4; i += kBlock)
    reinterpret_cast<uint4*>(h)[i] = make_uint4(0, 0, 0, 0);
  __syncthreads();
  auto count = [&](K key) {
    for_each_digit<kRadixBits, kKeyPasses>(key, passes, begin_bit, end_bit, [&](int p, unsigned d) {
      atomicAdd(h + (p * kRadix + d) * kCopies + copy, 1u);
    });
  };
  for_each_key_vectorised<K, kVecs, kBlock>(in, n, count);
  __syncthreads();
  // Thread r folds counter r's copies, starting at copy r so that a warp's reads span the banks.
  for (int r = t; r < passes * kRadix; r += kBlock) {
    unsigned sum = 0;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) sum += h[r * kCopies + ((c + r) & (kCopies - 1))];
    if (sum) atomicAdd(totals + r, static_cast<unsigned long long>(sum));
  }
}

// The onesweep kernel's shape, a policy type: keys per thread (tiles of kThreads x Items), the
// __launch_bounds__ residency, whether pairs load their values with the keys (registers for both
// through the ranking) or once the keys are staged, how many predecessor words a look-back walk
// loads at once (lookback::thread_lookback_count), and the sleep between polls of an unpublished
// tile. Ranks are packed two 16-bit positions per register, hence even Items and tiles < 2^16.
// RadixBits: 8 (onesweep_kernel, 256 digits, one a thread) or 11 (wide_onesweep_kernel, 2048
// digits, 8 a thread; 32-bit keys in 3 passes of 11 + 11 + 10 bits instead of 4 of 8).
// ValuesAsync (8-bit kernel, pairs): the values are copied into shared memory by cp.async as the
// tile starts (no registers held through the ranking), then restaged in digit order through
// registers once the keys are staged (onesweep_tile's kAsync).
// ValuesAfter (8-bit kernel, pairs): the values are loaded as the keys' scatter starts, staged in
// the keys' buffer once every key has left and scattered in a second loop, as
// cub::DeviceRadixSort does it: one staging buffer a block instead of two.
template <int Items, int MinBlocks, bool ValuesFirst, int LookbackBatch = 4, unsigned SpinNs = 0,
          int RadixBits = kRadixBits, bool ValuesAsync = false, bool ValuesAfter = false>
struct OnesweepPolicy {
  static constexpr int ITEMS = Items;
  static constexpr int TILE = kThreads * Items;
  static constexpr int MIN_BLOCKS = MinBlocks;
  static constexpr bool VALUES_FIRST = ValuesFirst;
  static constexpr int LOOKBACK_BATCH = LookbackBatch;
  static constexpr unsigned SPIN_NS = SpinNs;
  static constexpr int RADIX_BITS = RadixBits;
  static constexpr bool VALUES_ASYNC = ValuesAsync;
  static constexpr bool VALUES_AFTER = ValuesAfter;
  // 4-byte pairs sorted as 64-bit words (PackedPairsPolicy, packed_pairs_passes).
  static constexpr bool PACKED_PAIRS = false;
  static_assert(!ValuesAsync || (!ValuesFirst && RadixBits == kRadixBits),
                "asynchronous values: the 8-bit kernel, values not loaded with the keys");
  static_assert(!ValuesAfter || (!ValuesFirst && !ValuesAsync && RadixBits == kRadixBits),
                "values after the keys: the 8-bit kernel, values loaded no other way");
  static_assert(Items >= kMinOnesweepItems, "status rows are planned for the smallest tile");
  static_assert(Items % 2 == 0 && TILE <= 65535, "two 16-bit tile positions per register");
  static_assert(MinBlocks >= 1 && LookbackBatch >= 1 && LookbackBatch <= 16,
                "a residency, and a look-back batch that lives in registers");
  static_assert(RadixBits == kRadixBits || RadixBits == kWideRadixBits,
                "the 8-bit kernel or the 11-bit one");
  // The wide kernel keeps a tile's keys and their packed ranks in registers through the ranking
  // (24 keys: 36 registers) and 8 digits' look-back words and prefixes in the walk: below 64
  // registers a thread (5 or more blocks of 256 threads an SM) it spills.
  static_assert(RadixBits == kRadixBits || MinBlocks <= 4,
                "wide kernel: at least 64 registers a thread");
};

// The 11-bit policies' shape (look-back batch 2: each step loads 2 predecessors' words for all 8
// digits of a thread, 16 loads in flight).
template <int Items, int MinBlocks, bool ValuesFirst, int LookbackBatch = 2>
using WideOnesweepPolicy =
    OnesweepPolicy<Items, MinBlocks, ValuesFirst, LookbackBatch, 0, kWideRadixBits>;

// Pairs whose values reach shared memory by cp.async (OnesweepPolicy's ValuesAsync). What it
// frees is registers, not time: on the H100 (3 memory layouts, results/sort/README.md) 4-byte
// pairs in the default's shape (32 keys, 2 blocks an SM) sort in the same time as with the
// values loaded with the keys (2^28 9.52 against 9.51 ms), and the residency the registers allow
// loses (24 keys at 3 blocks an SM 11.01 ms, 16 at 4 12.79): the tile size counts, not the
// warps. It lets larger tiles fit 2 blocks an SM: the default pairs policies
// (DefaultOnesweepPolicy).
template <int Items, int MinBlocks, int LookbackBatch = 4>
using AsyncValuesPolicy =
    OnesweepPolicy<Items, MinBlocks, false, LookbackBatch, 0, kRadixBits, true>;

// Pairs whose values follow the keys through one staging buffer (OnesweepPolicy's ValuesAfter).
template <int Items, int MinBlocks, int LookbackBatch = 4>
using ValuesAfterPolicy =
    OnesweepPolicy<Items, MinBlocks, false, LookbackBatch, 0, kRadixBits, false, true>;

// The library's earlier policy, now the fallback where the default's tiles do not fit a block's
// shared memory and the pairs policy under 2^25 keys; tuned on the H100 (results/sort/README.md,
// every figure against cub::DeviceRadixSort in the same run). 4-byte keys: 24 keys per thread
// (tiles of 6144), at 4 blocks per SM (below): 4-5% faster than 16 keys at 4 blocks per SM at
// 2^24-2^28 (fewer tiles: fewer look-back walks and digit-run boundaries per key); 32 at 2 blocks
// per SM 6.59 against 6.10 ms at 2^28. Look-back loads of 4 predecessors: 6.62 -> 6.33 ms (batch
// 1/2/8: 6.75/6.29/6.49); sleeping 100 ns between polls changed nothing. Pairs: values loaded with
// the keys, registers for both through the ranking, so 2 blocks per SM (128 registers). 4-byte keys
// 32 per thread (tiles of 8192, CUB's size): 9.46 ms at 2^28 against 9.98 at 24 per thread, 11.5
// with the values loaded after the keys are staged at 3 blocks per SM (their load latency exposed)
// and 12.4 with both first at 3 blocks (spills). 8-byte keys 16 per thread (uint64 + uint32 at
// 2^22-2^28): uniform 0.87-1.02x CUB, where 8 per thread at 3 blocks per SM with the values loaded
// after staging gave 0.63-0.79x; 16 at 3 blocks per SM 0.81-0.97x. 8-byte keys without values: 16
// per thread at 3 blocks per SM (tiles of 4096), where 8 at 4 blocks per SM (tiles of 2048) ran
// uint64 at 0.72-0.86x CUB at 2^24-2^28 and equal or few distinct keys at 0.72-0.79x: 0.89-1.03x
// and 0.94-1.02x now; 16 at 2 blocks per SM 0.89-0.95x. 4-byte keys without values at 4 blocks per
// SM (64 registers) since the comparison over memory layouts with CUB's own allocations
// (bench/sortbench.cu, median of 3 layouts): against 3 blocks per SM, uint32 / int32 / float 2^24
// 0.402 / 0.408 / 0.404 -> 0.395 / 0.400 / 0.394 ms, 2^26 1.435 / 1.462 / 1.447 -> 1.403 / 1.403
// / 1.390, 2^28 5.646 / 5.675 / 5.664 -> 5.655 / 5.507 / 5.521; over 6 layouts at 2^28 5.70 / 5.68
// / 5.63 -> 5.82 / 5.66 / 5.46 (uint32's loss inside its own 5.40-5.96 spread). (In the single
// shared scratch of the earlier benchmark int32 had not gained.)
template <class K, bool kHasValues>
struct EightBitOnesweepPolicy
    : OnesweepPolicy<sizeof(K) == 4 ? (kHasValues ? 32 : 24) : 16,
                     kHasValues ? 2 : (sizeof(K) == 4 ? 4 : 3), kHasValues> {};

// A policy may name another for small inputs: Below, used under BELOW_N keys (sort()).
template <class P, class = void>
struct HasBelowPolicy : std::false_type {};
template <class P>
struct HasBelowPolicy<P, std::void_t<typename P::Below>> : std::true_type {};

// Pairs of 4-byte keys and values from 2^25 keys on: tiles of 12288 (48 keys a thread) at 2 blocks
// an SM, the values copied by cp.async so that only the keys hold registers through the ranking.
// H100, 3 memory layouts, CUB in the same call (results/sort/README.md): 2^26 / 2^28 2.406 /
// 9.465 -> 2.278 / 8.701 ms against the 32-a-thread tiles with the values loaded with the keys,
// 0.92 -> 0.98x and 0.92 -> 1.00x CUB; 40 a thread 2.338 / 9.083. At 2^24 the larger tiles lose
// (0.6455 -> 0.6643 ms; about 5 tiles an SM slot), so smaller inputs keep EightBitOnesweepPolicy.
template <class K>
struct LargeTilePairsPolicy : AsyncValuesPolicy<48, 2> {
  using Below = EightBitOnesweepPolicy<K, true>;
  static constexpr std::size_t BELOW_N = std::size_t(1) << 25;
};

// 4-byte keys with 4-byte values as one 64-bit word a pair (packed_pairs_passes) in the shape of
// uint64 keys' passes: 32 words a thread (tiles of 8192) at 2 blocks an SM. Scratch: 16 bytes a
// pair. H100, one memory layout, CUB's faster call in the same run, 2^24 / 2^26 / 2^28
// (results/sort/README.md): LargeTilePairsPolicy 0.649 / 2.266 / 8.717 ms, this 0.601 / 2.156 /
// 8.297 (0.594 / 2.150 / 8.288 with each pass launched to start as the one before drains), CUB
// 0.614 / 2.222 / 8.712. 28 and 30 words a thread within 1 % at 2^24 and 1-2 % slower at 2^28,
// 36 words 12-18 % slower, a look-back batch of 8 1 % slower, 24 words at 3 blocks an SM 12-19 %
// slower.
// Fallback (LargeTilePairsPolicy): where the passes are odd (bit ranges of 8 or 24 bits),
// n >= 2^30 (64-bit status words) or a block cannot have the tile's 75 KB of shared memory.
template <class K, int Items = 32, int MinBlocks = 2, int LookbackBatch = 4>
struct PackedPairsPolicy : OnesweepPolicy<Items, MinBlocks, false, LookbackBatch> {
  static constexpr bool PACKED_PAIRS = true;
  using Fallback = LargeTilePairsPolicy<K>;
};

// The default for 4-byte pairs: packed words from 2^21 pairs on. Below, the earlier pairs kernel
// (EightBitOnesweepPolicy, 32 keys with their values, tiles of 8192) is faster: H100, six
// layouts, CUB in the same run, 2^20 0.0751 against 0.0881-0.0902 ms packed (CUB 0.0891-0.0894);
// at 2^22 packed leads, 0.2079-0.2087 against 0.2166 (CUB 0.2226-0.2230).
template <class K>
struct DefaultPackedPairsPolicy : PackedPairsPolicy<K> {
  using Below = EightBitOnesweepPolicy<K, true>;
  static constexpr std::size_t BELOW_N = std::size_t(1) << 21;
};

// uint64 keys with 4-byte values: tiles of 7680 (30 keys a thread) at 2 blocks an SM, the values
// after the keys through the keys' staging buffer (ValuesAfterPolicy). H100, six memory layouts,
// CUB in the same call (results/sort/README.md), against the earlier default (the values by
// cp.async, 28 keys a thread below 2^23 and 30 from there): 2^20 / 2^22 / 2^24 / 2^26 / 2^28
// 0.1677 / 0.4963 / 1.6701 / 6.3988 / 24.824 -> 0.1667 / 0.4872 / 1.6379 / 6.3790 / 24.805 ms;
// 28 a thread after the keys 0.1663 / 0.4952 / 1.6733 / 6.5359 / 25.377. (4-byte pairs in this
// shape spill from 28 keys a thread and lost at every tile: 0.72-0.87x CUB.)
using LargeTilePairs64Policy = ValuesAfterPolicy<30, 2>;

// The library's policy: 8-bit digits for every key type (the 11-bit policies, WideOnesweepPolicy,
// took 1.6-1.9x the time for uniform 32-bit keys and pairs at 2^24-2^28) in tiles larger than
// EightBitOnesweepPolicy's. Per tile the kernel pays a fixed cost (256 counters to scan, 256
// status words to publish and walk back, the barriers) and writes each digit's run as one burst,
// so at the same residency a larger tile is faster. H100, sortbench --variants, 3 memory layouts
// each, CUB in the same call (results/sort/README.md), 2^24 / 2^26 / 2^28:
// - 4-byte keys: 32 a thread at 3 blocks an SM (tiles of 8192), against 24 at 4 blocks an SM:
//   uint32 0.398 / 1.363 / 5.535 -> 0.379 / 1.278 / 5.056 ms, int32 0.402 / 1.366 / 5.563 ->
//   0.391 / 1.324 / 5.194, float 0.392 / 1.337 / 5.363 -> 0.380 / 1.277 / 5.015 (28 at 3 blocks
//   and 40 at 2 in between).
// - 8-byte keys: 32 a thread at 2 blocks an SM (tiles of 8192), against 24: uint64 1.106 / 4.361 /
//   16.137 -> 1.075 / 4.180 / 15.544 ms.
// - 8-byte keys with 4-byte values: LargeTilePairs64Policy, 30 a thread at 2 blocks an SM with the
//   values after the keys. Before it, with the values by cp.async, 30 against 28
//   in one call: 1.678 / 6.684 / 25.804 -> 1.668 / 6.449 / 24.888 ms (26: 1.675 / 6.597 /
//   25.420); 28 against 16 with the values loaded with the keys in an earlier one: 1.805 / 7.237 /
//   27.915 -> 1.685 / 6.682 / 25.672 (32: 1.907 / 7.168 / 27.422, spilling).
// - 4-byte keys with 4-byte values: DefaultPackedPairsPolicy (other 4-byte values too; values of
//   other sizes LargeTilePairsPolicy).
// Other value sizes take the same shapes; where a block cannot have their shared memory,
// onesweep_sort() falls back to smaller tiles.
template <class K, bool kHasValues>
struct DefaultOnesweepPolicy
    : std::conditional_t<
          kHasValues,
          std::conditional_t<sizeof(K) == 4, DefaultPackedPairsPolicy<K>, LargeTilePairs64Policy>,
          OnesweepPolicy<32, sizeof(K) == 4 ? 3 : 2, false>> {};

// The wide kernel's status rows cost 2048 words a tile (1.3 bytes a key in tiles of 6144): from
// 2^29 keys on, where that passes 700 MB and the count would need 64-bit words, an 11-bit policy
// sorts with EightBitOnesweepPolicy instead.
constexpr std::size_t kWideMaxKeys = std::size_t(1) << 29;

// 4-byte keys on GPUs whose blocks cannot have the default tile's shared memory (the pairs'
// 75 KB: sm_75 allows 64 KB): tiles of 4096 (43 KB of staging with values), values loaded after
// the keys are staged. On the H100: uint32 1.09x/1.05x CUB at 2^24/2^28, pairs
// 0.80x/0.73x.
template <class K, bool kHasValues>
struct SmallTilesPolicy : OnesweepPolicy<16, kHasValues ? 3 : 4, false> {};

// Copies a tile's values into shared memory without registers (cp.async), in input order:
// raw[L] = vin[base + L]. Warp w copies its own rows' range [w*32*kItems, (w+1)*32*kItems), so
// after cp_async_wait_all() and a __syncwarp a warp may read its own items; other warps' items
// need a __syncthreads. 16-byte copies where the tile is whole and the values 16-byte aligned;
// else one copy per value (sizes 4, 8, 16), or plain loads and stores for other value sizes.
// cp.async is sm_80's: compiled for older GPUs the copies are plain loads and stores (the same
// result, the values passing through registers) and commit / wait do nothing.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define SCANDOF_SORT_CP_ASYNC 0
#else
#define SCANDOF_SORT_CP_ASYNC 1
#endif
__device__ __forceinline__ void cp_async_commit() {
#if SCANDOF_SORT_CP_ASYNC
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cp_async_wait_all() {
#if SCANDOF_SORT_CP_ASYNC
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}
template <bool kFull, int kItems, class V>
__device__ __forceinline__ void load_values_async(const V* __restrict__ vin, std::uint64_t base,
                                                  int valid, V* raw) {
  const int lane = threadIdx.x & 31, wbase = (threadIdx.x >> 5) * 32 * kItems;
#if !SCANDOF_SORT_CP_ASYNC
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int L = wbase + j * 32 + lane;
    if (kFull || L < valid) raw[L] = vin[base + L];
  }
#else
  constexpr int kWarpBytes = 32 * kItems * static_cast<int>(sizeof(V));
  if constexpr (kFull && kWarpBytes % (16 * 32) == 0) {
    if ((reinterpret_cast<std::uintptr_t>(vin) & 15) == 0) {
      const char* g = reinterpret_cast<const char*>(vin + base + wbase);
      const unsigned sh = static_cast<unsigned>(__cvta_generic_to_shared(raw + wbase));
#pragma unroll
      for (int c = 0; c < kWarpBytes / (16 * 32); ++c) {
        const int off = (c * 32 + lane) * 16;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sh + off), "l"(g + off)
                     : "memory");
      }
      cp_async_commit();
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int L = wbase + j * 32 + lane;
    if (kFull || L < valid) {
      if constexpr (sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16) {
        const unsigned sh = static_cast<unsigned>(__cvta_generic_to_shared(raw + L));
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(sh), "l"(vin + base + L),
                     "n"(static_cast<int>(sizeof(V)))
                     : "memory");
      } else {
        raw[L] = vin[base + L];
      }
    }
  }
  cp_async_commit();
#endif
}

// The body of onesweep_kernel for one tile; kFull: the tile is whole (valid == its size).
// kAsync (pairs, ValuesAsync): the values are copied into s.vst's memory in input order as the
// tile starts (load_values_async), and once the keys are staged every thread reads its own items
// back into registers (the keys' registers are free by then) and, after a block barrier, writes
// them to s.vst in digit order: the values' load latency hides behind the ranking, as with
// kValuesFirst, without holding kItems registers through it.
// kAfter (pairs, ValuesAfter): s has no value staging (kHasValues is false in its type); once the
// keys are scattered, the values are loaded, staged in the keys' buffer at the keys' ranks and
// scattered to where their keys went.
template <int kBatch, bool kValuesFirst, bool kFull, bool kAsync = false, bool kAfter = false,
          class K, class V, bool kHasValues, class W, class Off, int kTile, class Src, class Dst>
__device__ __forceinline__ void onesweep_tile(TileSmem<K, V, kHasValues, Off, kTile>& s, Src kin,
                                              Dst kout, const V* __restrict__ vin,
                                              V* __restrict__ vout, int shift, unsigned mask,
                                              const unsigned long long* __restrict__ digit_totals,
                                              W* status, unsigned spin_ns, std::uint64_t tile,
                                              int valid) {
  constexpr int kItems = kTile / kThreads;
  using SW = lookback::CountWord<W>;
  const int t = threadIdx.x;
  const std::uint64_t base = tile * kTile;
  K k[kItems];
  V v[kHasValues ? kItems : 1];
  unsigned rk[kItems / 2];
  // kValuesFirst (the default for pairs, 2 blocks per SM): values with the keys, their load
  // latency hidden behind the ranking. Otherwise (SmallTilesPolicy, the benchmark's policies)
  // values only once the keys are staged, so the two never hold registers together.
  V no_values[1];
  // The values' input-order copy (kAsync) in the memory of their staging buffer.
  V* const vraw = reinterpret_cast<V*>(&s.vst.v[0]);
  if constexpr (kValuesFirst) {
    load_striped<K, V, kHasValues, kFull>(kin, vin, base, valid, k, v);
  } else {
    load_striped<K, V, false, kFull>(kin, vin, base, valid, k, no_values);
    if constexpr (kAsync && kHasValues) load_values_async<kFull, kItems>(vin, base, valid, vraw);
  }
  W* row = status + tile * kRadix;
  W glob = 0;
  // Early counts: the tile publishes its digit counts before it ranks.
  const unsigned count = count_digits_early<kFull>(s, k, valid, shift, mask);
  if (tile == 0) {
    // The first tile's prefix is the digit's global start: keys of all smaller digits.
    glob = block_exclusive_256(static_cast<Off>(digit_totals[t]), s.scan_sum);
    lookback::st_relaxed_global(row + t, SW::kPrefix | (glob + count));
  } else {
    lookback::st_relaxed_global(row + t, SW::kAggregate | W(count));
  }
  auto look_back = [&]() {
    if (tile != 0) {
      // Thread t walks back over digit t's column until a tile with an inclusive prefix.
      const W prefix = lookback::thread_lookback_count<kBatch>(status + t, kRadix, tile, spin_ns);
      lookback::st_relaxed_global(row + t, SW::kPrefix | (prefix + count));
      glob = prefix;
    }
  };
  // A tile whose keys all share one digit is already in order: no ranking, no staging, its keys
  // leave from registers to one contiguous run (all equal keys; the top digits of sorted or
  // clustered keys). The test is the same in every thread, so the branch is uniform across the
  // block.
  const unsigned d0 = s.first_digit;
  const unsigned end0 = d0 + 1 < kRadix ? s.tile_start[d0 + 1] : static_cast<unsigned>(valid);
  if (s.tile_start[d0] == 0 && end0 == static_cast<unsigned>(valid)) {
    look_back();
    if (t == static_cast<int>(d0)) s.run_off[0] = static_cast<Off>(glob);
    __syncthreads();
    const Off start = s.run_off[0];
    const int lane = t & 31, wbase = (t >> 5) * 32 * kItems;
    if constexpr (kAsync && kHasValues) {
      cp_async_wait_all();
      __syncwarp();  // a warp's items were copied by its own lanes
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int L = wbase + j * 32 + lane;
      if (kFull || L < valid) {
        store_key(kout, start + static_cast<Off>(L), k[j]);
        // kValuesFirst: the values are in registers already; kAsync: in shared memory.
        if (kHasValues)
          vout[start + static_cast<Off>(L)] =
              kValuesFirst ? v[kHasValues ? j : 0] : (kAsync ? vraw[L] : vin[base + L]);
        if (kAfter) vout[start + static_cast<Off>(L)] = vin[base + L];
      }
    }
    return;
  }
  rank_striped<true, kFull>(s, k, valid, shift, mask, rk);
  // Staging first: it gives the predecessors time to publish before this tile polls.
  stage_striped<true, StageKeys, kFull>(s, k, v, rk, valid, shift, mask);
  if constexpr (kHasValues) {
    const int lane = t & 31, wbase = (t >> 5) * 32 * kItems;
    if constexpr (kAsync) {
      cp_async_wait_all();
      __syncwarp();  // a warp's items were copied by its own lanes
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (kFull || wbase + j * 32 + lane < valid) v[j] = vraw[wbase + j * 32 + lane];
      __syncthreads();  // every warp has read its items before any is overwritten
    } else if constexpr (!kValuesFirst) {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (kFull || wbase + j * 32 + lane < valid) v[j] = vin[base + wbase + j * 32 + lane];
    }
    stage_striped<true, StageValues, kFull>(s, k, v, rk, valid, shift, mask);
  }
  look_back();
  s.run_off[t] = static_cast<Off>(glob) - s.tile_start[t];
  __syncthreads();
  // kAfter: the values' loads go out before the keys' scatter, which hides their latency; each
  // staged key's digit is kept (8 bits) for the values' scatter, since the values overwrite the
  // keys in the staging buffer.
  static_assert(!kAfter || (!kHasValues && sizeof(V) <= sizeof(K) && alignof(V) <= alignof(K)),
                "the values take the keys' staging buffer");
  [[maybe_unused]] const int lane = t & 31, wbase = (t >> 5) * 32 * kItems;
  [[maybe_unused]] V va[kAfter ? kItems : 1];
  [[maybe_unused]] unsigned dg[kAfter ? (kItems + 3) / 4 : 1];
  if constexpr (kAfter) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (kFull || wbase + j * 32 + lane < valid) va[j] = vin[base + wbase + j * 32 + lane];
#pragma unroll
    for (int q = 0; q < (kItems + 3) / 4; ++q) dg[q] = 0;
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int i = j * kThreads + t;
    if (kFull || i < valid) {
      const K key = s.kst[i];
      const unsigned d = digit_of(key, shift, mask);
      const Off dst = s.run_off[d] + static_cast<Off>(i);
      store_key(kout, dst, key);
      if (kHasValues) vout[dst] = s.vst[kHasValues ? i : 0];
      if constexpr (kAfter) dg[j / 4] |= d << (8 * (j % 4));
    }
  }
  if constexpr (kAfter) {
    __syncthreads();  // every key read from the staging buffer
    auto& vst = *reinterpret_cast<StagedTile<V, kTile>*>(&s.kst);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (kFull || wbase + j * 32 + lane < valid)
        vst[(rk[j / 2] >> (16 * (j & 1))) & 0xffffu] = va[j];  // the key's tile position
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int i = j * kThreads + t;
      if (kFull || i < valid)
        vout[s.run_off[(dg[j / 4] >> (8 * (j % 4))) & 0xffu] + static_cast<Off>(i)] = vst[i];
    }
  }
}

// One digit pass over the tiles of policy P (OnesweepPolicy), one block per tile. Src / Dst:
// arrays of K, or PairsIn / PairsOut where K is the packed pairs' 64-bit word.
template <class K, class V, bool kHasValues, class W, class Off, class P, class Src = const K*,
          class Dst = K*>
__global__ void __launch_bounds__(kThreads, arch::min_blocks_per_sm(kThreads, P::MIN_BLOCKS))
    onesweep_kernel(typename RestrictArg<Src>::type kin, typename RestrictArg<Dst>::type kout,
                    const V* __restrict__ vin, V* __restrict__ vout, std::uint64_t n, int shift,
                    unsigned mask, const unsigned long long* __restrict__ digit_totals, W* status,
                    W* clear, unsigned* counter, unsigned spin_ns) {
  static_assert(sizeof(Off) <= sizeof(W), "status words must hold any global position");
  constexpr int kTile = P::TILE;
  // Dynamic shared memory (onesweep_smem_bytes): pairs' staging passes the 48 KiB static limit.
  extern __shared__ __align__(16) unsigned char onesweep_smem[];
  // ValuesAfter: the values stage in the keys' buffer, so the block has no value staging.
  constexpr bool kAfter = kHasValues && P::VALUES_AFTER;
  auto& s = *reinterpret_cast<TileSmem<K, V, kHasValues && !kAfter, Off, kTile>*>(onesweep_smem);
  const int t = threadIdx.x;
  // Only the packed pairs' passes are launched to overlap the kernel before them.
  if constexpr (P::PACKED_PAIRS) {
    pdl::allow_dependents();
    pdl::wait_prior_grid();
  }
  if (t == 0) s.tile_id = atomicAdd(counter, 1u);
  __syncthreads();
  const std::uint64_t tile = s.tile_id;
  const std::uint64_t base = tile * kTile;
  const int valid = static_cast<int>(std::min<std::uint64_t>(kTile, n - base));
  // This tile's row of the other status set (used by the previous pass, which has ended), zero
  // for the next pass: one coalesced 1 KiB store per tile instead of a memset between passes.
  if (clear != nullptr) clear[tile * kRadix + t] = 0;
  // Whole tiles (all but the last) take a copy of the body without bounds tests: the ranking
  // loses a ballot and the range checks per row.
  constexpr int kBatch = P::LOOKBACK_BATCH;
  constexpr bool kValuesFirst = P::VALUES_FIRST;
  constexpr bool kAsync = P::VALUES_ASYNC;
  if (valid == kTile)
    onesweep_tile<kBatch, kValuesFirst, true, kAsync, kAfter>(
        s, kin, kout, vin, vout, shift, mask, digit_totals, status, spin_ns, tile, valid);
  else
    onesweep_tile<kBatch, kValuesFirst, false, kAsync, kAfter>(
        s, kin, kout, vin, vout, shift, mask, digit_totals, status, spin_ns, tile, valid);
}

// ---------------------------------------------------------------- 11-bit onesweep
// The same pass with 2048 digits (WideOnesweepPolicy): 32-bit keys sort in three passes (11 + 11 +
// 10 bits) instead of four. Thread t owns digits 8t .. 8t + 7 in every per-digit step (counts,
// scans, status rows, look-back), so its status words are two 16-byte loads or stores.
// Not the default: on the H100 it sorts at about half the 8-bit kernel's speed (2^28 uint32 9.68
// ms against 5.69, pairs 16.70 against 9.57; 2^24 0.686 against 0.399 ms), because a tile's work
// per digit (counters, scans, status words, look-back walks) grows eightfold while its keys do
// not: with equal keys, where no tile ranks or stages, a pass takes 2.7 ms at 2^28 against 0.96
// for 8 bits (results/sort/README.md). Kept as a policy for that comparison (sortbench
// --variants).

// The lanes whose (valid) digit of kBits bits equals this lane's: match_digit_vote for any width.
template <int kBits, bool kAllValid>
__device__ __forceinline__ unsigned match_digit_vote_bits(unsigned d, bool valid) {
  unsigned same[kBits];
#pragma unroll
  for (int b = 0; b < kBits; ++b)
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t"
        "}"
        : "=r"(same[b])
        : "r"(d), "r"(1u << b));
  unsigned acc = kAllValid ? 0xffffffffu : __ballot_sync(0xffffffffu, valid);
#pragma unroll
  for (int b = 0; b + 1 < kBits; b += 2) acc = and3(acc, same[b], same[b + 1]);
  if constexpr (kBits % 2 == 1) acc &= same[kBits - 1];
  return acc;
}

// Status word of the wide kernel: a 3-bit tag on top, a count below. Tag 0: nothing published
// (the memset before the first pass); pass parity e: 1 + 2e the tile's own count (aggregate),
// 2 + 2e the inclusive prefix. Every pass has the same tiles and each tile writes all 2048 words
// of its row, so a word a pass has not yet written holds the previous pass's parity: one row set
// serves every pass, with no clearing between passes (the 8-bit kernel's two alternating sets
// would be 716 MB at 2^28 keys).
template <class W>
struct WideWord {
  static constexpr int kShift = 8 * sizeof(W) - 3;
  static constexpr W kValueMask = (W(1) << kShift) - 1;
  static __device__ __forceinline__ W aggregate(unsigned e, W v) {
    return (W(1 + 2 * e) << kShift) | v;
  }
  static __device__ __forceinline__ W prefix(unsigned e, W v) {
    return (W(2 + 2 * e) << kShift) | v;
  }
  static __device__ __forceinline__ unsigned tag(W w) { return static_cast<unsigned>(w >> kShift); }
  static __device__ __forceinline__ W value(W w) { return w & kValueMask; }
  // Written in the pass of parity e (aggregate or prefix).
  static __device__ __forceinline__ bool published(W w, unsigned e) {
    return tag(w) - (1u + 2u * e) < 2u;
  }
  static __device__ __forceinline__ bool is_prefix(W w, unsigned e) {
    return tag(w) == 2u + 2u * e;
  }
};

// kD consecutive status words (16-byte aligned) loaded / stored with relaxed 16-byte accesses.
template <int kD, class W>
__device__ __forceinline__ void ld_row_relaxed(const W* p, W (&w)[kD]) {
  if constexpr (sizeof(W) == 4) {
#pragma unroll
    for (int i = 0; i < kD; i += 4)
      asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(w[i]), "=r"(w[i + 1]), "=r"(w[i + 2]), "=r"(w[i + 3])
                   : "l"(p + i)
                   : "memory");
  } else {
#pragma unroll
    for (int i = 0; i < kD; i += 2) {
      unsigned long long a, b;
      asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                   : "=l"(a), "=l"(b)
                   : "l"(p + i)
                   : "memory");
      w[i] = static_cast<W>(a);
      w[i + 1] = static_cast<W>(b);
    }
  }
}
template <int kD, class W>
__device__ __forceinline__ void st_row_relaxed(W* p, const W (&w)[kD]) {
  if constexpr (sizeof(W) == 4) {
#pragma unroll
    for (int i = 0; i < kD; i += 4)
      asm volatile("st.relaxed.gpu.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p + i), "r"(w[i]),
                   "r"(w[i + 1]), "r"(w[i + 2]), "r"(w[i + 3])
                   : "memory");
  } else {
#pragma unroll
    for (int i = 0; i < kD; i += 2)
      asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p + i),
                   "l"(static_cast<unsigned long long>(w[i])),
                   "l"(static_cast<unsigned long long>(w[i + 1]))
                   : "memory");
  }
}

// Shared memory of wide_onesweep_kernel. The digit counters are 16 bits (tile positions < 2^16),
// two warps to a word (warp w: half w & 1 of row w / 2), 32 KiB for 2048 digits; they are dead
// once the ranks are in registers, so the staged tile takes the same memory. Unpacked and
// separate they would be 64 KiB + the staging (two blocks an SM for keys).
template <class K, class V, bool kHasValues, class Off, int kTileKeys>
struct WideTileSmem {
  static constexpr int kR = 1 << kWideRadixBits;
  static_assert(kTileKeys % kThreads == 0 && (kTileKeys / kThreads) % 2 == 0,
                "whole rows per thread, ranks packed two per register");
  static_assert(kTileKeys <= 65535, "tile positions are packed into 16 bits");
  struct Staging {
    StagedTile<K, kTileKeys> kst;
    StagedTile<V, kHasValues ? kTileKeys : 1> vst;
  };
  union Shared {
    unsigned wh[kWarps / 2][kR];
    Staging st;
  };
  Shared u;
  unsigned tile_start[kR + 1];  // first staged position of each digit; [kR] = the tile's keys
  Off run_off[kR];              // global position of digit d's first key, minus tile_start[d]
  unsigned warp_sum[kWarps];
  Off scan_sum[kWarps];
  unsigned tile_id;
  unsigned first_digit;
  unsigned single;  // 1: all of the tile's keys share one digit
};

// Dynamic shared memory of wide_onesweep_kernel under policy P.
template <class K, class V, bool kHasValues, class Off, class P>
constexpr std::size_t wide_smem_bytes() {
  return sizeof(WideTileSmem<K, V, kHasValues, Off, P::TILE>);
}

template <int kBatch, bool kValuesFirst, bool kFull, class K, class V, bool kHasValues, class W,
          class Off, int kTile>
__device__ __forceinline__ void wide_tile(WideTileSmem<K, V, kHasValues, Off, kTile>& s,
                                          const K* __restrict__ kin, K* __restrict__ kout,
                                          const V* __restrict__ vin, V* __restrict__ vout,
                                          int shift, unsigned mask,
                                          const unsigned long long* __restrict__ digit_totals,
                                          W* status, unsigned epoch, std::uint64_t tile,
                                          int valid) {
  constexpr int kItems = kTile / kThreads;
  constexpr int kR = 1 << kWideRadixBits;
  constexpr int kD = kR / kThreads;  // digits a thread owns: 8t .. 8t + kD - 1
  static_assert(kD % 4 == 0, "status rows move 16 bytes at a time");
  using SW = WideWord<W>;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int wbase = warp * 32 * kItems;
  const std::uint64_t base = tile * kTile;
  K k[kItems];
  V v[kHasValues ? kItems : 1];
  unsigned rk[kItems / 2];
  V no_values[1];
  if constexpr (kValuesFirst)
    load_striped<K, V, kHasValues, kFull>(kin, vin, base, valid, k, v);
  else
    load_striped<K, V, false, kFull>(kin, vin, base, valid, k, no_values);

  // Counts: one shared atomicAdd a key on its warp's 16-bit half.
  {
    uint4* z = reinterpret_cast<uint4*>(&s.u.wh[0][0]);
#pragma unroll
    for (int i = t; i < kWarps / 2 * kR / 4; i += kThreads) z[i] = make_uint4(0, 0, 0, 0);
  }
  if (t == 0) {
    s.first_digit = digit_of(k[0], shift, mask);
    s.single = 0;
    s.tile_start[kR] = static_cast<unsigned>(valid);
  }
  __syncthreads();
  const unsigned half = 16u * (warp & 1);
  unsigned* wrow = s.u.wh[warp >> 1];
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (kFull || wbase + j * 32 + lane < valid)
      atomicAdd(&wrow[digit_of(k[j], shift, mask)], 1u << half);
  __syncthreads();
  // Thread t: its digits' counts, their exclusive offsets in the tile, and each warp's start.
  unsigned c[kD];
#pragma unroll
  for (int i = 0; i < kD; ++i) c[i] = 0;
#pragma unroll
  for (int p = 0; p < kWarps / 2; ++p) {
#pragma unroll
    for (int i = 0; i < kD; i += 4) {
      const uint4 w = *reinterpret_cast<const uint4*>(&s.u.wh[p][kD * t + i]);
      c[i] += (w.x & 0xffffu) + (w.x >> 16);
      c[i + 1] += (w.y & 0xffffu) + (w.y >> 16);
      c[i + 2] += (w.z & 0xffffu) + (w.z >> 16);
      c[i + 3] += (w.w & 0xffffu) + (w.w >> 16);
    }
  }
  // Tiles after the first publish their counts before they rank.
  W* row = status + tile * kR + kD * t;
  if (tile != 0) {
    W words[kD];
#pragma unroll
    for (int i = 0; i < kD; ++i) words[i] = SW::aggregate(epoch, c[i]);
    st_row_relaxed<kD>(row, words);
  }
  unsigned sum = 0;
#pragma unroll
  for (int i = 0; i < kD; ++i) sum += c[i];
  // c becomes the exclusive tile positions of the digits (in place: registers are short at 64).
  {
    unsigned acc = block_exclusive_256(sum, s.warp_sum);
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      const unsigned ci = c[i];
      c[i] = acc;
      acc += ci;
    }
  }
  unsigned(&run)[kD] = c;
#pragma unroll
  for (int i = 0; i < kD; ++i) s.tile_start[kD * t + i] = run[i];
#pragma unroll
  for (int p = 0; p < kWarps / 2; ++p) {
#pragma unroll
    for (int i = 0; i < kD; i += 4) {
      uint4* at = reinterpret_cast<uint4*>(&s.u.wh[p][kD * t + i]);
      uint4 w = *at;
      unsigned* e = &w.x;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const unsigned lo = e[q] & 0xffffu, hi = e[q] >> 16;
        e[q] = run[i + q] | ((run[i + q] + lo) << 16);
        run[i + q] += lo + hi;
      }
      *at = w;
    }
  }
  // run[i] is now the end of digit kD * t + i: the tile's keys if it is all of them.
#pragma unroll
  for (int i = 0; i < kD; ++i)
    if (run[i] - s.tile_start[kD * t + i] == static_cast<unsigned>(valid)) s.single = 1;
  __syncthreads();
  if (tile == 0) {
    // The first tile's prefixes: the digits' global starts (exclusive scan of the histogram).
    Off g[kD];
    Off gsum = 0;
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      g[i] = gsum;
      gsum += static_cast<Off>(digit_totals[kD * t + i]);
    }
    const Off gs = block_exclusive_256(gsum, s.scan_sum);
    W words[kD];
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      const unsigned st = s.tile_start[kD * t + i];
      const Off glob = gs + g[i];
      words[i] = SW::prefix(epoch, static_cast<W>(glob) + (s.tile_start[kD * t + i + 1] - st));
      s.run_off[kD * t + i] = glob - static_cast<Off>(st);
    }
    st_row_relaxed<kD>(row, words);
  }

  // Thread t walks back over its 8 digit columns together, kBatch predecessors a step, until each
  // meets an inclusive prefix; then publishes its prefixes and the digits' run offsets.
  auto look_back = [&]() {
    if (tile == 0) return;
    W pre[kD];
#pragma unroll
    for (int i = 0; i < kD; ++i) pre[i] = 0;
    unsigned pending = (1u << kD) - 1u;
    for (std::uint64_t next = tile; pending != 0; next -= kBatch) {
      W w[kBatch][kD];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        if (next > std::uint64_t(b)) {
          ld_row_relaxed<kD>(status + (next - 1 - b) * kR + kD * t, w[b]);
        } else {
#pragma unroll
          for (int i = 0; i < kD; ++i) w[b][i] = SW::prefix(epoch, 0);
        }
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        // Poll until every digit still walking has this predecessor's word of this pass.
        while (true) {
          bool wait = false;
#pragma unroll
          for (int i = 0; i < kD; ++i)
            wait |= ((pending >> i) & 1u) && !SW::published(w[b][i], epoch);
          if (!wait) break;
          ld_row_relaxed<kD>(status + (next - 1 - b) * kR + kD * t, w[b]);
        }
#pragma unroll
        for (int i = 0; i < kD; ++i) {
          if ((pending >> i) & 1u) {
            pre[i] += SW::value(w[b][i]);
            if (SW::is_prefix(w[b][i], epoch)) pending &= ~(1u << i);
          }
        }
      }
    }
    W words[kD];
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      const unsigned st = s.tile_start[kD * t + i];
      const unsigned cnt = s.tile_start[kD * t + i + 1] - st;
      words[i] = SW::prefix(epoch, pre[i] + cnt);
      s.run_off[kD * t + i] = static_cast<Off>(pre[i]) - static_cast<Off>(st);
    }
    st_row_relaxed<kD>(row, words);
  };

  if (s.single) {
    // All keys share one digit: no ranking, the tile is already in order. It is staged as loaded
    // (the counters are dead), so that the keys do not hold registers through the look-back walk
    // (at 64 registers the wide kernel spilled with them live there).
    const int lane0 = wbase + lane;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (kFull || lane0 + j * 32 < valid) {
        s.u.st.kst[lane0 + j * 32] = k[j];
        if constexpr (kHasValues && kValuesFirst) s.u.st.vst[lane0 + j * 32] = v[j];
      }
    look_back();
    __syncthreads();
    const Off start = s.run_off[s.first_digit];  // tile_start of that digit is 0
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int i = j * kThreads + t;
      if (kFull || i < valid) {
        kout[start + static_cast<Off>(i)] = s.u.st.kst[i];
        if constexpr (kHasValues)
          vout[start + static_cast<Off>(i)] = kValuesFirst ? s.u.st.vst[i] : vin[base + i];
      }
    }
    return;
  }

  // Ranks: the highest lane of each digit's peers adds their number to its warp's counter, whose
  // old value (the tile position of the first of them) it shuffles to them.
  const unsigned lt = (1u << lane) - 1u;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const bool ok = kFull || wbase + j * 32 + lane < valid;
    const unsigned d = ok ? digit_of(k[j], shift, mask) : 0u;
    const unsigned peers = match_digit_vote_bits<kWideRadixBits, kFull>(d, ok);
    const int leader = 31 - __clz(peers);
    const unsigned below = __popc(peers & lt);
    const unsigned cnt = atomic_add_shared_if(ok && lane == leader, &wrow[d], (below + 1u) << half);
    const unsigned r = ((__shfl_sync(0xffffffffu, cnt, leader) >> half) & 0xffffu) + below;
    if (j & 1)
      rk[j / 2] |= r << 16;
    else
      rk[j / 2] = r;
  }
  __syncthreads();  // the counters are dead: the staged tile takes their memory
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (kFull || wbase + j * 32 + lane < valid)
      s.u.st.kst[(rk[j / 2] >> (16 * (j & 1))) & 0xffffu] = k[j];
  if constexpr (kHasValues) {
    if constexpr (!kValuesFirst) {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (kFull || wbase + j * 32 + lane < valid) v[j] = vin[base + wbase + j * 32 + lane];
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (kFull || wbase + j * 32 + lane < valid)
        s.u.st.vst[(rk[j / 2] >> (16 * (j & 1))) & 0xffffu] = v[j];
  }
  look_back();
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int i = j * kThreads + t;
    if (kFull || i < valid) {
      const K key = s.u.st.kst[i];
      const Off dst = s.run_off[digit_of(key, shift, mask)] + static_cast<Off>(i);
      kout[dst] = key;
      if (kHasValues) vout[dst] = s.u.st.vst[kHasValues ? i : 0];
    }
  }
}

// One 11-bit digit pass over the tiles of policy P, one block per tile; epoch: the pass's parity.
template <class K, class V, bool kHasValues, class W, class Off, class P>
__global__ void __launch_bounds__(kThreads, arch::min_blocks_per_sm(kThreads, P::MIN_BLOCKS))
    wide_onesweep_kernel(const K* __restrict__ kin, K* __restrict__ kout, const V* __restrict__ vin,
                         V* __restrict__ vout, std::uint64_t n, int shift, unsigned mask,
                         const unsigned long long* __restrict__ digit_totals, W* status,
                         unsigned* counter, unsigned epoch) {
  static_assert(sizeof(Off) <= sizeof(W), "status words must hold any global position");
  static_assert(P::RADIX_BITS == kWideRadixBits, "an 11-bit policy");
  constexpr int kTile = P::TILE;
  using Smem = WideTileSmem<K, V, kHasValues, Off, kTile>;
  // The H100's 228 KiB an SM, less 1 KiB the system reserves a block, for MIN_BLOCKS blocks (with
  // 64-bit positions, from 2^32 keys on, the run offsets take 8 KiB more and fewer blocks fit).
  static_assert(sizeof(Smem) <= 227 * 1024, "a block's shared memory");
  static_assert(sizeof(Off) == 8 || (sizeof(Smem) + 1024) * P::MIN_BLOCKS <= 228 * 1024,
                "2048 digit counters, run offsets and the staged tile fit MIN_BLOCKS blocks an SM");
  extern __shared__ __align__(16) unsigned char wide_smem[];
  auto& s = *reinterpret_cast<Smem*>(wide_smem);
  const int t = threadIdx.x;
  if (t == 0) s.tile_id = atomicAdd(counter, 1u);
  __syncthreads();
  const std::uint64_t tile = s.tile_id;
  const std::uint64_t base = tile * kTile;
  const int valid = static_cast<int>(std::min<std::uint64_t>(kTile, n - base));
  constexpr int kBatch = P::LOOKBACK_BATCH;
  constexpr bool kValuesFirst = P::VALUES_FIRST;
  if (valid == kTile)
    wide_tile<kBatch, kValuesFirst, true>(s, kin, kout, vin, vout, shift, mask, digit_totals,
                                          status, epoch, tile, valid);
  else
    wide_tile<kBatch, kValuesFirst, false>(s, kin, kout, vin, vout, shift, mask, digit_totals,
                                           status, epoch, tile, valid);
}

// n <= one tile: one block runs every digit pass in shared memory (one launch instead of a
// histogram, memsets and one kernel per digit). The staged tile of one pass is the next pass's
// input, read back in the same warp-striped order.
template <class K, class V, bool kHasValues>
__global__ void __launch_bounds__(kThreads)
    single_tile_kernel(const K* kin, K* kout, const V* vin, V* vout, int n, int begin_bit,
                       int end_bit) {
  constexpr int kItems = Tuning<K>::kItems;
  __shared__ TileSmem<K, V, kHasValues> s;
  const int t = threadIdx.x, lane = t & 31, wbase = (t >> 5) * 32 * kItems;
  const int passes = num_passes_dev(begin_bit, end_bit);
  K k[kItems];
  V v[kHasValues ? kItems : 1];
  unsigned rk[kItems / 2];
  load_striped<K, V, kHasValues>(kin, vin, 0, n, k, v);
  for (int p = 0; p < passes; ++p) {
    const int shift = begin_bit + p * kRadixBits;
    const unsigned mask = (1u << min(kRadixBits, end_bit - shift)) - 1u;
    if (p > 0) {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int L = wbase + j * 32 + lane;
        if (L < n) {
          k[j] = s.kst[L];
          if (kHasValues) v[kHasValues ? j : 0] = s.vst[kHasValues ? L : 0];
        }
      }
    }
    rank_striped(s, k, n, shift, mask, rk);  // ends with __syncthreads
    stage_striped(s, k, v, rk, n, shift, mask);
    __syncthreads();
  }
  for (int i = t; i < n; i += kThreads) {
    kout[i] = s.kst[i];
    if (kHasValues) vout[i] = s.vst[kHasValues ? i : 0];
  }
}

// ---------------------------------------------------------------- host side
inline std::size_t align_up(std::size_t x) {
  return (x + 255) & ~std::size_t(255);
}

inline int num_passes(int begin_bit, int end_bit, int bits = kRadixBits) {
  return (end_bit - begin_bit + bits - 1) / bits;
}

// Look-back status: one row of 256 words per tile. Two sets of rows while a set is at most
// 128 MiB (n <= 2^29): passes alternate between them, one memset before the first pass clears
// both (with the control block in front of them), and each tile of a later pass clears its row
// of the set the pass before used, for the pass after. That replaced a memset before every pass
// from 2^26 keys on (four of 43 MiB at 2^28 uint32, and one of the control block); below 2^26
// it was one memset of a set per pass. Measured only together with histogram_vec_kernel: uint32
// 2^26 1.406 -> 1.379 ms, 2^28 5.769 -> 5.676 (H100, medians over 6 layouts,
// results/sort/README.md). Beyond 128 MiB a set, one set cleared before each pass (a second set
// would cost up to 2 GiB more at 2^32 keys, where the memsets are a small part of the sort).
struct StatusPlan {
  std::size_t word_bytes = 4, tiles = 0;
  int sets = 2;
  std::size_t bytes = 0;
};
template <class K>
StatusPlan status_plan(std::size_t n) {
  StatusPlan p;
  p.word_bytes = n < (std::size_t(1) << 30) ? 4 : 8;
  constexpr std::size_t kTileKeys = static_cast<std::size_t>(kThreads) * kMinOnesweepItems;
  p.tiles = (n + kTileKeys - 1) / kTileKeys;
  const std::size_t row_set = p.tiles * kRadix * p.word_bytes;
  p.sets = row_set <= (std::size_t(128) << 20) ? 2 : 1;
  p.bytes = align_up(row_set * p.sets);
  return p;
}

// The wide kernel's status (policy P, 11-bit digits): one row of 2048 words per tile of P, one
// set for every pass (WideWord's pass parity), cleared by one memset per sort; 32-bit words (3 tag
// bits above a count < 2^29). 358 MB at 2^28 keys in tiles of 6144; none from kWideMaxKeys on.
template <class P>
StatusPlan wide_status_plan(std::size_t n) {
  StatusPlan p;
  p.word_bytes = 4;
  p.tiles = n < kWideMaxKeys ? (n + P::TILE - 1) / P::TILE : 0;
  p.sets = 1;
  p.bytes = align_up(p.tiles * (std::size_t(1) << kWideRadixBits) * p.word_bytes);
  return p;
}

// Status bytes of a sort under policy P: the 8-bit plan, which every 8-bit policy fits (the
// small-tiles fallback of a wide policy included), or the wide plan where larger.
template <class K, class P>
std::size_t status_bytes(std::size_t n) {
  std::size_t b = status_plan<K>(n).bytes;
  if constexpr (P::RADIX_BITS != kRadixBits) b = std::max(b, wide_status_plan<P>(n).bytes);
  return b;
}

// The packed pairs' second buffer of words (packed_pairs_passes), after the spare keys and values.
inline std::size_t packed_second_buffer_bytes(std::size_t n) {
  return align_up(n * sizeof(std::uint64_t));
}

// Scratch of sort() under policy P (the public API's: DefaultOnesweepPolicy).
template <class K, class V, bool kHasValues, class P = DefaultOnesweepPolicy<K, kHasValues>>
std::size_t workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  std::size_t b = align_up(n * sizeof(K));
  if (kHasValues) b += align_up(n * sizeof(V));
  if constexpr (P::PACKED_PAIRS) b += packed_second_buffer_bytes(n);
  b += align_up(sizeof(Ctrl));  // digit totals, tile counters
  b += status_bytes<K, P>(n);
  return b;
}

// Dynamic shared memory of onesweep_kernel under policy P.
template <class K, class V, bool kHasValues, class Off, class P>
constexpr std::size_t onesweep_smem_bytes() {
  constexpr bool kStagedValues = kHasValues && !P::VALUES_AFTER;
  return sizeof(TileSmem<K, V, kStagedValues, Off, P::TILE>);
}

template <class Kernel>
void allow_smem(Kernel kernel, std::size_t smem) {
  if (smem > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem)));
}

// What every onesweep sort does before its passes: one memset clears the control block and the
// status rows (they follow it: sort()), then the histogram of every digit in one read of the keys.
// Returns the words of one set of status rows.
template <class P, class K, class W>
std::size_t onesweep_prologue(const K* ksrc, std::size_t n, int begin_bit, int end_bit, Ctrl* ctrl,
                              W* status, const StatusPlan& sp, int sms, cudaStream_t stream) {
  // The status rows were planned for the smallest tile (kMinOnesweepItems), so any policy fits.
  const std::size_t tiles = (n + P::TILE - 1) / P::TILE;
  if (tiles > sp.tiles)
    throw std::logic_error("sort: onesweep tile smaller than the status rows were planned for");
  const std::size_t row_set_words = tiles * kRadix;
  const std::size_t status_off =
      reinterpret_cast<unsigned char*>(status) - reinterpret_cast<unsigned char*>(ctrl);
  CUDA_CHECK(cudaMemsetAsync(ctrl, 0, status_off + row_set_words * sizeof(W) * sp.sets, stream));
  // 16 copies of the counters in blocks of 1024 (histogram_copies_kernel: 64 KiB for 4-byte keys,
  // one block an SM on the H100 by registers; 128 KiB for 8-byte keys), 4 vectors a thread and
  // loop for 4-byte keys, 8 for 8-byte ones. H100, sortbench --probe, 2^20 / 2^24 / 2^26 / 2^28
  // (results/sort/README.md): uint32 0.0091 / 0.0301 / 0.0970 / 0.3572 ms against 0.0127 / 0.0432
  // / 0.1212 / 0.4591 for histogram_vec_kernel below (the 2^28 read alone is about 0.34 ms);
  // uint64 0.0128 / 0.0559 / 0.1900 / 0.7111 against 0.0162 / 0.0751 / 0.2326 / 0.8947. 8 copies
  // 0.114 / 0.427 at 2^26 / 2^28 (uint32), 32 copies the same as 16, 4 vectors for uint64 0.881
  // at 2^28; 16-bit counters, a copy a lane, added by the digit's half (not incremented), 0.16 /
  // 0.60.
  {
    constexpr int kBlock = 1024, kCopies = 16, kVecs = sizeof(K) == 4 ? 4 : 8;
    constexpr std::size_t smem = histogram_copies_smem_bytes<K, kCopies>();
    auto kernel = histogram_copies_kernel<K, kVecs, kBlock, kCopies, P::PACKED_PAIRS>;
    int dev = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (smem <= static_cast<std::size_t>(optin)) {
      allow_smem(kernel, smem);
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, smem));
      const std::size_t chunk = static_cast<std::size_t>(kBlock) * kVecs * (16 / sizeof(K));
      const int blocks = static_cast<int>(std::max<std::size_t>(
          1, std::min<std::size_t>((n + chunk - 1) / chunk,
                                   static_cast<std::size_t>(sms) * std::max(per_sm, 1))));
      kernel<<<blocks, kBlock, smem, stream>>>(ksrc, n, begin_bit, end_bit, ctrl->totals);
      CUDA_CHECK_LAUNCH();
      return row_set_words;
    }
  }
  // Where a block cannot have that memory: 16-byte loads, 8 keys a thread and loop, 16 blocks an
  // SM: 2^28 uint32 0.459 ms against 0.568 for the scalar kernel at 8 blocks an SM (0.512 at 16),
  // 2^26 0.121 against 0.148; 16 keys a thread or 4 / 8 blocks an SM within 1.6 % (H100, sortbench
  // --probe, results/sort/README.md).
  constexpr int kHistVecs = sizeof(K) == 4 ? 2 : 4;
  const std::size_t hchunk = static_cast<std::size_t>(kThreads) * kHistVecs * (16 / sizeof(K));
  const int hblocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>((n + hchunk - 1) / hchunk, static_cast<std::size_t>(sms) * 16)));
  histogram_vec_kernel<K, kHistVecs, kRadixBits, P::PACKED_PAIRS>
      <<<hblocks, kThreads, 0, stream>>>(ksrc, n, begin_bit, end_bit, ctrl->totals);
  CUDA_CHECK_LAUNCH();
  return row_set_words;
}

// Pass `pass`'s status rows, and the rows it clears for the next pass (null if none). With one
// set, the set is cleared before every pass but the first.
template <class W>
std::pair<W*, W*> pass_status(W* status, const StatusPlan& sp, std::size_t row_set_words, int pass,
                              int passes, cudaStream_t stream) {
  W* st = status;
  W* clear = nullptr;
  if (sp.sets == 2) {
    st += static_cast<std::size_t>(pass & 1) * row_set_words;
    // Pass 0's other set is still clear from the memset; the last pass leaves its rows.
    if (pass > 0 && pass + 1 < passes)
      clear = status + static_cast<std::size_t>((pass + 1) & 1) * row_set_words;
  } else if (pass > 0) {
    CUDA_CHECK(cudaMemsetAsync(status, 0, row_set_words * sizeof(W), stream));
  }
  return {st, clear};
}

// Every digit pass of policy P: the histogram kernel, then one onesweep kernel per digit.
template <class P, class K, class V, bool kHasValues, class W, class Off>
void onesweep_passes(const K* ksrc, K* kout, K* kalt, const V* vsrc, V* vout, V* valt,
                     std::size_t n, int begin_bit, int end_bit, int passes, Ctrl* ctrl, W* status,
                     const StatusPlan& sp, int sms, cudaStream_t stream) {
  const std::size_t row_set_words =
      onesweep_prologue<P>(ksrc, n, begin_bit, end_bit, ctrl, status, sp, sms, stream);
  const auto tiles = static_cast<unsigned>(row_set_words / kRadix);
  auto kernel = onesweep_kernel<K, V, kHasValues, W, Off, P>;
  constexpr std::size_t smem = onesweep_smem_bytes<K, V, kHasValues, Off, P>();
  allow_smem(kernel, smem);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const unsigned mask = (1u << std::min(kRadixBits, end_bit - shift)) - 1u;
    const bool to_out = (passes - 1 - pass) % 2 == 0;
    K* kdst = to_out ? kout : kalt;
    V* vdst = to_out ? vout : valt;
    const auto st = pass_status(status, sp, row_set_words, pass, passes, stream);
    kernel<<<tiles, kThreads, smem, stream>>>(ksrc, kdst, vsrc, vdst, n, shift, mask,
                                              ctrl->totals + pass * kRadix, st.first, st.second,
                                              ctrl->counters + pass, P::SPIN_NS);
    CUDA_CHECK_LAUNCH();
    ksrc = kdst;
    vsrc = vdst;
  }
}

// 4-byte keys with 4-byte values sorted as one 64-bit word a pair (the key's radix bits above the
// value's bits), so that the middle passes rank and scatter one array of 8-byte words, as a sort
// of uint64 keys does, instead of keys and values apart. An even number of passes (at least 2):
// the first reads the two input arrays and writes words to buffer A (`spare`), the middle ones go
// A -> B -> A (`second`), the last reads A and writes the two output arrays. The digits of the
// words are bits 32 + begin_bit on; the histogram counts the keys themselves. Each pass is
// launched to start while the kernel before it drains.
// H100, ncu, 2^26: a middle pass over words takes 504-514 us against 551-556 for a pass over keys
// and values apart; the first 527 and the last 557. What that costs: 16 bytes of scratch a pair
// (two buffers of words) where keys and values apart take 8. Kept in 8 (B in the output arrays,
// tile-aligned, its rest after A) the pass reading B selected its array at run time, spilled
// 128-156 bytes a thread at 128 registers and took 598 us: 2^24 / 2^26 / 2^28 0.634 / 2.23 /
// 8.57 ms, 0.98 / 1.00 / 1.02x CUB. Every pass reading or writing the two arrays
// (A -> out -> A -> out) gained nothing (2^28 8.80 ms against 8.71). results/sort/README.md.
template <class P, class K, class V, class W, class Off>
void packed_pairs_passes(const K* kin, K* kout, const V* vin, V* vout, std::uint64_t* spare,
                         std::uint64_t* second, std::size_t n, int begin_bit, int end_bit,
                         int passes, Ctrl* ctrl, W* status, const StatusPlan& sp, int sms,
                         cudaStream_t stream) {
  using E = std::uint64_t;
  static_assert(kPackablePairs<K, V, true>, "4-byte keys and values");
  if (passes < 2 || passes % 2 != 0)
    throw std::logic_error("sort: the packed pairs passes need an even number of passes");
  const std::size_t row_set_words =
      onesweep_prologue<P>(kin, n, begin_bit, end_bit, ctrl, status, sp, sms, stream);
  const auto tiles = static_cast<unsigned>(row_set_words / kRadix);
  auto first = onesweep_kernel<E, NoValue, false, W, Off, P, PairsIn<K, V>, E*>;
  auto words = onesweep_kernel<E, NoValue, false, W, Off, P, const E*, E*>;
  auto last = onesweep_kernel<E, NoValue, false, W, Off, P, const E*, PairsOut<K, V>>;
  constexpr std::size_t smem = onesweep_smem_bytes<E, NoValue, false, Off, P>();
  allow_smem(first, smem);
  allow_smem(words, smem);
  allow_smem(last, smem);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const unsigned mask = (1u << std::min(kRadixBits, end_bit - shift)) - 1u;
    const auto st = pass_status(status, sp, row_set_words, pass, passes, stream);
    // With one set of status rows a memset comes between the passes: launched plainly after it.
    const bool after_kernel = sp.sets == 2 || pass == 0;
    const auto launch = [&](auto kernel, auto src, auto dst) {
      pdl::launch_dependent(kernel, dim3(tiles), dim3(kThreads), smem, stream, after_kernel, src,
                            dst, static_cast<const NoValue*>(nullptr),
                            static_cast<NoValue*>(nullptr), static_cast<std::uint64_t>(n),
                            32 + shift, mask, ctrl->totals + pass * kRadix, st.first, st.second,
                            ctrl->counters + pass, P::SPIN_NS);
    };
    if (pass == 0)
      launch(first, PairsIn<K, V>{kin, vin}, spare);
    else if (pass + 1 == passes)
      launch(last, static_cast<const E*>(spare), PairsOut<K, V>{kout, vout});
    else if (pass % 2 == 1)
      launch(words, static_cast<const E*>(spare), second);
    else
      launch(words, static_cast<const E*>(second), spare);
  }
}

// Policy P where a block may have its shared memory; where it may not, EightBitOnesweepPolicy if
// that fits (the larger default tiles want up to 113 KB with values: sm_86 allows 99 KB), else
// 4-byte keys sort in SmallTilesPolicy and 8-byte keys in EightBitOnesweepPolicy (16 a thread,
// which every GPU built for allows).
template <class P, class K, class V, bool kHasValues, class W, class Off>
void onesweep_sort(const K* ksrc, K* kout, K* kalt, const V* vsrc, V* vout, V* valt, std::size_t n,
                   int begin_bit, int end_bit, int passes, Ctrl* ctrl, W* status,
                   const StatusPlan& sp, cudaStream_t stream) {
  int dev = 0, sms = 0, smem_optin = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const auto fits = [&](std::size_t bytes) {
    return bytes <= static_cast<std::size_t>(smem_optin);
  };
  if (!fits(onesweep_smem_bytes<K, V, kHasValues, Off, P>())) {
    using EightBit = EightBitOnesweepPolicy<K, kHasValues>;
    using Small = std::conditional_t<sizeof(K) == 4, SmallTilesPolicy<K, kHasValues>, EightBit>;
    if (!std::is_same<P, EightBit>::value &&
        fits(onesweep_smem_bytes<K, V, kHasValues, Off, EightBit>()))
      onesweep_passes<EightBit, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                          begin_bit, end_bit, passes, ctrl, status,
                                                          sp, sms, stream);
    else
      onesweep_passes<Small, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                       begin_bit, end_bit, passes, ctrl, status, sp,
                                                       sms, stream);
    return;
  }
  onesweep_passes<P, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit,
                                               end_bit, passes, ctrl, status, sp, sms, stream);
}

// Every digit pass of an 11-bit policy P: the 2048-bin histogram, then one wide_onesweep_kernel
// per digit (11 + 11 + 10 bits for 32-bit keys). One memset clears the control block and the
// status rows for all passes.
template <class P, class K, class V, bool kHasValues, class W, class Off>
void wide_passes(const K* ksrc, K* kout, K* kalt, const V* vsrc, V* vout, V* valt, std::size_t n,
                 int begin_bit, int end_bit, int passes, Ctrl* ctrl, W* status, int sms,
                 cudaStream_t stream) {
  constexpr int kR = 1 << kWideRadixBits;
  const std::size_t tiles = (n + P::TILE - 1) / P::TILE;
  const std::size_t status_off =
      reinterpret_cast<unsigned char*>(status) - reinterpret_cast<unsigned char*>(ctrl);
  CUDA_CHECK(cudaMemsetAsync(ctrl, 0, status_off + tiles * kR * sizeof(W), stream));
  // 24 KiB of shared counters a block (3 digits x 2048): 9 blocks fit an SM, so 8 an SM.
  constexpr int kHistVecs = 2;
  const std::size_t hchunk = static_cast<std::size_t>(kThreads) * kHistVecs * (16 / sizeof(K));
  const int hblocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>((n + hchunk - 1) / hchunk, static_cast<std::size_t>(sms) * 8)));
  histogram_vec_kernel<K, kHistVecs, kWideRadixBits>
      <<<hblocks, kThreads, 0, stream>>>(ksrc, n, begin_bit, end_bit, ctrl->totals);
  CUDA_CHECK_LAUNCH();
  auto kernel = wide_onesweep_kernel<K, V, kHasValues, W, Off, P>;
  constexpr std::size_t smem = wide_smem_bytes<K, V, kHasValues, Off, P>();
  allow_smem(kernel, smem);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kWideRadixBits;
    const unsigned mask = (1u << std::min(kWideRadixBits, end_bit - shift)) - 1u;
    const bool to_out = (passes - 1 - pass) % 2 == 0;
    K* kdst = to_out ? kout : kalt;
    V* vdst = to_out ? vout : valt;
    kernel<<<static_cast<unsigned>(tiles), kThreads, smem, stream>>>(
        ksrc, kdst, vsrc, vdst, n, shift, mask, ctrl->totals + pass * kR, status,
        ctrl->counters + pass, static_cast<unsigned>(pass & 1));
    CUDA_CHECK_LAUNCH();
    ksrc = kdst;
    vsrc = vdst;
  }
}

// Where sort() puts its buffers inside the workspace: by default the spare keys (and values)
// first, then the control block and the look-back status. status_first puts the control block
// and status first and the spare buffers alt_shift bytes after them (the benchmark's --probe
// times placements; the caller sizes the workspace for the shift).
struct Placement {
  bool status_first = false;
  std::size_t alt_shift = 0;
};

// Whether sort() under a PACKED_PAIRS policy P takes packed_pairs_passes, or P::Fallback: 4-byte
// keys and values, an even number of passes, 32-bit status words (n < 2^30) and a block that may
// have the tile's shared memory.
template <class P, class K, class V, bool kHasValues>
bool packed_pairs_apply(std::size_t n, int passes) {
  if constexpr (!kPackablePairs<K, V, kHasValues>) {
    return false;
  } else {
    if (passes < 2 || passes % 2 != 0 || status_plan<K>(n).word_bytes != 4) return false;
    int dev = 0, smem_optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return onesweep_smem_bytes<std::uint64_t, NoValue, false, unsigned, P>() <=
           static_cast<std::size_t>(smem_optin);
  }
}

// P: the onesweep policy (the library's DefaultOnesweepPolicy; the benchmark and the tests pass
// others).
template <class K, class V, bool kHasValues, class P = DefaultOnesweepPolicy<K, kHasValues>>
void sort(const K* kin, K* kout, const V* vin, V* vout, std::size_t n, void* ws,
          std::size_t ws_bytes, cudaStream_t stream, int begin_bit, int end_bit,
          Placement pl = {}) {
  constexpr bool kWide = P::RADIX_BITS != kRadixBits;
  static_assert(!kWide || sizeof(K) == 4, "11-bit digits: 4-byte keys");
  const int passes = num_passes(begin_bit, end_bit, P::RADIX_BITS);
  if (passes == 0) {
    if (kin != kout)
      CUDA_CHECK(cudaMemcpyAsync(kout, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (kHasValues && vin != vout)
      CUDA_CHECK(cudaMemcpyAsync(vout, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  if (n <= static_cast<std::size_t>(Tuning<K>::kTile)) {
    single_tile_kernel<K, V, kHasValues>
        <<<1, kThreads, 0, stream>>>(kin, kout, vin, vout, static_cast<int>(n), begin_bit, end_bit);
    CUDA_CHECK_LAUNCH();
    return;
  }
  if (ws_bytes < workspace_bytes<K, V, kHasValues, P>(n))
    throw std::logic_error("sort: workspace smaller than this policy needs");
  if constexpr (HasBelowPolicy<P>::value) {
    if (n < P::BELOW_N) {
      sort<K, V, kHasValues, typename P::Below>(kin, kout, vin, vout, n, ws, ws_bytes, stream,
                                                begin_bit, end_bit, pl);
      return;
    }
  }
  if constexpr (P::PACKED_PAIRS) {
    if (!packed_pairs_apply<P, K, V, kHasValues>(n, passes)) {
      sort<K, V, kHasValues, typename P::Fallback>(kin, kout, vin, vout, n, ws, ws_bytes, stream,
                                                   begin_bit, end_bit, pl);
      return;
    }
  }
  if constexpr (kWide) {
    // From kWideMaxKeys on the 8-bit default; GPUs whose blocks cannot have the wide tile's
    // shared memory sort with its small-tiles fallback.
    if (n >= kWideMaxKeys) {
      sort<K, V, kHasValues, EightBitOnesweepPolicy<K, kHasValues>>(
          kin, kout, vin, vout, n, ws, ws_bytes, stream, begin_bit, end_bit, pl);
      return;
    }
    int dev = 0, smem_optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (wide_smem_bytes<K, V, kHasValues, unsigned, P>() > static_cast<std::size_t>(smem_optin)) {
      sort<K, V, kHasValues, SmallTilesPolicy<K, kHasValues>>(kin, kout, vin, vout, n, ws, ws_bytes,
                                                              stream, begin_bit, end_bit, pl);
      return;
    }
  }
  const StatusPlan sp = status_plan<K>(n);
  auto* p = static_cast<unsigned char*>(ws);
  Ctrl* ctrl = nullptr;
  void* status = nullptr;
  auto take_ctrl_status = [&] {
    ctrl = reinterpret_cast<Ctrl*>(p);
    p += align_up(sizeof(Ctrl));
    status = p;
    p += status_bytes<K, P>(n);
  };
  if (pl.status_first) take_ctrl_status();
  p += pl.alt_shift;
  K* kalt = reinterpret_cast<K*>(p);
  p += align_up(n * sizeof(K));
  V* valt = nullptr;
  if (kHasValues) {
    valt = reinterpret_cast<V*>(p);
    p += align_up(n * sizeof(V));
  }
  std::uint64_t* second = nullptr;
  if constexpr (P::PACKED_PAIRS) {
    second = reinterpret_cast<std::uint64_t*>(p);
    p += packed_second_buffer_bytes(n);
  }
  if (!pl.status_first) take_ctrl_status();

  if constexpr (P::PACKED_PAIRS && kPackablePairs<K, V, kHasValues>) {
    // Buffer A (n words) in the spare keys and values (2 x align_up(4n) >= 8n), B after them.
    auto* spare = reinterpret_cast<std::uint64_t*>(kalt);
    if (reinterpret_cast<unsigned char*>(spare + n) >
        reinterpret_cast<unsigned char*>(valt) + align_up(n * sizeof(V)))
      throw std::logic_error("sort: the packed pairs' words do not fit the spare buffers");
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    packed_pairs_passes<P, K, V, unsigned, unsigned>(
        kin, kout, vin, vout, spare, second, n, begin_bit, end_bit, passes, ctrl,
        static_cast<unsigned*>(status), sp, sms, stream);
    return;
  }

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

  if constexpr (kWide) {
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    // n < kWideMaxKeys: 32-bit status words and positions.
    wide_passes<P, K, V, kHasValues, unsigned, unsigned>(
        ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit, end_bit, passes, ctrl,
        static_cast<unsigned*>(status), sms, stream);
  } else {
    // Status words of 32 bits while n < 2^30 (half the status traffic), 64 beyond; global
    // positions of 32 bits while n < 2^32.
    using U64 = unsigned long long;
    if (sp.word_bytes == 4)
      onesweep_sort<P, K, V, kHasValues, unsigned, unsigned>(
          ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit, end_bit, passes, ctrl,
          static_cast<unsigned*>(status), sp, stream);
    else if (n < (std::size_t(1) << 32))
      onesweep_sort<P, K, V, kHasValues, U64, unsigned>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                        begin_bit, end_bit, passes, ctrl,
                                                        static_cast<U64*>(status), sp, stream);
    else
      onesweep_sort<P, K, V, kHasValues, U64, U64>(ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit,
                                                   end_bit, passes, ctrl, static_cast<U64*>(status),
                                                   sp, stream);
  }
}

}  // namespace lsd
}  // namespace detail
}  // namespace scandof
