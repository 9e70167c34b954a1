// The paper's SAT row stage: inclusive scans of many independent rows, in place, all channels in
// one launch. One block per row (grid = rows x planes) loops over the row's tiles and carries the
// running total into the next tile through scan_tile's `prefix`, so rows of any length work with
// any tile size and no second pass over the data.
//
// The tile scanner is a template parameter with the scandof::block::BlockScan interface
// (BLOCK_THREADS, TILE_ITEMS, TempStorage, scan_tile). Which one each ScanAlgorithm uses:
//   Naive .. WarpShuffle: the library's block scan of that name (kernels/include/scandof/block/).
//   SinglePass: the warp-shuffle block scan. A row is at most a few thousand elements, one block's
//     work: a device-wide decoupled look-back would add a tile-status array and a look-back per
//     tile for nothing, since nothing crosses blocks here.
//   Cub: cub::BlockScan (warp-scans flavour) with cub::BlockLoad/BlockStore warp-transposed, in
//     CubTileScan below. cub::DeviceSegmentedScan is not in every CCCL this project supports, and
//     a segmented scan would also need offset iterators; the block-level scan is CUB's own answer
//     to "many short independent scans".
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "scandof/ops.hpp"
#include "scandof/scan.hpp"

#if __has_include("scandof/block/block_scan.cuh")
#include "scandof/block/block_scan.cuh"
#define SCANDOF_SAT_HAVE_BLOCK_SCANS 1
#else
#define SCANDOF_SAT_HAVE_BLOCK_SCANS 0
#endif

namespace scandof {
namespace sat_detail {

// CUB's block scan behind the scan_tile interface. 128 threads x 8 items: a 1920-pixel row is two
// tiles; the warp-transposed load/store keeps global accesses coalesced.
template <class T, class Op>
struct CubTileScan {
  static constexpr int BLOCK_THREADS = 128, ITEMS_PER_THREAD = 8;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  using Load = cub::BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store =
      cub::BlockStore<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  union TempStorage {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  };
  TempStorage& ts;
  __device__ explicit CubTileScan(TempStorage& s) : ts(s) {}
  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    T items[ITEMS_PER_THREAD];
    Load(ts.load).Load(in, items, valid, identity);
    __syncthreads();
    T aggregate;
    if (inclusive)
      Scan(ts.scan).InclusiveScan(items, items, op, aggregate);
    else
      Scan(ts.scan).ExclusiveScan(items, items, identity, op, aggregate);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = op(prefix, items[i]);
    Store(ts.store).Store(out, items, valid);
    __syncthreads();  // the next tile reuses the union
    return aggregate;
  }
};

// A self-contained warp-shuffle tile scan (256 threads x 4 items, blocked), used for every
// algorithm only while the library's block scans are missing from the tree, so the SAT builds and
// runs on its own. Same interface as scandof::block::BlockScan.
template <class T, class Op>
struct SatFallbackTileScan {
  static constexpr int BLOCK_THREADS = 256, ITEMS_PER_THREAD = 4;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int WARPS = BLOCK_THREADS / 32;
  struct TempStorage {
    T warp_totals[WARPS];
  };
  TempStorage& ts;
  __device__ explicit SatFallbackTileScan(TempStorage& s) : ts(s) {}
  __device__ T scan_tile(const T* in, T* out, int valid, Op op, T identity, bool inclusive,
                         T prefix) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T v[ITEMS_PER_THREAD];
    T run = identity;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int k = threadIdx.x * ITEMS_PER_THREAD + i;
      v[i] = k < valid ? in[k] : identity;
      run = op(run, v[i]);
    }
    T incl = run;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const T up = __shfl_up_sync(0xFFFFFFFFu, incl, d);
      if (lane >= d) incl = op(up, incl);
    }
    if (lane == 31) ts.warp_totals[warp] = incl;
    __syncthreads();
    T warp_prefix = identity, aggregate = identity;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
      if (w < warp) warp_prefix = op(warp_prefix, ts.warp_totals[w]);
      aggregate = op(aggregate, ts.warp_totals[w]);
    }
    T excl = __shfl_up_sync(0xFFFFFFFFu, incl, 1);
    if (lane == 0) excl = identity;
    T acc = op(prefix, op(warp_prefix, excl));
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int k = threadIdx.x * ITEMS_PER_THREAD + i;
      const T before = acc;
      acc = op(acc, v[i]);
      if (k < valid) out[k] = inclusive ? acc : before;
    }
    __syncthreads();  // the next tile rewrites warp_totals
    return aggregate;
  }
};

template <class Scanner, class T, class Op>
__global__ void __launch_bounds__(Scanner::BLOCK_THREADS)
    batched_row_scan_kernel(T* data, int rows, int len, Op op, T identity) {
  __shared__ typename Scanner::TempStorage storage;
  const std::size_t row = blockIdx.x;
  T* p = data + (static_cast<std::size_t>(blockIdx.y) * rows + row) * static_cast<std::size_t>(len);
  Scanner scanner(storage);
  T carry = identity;
  for (int off = 0; off < len; off += Scanner::TILE_ITEMS) {
    const int valid = min(Scanner::TILE_ITEMS, len - off);
    const T aggregate = scanner.scan_tile(p + off, p + off, valid, op, identity, true, carry);
    carry = op(carry, aggregate);
    // Scanners may reuse their shared storage from the first instruction of the next tile; this
    // barrier makes that safe whatever the scanner does at its end (one barrier per tile).
    __syncthreads();
  }
}

template <class Scanner, class T, class Op>
void batched_row_scan_with(T* data, int rows, int len, int planes, Op op, cudaStream_t stream) {
  static_assert(Scanner::TILE_ITEMS == Scanner::BLOCK_THREADS * Scanner::ITEMS_PER_THREAD,
                "scanner tile shape");
  if (rows == 0 || len == 0) return;
  const dim3 grid(static_cast<unsigned>(rows), static_cast<unsigned>(planes));
  batched_row_scan_kernel<Scanner, T, Op>
      <<<grid, Scanner::BLOCK_THREADS, 0, stream>>>(data, rows, len, op, identity_of<Op, T>());
}

#if SCANDOF_SAT_HAVE_BLOCK_SCANS
template <ScanAlgorithm A, class T, class Op>
using LibraryTileScan = scandof::block::BlockScan<A, T, Op>;
#else
template <ScanAlgorithm A, class T, class Op>
using LibraryTileScan = SatFallbackTileScan<T, Op>;
#endif

// Inclusive scan of each row of `planes` planes of rows x len elements, in place (rows <= 2^31-1).
template <class T, class Op = Sum>
void batched_row_scan(ScanAlgorithm algo, T* data, int rows, int len, int planes,
                      cudaStream_t stream, Op op = Op{}) {
  using A = ScanAlgorithm;
  switch (algo) {
    case A::Naive:
      return batched_row_scan_with<LibraryTileScan<A::Naive, T, Op>>(data, rows, len, planes, op,
                                                                     stream);
    case A::WorkEfficient:
      return batched_row_scan_with<LibraryTileScan<A::WorkEfficient, T, Op>>(data, rows, len,
                                                                             planes, op, stream);
    case A::ConflictFree:
      return batched_row_scan_with<LibraryTileScan<A::ConflictFree, T, Op>>(data, rows, len, planes,
                                                                            op, stream);
    case A::Optimized:
      return batched_row_scan_with<LibraryTileScan<A::Optimized, T, Op>>(data, rows, len, planes,
                                                                         op, stream);
    case A::WarpShuffle:
    case A::SinglePass:  // see the top of this file
      return batched_row_scan_with<LibraryTileScan<A::WarpShuffle, T, Op>>(data, rows, len, planes,
                                                                           op, stream);
    case A::Cub:
      return batched_row_scan_with<CubTileScan<T, Op>>(data, rows, len, planes, op, stream);
  }
}

}  // namespace sat_detail
}  // namespace scandof
