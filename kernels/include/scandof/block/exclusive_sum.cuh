// Block-wide exclusive sum of one value per thread with a prefix callback (CUB's
// BlockScan::ExclusiveSum(input, output, block_prefix_callback_op)): the building block of the
// sorts' digit scans (onesweep and three-kernel LSD ranking, the split sort's chunk kernel).
//
// Warp shuffles scan inside each warp, the last lane of each warp posts the warp's total, one
// barrier, then every thread folds the totals of the warps before it (kThreads / 32 shared loads,
// broadcast). The in-warp exclusive value is inc - x (a sum is invertible), saving a shuffle.
// prefix_op(aggregate) is called by every thread with the block's total and returns what goes in
// front of the block; unlike CUB's, every thread calls it (each already has the total, and handing
// warp 0's answer to the others would cost another barrier). A callback that returns a constant
// compiles away.
#pragma once

#include "scandof/ops.hpp"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace block {

namespace detail {
// The first half of both block sums below: each warp scans x, its last lane posts the warp's total
// in warp_sum[warp], one barrier. Returns the thread's inclusive in-warp value.
template <int kThreads, class T>
__device__ __forceinline__ T scan_and_post_warp_totals(T x, T* warp_sum, int lane, int warp) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  const T inc = warp::inclusive_scan(x, Sum{}, lane);
  if (lane == 31) warp_sum[warp] = inc;
  __syncthreads();
  return inc;
}
}  // namespace detail

// warp_sum: kThreads / 32 shared slots. The caller synchronizes before writing them again.
template <int kThreads, class T, class PrefixOp>
__device__ __forceinline__ T exclusive_sum(T x, T* warp_sum, PrefixOp&& prefix_op) {
  constexpr int kWarps = kThreads / 32;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const T inc = detail::scan_and_post_warp_totals<kThreads>(x, warp_sum, lane, warp);
  T before = inc - x, total = T(0);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const T s = warp_sum[w];
    before += w < warp ? s : T(0);
    total += s;
  }
  return prefix_op(total) + before;
}

// Without a prefix: the block starts at zero.
template <int kThreads, class T>
__device__ __forceinline__ T exclusive_sum(T x, T* warp_sum) {
  return exclusive_sum<kThreads>(x, warp_sum, [](T) { return T(0); });
}

// The same without prefix or total, folding only the warps before this one (a loop of `warp`
// trips, not an unrolled pass over all kWarps slots): fewer live registers, which counts where the
// caller runs at <= 64 registers (the three-kernel LSD downsweep at 4 blocks per SM was 4% slower
// with the unrolled fold).
template <int kThreads, class T>
__device__ __forceinline__ T exclusive_sum_lean(T x, T* warp_sum) {
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  T before = detail::scan_and_post_warp_totals<kThreads>(x, warp_sum, lane, warp) - x;
  for (int w = 0; w < warp; ++w) before += warp_sum[w];
  return before;
}

}  // namespace block
}  // namespace scandof
