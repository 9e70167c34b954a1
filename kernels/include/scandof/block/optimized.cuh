// The paper's final block scan: each thread loads several consecutive items (8 for 4-byte T, 32
// bytes) with 16-byte vector loads, reduces them sequentially in registers, a fully unrolled,
// conflict-free Blelloch tree scans the BLOCK_THREADS per-thread totals in shared memory, and each
// thread then rescans its registers starting from its offset. Per item that is about two combines
// and no shared-memory traffic; the tree only sees 1/8 of the items, so its barriers amortize.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::Optimized, T, Op> {
  static constexpr int BLOCK_THREADS = shape::block_threads(ScanAlgorithm::Optimized);  // 256
  static constexpr int ITEMS_PER_THREAD =
      shape::items_per_thread(ScanAlgorithm::Optimized, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  using Pad = detail::BankPad<T>;
  static constexpr int kSharedItems = Pad::padded_size(BLOCK_THREADS);

  static_assert(detail::element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(detail::is_pow2(BLOCK_THREADS), "the tree needs a power-of-two thread count");
  static_assert((kSharedItems + 1) * sizeof(T) <= detail::kMaxStaticSharedBytes,
                "totals exceed static shared memory");

  struct TempStorage {
    detail::SharedArray<T, kSharedItems> sums;
    detail::SharedArray<T, 1> total;
  };

  __device__ explicit BlockScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    T* sums = s_.sums.data();
    T x[ITEMS_PER_THREAD];
    detail::load_blocked(in, valid, identity, x);
    // Reduce now, scan later from the offset: same 2n combines as scanning twice, fewer live
    // registers than keeping a separate inclusive copy.
    T sum = x[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) sum = op(sum, x[i]);
    sums[Pad::index(t)] = sum;

    // Constant trip counts: with #pragma unroll every level's indices fold to constants plus t,
    // and the `t < d` tests are the only control flow left (the paper's template unrolling).
#pragma unroll
    for (int d = BLOCK_THREADS >> 1, offset = 1; d > 0; d >>= 1, offset *= 2) {
      __syncthreads();
      if (t < d) {
        const int ai = Pad::index(offset * (2 * t + 1) - 1);
        const int bi = Pad::index(offset * (2 * t + 2) - 1);
        sums[bi] = op(sums[ai], sums[bi]);
      }
    }
    if (t == 0) {
      const int root = Pad::index(BLOCK_THREADS - 1);
      s_.total.data()[0] = sums[root];
      sums[root] = identity;
    }
#pragma unroll
    for (int d = 1, offset = BLOCK_THREADS >> 1; d < BLOCK_THREADS; d *= 2, offset >>= 1) {
      __syncthreads();
      if (t < d) {
        const int ai = Pad::index(offset * (2 * t + 1) - 1);
        const int bi = Pad::index(offset * (2 * t + 2) - 1);
        const T left = sums[ai];
        sums[ai] = sums[bi];
        sums[bi] = op(sums[bi], left);
      }
    }
    __syncthreads();
    T acc = op(prefix, sums[Pad::index(t)]);
    const T aggregate = s_.total.data()[0];
    __syncthreads();
    detail::rescan_and_store(out, valid, x, acc, op, inclusive);
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace block
}  // namespace scandof
