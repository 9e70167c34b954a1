// Single-pass device-wide scan with decoupled look-back (Merrill & Garland 2016).
//
// One kernel reads every element once and writes it once (2n traffic, the copy floor): one launch
// per call. The tile status lives in the workspace from call to call (lookback::LookbackHeader in
// device/tile_status.cuh: an epoch picks one of two regions, each call clears the other), so no
// clearing kernel runs first. Each block takes the next tile id from the header's atomic ticket
// counter, so tiles start in launch order and a block only ever waits on tiles that are already
// running: the look-back cannot deadlock.
//
// Per tile (BLOCK_THREADS x ITEMS_PER_THREAD items):
//   1. 16-byte vector loads in a warp-striped layout: a warp owns 32*ITEMS contiguous items and
//      lane l holds the VEC-item vectors l, l+32, l+64, ... of that span. Every load instruction
//      moves 512 contiguous bytes and no shared-memory transpose (or its barrier) is needed.
//   2. Serial scan inside each vector, one warp shuffle scan per vector slot, one warp scan of
//      the per-warp totals: the tile aggregate is known after a single barrier.
//   3. Warp 0 runs the tile prefix callback (lookback::warp_lookback): it publishes the aggregate
//      (flag A), looks back over 32 predecessors at once until it meets an inclusive prefix
//      (flag P) and publishes its own inclusive prefix; warp 0 then hands the per-warp prefixes
//      to the block through shared memory (second barrier).
//   4. Every thread applies its prefix and stores with 16-byte vector stores.
// A tile that is the whole input (small n) skips the counter and the status words.
//
// Run to run: the default look-back combines predecessors in whatever grouping their timing gave,
// so a float sum may differ in its last bits from run to run. Determinism::RunToRun makes warp 0
// use lookback::warp_lookback_fixed instead (a grouping fixed by the tile id: the same bits on
// every run); integer scans take the default path either way, being exact in any grouping.
//
// Tile status (device/tile_status.cuh, with the look-back itself): for sizeof(T) <= 4 the flag and
// the value share one 64-bit word written and read with single relaxed 8-byte accesses (no fence:
// the value can never be seen without its flag). Larger T split the value into 32-bit pieces, each
// in its own 64-bit word beside a copy of the flag; a reader accepts a tile only when all its words
// carry the same flag (see TileStatus).
//
// Look-back pacing: see Policy::delays_for.
//
// Operators need only be associative (combined as op(earlier, later)) with a left identity
// (op(identity, x) == x); the kernel never relies on op(x, identity) == x.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "scandof/arch.cuh"
#include "scandof/cuda_check.hpp"
#include "scandof/device/lookback_pacing.cuh"
#include "scandof/device/tile_status.cuh"
#include "scandof/scan.hpp"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace detail {
namespace single_pass {

// The status words, their accessors, the polling loop and the warp-wide look-back live in
// device/tile_status.cuh (shared with compaction and the onesweep sort); the names the tuning
// harness uses stay reachable here.
using lookback::kFlagAggregate;
using lookback::kFlagInvalid;
using lookback::kFlagPrefix;
using lookback::LookbackDelays;
using lookback::LookbackHeader;
using lookback::TileStatus;

// Items moved by one 16-byte vector access (1 when T does not divide 16: scalar accesses).
template <class T>
constexpr int vec_items() {
  return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? int(16 / sizeof(T)) : 1;
}
template <class T>
constexpr bool vec_uses_uint4() {
  return sizeof(T) <= 16 && 16 % sizeof(T) == 0;
}

// Launch shape and look-back pacing: the policy type the scan is compiled for. The library uses
// DefaultPolicy<T>; the tuning harness (bench/tune_single_pass.cu) passes its own policies to
// scan_with_policy (a policy may also replace delays_for). results/scan/README.md has the numbers
// behind the defaults. One block per tile, always: a persistent block cannot start its next tile
// until its own look-back ends (25-70 % slower on the H100, results/scan/README.md).
template <int BlockThreads, int ItemsPerThread, int MinBlocks = 1, unsigned FirstPermille = 0,
          unsigned SpinPermille = 0, unsigned DelayMinTiles = 500, int RunToRunGroup = 64,
          unsigned RunToRunFirstPermille = 0, unsigned RunToRunSpinPermille = 0,
          int LoadHint = 0, int StoreHint = 0>
struct Policy {
  static_assert(MinBlocks >= 1, "at least one block per SM");
  static_assert(RunToRunGroup >= 32 && RunToRunGroup % 32 == 0, "whole look-back windows");
  static constexpr int BLOCK_THREADS = BlockThreads;
  static constexpr int ITEMS_PER_THREAD = ItemsPerThread;
  static constexpr int MIN_BLOCKS = MinBlocks;  // __launch_bounds__ blocks per SM (register cap)
  // Tiles per group of the run-to-run look-back (lookback::warp_lookback_fixed): a tile reads up
  // to this many aggregates, and the group prefixes form a chain of tiles / group hops, which must
  // keep ahead of the tiles streaming in.
  static constexpr int RUN_TO_RUN_GROUP = RunToRunGroup;
  // Cache hints of the full tiles' 16-byte accesses (vec_load / vec_store).
  static constexpr int LOAD_HINT = LoadHint;
  static constexpr int STORE_HINT = StoreHint;
  // Pacing in thousandths of a wave (device/lookback_pacing.cuh): the time the device's resident
  // tiles take to stream through memory. Pacing pays only once tiles queue behind each other; a
  // grid of about one wave (2^20 int32 is 128 tiles) would just wait longer, so small grids poll
  // at once (CUB uses the same cut-off). The run-to-run look-back has its own: it waits on
  // aggregates, which come earlier than inclusive prefixes.
  static LookbackDelays delays_for(std::size_t tiles, double wave_ns, bool run_to_run) {
    if (tiles < DelayMinTiles) return LookbackDelays{};
    return run_to_run
               ? lookback::paced_delays(wave_ns, RunToRunFirstPermille, RunToRunSpinPermille)
               : lookback::paced_delays(wave_ns, FirstPermille, SpinPermille);
  }
};

// 128 bytes of input per thread (at most 32 items: each item of 4 bytes or less takes a whole
// register), 256 threads. 8-byte arithmetic T: capped at 64 registers (4 blocks/SM instead of 3
// at 76 registers; 2% at 2^27 double). Not for structs: ComposeAffine would spill under the cap.
// Pacing: first poll after 0.5 of a wave, then every 0.08 (H200, whose wave is 7.2 us at 4 blocks
// of 64 KiB per SM: 3.6 us and 575 ns). The H200's sweep (int32 2^28, bench/tune_single_pass
// --pacing) gave 735 us unpaced, 680 us at 0.10 wave, 620-625 us from 0.31 to 0.56 wave, the spin
// within noise from 0.03 to 0.14 wave; the H100's optimum before (3000/648 ns) is about 0.5 and
// 0.1 of its own wave. Run to run: groups of 64 tiles, first poll after 0.21 wave, then every
// 0.028 (H200 float 2^28: 622 us against 627 for the default mode; groups of 128: 648-657 us,
// of 256: 1038 us, two blocks per SM for the registers).
template <class T>
constexpr int default_items() {
  constexpr int v = vec_items<T>();
  constexpr int want = (128 / int(sizeof(T))) < 32 ? (128 / int(sizeof(T))) : 32;
  return want / v > 0 ? want / v * v : v;
}
template <class T>
struct DefaultPolicy : Policy<256, default_items<T>(),
                              (sizeof(T) == 8 && std::is_arithmetic<T>::value) ? 4 : 1, 500, 80,
                              500, 64, 210, 28> {};

// ---- workspace layout: lookback::LookbackHeader, then the two regions of status words --------

template <class T, class P>
std::size_t num_tiles(std::size_t n) {
  constexpr std::size_t tile = std::size_t(P::BLOCK_THREADS) * P::ITEMS_PER_THREAD;
  return (n + tile - 1) / tile;
}

// Logical status words of one region: room for either look-back (the run-to-run one publishes
// the group prefixes too), so one workspace serves both modes.
template <class T, class P>
std::size_t status_words(std::size_t tiles) {
  return lookback::fixed_lookback_entries<P::RUN_TO_RUN_GROUP>(tiles) * TileStatus<T>::kWords;
}

template <class T, class P>
std::size_t workspace_bytes(std::size_t n) {
  const std::size_t tiles = num_tiles<T, P>(n);
  if (tiles <= 1) return 0;  // one tile needs no look-back, hence no scratch
  return lookback::lookback_state_bytes(status_words<T, P>(tiles));
}

// ---- the scan kernel --------------------------------------------------------------------------

// 16-byte accesses of full tiles. Load hints: 0 plain, 1 streaming (ld.global.cs: evict first),
// 2 read-only with a 256-byte L2 prefetch (ld.global.nc.L2::256B). Store hints: 0 plain,
// 1 streaming (st.global.cs).
template <int kHint>
__device__ __forceinline__ uint4 vec_load(const uint4* p) {
  if constexpr (kHint == 1) {
    return __ldcs(p);
  } else if constexpr (kHint == 2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800  // the L2 prefetch size is sm_80's
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
#else
    return __ldg(p);
#endif
  } else {
    return *p;
  }
}
template <int kHint>
__device__ __forceinline__ void vec_store(uint4* p, const uint4& v) {
  if constexpr (kHint == 1)
    __stcs(p, v);
  else
    *p = v;
}

template <class T, int kWarps>
struct SharedStorage {
  T warp_total[kWarps];
  T warp_prefix[kWarps];
  lookback::Ticket ticket;  // the block's tile id and the call's region
};

template <class T, class Op>
struct ScanArgs {
  const T* in;
  T* out;
  std::size_t n;
  Op op;
  T identity;
  bool inclusive;
  LookbackHeader* header;        // null when the input is a single tile
  unsigned long long* regions;   // the status words' two regions
  unsigned tiles;
  unsigned status_words;  // logical words of a region this call may publish
  LookbackDelays delays;
};

// Scans tile `tile` with the whole block.
// kGroup > 0: the run-to-run look-back with groups of kGroup tiles.
template <class T, class Op, int kBlockThreads, int kItems, bool kAligned, int kGroup,
          int kLoadHint, int kStoreHint>
__device__ __forceinline__ void scan_tile(const ScanArgs<T, Op>& a, const TileStatus<T>& status,
                                          SharedStorage<T, kBlockThreads / 32>& smem,
                                          unsigned tile) {
  constexpr int kVec = vec_items<T>();
  constexpr bool kUint4 = vec_uses_uint4<T>();
  constexpr int kSlots = kItems / kVec;  // vectors per thread
  constexpr int kWarps = kBlockThreads / 32;
  constexpr int kWarpItems = 32 * kItems;
  constexpr int kTileItems = kBlockThreads * kItems;
  const Op op = a.op;
  const T identity = a.identity;

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::size_t tile_base = std::size_t(tile) * kTileItems;
  const int valid =
      int(a.n - tile_base < std::size_t(kTileItems) ? a.n - tile_base : std::size_t(kTileItems));
  const bool full = valid == kTileItems;
  const std::size_t warp_base = tile_base + std::size_t(warp) * kWarpItems;
  const int warp_valid = valid - warp * kWarpItems;  // may be <= 0 in the last tile

  // 1. Load. v[s][k] is item (s*32 + lane)*kVec + k of this warp's span.
  T v[kSlots][kVec];
  if (kAligned && kUint4 && full) {
    const uint4* src = reinterpret_cast<const uint4*>(a.in + warp_base);
    uint4 raw[kSlots];
#pragma unroll
    for (int s = 0; s < kSlots; ++s) raw[s] = vec_load<kLoadHint>(src + s * 32 + lane);
#pragma unroll
    for (int s = 0; s < kSlots; ++s) memcpy(&v[s][0], &raw[s], sizeof(uint4));
  } else if (full) {
#pragma unroll
    for (int s = 0; s < kSlots; ++s)
#pragma unroll
      for (int k = 0; k < kVec; ++k) v[s][k] = a.in[warp_base + (s * 32 + lane) * kVec + k];
  } else {
    // Missing items are set to the identity; they only feed the last tile's unused aggregate.
#pragma unroll
    for (int s = 0; s < kSlots; ++s)
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        const int i = (s * 32 + lane) * kVec + k;
        v[s][k] = i < warp_valid ? a.in[warp_base + i] : identity;
      }
  }

  // 2. Serial inclusive scan inside each vector, then a shuffle scan per slot across the warp.
  T part[kSlots];
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
#pragma unroll
    for (int k = 1; k < kVec; ++k) v[s][k] = op(v[s][k - 1], v[s][k]);
    part[s] = v[s][kVec - 1];
  }
  // Slot-interleaved (d outer, s inner) as before: the kSlots shuffles of one step are
  // independent and overlap; warp::inclusive_scan per slot would serialize them.
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const T y = warp::shfl_up(part[s], d);
      if (lane >= d) part[s] = op(y, part[s]);
    }
  }
  // Fold everything the warp knows into v, so only the items (not per-slot partials) stay live
  // across the barrier and the look-back: fewer registers, more resident blocks. Inclusive: v
  // becomes the warp-level inclusive scan. Exclusive: v becomes the warp-level exclusive scan;
  // the warp's very first item has nothing before it (marked by `lead`, value unused).
  const bool lead = lane == 0 && !a.inclusive;
  T warp_sum;
  {
    T run;  // the warp's total over slots < s
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      const T lane_excl = warp::shfl_up(part[s], 1);  // lanes < lane, slot s (garbage in lane 0)
      const T slot_total = warp::shfl_idx(part[s], 31);
      T pre = s == 0 ? lane_excl : (lane > 0 ? op(run, lane_excl) : run);
      const bool has_pre = s > 0 || lane > 0;
      run = s == 0 ? slot_total : op(run, slot_total);
      if (a.inclusive) {
#pragma unroll
        for (int k = 0; k < kVec; ++k)
          if (has_pre) v[s][k] = op(pre, v[s][k]);
      } else {
#pragma unroll
        for (int k = kVec - 1; k > 0; --k) v[s][k] = has_pre ? op(pre, v[s][k - 1]) : v[s][k - 1];
        v[s][0] = pre;
      }
    }
    warp_sum = run;
  }
  if (lane == 0) smem.warp_total[warp] = warp_sum;
  __syncthreads();

  // 3. Warp 0: tile aggregate, publish, look back, per-warp prefixes.
  if (warp == 0) {
    T warp_excl;
    const T w = warp::inclusive_scan<kWarps>(lane < kWarps ? smem.warp_total[lane] : identity, op,
                                             lane, warp_excl);
    const T tile_total = warp::shfl_idx(w, kWarps - 1);

    T prefix = identity;  // exclusive prefix of the tile (tile > 0 only)
    if (tile == 0) {
      if (a.tiles > 1 && lane == 0)
        status.publish(0, kGroup ? kFlagAggregate : kFlagPrefix, tile_total);
    } else if constexpr (kGroup > 0) {
      prefix = lookback::warp_lookback_fixed<kGroup>(status, tile, a.tiles, tile_total, op,
                                                     identity, a.delays);
    } else {
      prefix = lookback::warp_lookback(status, tile, tile_total, op, identity, a.delays);
    }
    if (lane < kWarps) {
      // Warp 0 of tile 0 has no prefix; it stores the identity and the consumer skips it.
      T wp;
      if (lane == 0)
        wp = prefix;
      else
        wp = tile > 0 ? op(prefix, warp_excl) : warp_excl;
      smem.warp_prefix[lane] = wp;
    }
  }
  __syncthreads();

  // 4. Apply the warp's prefix and store.
  const bool has = !(tile == 0 && warp == 0);
  const T acc = smem.warp_prefix[warp];
  T* dst = a.out + warp_base;
#pragma unroll
  for (int s = 0; s < kSlots; ++s) {
    T o[kVec];
#pragma unroll
    for (int k = 0; k < kVec; ++k) o[k] = has ? op(acc, v[s][k]) : v[s][k];
    if (s == 0 && lead) o[0] = has ? acc : identity;

    if (kAligned && kUint4 && full) {
      uint4 raw;
      memcpy(&raw, o, sizeof(uint4));
      vec_store<kStoreHint>(reinterpret_cast<uint4*>(dst) + s * 32 + lane, raw);
    } else {
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        const int i = (s * 32 + lane) * kVec + k;
        if (full || i < warp_valid) dst[i] = o[k];
      }
    }
  }
}

// One block per tile. Tile ids come from the global counter in the order blocks ask, so every
// tile a block waits on belongs to a block that is running and will publish without waiting on
// anything later: no deadlock.
// kIndexed: tile = blockIdx.x (lookback::read_region), for grids that fit the device at once.
template <class T, class Op, int kBlockThreads, int kItems, int kMinBlocks, bool kAligned,
          int kGroup, int kLoadHint, int kStoreHint, bool kIndexed>
__global__ void __launch_bounds__(kBlockThreads, arch::min_blocks_per_sm(kBlockThreads, kMinBlocks))
    scan_kernel(ScanArgs<T, Op> a) {
  static_assert(kBlockThreads % 32 == 0 && kBlockThreads <= 1024, "whole warps, <= 1024 threads");
  static_assert(kItems % vec_items<T>() == 0,
                "ITEMS_PER_THREAD must be a multiple of 16 / sizeof(T)");
  constexpr int kWarps = kBlockThreads / 32;
  // Raw storage: T may lack a trivial default constructor, which __shared__ objects may not have.
  __shared__ alignas(16) unsigned char smem_raw[sizeof(SharedStorage<T, kWarps>)];
  auto& smem = *reinterpret_cast<SharedStorage<T, kWarps>*>(smem_raw);

  if (a.tiles == 1) {  // the whole input is one tile: no counter, no status
    scan_tile<T, Op, kBlockThreads, kItems, kAligned, kGroup, kLoadHint, kStoreHint>(a, TileStatus<T>{nullptr, 0}, smem,
                                                              0);
    return;
  }
  lookback::Ticket t;
  if constexpr (kIndexed) {
    t = lookback::Ticket{blockIdx.x, lookback::read_region(a.header)};
  } else {
    if (threadIdx.x == 0) smem.ticket = lookback::take_ticket(a.header, a.tiles, a.status_words);
    __syncthreads();
    t = smem.ticket;
  }
  scan_tile<T, Op, kBlockThreads, kItems, kAligned, kGroup, kLoadHint, kStoreHint>(
      a, TileStatus<T>{a.regions, t.region}, smem, t.tile);
  lookback::clear_stale_share(a.header, a.regions, t, a.tiles);
  if constexpr (kIndexed) {
    if (threadIdx.x == 0) lookback::finish_indexed(a.header, a.tiles, a.status_words, t.region);
  }
}

// Host side with an explicit policy P (the library passes DefaultPolicy<T>, the tuning harness
// its own).
// run_to_run: the fixed-grouping look-back, for T whose op is not exact in every grouping (every T
// but the integers, for which the default is already deterministic).
template <class T>
constexpr bool exact_in_any_grouping() {
  return std::is_integral<T>::value;
}

template <class P, class T, class Op>
void scan_with_policy(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t ws_bytes, cudaStream_t stream,
                      bool run_to_run = false) {
  static_assert(std::is_trivially_copyable<T>::value, "scan needs a trivially copyable T");
  if (n == 0) return;
  if (d_in == nullptr || d_out == nullptr)
    throw std::invalid_argument("single_pass_scan: null input or output pointer");
  if (kind != ScanKind::Exclusive && kind != ScanKind::Inclusive)
    throw std::invalid_argument("single_pass_scan: unknown ScanKind");
  const std::size_t tiles = num_tiles<T, P>(n);
  if (tiles > std::size_t(INT_MAX))
    throw std::invalid_argument("single_pass_scan: n too large for one grid");
  const std::size_t need = workspace_bytes<T, P>(n);
  if (ws_bytes < need || (need > 0 && d_workspace == nullptr))
    throw std::invalid_argument("single_pass_scan: workspace of " + std::to_string(ws_bytes) +
                                " bytes, needs " + std::to_string(need));
  if (need > 0 && reinterpret_cast<std::uintptr_t>(d_workspace) % 16 != 0)
    throw std::invalid_argument("single_pass_scan: workspace must be 16-byte aligned");

  const std::size_t words = status_words<T, P>(tiles);
  if (words > UINT_MAX)
    throw std::invalid_argument("single_pass_scan: n too large for the tile status");
  const bool incl = kind == ScanKind::Inclusive;
  ScanArgs<T, Op> a{d_in,    d_out,          n,        op,       identity,
                    incl,    nullptr,        nullptr,  unsigned(tiles), unsigned(words),
                    LookbackDelays{}};
  if (tiles > 1) {
    auto* base = static_cast<unsigned char*>(d_workspace);
    a.header = reinterpret_cast<LookbackHeader*>(base);
    a.regions = reinterpret_cast<unsigned long long*>(base + lookback::kLookbackHeaderBytes);
  }

  const bool aligned = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0;
  constexpr int kBT = P::BLOCK_THREADS, kIPT = P::ITEMS_PER_THREAD, kMB = P::MIN_BLOCKS;
  constexpr int kG = exact_in_any_grouping<T>() ? 0 : P::RUN_TO_RUN_GROUP;
  constexpr int kLH = P::LOAD_HINT, kSH = P::STORE_HINT;
  auto kernel = aligned ? scan_kernel<T, Op, kBT, kIPT, kMB, true, 0, kLH, kSH, false>
                        : scan_kernel<T, Op, kBT, kIPT, kMB, false, 0, kLH, kSH, false>;
  if (run_to_run && kG > 0) {
    kernel = aligned ? scan_kernel<T, Op, kBT, kIPT, kMB, true, kG, kLH, kSH, false>
                     : scan_kernel<T, Op, kBT, kIPT, kMB, false, kG, kLH, kSH, false>;
  } else if (tiles > 1) {
    // A grid the device holds at once: tiles by blockIdx, no atomic before the loads (one L2
    // round trip less per call).
    auto indexed = aligned ? scan_kernel<T, Op, kBT, kIPT, kMB, true, 0, kLH, kSH, true>
                           : scan_kernel<T, Op, kBT, kIPT, kMB, false, 0, kLH, kSH, true>;
    if (tiles <= lookback::resident_tiles(indexed, kBT)) kernel = indexed;
  }
  if (tiles > 1) {
    const std::size_t tile_bytes = 2 * sizeof(T) * std::size_t(kBT) * kIPT;
    a.delays = P::delays_for(
        tiles,
        lookback::wave_ns(tile_bytes, lookback::resident_blocks_per_sm(kernel, kBT),
                          lookback::device_rate()),
        run_to_run && kG > 0);
  }
  kernel<<<unsigned(tiles), kBT, 0, stream>>>(a);
  CUDA_CHECK_LAUNCH();
}

}  // namespace single_pass

// Refuses the n that scan_with_policy refuses, so that the ScanWorkspace overload of scan() throws
// before it tries to allocate.
template <class T, class Op>
std::size_t single_pass_workspace_bytes(std::size_t n) {
  if (single_pass::num_tiles<T, single_pass::DefaultPolicy<T>>(n) > std::size_t(INT_MAX))
    throw std::invalid_argument("single_pass_scan: n too large for one grid");
  return single_pass::workspace_bytes<T, single_pass::DefaultPolicy<T>>(n);
}

template <class T, class Op>
void single_pass_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                      bool run_to_run = false) {
  single_pass::scan_with_policy<single_pass::DefaultPolicy<T>>(
      kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream, run_to_run);
}

}  // namespace detail
}  // namespace scandof
