// Naive block scan: Hillis & Steele (the paper's Algorithm 2), one item per thread, ping-pong
// buffers in shared memory. log2(1024) = 10 steps of up to 1024 combines each, O(n log n) work
// against the sequential scan's n - 1: the reason the paper moves on to Blelloch's tree.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::Naive, T, Op> {
  static constexpr int BLOCK_THREADS = shape::block_threads(ScanAlgorithm::Naive);  // 1024
  static constexpr int ITEMS_PER_THREAD = shape::items_per_thread(ScanAlgorithm::Naive, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  static_assert(detail::element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(detail::is_pow2(BLOCK_THREADS) && ITEMS_PER_THREAD == 1,
                "one item per thread, a power-of-two tile");
  static_assert(2 * TILE_ITEMS * sizeof(T) <= detail::kMaxStaticSharedBytes,
                "double buffer exceeds static shared memory");

  // Double buffering: each step reads one buffer and writes the other, so a step needs a single
  // barrier instead of the two a read-then-write in place would need.
  struct TempStorage {
    detail::SharedArray<T, 2 * TILE_ITEMS> buf;
  };

  __device__ explicit BlockScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    T* buf = s_.buf.data();
    // The own running value stays in a register; only the neighbour's comes from shared memory.
    T x = t < valid ? in[t] : identity;
    buf[t] = x;
    int pin = 0;
#pragma unroll
    for (int offset = 1; offset < TILE_ITEMS; offset *= 2) {
      __syncthreads();
      if (t >= offset) x = op(buf[pin * TILE_ITEMS + t - offset], x);
      pin ^= 1;
      buf[pin * TILE_ITEMS + t] = x;
    }
    __syncthreads();
    const T aggregate = buf[pin * TILE_ITEMS + TILE_ITEMS - 1];
    const T before = t > 0 ? buf[pin * TILE_ITEMS + t - 1] : identity;
    __syncthreads();  // every read of buf is done: callers may reuse it, and in == out is safe
    if (t < valid) out[t] = inclusive ? op(prefix, x) : (t > 0 ? op(prefix, before) : prefix);
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace block
}  // namespace scandof
