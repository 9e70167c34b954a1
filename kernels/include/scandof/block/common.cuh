// Pieces shared by the block-level scans: the primary template every variant specializes, shared
// memory typed as raw bytes, the bank-conflict padding rule, blocked register loads and stores with
// 16-byte vectors. Warp shuffles and warp scans come from scandof/warp/warp_scan.cuh.
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

// The register-tile variants' last step: the thread's items scanned again from its exclusive
// prefix acc (inclusive or exclusive results) and stored blocked.
template <class T, class Op, int ITEMS>
__device__ __forceinline__ void rescan_and_store(T* out, int valid, T (&x)[ITEMS], T acc, Op op,
                                                 bool inclusive) {
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

}  // namespace detail
}  // namespace block
}  // namespace scandof
