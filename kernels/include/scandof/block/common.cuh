// Pieces shared by the block-level scans: the primary template every variant specializes, shared
// memory typed as raw bytes, the bank-conflict padding rule, blocked register loads and stores with
// 16-byte vectors, Blelloch's tree (the paper's Algorithms 3 and 4) and the two bodies that several
// variants are made of: PairTreeScan (WorkEfficient, ConflictFree) and RegisterTileScan (Optimized,
// WarpShuffle). Everything is a compile-time template: with the trip counts constant and the
// policies inlined, each variant compiles to what its own hand-written copy did (PTX compared when
// they were merged: the same, up to one redundant compare and instruction order). Warp shuffles
// and warp scans come from scandof/warp/warp_scan.cuh.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scandof/block/host_shapes.hpp"
#include "scandof/scan.hpp"

namespace scandof {
namespace block {

// One specialization per ScanAlgorithm in Naive..WarpShuffle (see block_scan.cuh). Contract:
//   BLOCK_THREADS, ITEMS_PER_THREAD, TILE_ITEMS; struct TempStorage (put it in __shared__);
//   __device__ explicit BlockScan(TempStorage&);
//   __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
//                          T prefix);
// scan_tile reads in[0..valid), treats the rest of the tile as identity, writes
// out[i] = op(prefix, scan(tile)[i]) for i < valid and returns the tile's aggregate (without
// prefix) in every thread. in may equal out. All BLOCK_THREADS threads must call it (launch with
// exactly that many); it ends with a barrier, so the TempStorage may be reused right away.
template <ScanAlgorithm A, class T, class Op>
struct BlockScan;

namespace detail {

constexpr bool is_pow2(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}
constexpr int log2_floor(int x) {
  return x <= 1 ? 0 : 1 + log2_floor(x / 2);
}

// Static shared memory for a static-size kernel is limited to 48 KiB per block.
constexpr std::size_t kMaxStaticSharedBytes = 48 * 1024;

// Shared memory as bytes: a __shared__ T[] would need a trivial default constructor, which
// trivially copyable structs with default member initializers lack.
template <class T, int N>
struct SharedArray {
  alignas(alignof(T)) unsigned char bytes[N * sizeof(T)];
  __device__ __forceinline__ T* data() { return reinterpret_cast<T*>(bytes); }
};

// Shared memory has 32 banks of 4 bytes and serves a warp in 128-byte wavefronts, so an element of
// sizeof(T) bytes meets its own bank again every 128 / sizeof(T) elements (32 for 4-byte T, 16 for
// 8-byte T, 8 for 16-byte T). One pad element per such row turns the tree's power-of-two strides
// into distinct banks (the paper's CONFLICT_FREE_OFFSET(n) = n >> 5 for 4-byte T). Costs 1/32 more
// shared memory for 4-byte T.
template <class T>
struct BankPad {
  static constexpr int kElemsPerRow = sizeof(T) >= 128 ? 1 : static_cast<int>(128 / sizeof(T));
  static constexpr int kLog = log2_floor(kElemsPerRow);
  static constexpr int padded_size(int n) { return n + (n >> kLog); }
  static __device__ __forceinline__ int index(int i) { return i + (i >> kLog); }
};

// Loads this thread's ITEMS consecutive elements (blocked arrangement). Whole 16-byte vectors when
// the thread's run is complete and aligned: the tile start is aligned whenever the array is, since
// TILE_ITEMS * sizeof(T) is a multiple of 16 there. Otherwise scalar loads with identity fill.
template <class T, int ITEMS>
__device__ __forceinline__ void load_blocked(const T* tile, int valid, T identity, T (&x)[ITEMS]) {
  const int first = static_cast<int>(threadIdx.x) * ITEMS;
  constexpr int kBytes = ITEMS * static_cast<int>(sizeof(T));
  if constexpr (kBytes % 16 == 0) {
    if (first + ITEMS <= valid && reinterpret_cast<std::uintptr_t>(tile) % 16 == 0) {
      const uint4* v = reinterpret_cast<const uint4*>(tile + first);
      uint4 w[kBytes / 16];
#pragma unroll
      for (int k = 0; k < kBytes / 16; ++k) w[k] = v[k];
      memcpy(static_cast<void*>(x), w, kBytes);
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) x[i] = first + i < valid ? tile[first + i] : identity;
}

template <class T, int ITEMS>
__device__ __forceinline__ void store_blocked(T* tile, int valid, const T (&x)[ITEMS]) {
  const int first = static_cast<int>(threadIdx.x) * ITEMS;
  constexpr int kBytes = ITEMS * static_cast<int>(sizeof(T));
  if constexpr (kBytes % 16 == 0) {
    if (first + ITEMS <= valid && reinterpret_cast<std::uintptr_t>(tile) % 16 == 0) {
      uint4 w[kBytes / 16];
      memcpy(w, static_cast<const void*>(x), kBytes);
      uint4* v = reinterpret_cast<uint4*>(tile + first);
#pragma unroll
      for (int k = 0; k < kBytes / 16; ++k) v[k] = w[k];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (first + i < valid) tile[first + i] = x[i];
}

// The register-tile variants' last step: a barrier (every thread has read what it needs of the
// TempStorage, so callers may reuse it and in == out is safe), then the thread's items scanned
// again from its exclusive prefix acc (inclusive or exclusive results) and stored blocked.
template <class T, class Op, int ITEMS>
__device__ __forceinline__ void rescan_and_store(T* out, int valid, T (&x)[ITEMS], T acc, Op op,
                                                 bool inclusive) {
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const T next = op(acc, x[i]);
    x[i] = inclusive ? next : acc;
    acc = next;
  }
  store_blocked(out, valid, x);
}

// What every block scan asks of T: registers and shared memory hold it by value.
template <class T>
constexpr bool element_ok = std::is_trivially_copyable<T>::value && sizeof(T) <= 16;

// The two layouts of PairTreeScan: where thread t's two items sit in the tile (kHalves) and where a
// tree position lives in shared memory (index, padded_size: BankPad's interface).
// WorkEfficient: items 2t and 2t + 1, as the paper first writes it; positions unchanged.
struct AdjacentPairs {
  static constexpr bool kHalves = false;
  static constexpr int padded_size(int n) { return n; }
  static __device__ __forceinline__ int index(int i) { return i; }
};
// ConflictFree: items t and t + TILE_ITEMS / 2 (the paper's loading, so the global loads and the
// first tree level are conflict-free too); positions padded.
template <class T>
struct PaddedHalves : BankPad<T> {
  static constexpr bool kHalves = true;
};

// Exclusive scan of buf[Index::index(0 .. N)] in place: up-sweep (partial reductions), the root
// saved to *total and replaced by the identity, down-sweep. The first N / 2 threads work; every
// thread of the block must call it. Ends with a barrier, so buf and *total are readable by all.
// 2(N - 1) combines and 2 log2(N) barriers.
template <int N, class Index, class T, class Op>
__device__ __forceinline__ void blelloch_exclusive(T* buf, T* total, int t, Op op, T identity) {
  static_assert(is_pow2(N), "the tree needs a power-of-two size");
  // Constant trip counts: with #pragma unroll every level's indices fold to constants plus t, and
  // the `t < d` tests are the only control flow left (the paper's template unrolling).
#pragma unroll
  for (int d = N >> 1, offset = 1; d > 0; d >>= 1, offset *= 2) {
    __syncthreads();
    if (t < d) {
      const int ai = Index::index(offset * (2 * t + 1) - 1);
      const int bi = Index::index(offset * (2 * t + 2) - 1);
      buf[bi] = op(buf[ai], buf[bi]);
    }
  }
  if (t == 0) {
    const int root = Index::index(N - 1);
    total[0] = buf[root];
    buf[root] = identity;
  }
#pragma unroll
  for (int d = 1, offset = N >> 1; d < N; d *= 2, offset >>= 1) {
    __syncthreads();
    if (t < d) {
      const int ai = Index::index(offset * (2 * t + 1) - 1);
      const int bi = Index::index(offset * (2 * t + 2) - 1);
      // A node passes its prefix to its left child and prefix (+) left-subtree total to its right
      // child; the prefix covers earlier elements, so it goes first.
      const T left = buf[ai];
      buf[ai] = buf[bi];
      buf[bi] = op(buf[bi], left);
    }
  }
  __syncthreads();
}

// The tree over the whole tile, two items per thread: the body of BlockScan<A> for WorkEfficient
// (Layout = AdjacentPairs) and ConflictFree (Layout = PaddedHalves<T>).
template <ScanAlgorithm A, class T, class Op, class Layout>
struct PairTreeScan {
  static constexpr int BLOCK_THREADS = shape::block_threads(A);  // 512
  static constexpr int ITEMS_PER_THREAD = shape::items_per_thread(A, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int kSharedItems = Layout::padded_size(TILE_ITEMS);

  static_assert(element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");
  static_assert(is_pow2(BLOCK_THREADS) && ITEMS_PER_THREAD == 2,
                "two items per thread, a power-of-two tile");
  static_assert((kSharedItems + 1) * sizeof(T) <= kMaxStaticSharedBytes,
                "tile exceeds static shared memory");

  struct TempStorage {
    SharedArray<T, kSharedItems> buf;
    SharedArray<T, 1> total;
  };

  __device__ explicit PairTreeScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int t = static_cast<int>(threadIdx.x);
    T* buf = s_.buf.data();
    const int ia = Layout::kHalves ? t : 2 * t;
    const int ib = Layout::kHalves ? t + TILE_ITEMS / 2 : 2 * t + 1;
    const T a = ia < valid ? in[ia] : identity;
    const T b = ib < valid ? in[ib] : identity;
    buf[Layout::index(ia)] = a;
    buf[Layout::index(ib)] = b;
    blelloch_exclusive<TILE_ITEMS, Layout>(buf, s_.total.data(), t, op, identity);
    const T ea = buf[Layout::index(ia)], eb = buf[Layout::index(ib)];  // exclusive results
    const T aggregate = s_.total.data()[0];
    __syncthreads();
    if constexpr (Layout::kHalves) {
      if (ia < valid) out[ia] = op(prefix, inclusive ? op(ea, a) : ea);
      if (ib < valid) out[ib] = op(prefix, inclusive ? op(eb, b) : eb);
    } else if (inclusive) {  // adjacent items: eb is also a's inclusive result, one combine saved
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

// The register-tile block scans (Optimized, WarpShuffle), which differ only in Totals: each thread
// loads its ITEMS_PER_THREAD consecutive items (load_blocked) and reduces them in registers;
// Totals<T, Op, BLOCK_THREADS>::scan scans the per-thread totals in its TempStorage, giving each
// thread op(prefix, the totals of the threads before it) and returning the tile's aggregate; each
// thread then rescans its registers from there. Reduce now and scan later from the offset: the same
// 2n combines as scanning twice, with fewer live registers than keeping an inclusive copy.
template <ScanAlgorithm A, class T, class Op, template <class, class, int> class Totals>
struct RegisterTileScan {
  static constexpr int BLOCK_THREADS = shape::block_threads(A);
  static constexpr int ITEMS_PER_THREAD = shape::items_per_thread(A, sizeof(T));
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  using TotalsScan = Totals<T, Op, BLOCK_THREADS>;
  using TempStorage = typename TotalsScan::TempStorage;

  static_assert(element_ok<T>, "T must be trivially copyable with sizeof(T) <= 16");

  __device__ explicit RegisterTileScan(TempStorage& s) : s_(s) {}

  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    T x[ITEMS_PER_THREAD];
    load_blocked(in, valid, identity, x);
    T sum = x[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) sum = op(sum, x[i]);
    T acc;
    const T aggregate = TotalsScan::scan(s_, sum, op, identity, prefix, acc);
    rescan_and_store(out, valid, x, acc, op, inclusive);
    return aggregate;
  }

 private:
  TempStorage& s_;
};

}  // namespace detail
}  // namespace block
}  // namespace scandof
