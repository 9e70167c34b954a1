// Work-efficient block scan: Blelloch's up-sweep (reduce) and down-sweep with the root set to the
// identity (the paper's Algorithms 3 and 4), two adjacent items per thread as the paper first
// writes it. 2(n - 1) combines, but the tree's strides of 2, 4, 8, ... elements make threads of a
// warp hit the same shared-memory bank: up to 16-way conflicts at the deep levels. ConflictFree
// is the same tree with padded indices.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::WorkEfficient, T, Op> {
  static constexpr int BLOCK_THREADS = shape::block_threads(ScanAlgorithm::WorkEfficient);  // 512
  static constexpr int ITEMS_PER_THREAD =
      shape::items_per_thread(ScanAlgorithm::WorkEfficient, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  static_assert(detail::element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(detail::is_pow2(BLOCK_THREADS) && ITEMS_PER_THREAD == 2,
                "two items per thread, a power-of-two tile");
  static_assert((TILE_ITEMS + 1) * sizeof(T) <= detail::kMaxStaticSharedBytes,
                "tile exceeds static shared memory");

  struct TempStorage {
    detail::SharedArray<T, TILE_ITEMS> buf;
    detail::SharedArray<T, 1> total;
  };

  __device__ explicit BlockScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    T* buf = s_.buf.data();
    const int ia = 2 * t, ib = 2 * t + 1;
    const T a = ia < valid ? in[ia] : identity;
    const T b = ib < valid ? in[ib] : identity;
    buf[ia] = a;
    buf[ib] = b;

    int offset = 1;
#pragma unroll
    for (int d = TILE_ITEMS >> 1; d > 0; d >>= 1) {  // up-sweep: partial reductions in place
      __syncthreads();
      if (t < d) {
        const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        buf[bi] = op(buf[ai], buf[bi]);
      }
      offset *= 2;
    }
    if (t == 0) {
      s_.total.data()[0] = buf[TILE_ITEMS - 1];
      buf[TILE_ITEMS - 1] = identity;
    }
#pragma unroll
    for (int d = 1; d < TILE_ITEMS; d *= 2) {  // down-sweep
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        // A node passes its prefix to its left child and prefix (+) left-subtree total to its
        // right child; the prefix covers earlier elements, so it goes first.
        const T left = buf[ai];
        buf[ai] = buf[bi];
        buf[bi] = op(buf[bi], left);
      }
    }
    __syncthreads();
    const T ea = buf[ia], eb = buf[ib];  // exclusive results; eb is also a's inclusive one
    const T aggregate = s_.total.data()[0];
    __syncthreads();
    if (inclusive) {
      if (ia < valid) out[ia] = op(prefix, eb);
      if (ib < valid) out[ib] = op(prefix, op(eb, b));
    } else {
      if (ia < valid) out[ia] = op(prefix, ea);
      if (ib < valid) out[ib] = op(prefix, eb);
    }
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace block
}  // namespace scandof
