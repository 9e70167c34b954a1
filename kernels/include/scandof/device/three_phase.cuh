// Scan of any length with a block-level variant (Naive .. WarpShuffle), the paper's way:
//   1. each block scans one tile and writes the tile's aggregate to SUMS,
//   2. SUMS is scanned exclusively, recursively, with the same variant,
//   3. every tile but the first gets op(INCR[tile], out[i]).
// Traffic: read n + write n in phase 1, read n + write n again in phase 3 (about 4n elements
// against single-pass's 2n), plus n / TILE_ITEMS per level for the sums.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scandof/block/block_scan.cuh"
#include "scandof/block/host_shapes.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/scan.hpp"

namespace scandof {
namespace detail {

template <ScanAlgorithm A, class T, class Op>
__global__ void __launch_bounds__(block::BlockScan<A, T, Op>::BLOCK_THREADS)
    three_phase_tiles_kernel(const T* in, T* out, std::size_t n, T* tile_sums, Op op, T identity,
                             bool inclusive) {
  using BS = block::BlockScan<A, T, Op>;
  __shared__ typename BS::TempStorage temp;
  // 64-bit from the start: blockIdx.x * TILE_ITEMS passes 2^31 for n > 2^31.
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * BS::TILE_ITEMS;
  const std::size_t left = n - base;
  const int valid =
      left < static_cast<std::size_t>(BS::TILE_ITEMS) ? static_cast<int>(left) : BS::TILE_ITEMS;
  const T aggregate =
      BS(temp).scan_tile(in + base, out + base, valid, op, identity, inclusive, identity);
  if (tile_sums != nullptr && threadIdx.x == 0) tile_sums[blockIdx.x] = aggregate;
}

// One block per tile, tile 0 skipped (its increment is the identity). The increment is read once
// per thread from the same address: one broadcast transaction per warp.
template <int TILE_ITEMS, int THREADS, class T, class Op>
__global__ void __launch_bounds__(THREADS)
    three_phase_add_kernel(T* out, std::size_t n, const T* incr, Op op) {
  const std::size_t tile = static_cast<std::size_t>(blockIdx.x) + 1;
  const std::size_t base = tile * TILE_ITEMS;
  const T inc = incr[tile];
#pragma unroll
  for (int i = static_cast<int>(threadIdx.x); i < TILE_ITEMS; i += THREADS) {
    const std::size_t j = base + static_cast<std::size_t>(i);
    if (j < n) out[j] = op(inc, out[j]);
  }
}

template <ScanAlgorithm A, class T, class Op>
constexpr std::size_t three_phase_tile_items() {
  static_assert(block::BlockScan<A, T, Op>::TILE_ITEMS == block::shape::tile_items(A, sizeof(T)),
                "host_shapes.hpp must describe the block scan's tile");
  return static_cast<std::size_t>(block::BlockScan<A, T, Op>::TILE_ITEMS);
}

// gridDim.x allows 2^31 - 1 blocks: 2^41 elements at the smallest tile, far past any memory. The
// size query refuses more as three_phase_scan does, so that the ScanWorkspace overload of scan()
// throws before it tries to allocate.
template <ScanAlgorithm A, class T, class Op>
void three_phase_check_n(std::size_t n) {
  constexpr std::size_t tile = three_phase_tile_items<A, T, Op>();
  if ((n + tile - 1) / tile > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("scandof::scan: " + std::to_string(n) +
                                " elements need more than 2^31-1 tiles");
}

template <ScanAlgorithm A, class T, class Op>
std::size_t three_phase_workspace_bytes(std::size_t n) {
  three_phase_check_n<A, T, Op>(n);
  return three_phase_workspace_bytes(three_phase_tile_items<A, T, Op>(), sizeof(T), n);
}

// The recursion: `levels` is 256-byte aligned and holds three_phase_levels_bytes(n).
template <ScanAlgorithm A, class T, class Op>
void three_phase_scan_levels(bool inclusive, const T* d_in, T* d_out, std::size_t n, Op op,
                             T identity, unsigned char* levels, cudaStream_t stream) {
  using BS = block::BlockScan<A, T, Op>;
  constexpr std::size_t tile = three_phase_tile_items<A, T, Op>();
  constexpr int kAddThreads = 256;
  const std::size_t num_tiles = (n + tile - 1) / tile;
  T* sums = num_tiles > 1 ? reinterpret_cast<T*>(levels) : nullptr;
  three_phase_tiles_kernel<A, T, Op>
      <<<static_cast<unsigned>(num_tiles), BS::BLOCK_THREADS, 0, stream>>>(d_in, d_out, n, sums, op,
                                                                           identity, inclusive);
  CUDA_CHECK_LAUNCH();
  if (num_tiles == 1) return;

  // The sums' own sums live right after them; the recursion scans SUMS in place, exclusively.
  three_phase_scan_levels<A, T, Op>(false, sums, sums, num_tiles, op, identity,
                                    levels + align_up(num_tiles * sizeof(T), kWorkspaceAlign),
                                    stream);
  three_phase_add_kernel<BS::TILE_ITEMS, kAddThreads, T, Op>
      <<<static_cast<unsigned>(num_tiles - 1), kAddThreads, 0, stream>>>(d_out, n, sums, op);
  CUDA_CHECK_LAUNCH();
}

template <ScanAlgorithm A, class T, class Op>
void three_phase_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  if (n == 0) return;
  three_phase_check_n<A, T, Op>(n);
  const std::size_t need = three_phase_workspace_bytes<A, T, Op>(n);
  if (workspace_bytes < need || (need > 0 && d_workspace == nullptr))
    throw std::invalid_argument("scandof::scan: three-phase workspace needs " +
                                std::to_string(need) + " bytes, got " +
                                std::to_string(workspace_bytes));
  const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(d_workspace);
  unsigned char* levels = reinterpret_cast<unsigned char*>((p + kWorkspaceAlign - 1) /
                                                           kWorkspaceAlign * kWorkspaceAlign);
  three_phase_scan_levels<A, T, Op>(kind == ScanKind::Inclusive, d_in, d_out, n, op, identity,
                                    levels, stream);
}

}  // namespace detail
}  // namespace scandof
