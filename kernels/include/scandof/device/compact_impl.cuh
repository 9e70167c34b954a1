// Stream compaction and stable partition kernels and their host dispatch (definitions of the
// templates declared in scandof/compact.hpp). Include this in a .cu file to compact user-defined
// element types or with user predicates; the library instantiates the built-in ones.
//
// Three implementations (CompactAlgorithm):
//  - Paper: flags kernel, the library's device-wide scan of the flags (in place), scatter kernel
//    (Figure 39-10). Re-evaluates the selector in the scatter pass instead of keeping a second
//    flags array: one read of the input is cheaper than n more flag bytes.
//  - ReduceThenScan: a fixed number of blocks (<= 1024) each own a contiguous run of tiles;
//    count kernel, one-block scan of the counts, rank-and-scatter kernel.
//  - SinglePass: one block per tile (tile = blockIdx.x), rank locally,
//    publish their count, find their offset by a warp-wide, paced decoupled look-back over
//    64-bit status words (2 flag bits + 62-bit count; lookback::warp_lookback_count in
//    device/tile_status.cuh), and write out. One launch: the status words are the workspace's
//    look-back state, kept between calls as the single-pass scan keeps it (a header, two regions
//    the calls take in turn, each call clearing the one the call before it used).
// ReduceThenScan and SinglePass rank a tile the same way: the tile is loaded warp-striped (each
// warp owns a contiguous run of 32*ITEMS elements; 16-byte loads per lane for full tiles at
// aligned inputs, else lane-consecutive scalar loads), a ballot per item gives the selection mask,
// popc gives ranks; selected items go to shared memory in order and leave as one contiguous,
// coalesced run. Partition stages the rejected items behind the selected ones.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "scandof/arch.cuh"
#include "scandof/compact.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/device/lookback_pacing.cuh"
#include "scandof/device/tile_status.cuh"
#include "scandof/scan.hpp"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace detail {
namespace compact {

// kBytes: input bytes per thread (64, 96 or 128; the single pass defaults to 128, see
// DefaultSinglePassPolicy).
template <class T, int kBytes = 64>
struct Tuning {
  static_assert(std::is_trivially_copyable<T>::value, "compaction moves elements bytewise");
  static_assert(kBytes == 64 || kBytes == 96 || kBytes == 128, "64, 96 or 128 bytes per thread");
  static constexpr int kThreads = 256;
  static constexpr int kWarps = kThreads / 32;
  // 64 bytes: 16 items of 4 bytes per thread; larger types keep about as many bytes with fewer
  // items (and the 16-48 KiB staging buffer stays under the static 48 KiB).
  static constexpr int kItems = (sizeof(T) <= 4    ? 16
                                 : sizeof(T) <= 8  ? 8
                                 : sizeof(T) <= 16 ? 4
                                                   : 2) *
                                kBytes / 64;
  static constexpr int kTile = kThreads * kItems;
  // Resident blocks per SM the single-pass kernel is compiled for. 64 bytes: six blocks (<= 42
  // registers) keep loads of other tiles in flight while one block waits on its look-back.
  // 96 and 128 bytes: the values alone take 24-32 registers, so four blocks (<= 64 registers;
  // 32 warps, up to 128 KiB of staging per SM; 96 bytes spills at five).
  static constexpr int kMinBlocks = kBytes == 64 ? 6 : 4;
  static_assert(kTile * sizeof(T) <= 40 * 1024, "staging buffer exceeds the shared-memory budget");
};

// Selectors see the element and its global index: a predicate ignores the index, the flags
// variant ignores the element.
template <class Pred>
struct PredSelect {
  Pred pred;
  template <class T>
  __device__ __forceinline__ bool operator()(const T& x, std::uint64_t) const {
    return pred(x);
  }
};
struct FlagSelect {
  const std::uint8_t* flags;
  template <class T>
  __device__ __forceinline__ bool operator()(const T&, std::uint64_t i) const {
    return flags[i] != 0;
  }
};

template <class T, int kB = 64>
struct alignas(alignof(T) > 16 ? alignof(T) : 16) Stage {
  unsigned char bytes[Tuning<T, kB>::kTile * sizeof(T)];
  __device__ T* data() { return reinterpret_cast<T*>(bytes); }
};

// Elements per 16-byte vector load (1: scalar loads only).
template <class T>
constexpr int vec_width() {
  return (sizeof(T) == 4 || sizeof(T) == 8) ? 16 / static_cast<int>(sizeof(T)) : 1;
}

// Loads one tile [base, base + valid) into registers, warp-striped: warp w owns the contiguous
// run [w*32*kItems, (w+1)*32*kItems) of the tile, in rows of 32*V elements, lane l holding the V
// consecutive elements l*V .. l*V+V-1 of each row. V > 1 only for full tiles at 16-byte aligned
// addresses (one 16-byte load per row per lane: a quarter of the load instructions).
template <class T, int V, int kB = 64>
__device__ __forceinline__ void load_tile(const T* __restrict__ in, std::uint64_t base, int valid,
                                          T (&v)[Tuning<T, kB>::kItems]) {
  constexpr int kItems = Tuning<T, kB>::kItems;
  static_assert(kItems % V == 0, "items per thread must be a multiple of the vector width");
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wbase = warp * 32 * kItems;
#pragma unroll
  for (int r = 0; r < kItems / V; ++r) {
    const int L0 = wbase + r * 32 * V + lane * V;
    if constexpr (V > 1) {
      const uint4 q = *reinterpret_cast<const uint4*>(in + base + L0);
      static_assert(sizeof(uint4) == V * sizeof(T), "vector width");
      T tmp[V];
      memcpy(tmp, &q, sizeof(q));
#pragma unroll
      for (int k = 0; k < V; ++k) v[r * V + k] = tmp[k];
    } else {
      if (L0 < valid) v[r] = in[base + L0];
    }
  }
}

// Ranks a loaded tile and writes it, compacted, to stage: selected items at [0, count), and with
// kPartition the rejected ones at [count, valid). Returns the selected count in every thread.
// The caller synchronizes before reading stage or calling again (warp_tot is reused).
template <class T, int V, bool kPartition, class Sel, int kB = 64>
__device__ __forceinline__ unsigned rank_loaded(const T (&v)[Tuning<T, kB>::kItems],
                                                std::uint64_t base, int valid, Sel sel, T* stage,
                                                unsigned* warp_tot) {
  using Tn = Tuning<T, kB>;
  constexpr int kItems = Tn::kItems, kRows = kItems / V;
  static_assert(kItems <= 32, "selection flags are kept as the bits of one register");
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wbase = warp * 32 * kItems;
  const unsigned lt = (1u << lane) - 1u;
  // Only this thread's selection bits stay live between the two loops (one register); the
  // ballots are taken again in the second loop. Keeping the 16-32 ballot masks instead would
  // cost as many registers as the values (occupancy: 71 instead of ~40 registers at 16 items).
  unsigned fl = 0;
  unsigned wc = 0;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const int L = wbase + r * 32 * V + lane * V + k;
      const bool f = L < valid && sel(v[r * V + k], base + static_cast<std::uint64_t>(L));
      fl |= f ? 1u << (r * V + k) : 0u;
      wc += __popc(__ballot_sync(0xffffffffu, f));
    }
  }
  if (lane == 0) warp_tot[warp] = wc;
  __syncthreads();
  unsigned run = 0, tot = 0;
#pragma unroll
  for (int w = 0; w < Tn::kWarps; ++w) {
    const unsigned t = warp_tot[w];
    run += w < warp ? t : 0u;
    tot += t;
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    unsigned m[V];
    unsigned rank = run;  // selected items before this lane's first item of the row
    unsigned row = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      m[k] = __ballot_sync(0xffffffffu, (fl >> (r * V + k)) & 1u);
      rank += __popc(m[k] & lt);
      row += __popc(m[k]);
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const int L = wbase + r * 32 * V + lane * V + k;
      if ((fl >> (r * V + k)) & 1u) {
        stage[rank++] = v[r * V + k];
      } else if (kPartition && L < valid) {
        stage[tot + (static_cast<unsigned>(L) - rank)] =
            v[r * V + k];  // L - rank rejected before L
      }
    }
    run += row;
  }
  return tot;
}

template <class T, bool kPartition, class Sel>
__device__ __forceinline__ unsigned rank_tile(const T* __restrict__ in, std::uint64_t base,
                                              int valid, bool vec_ok, Sel sel, T* stage,
                                              unsigned* warp_tot) {
  constexpr int V = vec_width<T>();
  T v[Tuning<T>::kItems];
  if (V > 1 && vec_ok && valid == Tuning<T>::kTile) {
    load_tile<T, V>(in, base, valid, v);
    return rank_loaded<T, V, kPartition>(v, base, valid, sel, stage, warp_tot);
  }
  load_tile<T, 1>(in, base, valid, v);
  return rank_loaded<T, 1, kPartition>(v, base, valid, sel, stage, warp_tot);
}

// Writes stage to the output: selected to out[sel_off ..), rejected (kPartition) to
// out[rej_off ..).
template <class T, bool kPartition>
__device__ __forceinline__ void write_tile(const T* stage, unsigned count, int valid, T* out,
                                           std::uint64_t sel_off, std::uint64_t rej_off) {
  using Tn = Tuning<T>;
  for (int k = threadIdx.x; k < static_cast<int>(count); k += Tn::kThreads)
    out[sel_off + k] = stage[k];
  if (kPartition) {
    for (int k = static_cast<int>(count) + threadIdx.x; k < valid; k += Tn::kThreads)
      out[rej_off + (k - count)] = stage[k];
  }
}

// ---------------------------------------------------------------- single pass (look-back)
// One block per tile, tile id = blockIdx.x, like CUB's look-back kernels: this relies on blocks
// being dispatched in index order (so a tile's predecessors are resident or done), and no atomic
// round trip delays the first load. Look-back only waits on tiles whose blocks already started, so
// it cannot deadlock. Tile ids from an atomic counter or persistent blocks looping over tiles
// lose (results/compact/README.md).
// The body is a grid-stride loop although the host launches one block per tile (one trip): so
// written, ptxas (CUDA 13.0, sm_90) fits the 128-byte tiles of every predicate in 64 registers
// without spilling, as the loop of the persistent form did; straight-line code spilled 44 bytes
// per thread (int32, float with LessThan).
template <class T, int kB, class Sel>
__global__ void __launch_bounds__(Tuning<T, kB>::kThreads,
                                  arch::min_blocks_per_sm(Tuning<T, kB>::kThreads,
                                                          Tuning<T, kB>::kMinBlocks))
    single_pass_kernel(const T* __restrict__ in, T* __restrict__ out, std::uint64_t n, Sel sel,
                       lookback::LookbackHeader* header, std::uint64_t* regions,
                       std::uint64_t* d_count, std::uint64_t num_tiles, bool vec_ok,
                       unsigned first_ns, unsigned spin_ns) {
  using Tn = Tuning<T, kB>;
  __shared__ Stage<T, kB> stage;
  __shared__ unsigned warp_tot[Tn::kWarps];
  __shared__ std::uint64_t s_prefix;
  // One tile a block (the grid is num_tiles blocks; the loop is the form ptxas fits in the
  // register cap). A single tile publishes nothing and leaves the look-back state alone.
  const bool many = num_tiles > 1;
  const unsigned region = many ? lookback::read_region_shared_line(header) : 0u;
  for (std::uint64_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const std::uint64_t base = tile * Tn::kTile;
    const int valid = static_cast<int>(std::min<std::uint64_t>(Tn::kTile, n - base));
    constexpr int V = vec_width<T>();
    const bool vec = V > 1 && vec_ok && valid == Tn::kTile;
    T v[Tn::kItems];
    if (vec)
      load_tile<T, V, kB>(in, base, valid, v);
    else
      load_tile<T, 1, kB>(in, base, valid, v);
    const unsigned count =
        vec ? rank_loaded<T, V, false, Sel, kB>(v, base, valid, sel, stage.data(), warp_tot)
            : rank_loaded<T, 1, false, Sel, kB>(v, base, valid, sel, stage.data(), warp_tot);
    if (threadIdx.x < 32) {
      const int lane = threadIdx.x;
      // Status word per tile: 2 flag bits over a 62-bit count (lookback::CountStatus).
      const lookback::CountStatus st{regions, region};
      std::uint64_t prefix = 0;
      if (tile == 0) {
        if (lane == 0 && many) st.publish(0, lookback::kFlagPrefix, count);
      } else {
        // Pacing as in device/single_pass.cuh (zero for small grids, set by the host).
        prefix = lookback::warp_lookback_count(st, tile, count,
                                               lookback::LookbackDelays{first_ns, spin_ns});
      }
      if (lane == 0) {
        s_prefix = prefix;
        if (tile == num_tiles - 1) {
          *d_count = prefix + count;
          if (many) lookback::finish_by_last_tile(header, static_cast<unsigned>(num_tiles), region);
        }
      }
    }
    __syncthreads();
    write_tile<T, false>(stage.data(), count, valid, out, s_prefix, 0);
    __syncthreads();  // stage, warp_tot and s_prefix are reused by a next trip
  }
  if (many)
    lookback::clear_stale_share(header, reinterpret_cast<unsigned long long*>(regions),
                                lookback::Ticket{blockIdx.x, region},
                                static_cast<unsigned>(num_tiles));
}

// ---------------------------------------------------------------- reduce, scan, scatter
template <class T, class Sel>
__global__ void __launch_bounds__(Tuning<T>::kThreads)
    rts_count_kernel(const T* __restrict__ in, std::uint64_t n, Sel sel,
                     std::uint64_t tiles_per_block, std::uint64_t* counts) {
  using Tn = Tuning<T>;
  __shared__ unsigned long long warp_sum[Tn::kWarps];
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * tiles_per_block * Tn::kTile;
  const std::uint64_t last = std::min<std::uint64_t>(n, first + tiles_per_block * Tn::kTile);
  unsigned long long c = 0;
  // Counting needs no order: a plain block-strided loop with independent loads.
  for (std::uint64_t i = first + threadIdx.x; i < last; i += Tn::kThreads) c += sel(in[i], i);
  c = warp::xor_allreduce(c, Sum{});
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long t = 0;
    for (int w = 0; w < Tn::kWarps; ++w) t += warp_sum[w];
    counts[blockIdx.x] = t;
  }
}

// One block of 1024 threads: exclusive scan of up to 1024 block counts, in place; total to
// d_count. (A template only so that this header can be included by many translation units.)
template <int kUnused = 0>
__global__ void __launch_bounds__(1024)
    rts_scan_counts_kernel(std::uint64_t* counts, int num_blocks, std::uint64_t* d_count) {
  __shared__ unsigned long long warp_sum[32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const unsigned long long x = t < num_blocks ? counts[t] : 0;
  const unsigned long long inc = warp::inclusive_scan(x, Sum{}, lane);
  if (lane == 31) warp_sum[warp] = inc;
  __syncthreads();
  if (warp == 0) warp_sum[lane] = warp::inclusive_scan(warp_sum[lane], Sum{}, lane);  // over warps
  __syncthreads();
  const unsigned long long before = warp == 0 ? 0 : warp_sum[warp - 1];
  if (t < num_blocks) counts[t] = before + inc - x;
  if (t == 0) *d_count = warp_sum[31];
}

template <class T, bool kPartition, class Sel>
__global__ void __launch_bounds__(Tuning<T>::kThreads)
    rts_scatter_kernel(const T* __restrict__ in, T* __restrict__ out, std::uint64_t n, Sel sel,
                       std::uint64_t tiles_per_block, const std::uint64_t* offsets,
                       const std::uint64_t* d_total, bool vec_ok) {
  using Tn = Tuning<T>;
  __shared__ Stage<T> stage;
  __shared__ unsigned warp_tot[Tn::kWarps];
  const std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * tiles_per_block * Tn::kTile;
  const std::uint64_t last = std::min<std::uint64_t>(n, first + tiles_per_block * Tn::kTile);
  std::uint64_t sel_off = offsets[blockIdx.x];
  const std::uint64_t total = kPartition ? *d_total : 0;
  for (std::uint64_t base = first; base < last; base += Tn::kTile) {
    const int valid = static_cast<int>(std::min<std::uint64_t>(Tn::kTile, last - base));
    const unsigned count =
        rank_tile<T, kPartition>(in, base, valid, vec_ok, sel, stage.data(), warp_tot);
    __syncthreads();
    // Rejected items before this tile: base - sel_off.
    write_tile<T, kPartition>(stage.data(), count, valid, out, sel_off, total + (base - sel_off));
    sel_off += count;
    __syncthreads();  // stage and warp_tot are reused by the next tile
  }
}

// ---------------------------------------------------------------- the paper's
template <class T, class F, class Sel>
__global__ void paper_flags_kernel(const T* __restrict__ in, F* __restrict__ flags, std::uint64_t n,
                                   Sel sel) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    flags[i] = sel(in[i], i) ? F(1) : F(0);
}

template <class T, bool kPartition, class F, class Sel>
__global__ void paper_scatter_kernel(const T* __restrict__ in, T* __restrict__ out,
                                     const F* __restrict__ scanned, std::uint64_t n, Sel sel,
                                     std::uint64_t* d_count) {
  // The total: the last exclusive prefix plus the last flag (re-evaluated; every thread reads
  // the same two cached words).
  const std::uint64_t total =
      static_cast<std::uint64_t>(scanned[n - 1]) + (sel(in[n - 1], n - 1) ? 1u : 0u);
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t i0 = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i0 == 0) *d_count = total;
  for (std::uint64_t i = i0; i < n; i += stride) {
    const T x = in[i];
    const std::uint64_t pos = static_cast<std::uint64_t>(scanned[i]);
    if (sel(x, i))
      out[pos] = x;
    else if (kPartition)
      out[total + (i - pos)] = x;
  }
}

// ---------------------------------------------------------------- host side
inline std::size_t align_up(std::size_t x) {
  return (x + 255) & ~std::size_t(255);
}

inline int sm_count() {
  int dev = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms;
}

constexpr int kMaxRtsBlocks = 1024;

template <class T>
struct Plan {
  std::uint64_t num_tiles = 0, tiles_per_block = 0;
  int blocks = 0;
};

template <class T>
Plan<T> rts_plan(std::size_t n) {
  Plan<T> p;
  p.num_tiles = (n + Tuning<T>::kTile - 1) / Tuning<T>::kTile;
  // Fixed block count: enough to fill the GPU a few times over, never more than one scan block.
  const std::uint64_t want = std::min<std::uint64_t>(kMaxRtsBlocks, 4ull * sm_count());
  const std::uint64_t blocks = std::max<std::uint64_t>(1, std::min(p.num_tiles, want));
  p.tiles_per_block = (p.num_tiles + blocks - 1) / blocks;
  p.blocks = static_cast<int>((p.num_tiles + p.tiles_per_block - 1) / p.tiles_per_block);
  return p;
}

inline bool paper_wide_flags(std::size_t n) {
  return n >= (std::size_t(1) << 32);
}

template <class T>
std::size_t workspace_bytes(std::size_t n, CompactOptions opt) {
  if (n == 0) return 0;
  switch (opt.algo) {
    case CompactAlgorithm::Paper:
      if (paper_wide_flags(n))
        return align_up(n * sizeof(std::int64_t)) +
               scan_workspace_bytes<std::int64_t, Sum>(opt.paper_scan, n);
      return align_up(n * sizeof(std::uint32_t)) +
             scan_workspace_bytes<std::uint32_t, Sum>(opt.paper_scan, n);
    case CompactAlgorithm::ReduceThenScan:
      return align_up(kMaxRtsBlocks * sizeof(std::uint64_t));
    case CompactAlgorithm::SinglePass: {
      // Tile status words for the smallest tiles (64 bytes per thread), so every policy fits;
      // at least what partition (which runs reduce-then-scan) needs, so one size serves both.
      const std::size_t tiles = (n + Tuning<T>::kTile - 1) / Tuning<T>::kTile;
      return std::max(align_up(lookback::lookback_state_bytes(tiles)),
                      align_up(kMaxRtsBlocks * sizeof(std::uint64_t)));
    }
  }
  throw std::invalid_argument("compaction: unknown CompactAlgorithm " +
                              std::to_string(static_cast<int>(opt.algo)));
}

inline int grid_for(std::size_t n, int threads) {
  const std::size_t want = (n + threads - 1) / threads;
  return static_cast<int>(
      std::max<std::size_t>(1, std::min<std::size_t>(want, 32ull * sm_count())));
}

template <class T, class F, bool kPartition, class Sel>
void paper_run(const T* in, T* out, std::uint64_t* d_count, std::size_t n, Sel sel, void* ws,
               std::size_t ws_bytes, cudaStream_t stream, ScanAlgorithm scan_algo) {
  F* flags = static_cast<F*>(ws);
  const std::size_t flag_bytes = align_up(n * sizeof(F));
  constexpr int kThreads = 256;
  const int grid = grid_for(n, kThreads);
  paper_flags_kernel<T, F><<<grid, kThreads, 0, stream>>>(in, flags, n, sel);
  CUDA_CHECK_LAUNCH();
  void* scan_ws = static_cast<unsigned char*>(ws) + flag_bytes;
  // The single-pass scan wants zeroed scratch (its look-back state); the flags kernel's writes
  // never reach it, but a caller's workspace promises nothing, so the paper's pipeline clears it.
  if (scan_algo == ScanAlgorithm::SinglePass)
    clear_workspace(scan_ws, scan_workspace_bytes<F, Sum>(scan_algo, n), stream);
  scan<F, Sum>(scan_algo, ScanKind::Exclusive, flags, flags, n, Sum{}, F(0), scan_ws,
               ws_bytes - flag_bytes, stream);
  paper_scatter_kernel<T, kPartition, F>
      <<<grid, kThreads, 0, stream>>>(in, out, flags, n, sel, d_count);
  CUDA_CHECK_LAUNCH();
}

// The single pass's policy: input bytes per thread (the tile and the residency of Tuning<T,
// BytesPerThread>) and the look-back pacing of grids of at least PaceMinTiles tiles (sleep after
// publishing the tile count, and between polls of a window with an unpublished tile), in
// thousandths of a wave (device/lookback_pacing.cuh; a tile counted as its input read and written
// once). The library uses DefaultSinglePassPolicy; the benchmark and the tests pass others to
// run().
template <int BytesPerThread, unsigned FirstPermille, unsigned SpinPermille,
          std::uint64_t PaceMinTiles = 500>
struct SinglePassPolicy {
  static_assert(PaceMinTiles >= 1, "pacing from PaceMinTiles tiles on (1: every grid)");
  static constexpr int BYTES_PER_THREAD = BytesPerThread;
  static constexpr unsigned FIRST_PERMILLE = FirstPermille, SPIN_PERMILLE = SpinPermille;
  static constexpr std::uint64_t PACE_MIN_TILES = PaceMinTiles;
};

// 128 bytes per thread (32 items of 4 bytes, 32 KiB tiles): +6-17% over 64 at 2^24-2^28 (half the
// look-backs); 96 was worse than 128 at >= 2^24. Pacing 0.194 / 0.039 of a wave: the H100's
// measured best, 2000/400 ns against its wave of 132 SMs x 4 blocks x 64 KiB at 3.35 TB/s
// (10.3 us), rather than the scan's 3000/648 ns: 1.03-1.10x CUB at 2^24 (3000/648: 0.97-1.07x);
// at 2^28 1.09-1.21x (3000/648: 1.07-1.13x, better at 50-99% kept, worse at 1%); unpaced
// 0.94-1.01x (H100, int32, results/compact/README.md). The H200 (wave 7.2 us) gets 1.4 us / 280 ns.
struct DefaultSinglePassPolicy : SinglePassPolicy<128, 194, 39> {};

template <class P, class T, class Sel>
void single_pass_launch(const char* what, const T* in, T* out, std::uint64_t* d_count,
                        std::size_t n, Sel sel, void* ws, cudaStream_t stream, bool vec_ok) {
  constexpr int kB = P::BYTES_PER_THREAD;
  using Tn = Tuning<T, kB>;
  const std::uint64_t tiles = (n + Tn::kTile - 1) / Tn::kTile;
  if (tiles >= 0x80000000ull)
    throw std::invalid_argument(std::string(what) + ": n too large for one grid of tiles");
  // The look-back state where workspace_bytes planned it (for at least as many tiles): no clearing
  // launch, the workspace's contract (compact.hpp) keeps it valid between calls.
  auto* header = static_cast<lookback::LookbackHeader*>(ws);
  auto* regions = reinterpret_cast<std::uint64_t*>(static_cast<unsigned char*>(ws) +
                                                   lookback::kLookbackHeaderBytes);
  auto kernel = single_pass_kernel<T, kB, Sel>;
  lookback::LookbackDelays d{};
  if (tiles >= P::PACE_MIN_TILES) {
    const double wave = lookback::wave_ns(2 * std::size_t(Tn::kThreads) * kB,
                                          lookback::resident_blocks_per_sm(kernel, Tn::kThreads),
                                          lookback::device_rate());
    d = lookback::paced_delays(wave, P::FIRST_PERMILLE, P::SPIN_PERMILLE);
  }
  kernel<<<static_cast<unsigned>(tiles), Tn::kThreads, 0, stream>>>(
      in, out, n, sel, header, regions, d_count, tiles, vec_ok, d.first_ns, d.spin_ns);
  CUDA_CHECK_LAUNCH();
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte (as addresses: nothing is read).
inline bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + b_bytes && y < x + a_bytes;
}

// Everything run() can reject without CUDA, checked before its first CUDA call and by the
// ScanWorkspace overloads before they allocate: the algorithm (and the paper's scan), then for
// n > 0 null pointers, a byte count that overflows, an output that overlaps an input, and an n
// past the single pass's grid. P: the single pass's policy (SinglePassPolicy).
template <bool kPartition, class P, class T>
void check_arguments(const char* what, const T* in, const T* out, std::size_t n, bool need_flags,
                     const void* flags, CompactOptions opt) {
  const int algo = static_cast<int>(opt.algo);
  if (algo < 0 || algo >= kNumCompactAlgorithms)
    throw std::invalid_argument(std::string(what) + ": unknown CompactAlgorithm " +
                                std::to_string(algo));
  if (opt.algo == CompactAlgorithm::Paper && !is_known_algorithm(opt.paper_scan))
    throw std::invalid_argument(std::string(what) + ": unknown ScanAlgorithm " +
                                std::to_string(static_cast<int>(opt.paper_scan)) +
                                " in CompactOptions::paper_scan");
  if (n == 0) return;
  if (in == nullptr) throw std::invalid_argument(std::string(what) + ": d_in is null");
  if (out == nullptr) throw std::invalid_argument(std::string(what) + ": d_out is null");
  if (need_flags && flags == nullptr)
    throw std::invalid_argument(std::string(what) + ": d_flags is null");
  if (n > SIZE_MAX / sizeof(T))
    throw std::invalid_argument(std::string(what) + ": n * sizeof(T) overflows size_t");
  if (ranges_overlap(in, n * sizeof(T), out, n * sizeof(T)))
    throw std::invalid_argument(std::string(what) + ": d_out overlaps d_in");
  if (need_flags && ranges_overlap(flags, n, out, n * sizeof(T)))
    throw std::invalid_argument(std::string(what) + ": d_out overlaps d_flags");
  if (opt.algo == CompactAlgorithm::SinglePass && !kPartition) {
    constexpr std::uint64_t tile = Tuning<T, P::BYTES_PER_THREAD>::kTile;
    if ((n + tile - 1) / tile >= 0x80000000ull)
      throw std::invalid_argument(std::string(what) + ": n too large for one grid of tiles");
  }
}

// P: the single pass's policy (SinglePassPolicy).
template <bool kPartition, class P = DefaultSinglePassPolicy, class T, class Sel>
void run(const char* what, const T* in, T* out, std::uint64_t* d_count, std::size_t n, Sel sel,
         bool need_flags, const void* flags, void* ws, std::size_t ws_bytes, cudaStream_t stream,
         CompactOptions opt) {
  if (d_count == nullptr) throw std::invalid_argument(std::string(what) + ": d_count is null");
  check_arguments<kPartition, P>(what, in, out, n, need_flags, flags, opt);
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::uint64_t), stream));
    return;
  }
  const std::size_t need = workspace_bytes<T>(n, opt);
  if (ws_bytes < need || (need > 0 && ws == nullptr))
    throw std::invalid_argument(std::string(what) + ": workspace too small: need " +
                                std::to_string(need) + " bytes, got " + std::to_string(ws_bytes));
  using Tn = Tuning<T>;
  // 16-byte loads need a 16-byte aligned input (tiles start at multiples of 16 bytes after it).
  const bool vec_ok = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  switch (opt.algo) {
    case CompactAlgorithm::Paper:
      if (paper_wide_flags(n))
        paper_run<T, std::int64_t, kPartition>(in, out, d_count, n, sel, ws, ws_bytes, stream,
                                               opt.paper_scan);
      else
        paper_run<T, std::uint32_t, kPartition>(in, out, d_count, n, sel, ws, ws_bytes, stream,
                                                opt.paper_scan);
      return;
    case CompactAlgorithm::SinglePass:
      if (!kPartition) {
        single_pass_launch<P>(what, in, out, d_count, n, sel, ws, stream, vec_ok);
        return;
      }
      // A stable partition must know the total before placing the rejected items; a single pass
      // cannot (CUB writes them reversed instead). Partition falls through to reduce-then-scan.
      [[fallthrough]];
    case CompactAlgorithm::ReduceThenScan: {
      const Plan<T> p = rts_plan<T>(n);
      auto* counts = static_cast<std::uint64_t*>(ws);
      rts_count_kernel<T>
          <<<p.blocks, Tn::kThreads, 0, stream>>>(in, n, sel, p.tiles_per_block, counts);
      CUDA_CHECK_LAUNCH();
      rts_scan_counts_kernel<><<<1, 1024, 0, stream>>>(counts, p.blocks, d_count);
      CUDA_CHECK_LAUNCH();
      rts_scatter_kernel<T, kPartition><<<p.blocks, Tn::kThreads, 0, stream>>>(
          in, out, n, sel, p.tiles_per_block, counts, d_count, vec_ok);
      CUDA_CHECK_LAUNCH();
      return;
    }
  }
  throw std::invalid_argument(std::string(what) + ": unknown CompactAlgorithm " +
                              std::to_string(static_cast<int>(opt.algo)));
}

inline std::size_t fetch_count(const std::uint64_t* d_count, cudaStream_t stream) {
  std::uint64_t h = 0;
  CUDA_CHECK(cudaMemcpyAsync(&h, d_count, sizeof(h), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return static_cast<std::size_t>(h);
}

// The public entry points' two forms of selection: a predicate on the element, or a flags array
// (in[i] kept where flags[i] != 0).
template <bool kPartition, class T, class Pred>
void run_pred(const char* what, const T* in, T* out, std::uint64_t* d_count, std::size_t n,
              Pred pred, void* ws, std::size_t ws_bytes, cudaStream_t stream, CompactOptions opt) {
  run<kPartition>(what, in, out, d_count, n, PredSelect<Pred>{pred}, false, nullptr, ws, ws_bytes,
                  stream, opt);
}
template <bool kPartition, class T>
void run_flags(const char* what, const T* in, const std::uint8_t* flags, T* out,
               std::uint64_t* d_count, std::size_t n, void* ws, std::size_t ws_bytes,
               cudaStream_t stream, CompactOptions opt) {
  run<kPartition>(what, in, out, d_count, n, FlagSelect{flags}, true, flags, ws, ws_bytes, stream,
                  opt);
}

}  // namespace compact
}  // namespace detail

template <class T>
std::size_t compact_workspace_bytes(std::size_t n, CompactOptions opt) {
  return detail::compact::workspace_bytes<T>(n, opt);
}

template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::uint64_t* d_count, std::size_t n, Pred pred,
                void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                CompactOptions opt) {
  detail::compact::run_pred<false>("compact_if", d_in, d_out, d_count, n, pred, d_workspace,
                                   workspace_bytes, stream, opt);
}

template <class T>
void compact_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::uint64_t* d_count,
                     std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                     cudaStream_t stream, CompactOptions opt) {
  detail::compact::run_flags<false>("compact_flagged", d_in, d_flags, d_out, d_count, n,
                                    d_workspace, workspace_bytes, stream, opt);
}

template <class T, class Pred>
void partition_if(const T* d_in, T* d_out, std::uint64_t* d_count, std::size_t n, Pred pred,
                  void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                  CompactOptions opt) {
  detail::compact::run_pred<true>("partition_if", d_in, d_out, d_count, n, pred, d_workspace,
                                  workspace_bytes, stream, opt);
}

template <class T>
void partition_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::uint64_t* d_count,
                       std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                       cudaStream_t stream, CompactOptions opt) {
  detail::compact::run_flags<true>("partition_flagged", d_in, d_flags, d_out, d_count, n,
                                   d_workspace, workspace_bytes, stream, opt);
}

namespace detail {
namespace compact {
// The ScanWorkspace overloads: the arguments checked first (so a bad call throws before the
// workspace grows), then the count slot at the front of the workspace, the algorithm's scratch
// behind it; run(d_count, scratch, scratch_bytes) enqueues the work, then the count is read back
// (synchronizing the stream).
template <bool kPartition, class T, class Run>
std::size_t with_workspace(const char* what, const T* in, const T* out, std::size_t n,
                           bool need_flags, const std::uint8_t* flags, ScanWorkspace& ws,
                           CompactOptions opt, cudaStream_t stream, Run&& run) {
  check_arguments<kPartition, DefaultSinglePassPolicy>(what, in, out, n, need_flags, flags, opt);
  const std::size_t bytes = compact_workspace_bytes<T>(n, opt);
  // The single pass (partition runs reduce-then-scan) keeps its look-back state where the scan
  // keeps its own, at the front, and the count in the header's spare bytes; the others' scratch
  // follows a count slot.
  if (opt.algo == CompactAlgorithm::SinglePass && !kPartition) {
    auto* base =
        static_cast<unsigned char*>(ws.reserve(std::max(bytes, lookback::kLookbackHeaderBytes)));
    ws.note_use(true, stream);
    auto* d_count = reinterpret_cast<std::uint64_t*>(base + lookback::kLookbackSpareOffset);
    run(d_count, static_cast<void*>(base), bytes);
    return fetch_count(d_count, stream);
  }
  auto* base = static_cast<unsigned char*>(ws.reserve(kCountSlotBytes + bytes));
  ws.note_use(false, stream);
  auto* d_count = reinterpret_cast<std::uint64_t*>(base);
  run(d_count, static_cast<void*>(base + kCountSlotBytes), bytes);
  return fetch_count(d_count, stream);
}
}  // namespace compact
}  // namespace detail

template <class T, class Pred>
std::size_t compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, ScanWorkspace& ws,
                       cudaStream_t stream, CompactOptions opt) {
  return detail::compact::with_workspace<false>(
      "compact_if", d_in, d_out, n, false, nullptr, ws, opt, stream, [&](auto c, void* p, auto b) {
        compact_if<T, Pred>(d_in, d_out, c, n, pred, p, b, stream, opt);
      });
}
template <class T>
std::size_t compact_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::size_t n,
                            ScanWorkspace& ws, cudaStream_t stream, CompactOptions opt) {
  return detail::compact::with_workspace<false>("compact_flagged", d_in, d_out, n, true, d_flags,
                                                ws, opt, stream, [&](auto c, void* p, auto b) {
                                                  compact_flagged<T>(d_in, d_flags, d_out, c, n, p,
                                                                     b, stream, opt);
                                                });
}
template <class T, class Pred>
std::size_t partition_if(const T* d_in, T* d_out, std::size_t n, Pred pred, ScanWorkspace& ws,
                         cudaStream_t stream, CompactOptions opt) {
  return detail::compact::with_workspace<true>("partition_if", d_in, d_out, n, false, nullptr, ws,
                                               opt, stream, [&](auto c, void* p, auto b) {
                                                 partition_if<T, Pred>(d_in, d_out, c, n, pred, p,
                                                                       b, stream, opt);
                                               });
}
template <class T>
std::size_t partition_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::size_t n,
                              ScanWorkspace& ws, cudaStream_t stream, CompactOptions opt) {
  return detail::compact::with_workspace<true>("partition_flagged", d_in, d_out, n, true, d_flags,
                                               ws, opt, stream, [&](auto c, void* p, auto b) {
                                                 partition_flagged<T>(d_in, d_flags, d_out, c, n, p,
                                                                      b, stream, opt);
                                               });
}

}  // namespace scandof

// Explicit instantiation of every compaction entry point for element type T with the built-in
// predicates (inside namespace scandof). kernels/src/compact_inst_<type>.cu use it, one file per
// type so the slow nvcc compiles run in parallel.
#define SCANDOF_INSTANTIATE_COMPACT_PRED(T, P)                                                     \
  template void compact_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*, std::size_t, \
                                 cudaStream_t, CompactOptions);                                    \
  template void partition_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*,            \
                                   std::size_t, cudaStream_t, CompactOptions);                     \
  template std::size_t compact_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&,              \
                                        cudaStream_t, CompactOptions);                             \
  template std::size_t partition_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&,            \
                                          cudaStream_t, CompactOptions);
#define SCANDOF_INSTANTIATE_COMPACT(T)                                                             \
  template std::size_t compact_workspace_bytes<T>(std::size_t, CompactOptions);                    \
  template void compact_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*, std::size_t, \
                                   void*, std::size_t, cudaStream_t, CompactOptions);              \
  template void partition_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*,            \
                                     std::size_t, void*, std::size_t, cudaStream_t,                \
                                     CompactOptions);                                              \
  template std::size_t compact_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t,          \
                                          ScanWorkspace&, cudaStream_t, CompactOptions);           \
  template std::size_t partition_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t,        \
                                            ScanWorkspace&, cudaStream_t, CompactOptions);         \
  SCANDOF_INSTANTIATE_COMPACT_PRED(T, LessThan<T>)                                                 \
  SCANDOF_INSTANTIATE_COMPACT_PRED(T, NotEqualTo<T>)                                               \
  SCANDOF_INSTANTIATE_COMPACT_PRED(T, ValueTest<T>)
