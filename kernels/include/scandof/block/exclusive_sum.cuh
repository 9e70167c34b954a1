// Block-wide exclusive sum of one value per thread with a prefix callback (CUB's
// BlockScan::ExclusiveSum(input, output, block_prefix_callback_op)): the building block of the
// sorts' digit scans (the onesweep ranking, the split sort's chunk kernel).
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

// warp_sum: kThreads / 32 shared slots. The caller synchronizes before writing them again.
template <int kThreads, class T, class PrefixOp>
__device__ __forceinline__ T exclusive_sum(T x, T* warp_sum, PrefixOp&& prefix_op) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  constexpr int kWarps = kThreads / 32;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const T inc = warp::inclusive_scan(x, Sum{}, lane);
  if (lane == 31) warp_sum[warp] = inc;
  __syncthreads();
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

}  // namespace block
}  // namespace scandof
