// Single-pass device-wide scan with decoupled look-back (Merrill & Garland 2016).
//
// One kernel reads every element once and writes it once (2n traffic, the copy floor), plus a
// tiny init kernel that clears the tile-status array and the tile counter in the stream. Each
// block takes the next tile id from a global atomic counter, so tiles start in launch order and a
// block only ever waits on tiles that are already running: the look-back cannot deadlock.
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
// A tile that is the whole input (small n) skips the counter, the status array and the init
// kernel: one launch.
//
// Tile status (device/tile_status.cuh, with the look-back itself): for sizeof(T) <= 4 the flag and
// the value share one 64-bit word written and read with single relaxed 8-byte accesses (no fence:
// the value can never be seen without its flag). Larger T split the value into 32-bit pieces, each
// in its own 64-bit word beside a copy of the flag; a reader accepts a tile only when all its words
// carry the same flag (see SplitWords). A release/acquire flag + value-slot scheme (FlagSlots) is
// kept for comparison.
//
// Look-back pacing: warp 0 sleeps ~3 us after publishing its aggregate before the first poll and
// 648 ns between polls (for grids of 500+ tiles). Measured on the H100 this is worth 13% at 2^28:
// polling at once mostly finds unpublished predecessors and adds L2 round trips to the data stream.
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

#include "scandof/cuda_check.hpp"
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
using lookback::resolve_scheme;
using lookback::StatusScheme;
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

// Launch shape and look-back pacing. The tuning harness (bench/tune_single_pass.cu) sweeps these;
// results/single_pass_notes.md has the numbers behind the defaults.
template <int BlockThreads, int ItemsPerThread, int MinBlocks = 1, bool Persistent = false,
          unsigned FirstNs = 0, unsigned SpinNs = 0, unsigned DelayMinTiles = 500,
          StatusScheme Scheme = StatusScheme::Auto>
struct Policy {
  static constexpr StatusScheme SCHEME = Scheme;
  static constexpr int BLOCK_THREADS = BlockThreads;
  static constexpr int ITEMS_PER_THREAD = ItemsPerThread;
  static constexpr int MIN_BLOCKS = MinBlocks;  // __launch_bounds__ blocks per SM (register cap)
  // Persistent blocks measured slower (notes, run 2); kept for the record, no default uses it.
  static constexpr bool PERSISTENT = Persistent;
  // Pacing pays only once tiles queue behind each other; a grid of about one wave (2^20 int32 is
  // 128 tiles) would just wait longer, so small grids poll at once (CUB uses the same cut-off).
  static LookbackDelays delays_for(std::size_t tiles) {
    return tiles >= DelayMinTiles ? LookbackDelays{FirstNs, SpinNs} : LookbackDelays{};
  }
};

// 128 bytes of input per thread (at most 32 items: each item of 4 bytes or less takes a whole
// register), 256 threads, sleep 3 us before the first look-back poll and 648 ns between polls.
// 8-byte arithmetic T: capped at 64 registers (4 blocks/SM instead of 3 at 76 registers; 2% at
// 2^27 double). Not for structs: ComposeAffine would spill under the cap.
template <class T>
constexpr int default_items() {
  constexpr int v = vec_items<T>();
  constexpr int want = (128 / int(sizeof(T))) < 32 ? (128 / int(sizeof(T))) : 32;
  return want / v > 0 ? want / v * v : v;
}
template <class T>
struct DefaultPolicy
    : Policy<256, default_items<T>(), (sizeof(T) == 8 && std::is_arithmetic<T>::value) ? 4 : 1,
             false, 3000, 648> {};

template <class T, class P>
using StatusOf = TileStatus<T, resolve_scheme<T>(P::SCHEME)>;

// ---- workspace layout: [tile counter | 256 B pad][flags][value slots] ---------------------------

constexpr std::size_t kAlign = 256;
inline std::size_t align_up(std::size_t x) {
  return (x + kAlign - 1) / kAlign * kAlign;
}

template <class T, class P>
std::size_t num_tiles(std::size_t n) {
  constexpr std::size_t tile = std::size_t(P::BLOCK_THREADS) * P::ITEMS_PER_THREAD;
  return (n + tile - 1) / tile;
}

template <class T, class P>
std::size_t workspace_bytes(std::size_t n) {
  const std::size_t tiles = num_tiles<T, P>(n);
  if (tiles <= 1) return 0;  // one tile needs no look-back, hence no scratch
  return kAlign + align_up(StatusOf<T, P>::flag_bytes(tiles)) +
         align_up(StatusOf<T, P>::value_bytes(tiles));
}

// Clears the counter and every flag (values need no clearing: they are read only behind a flag).
// A template only so that this header can be included by several translation units.
template <int kUnused = 0>
__global__ void init_kernel(unsigned long long* words, std::size_t count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    words[i] = 0ull;
}

// ---- the scan kernel --------------------------------------------------------------------------

template <class T, int kWarps>
struct SharedStorage {
  T warp_total[kWarps];
  T warp_prefix[kWarps];
  unsigned ticket[2];  // tile ids; two slots so a prefetched id never overwrites one being read
};

template <class T, class Op, class Status>
struct ScanArgs {
  const T* in;
  T* out;
  std::size_t n;
  Op op;
  T identity;
  bool inclusive;
  Status status;
  unsigned* tile_counter;  // null when the input is a single tile
  unsigned tiles;
  LookbackDelays delays;
};

// Scans tile `tile` with the whole block. When `ticket_slot` is non-null, thread 0 stores
// `next_ticket` there before the first barrier (after the loads are issued, so the atomic that
// produced it overlaps the loads instead of delaying them).
template <class T, class Op, class Status, int kBlockThreads, int kItems, bool kAligned>
__device__ __forceinline__ void scan_tile(const ScanArgs<T, Op, Status>& a,
                                          SharedStorage<T, kBlockThreads / 32>& smem, unsigned tile,
                                          unsigned* ticket_slot, unsigned next_ticket) {
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
    for (int s = 0; s < kSlots; ++s) raw[s] = src[s * 32 + lane];
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
  if (ticket_slot != nullptr && threadIdx.x == 0) *ticket_slot = next_ticket;

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
      if (a.tiles > 1 && lane == 0) a.status.publish(0, kFlagPrefix, tile_total);
    } else {
      prefix = lookback::warp_lookback(a.status, tile, tile_total, op, identity, a.delays);
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
      reinterpret_cast<uint4*>(dst)[s * 32 + lane] = raw;
    } else {
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        const int i = (s * 32 + lane) * kVec + k;
        if (full || i < warp_valid) dst[i] = o[k];
      }
    }
  }
}

// One block per tile (kPersistent false) or a grid of resident blocks that keep taking tickets
// (kPersistent true: the next ticket's atomic is issued before the current tile's loads, so its
// L2 round trip leaves the critical path). Either way tile ids come from the global counter in
// the order blocks ask, so every tile a block waits on belongs to a block that is running and
// will publish without waiting on anything later: no deadlock.
template <class T, class Op, class Status, int kBlockThreads, int kItems, int kMinBlocks,
          bool kPersistent, bool kAligned>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
    scan_kernel(ScanArgs<T, Op, Status> a) {
  static_assert(kBlockThreads % 32 == 0 && kBlockThreads <= 1024, "whole warps, <= 1024 threads");
  static_assert(kItems % vec_items<T>() == 0,
                "ITEMS_PER_THREAD must be a multiple of 16 / sizeof(T)");
  constexpr int kWarps = kBlockThreads / 32;
  // Raw storage: T may lack a trivial default constructor, which __shared__ objects may not have.
  __shared__ alignas(16) unsigned char smem_raw[sizeof(SharedStorage<T, kWarps>)];
  auto& smem = *reinterpret_cast<SharedStorage<T, kWarps>*>(smem_raw);

  if (a.tiles == 1) {  // the whole input is one tile: no counter, no status
    scan_tile<T, Op, Status, kBlockThreads, kItems, kAligned>(a, smem, 0, nullptr, 0);
    return;
  }
  if (threadIdx.x == 0) smem.ticket[0] = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  unsigned tile = smem.ticket[0];
  if constexpr (!kPersistent) {
    scan_tile<T, Op, Status, kBlockThreads, kItems, kAligned>(a, smem, tile, nullptr, 0);
  } else {
    for (unsigned it = 1; tile < a.tiles; ++it) {
      const unsigned slot = it & 1;
      unsigned next = 0;
      if (threadIdx.x == 0) next = atomicAdd(a.tile_counter, 1u);
      scan_tile<T, Op, Status, kBlockThreads, kItems, kAligned>(a, smem, tile, &smem.ticket[slot],
                                                                next);
      tile = smem.ticket[slot];  // written before the tile's first barrier
    }
  }
}

// Host side with an explicit policy (the tuning harness calls this one directly).
// `delays` overrides the policy's pacing (tuning); null: the policy's choice for this grid.
template <class P, class T, class Op>
void scan_with_policy_impl(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                           void* d_workspace, std::size_t ws_bytes, cudaStream_t stream,
                           const LookbackDelays* delays) {
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

  using Status = StatusOf<T, P>;
  const bool incl = kind == ScanKind::Inclusive;
  const LookbackDelays pace = delays ? *delays : P::delays_for(tiles);
  ScanArgs<T, Op, Status> a{d_in,    d_out,           n,   op, identity, incl, Status{},
                            nullptr, unsigned(tiles), pace};
  if (tiles > 1) {
    auto* base = static_cast<unsigned char*>(d_workspace);
    a.tile_counter = reinterpret_cast<unsigned*>(base);
    unsigned char* flags = base + kAlign;
    unsigned char* values = flags + align_up(Status::flag_bytes(tiles));
    a.status = Status::make(flags, values, tiles);
    // Counter + flags are one contiguous run of 8-byte words.
    const std::size_t words = (kAlign + Status::flag_bytes(tiles) + 7) / 8;
    const int threads = 256;
    const std::size_t blocks = (words + threads - 1) / threads;
    init_kernel<><<<unsigned(blocks < 4096 ? blocks : 4096), threads, 0, stream>>>(
        reinterpret_cast<unsigned long long*>(base), words);
    CUDA_CHECK_LAUNCH();
  }

  const bool aligned = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0;
  constexpr int kBT = P::BLOCK_THREADS, kIPT = P::ITEMS_PER_THREAD, kMB = P::MIN_BLOCKS;
  constexpr bool kPers = P::PERSISTENT;
  auto kernel = aligned ? scan_kernel<T, Op, Status, kBT, kIPT, kMB, kPers, true>
                        : scan_kernel<T, Op, Status, kBT, kIPT, kMB, kPers, false>;
  unsigned grid = unsigned(tiles);
  if (kPers && tiles > 1) {
    // Only as many blocks as fit at once: a persistent block that cannot start would hold no
    // ticket (harmless) but waste a launch slot.
    int dev = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBT, 0));
    const std::size_t resident = std::size_t(sms) * std::size_t(per_sm > 0 ? per_sm : 1);
    grid = unsigned(tiles < resident ? tiles : resident);
  }
  kernel<<<grid, kBT, 0, stream>>>(a);
  CUDA_CHECK_LAUNCH();
}

template <class P, class T, class Op>
void scan_with_policy(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t ws_bytes, cudaStream_t stream) {
  scan_with_policy_impl<P>(kind, d_in, d_out, n, op, identity, d_workspace, ws_bytes, stream,
                           nullptr);
}
template <class P, class T, class Op>
void scan_with_policy(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t ws_bytes, cudaStream_t stream,
                      LookbackDelays delays) {
  scan_with_policy_impl<P>(kind, d_in, d_out, n, op, identity, d_workspace, ws_bytes, stream,
                           &delays);
}

}  // namespace single_pass

template <class T, class Op>
std::size_t single_pass_workspace_bytes(std::size_t n) {
  return single_pass::workspace_bytes<T, single_pass::DefaultPolicy<T>>(n);
}

template <class T, class Op>
void single_pass_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  single_pass::scan_with_policy<single_pass::DefaultPolicy<T>>(
      kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream);
}

}  // namespace detail
}  // namespace scandof
