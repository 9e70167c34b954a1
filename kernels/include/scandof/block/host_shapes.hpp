// Host-visible pieces of the scan core, shared by the CUDA build and the no-CUDA stubs so both
// answer alike: the tile shape of each block-level variant and the three-phase workspace size (a
// pure host computation from the tile size). The argument checks scan() runs before any CUDA call
// are in scan.hpp, where the ScanWorkspace overload runs them before allocating. Plain C++: no
// CUDA headers needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scandof/scan.hpp"

namespace scandof {
namespace block {
namespace shape {

constexpr bool is_block_algorithm(ScanAlgorithm a) {
  return a == ScanAlgorithm::Naive || a == ScanAlgorithm::WorkEfficient ||
         a == ScanAlgorithm::ConflictFree || a == ScanAlgorithm::Optimized ||
         a == ScanAlgorithm::WarpShuffle;
}

// Naive: one item per thread, 1024 threads (the paper's one-block limit). The Blelloch trees: two
// items per thread. Register-tiled variants: 256 threads of 32 bytes each (8 items of 4 bytes, as
// in the paper), at most 16 items so 1- and 2-byte types stay in registers.
constexpr int block_threads(ScanAlgorithm a) {
  return a == ScanAlgorithm::Naive                                                 ? 1024
         : (a == ScanAlgorithm::WorkEfficient || a == ScanAlgorithm::ConflictFree) ? 512
                                                                                   : 256;
}

constexpr int items_for_32_bytes(std::size_t elem_size) {
  return elem_size >= 32 ? 1 : (32 / elem_size > 16 ? 16 : static_cast<int>(32 / elem_size));
}

constexpr int items_per_thread(ScanAlgorithm a, std::size_t elem_size) {
  return a == ScanAlgorithm::Naive ? 1
         : (a == ScanAlgorithm::WorkEfficient || a == ScanAlgorithm::ConflictFree)
             ? 2
             : items_for_32_bytes(elem_size);
}

constexpr int tile_items(ScanAlgorithm a, std::size_t elem_size) {
  return block_threads(a) * items_per_thread(a, elem_size);
}

}  // namespace shape
}  // namespace block

namespace detail {

constexpr std::size_t kWorkspaceAlign = 256;
constexpr std::size_t align_up(std::size_t x, std::size_t a) {
  return (x + a - 1) / a * a;
}

// The SUMS arrays of every recursion level, each 256-byte aligned, until a level fits in a tile.
inline std::size_t three_phase_levels_bytes(std::size_t tile, std::size_t elem_size,
                                            std::size_t n) {
  std::size_t bytes = 0;
  while (n > tile) {
    n = (n + tile - 1) / tile;
    bytes += align_up(n * elem_size, kWorkspaceAlign);
  }
  return bytes;
}

// Plus 255 bytes of slack so any workspace pointer can be aligned (0 when n fits in one tile).
inline std::size_t three_phase_workspace_bytes(std::size_t tile, std::size_t elem_size,
                                               std::size_t n) {
  const std::size_t levels = three_phase_levels_bytes(tile, elem_size, n);
  return levels == 0 ? 0 : levels + kWorkspaceAlign - 1;
}

}  // namespace detail
}  // namespace scandof
