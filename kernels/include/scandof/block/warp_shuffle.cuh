// Today's block scan: the Optimized variant's register tiles (32 bytes per thread, vector loads,
// sequential reduce), but the per-thread totals are scanned with __shfl_up_sync inside each warp
// (5 register-to-register steps, no shared memory, no barrier), then the first warp scans the
// warp totals. Two barriers per tile instead of the tree's 2 log2(BLOCK_THREADS).
#pragma once

#include "scandof/block/common.cuh"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace block {

namespace detail {

// WarpShuffle's Totals: shuffle scans inside each warp, the first warp scans the warp totals.
template <class T, class Op, int THREADS>
struct WarpTotals {
  static constexpr int kWarps = THREADS / 32;

  static_assert(THREADS % 32 == 0 && is_pow2(kWarps) && kWarps <= 32,
                "whole warps, a power-of-two count of at most 32 (one warp scans their totals)");

  struct TempStorage {
    SharedArray<T, kWarps> warp_incl;  // inclusive scan of the warp totals
  };

  static __device__ __forceinline__ T scan(TempStorage& s, T sum, Op op, T identity, T prefix,
                                           T& acc) {
    const int t = static_cast<int>(threadIdx.x);
    const int lane = t & 31, warp = t >> 5;
    T* wt = s.warp_incl.data();
    T excl;  // lane 0's value is junk and never used
    const T incl = warp::inclusive_scan(sum, op, lane, excl);
    if (lane == 31) wt[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      T v = lane < kWarps ? wt[lane] : identity;
      v = warp::inclusive_scan<kWarps>(v, op, lane);
      if (lane < kWarps) wt[lane] = v;
    }
    __syncthreads();
    // Only the combines that are needed: op(prefix, op(earlier warps, earlier lanes)).
    acc = prefix;
    if (warp > 0) acc = op(acc, wt[warp - 1]);
    if (lane > 0) acc = op(acc, excl);
    return wt[kWarps - 1];
  }
};

}  // namespace detail

template <class T, class Op>
struct BlockScan<ScanAlgorithm::WarpShuffle, T, Op>
    : detail::RegisterTileScan<ScanAlgorithm::WarpShuffle, T, Op, detail::WarpTotals> {
  using Base = detail::RegisterTileScan<ScanAlgorithm::WarpShuffle, T, Op, detail::WarpTotals>;
  using Base::Base;
};

}  // namespace block
}  // namespace scandof
