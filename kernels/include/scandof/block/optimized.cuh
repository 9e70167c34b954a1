// The paper's final block scan: each thread loads several consecutive items (8 for 4-byte T, 32
// bytes) with 16-byte vector loads, reduces them sequentially in registers, a fully unrolled,
// conflict-free Blelloch tree scans the BLOCK_THREADS per-thread totals in shared memory, and each
// thread then rescans its registers starting from its offset. Per item that is about two combines
// and no shared-memory traffic; the tree only sees 1/8 of the items, so its barriers amortize.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

namespace detail {

// Optimized's Totals: the padded (conflict-free) Blelloch tree over the per-thread totals.
template <class T, class Op, int THREADS>
struct TreeTotals {
  using Pad = BankPad<T>;
  static constexpr int kSharedItems = Pad::padded_size(THREADS);

  static_assert(is_pow2(THREADS), "the tree needs a power-of-two thread count");
  static_assert((kSharedItems + 1) * sizeof(T) <= kMaxStaticSharedBytes,
                "totals exceed static shared memory");

  struct TempStorage {
    SharedArray<T, kSharedItems> sums;
    SharedArray<T, 1> total;
  };

  static __device__ __forceinline__ T scan(TempStorage& s, T sum, Op op, T identity, T prefix,
                                           T& acc) {
    const int t = static_cast<int>(threadIdx.x);
    T* sums = s.sums.data();
    sums[Pad::index(t)] = sum;
    blelloch_exclusive<THREADS, Pad>(sums, s.total.data(), t, op, identity);
    acc = op(prefix, sums[Pad::index(t)]);
    return s.total.data()[0];
  }
};

}  // namespace detail

template <class T, class Op>
struct BlockScan<ScanAlgorithm::Optimized, T, Op>
    : detail::RegisterTileScan<ScanAlgorithm::Optimized, T, Op, detail::TreeTotals> {
  using Base = detail::RegisterTileScan<ScanAlgorithm::Optimized, T, Op, detail::TreeTotals>;
  using Base::Base;
};

}  // namespace block
}  // namespace scandof
