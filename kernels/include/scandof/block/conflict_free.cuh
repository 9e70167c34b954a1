// Blelloch block scan without bank conflicts: the WorkEfficient tree with every shared-memory index
// padded by one element per bank row (BankPad: i >> 5 for 4-byte T, i >> 4 for 8-byte T), and the
// paper's loading of the two tile halves (thread t takes items t and t + TILE/2) so global loads
// and the first tree level stay conflict-free too. Same 2(n - 1) combines; 1/32 more shared memory.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::ConflictFree, T, Op> {
  static constexpr int BLOCK_THREADS = shape::block_threads(ScanAlgorithm::ConflictFree);  // 512
  static constexpr int ITEMS_PER_THREAD =
      shape::items_per_thread(ScanAlgorithm::ConflictFree, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  using Pad = detail::BankPad<T>;
  static constexpr int kSharedItems = Pad::padded_size(TILE_ITEMS);

  static_assert(detail::element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(detail::is_pow2(BLOCK_THREADS) && ITEMS_PER_THREAD == 2,
                "two items per thread, a power-of-two tile");
  static_assert((kSharedItems + 1) * sizeof(T) <= detail::kMaxStaticSharedBytes,
                "tile exceeds static shared memory");

  struct TempStorage {
    detail::SharedArray<T, kSharedItems> buf;
    detail::SharedArray<T, 1> total;
  };

  __device__ explicit BlockScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    T* buf = s_.buf.data();
    const int ia = t, ib = t + TILE_ITEMS / 2;
    const T a = ia < valid ? in[ia] : identity;
    const T b = ib < valid ? in[ib] : identity;
    buf[Pad::index(ia)] = a;
    buf[Pad::index(ib)] = b;

    int offset = 1;
#pragma unroll
    for (int d = TILE_ITEMS >> 1; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d) {
        const int ai = Pad::index(offset * (2 * t + 1) - 1);
        const int bi = Pad::index(offset * (2 * t + 2) - 1);
        buf[bi] = op(buf[ai], buf[bi]);
      }
      offset *= 2;
    }
    if (t == 0) {
      const int root = Pad::index(TILE_ITEMS - 1);
      s_.total.data()[0] = buf[root];
      buf[root] = identity;
    }
#pragma unroll
    for (int d = 1; d < TILE_ITEMS; d *= 2) {
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        const int ai = Pad::index(offset * (2 * t + 1) - 1);
        const int bi = Pad::index(offset * (2 * t + 2) - 1);
        const T left = buf[ai];
        buf[ai] = buf[bi];
        buf[bi] = op(buf[bi], left);  // prefix of earlier elements first
      }
    }
    __syncthreads();
    const T ea = buf[Pad::index(ia)], eb = buf[Pad::index(ib)];
    const T aggregate = s_.total.data()[0];
    __syncthreads();
    if (ia < valid) out[ia] = op(prefix, inclusive ? op(ea, a) : ea);
    if (ib < valid) out[ib] = op(prefix, inclusive ? op(eb, b) : eb);
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace block
}  // namespace scandof
