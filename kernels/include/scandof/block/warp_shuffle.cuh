// Today's block scan: the Optimized variant's register tiles (32 bytes per thread, vector loads,
// sequential reduce), but the per-thread totals are scanned with __shfl_up_sync inside each warp
// (5 register-to-register steps, no shared memory, no barrier), then the first warp scans the
// warp totals. Two barriers per tile instead of the tree's 2 log2(BLOCK_THREADS).
#pragma once

#include "scandof/block/common.cuh"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::WarpShuffle, T, Op> {
  static constexpr int BLOCK_THREADS = shape::block_threads(ScanAlgorithm::WarpShuffle);  // 256
  static constexpr int ITEMS_PER_THREAD =
      shape::items_per_thread(ScanAlgorithm::WarpShuffle, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int kWarps = BLOCK_THREADS / 32;

  static_assert(detail::element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(BLOCK_THREADS % 32 == 0 && detail::is_pow2(kWarps) && kWarps <= 32,
                "whole warps, a power-of-two count of at most 32 (one warp scans their totals)");

  struct TempStorage {
    detail::SharedArray<T, kWarps> warp_incl;  // inclusive scan of the warp totals
  };

  __device__ explicit BlockScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    const int lane = t & 31, warp = t >> 5;
    T* wt = s_.warp_incl.data();
    T x[ITEMS_PER_THREAD];
    detail::load_blocked(in, valid, identity, x);
    T sum = x[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) sum = op(sum, x[i]);

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
    T acc = prefix;
    if (warp > 0) acc = op(acc, wt[warp - 1]);
    if (lane > 0) acc = op(acc, excl);
    const T aggregate = wt[kWarps - 1];
    __syncthreads();
    detail::rescan_and_store(out, valid, x, acc, op, inclusive);
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace block
}  // namespace scandof
