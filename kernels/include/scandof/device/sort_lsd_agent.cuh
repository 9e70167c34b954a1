// The onesweep LSD radix sort's kernels and their per-tile logic (Adinets & Merrill 2022, 8-bit
// digits): the digit histograms of every pass in one read of the keys (histogram_*_kernel), one
// kernel per digit that ranks a tile, stages it in digit order and finds each digit's global
// offset by decoupled look-back (onesweep_kernel), and one block for inputs of one tile
// (single_tile_kernel). OnesweepPolicy is the shape a pass is compiled for; the tuned policies
// are in sort_lsd_tuning.cuh, the host-side launch sequence in sort_lsd_dispatch.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scandof/arch.cuh"
#include "scandof/block/exclusive_sum.cuh"
#include "scandof/device/dependent_launch.cuh"
#include "scandof/device/tile_status.cuh"
#include "scandof/sort.hpp"

namespace scandof {
namespace detail {
namespace lsd {


constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
// One thread per digit in the per-digit steps. Wider blocks leave their threads past the 256th
// idle in those steps and lose at the same tile (results/sort/README.md).
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

// Digit passes over bits [begin_bit, end_bit) with digits of `bits` bits.
__host__ __device__ __forceinline__ int num_passes(int begin_bit, int end_bit,
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
// instruction: the sort takes 1.6x the time with it (H100, results/sort/README.md). Each digit bit
// costs a bit test (setting a predicate), a vote and a conditional complement, and the eight masks
// are ANDed three at a time. From C++ (peers &= bit ? ones : ~ones) nvcc extracts each bit twice,
// as a value and as a predicate, and picks the complement with a SEL: 7 SASS instructions per bit
// against about 3.5 here (CUDA 13.0): a third fewer warp instructions in a digit pass.
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
// (ld.global.cs, to leave the L2 to the scatter's partly written sectors) costs 3-5 % (H100,
// results/sort/README.md).
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
// Digit totals of every pass: pass p's 256 start at p * kRadix. The control block has room for
// 12288 (96 KiB, where 8 passes use 2048): that size is part of workspace_bytes() and of where the
// status rows start, and shrinking it would change both.
constexpr int kMaxTotals = 12288;
static_assert(kMaxTotals >= kMaxPasses * kRadix, "every pass's totals fit");
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
// that to its peers: one shared access per distinct digit and no __syncwarp.
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
// (pass, digit) per block; the hardware folds a warp's atomics on one address. The library
// counts with histogram_copies_kernel or histogram_vec_kernel; this one is sortbench --probe's
// baseline.
template <class K>
__global__ void __launch_bounds__(kThreads)
    histogram_kernel(const K* __restrict__ in, std::uint64_t n, int begin_bit, int end_bit,
                     unsigned long long* totals) {
  constexpr int kItems = 8;
  constexpr int kKeyPasses = 8 * sizeof(K) / kRadixBits;
  __shared__ unsigned h[kMaxPasses][kRadix];  // one block's keys: < 2^32 while n < 2^41
  const int t = threadIdx.x;
  const int passes = num_passes(begin_bit, end_bit);
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
// fewer load instructions and more bytes in flight per thread. The library's histogram where a
// block cannot have the shared memory of histogram_copies_kernel below.
// kBits: the digit width (2^kBits counters a pass, in static shared memory); pass p's totals at
// totals[p << kBits].
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
  const int passes = num_passes(begin_bit, end_bit, kBits);
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
  const int passes = num_passes(begin_bit, end_bit);
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
// ValuesAsync (pairs): the values are copied into shared memory by cp.async as the
// tile starts (no registers held through the ranking), then restaged in digit order through
// registers once the keys are staged (onesweep_tile's kAsync).
// ValuesAfter (pairs): the values are loaded as the keys' scatter starts, staged in
// the keys' buffer once every key has left and scattered in a second loop, as
// cub::DeviceRadixSort does it: one staging buffer a block instead of two.
template <int Items, int MinBlocks, bool ValuesFirst, int LookbackBatch = 4, unsigned SpinNs = 0,
          bool ValuesAsync = false, bool ValuesAfter = false>
struct OnesweepPolicy {
  static constexpr int ITEMS = Items;
  static constexpr int TILE = kThreads * Items;
  static constexpr int MIN_BLOCKS = MinBlocks;
  static constexpr bool VALUES_FIRST = ValuesFirst;
  static constexpr int LOOKBACK_BATCH = LookbackBatch;
  static constexpr unsigned SPIN_NS = SpinNs;
  static constexpr bool VALUES_ASYNC = ValuesAsync;
  static constexpr bool VALUES_AFTER = ValuesAfter;
  // 4-byte pairs sorted as 64-bit words (PackedPairsPolicy, packed_pairs_passes).
  static constexpr bool PACKED_PAIRS = false;
  static_assert(!ValuesAsync || !ValuesFirst,
                "asynchronous values: values not loaded with the keys");
  static_assert(!ValuesAfter || (!ValuesFirst && !ValuesAsync),
                "values after the keys: values loaded no other way");
  static_assert(Items >= kMinOnesweepItems, "status rows are planned for the smallest tile");
  static_assert(Items % 2 == 0 && TILE <= 65535, "two 16-bit tile positions per register");
  static_assert(MinBlocks >= 1 && LookbackBatch >= 1 && LookbackBatch <= 16,
                "a residency, and a look-back batch that lives in registers");
};

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
  // kValuesFirst (EightBitOnesweepPolicy's pairs): values with the keys, their load latency
  // hidden behind the ranking. Otherwise (SmallTilesPolicy, the benchmark's policies)
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
  const int passes = num_passes(begin_bit, end_bit);
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

}  // namespace lsd
}  // namespace detail
}  // namespace scandof
