// The fused SAT in one kernel (SatMethod::FusedOnePass): each 128 x 32 tile reads its pixels once,
// keeps them in registers, and finds what lies left of and above it by a 2D decoupled look-back
// over the tiles before it, instead of the three-kernel path's second read of the pixels and its
// two kernel boundaries (reduce, small scans, scan: sat_tiled.cuh, whose tile bodies it shares).
//
// Per tile (bx, by), with the split of sat_tiled.cuh (local + left + top + corner):
//   1. tile_sums: its rows', columns' and own sums, each published at once as an aggregate (A);
//   2. look-back, every value on its own: row y's sum left of the tile walks back along the tile
//      row, column x's sum above it and the tile sum's column-inclusive sum up the tile column,
//      adding aggregates until a predecessor that has published its inclusive sum (P); then its own
//      P = that plus its aggregate;
//   3. corner = the column-inclusive tile sums (P) of the tiles left of it in the tile row above;
//   4. tile_scan with those offsets, from shared memory.
// Each published value is one 64-bit word, status in the high half (epoch * 4 + A or P) and the
// sum in the low half, stored and polled with single-copy-atomic relaxed accesses: a reader that
// sees the status sees the value stored with it, so no fences and no flag round trips (the first
// version, with one flag per tile, fenced publishing and a block-wide scout, took 0.036 ms at 1080p
// against the three kernels' 0.031).
// Tile ids come from an atomic counter in launch order, so a tile only waits on tiles that have
// started: they publish A without waiting, and P after waiting only on A's and older P's.
// Epoch-stamped words never need clearing between builds; the counter only grows (host side:
// OnePassScratch clears when the scratch is new or either could wrap).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_tiled.cuh"
#include "scandof/device/tile_status.cuh"

namespace scandof {
namespace sat_detail {

// Scratch: the tile counter (a 32-bit word padded to 128 bytes), then status words per tile and
// channel (C = channels): rows [tiles][32][C], columns [tiles][128][C], tile sums [tiles][C].
struct OnePassState {
  unsigned* counter;
  unsigned long long *rows, *cols, *tsum;
};
inline std::size_t one_pass_scratch_bytes(int w, int h, int channels) {
  const TileGrid g = tile_grid(w, h);
  const std::size_t tiles = static_cast<std::size_t>(g.tiles_x) * g.tiles_y;
  return 128 + 8 * tiles * (kTileH + kTileW + 1) * static_cast<std::size_t>(channels);
}
inline OnePassState one_pass_state(void* scratch, int w, int h, int channels) {
  const TileGrid g = tile_grid(w, h);
  const std::size_t tiles = static_cast<std::size_t>(g.tiles_x) * g.tiles_y;
  OnePassState s;
  s.counter = static_cast<unsigned*>(scratch);
  s.rows = reinterpret_cast<unsigned long long*>(static_cast<char*>(scratch) + 128);
  s.cols = s.rows + tiles * kTileH * channels;
  s.tsum = s.cols + tiles * kTileW * channels;
  return s;
}

// The offsets a one-pass tile found, in shared memory.
struct SharedOffsets {
  const uint32_t (*left_ex)[kTileH];   // [channel][yl]
  const uint32_t (*above_ex)[kTileW];  // [channel][xl]
  const uint32_t* corner_ex;           // [channel]
  __device__ uint32_t left(int c, int yl) const { return left_ex[c][yl]; }
  __device__ uint32_t above(int c, int xl) const { return above_ex[c][xl]; }
  __device__ uint32_t corner(int c) const { return corner_ex[c]; }
};

__device__ __forceinline__ void publish(unsigned long long* word, unsigned status, uint32_t v) {
  detail::lookback::st_relaxed_global(word, (static_cast<unsigned long long>(status) << 32) | v);
}
// Polls until the word holds at least `status` of this epoch (older epochs are smaller); returns
// the word.
__device__ __forceinline__ unsigned long long wait_word(
    const unsigned long long* word, unsigned epoch_base,
    unsigned status = detail::lookback::kFlagAggregate) {
  unsigned long long w;
  do {
    w = detail::lookback::ld_relaxed_global(word);
  } while (static_cast<unsigned>(w >> 32) < epoch_base + status);
  return w;
}

// Sum of one value over the chain of predecessors word(1), word(2), ... word(n) (nearest first):
// their aggregates up to and including the first inclusive sum. Loads go 4 at a time: the walk is
// long only in the first wave of tiles, and there the loads overlap.
template <class Word>
__device__ __forceinline__ uint32_t look_back(Word word, int n, unsigned epoch_base) {
  const unsigned prefix = epoch_base + detail::lookback::kFlagPrefix;
  uint32_t acc = 0;
  for (int k0 = 1; k0 <= n; k0 += 4) {
    unsigned long long w[4];
#pragma unroll
    for (int j = 0; j < 4; ++j)
      w[j] = k0 + j <= n ? detail::lookback::ld_relaxed_global(word(k0 + j)) : 0ull;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (k0 + j <= n &&
          static_cast<unsigned>(w[j] >> 32) < epoch_base + detail::lookback::kFlagAggregate)
        w[j] = wait_word(word(k0 + j), epoch_base);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (k0 + j > n) break;
      acc += static_cast<uint32_t>(w[j]);
      if (static_cast<unsigned>(w[j] >> 32) == prefix) return acc;
    }
  }
  return acc;
}

// Blocks per SM matter twice here: for hiding latency and for running the tiles a waiting tile
// depends on. Three (two interleaved, which holds 64 results per lane) keep ptxas within the
// registers that allow it.
template <class Pixels, class Out, bool VEC, bool INTERLEAVED>
__global__ void __launch_bounds__(32 * kTileWarps,
                                  arch::min_blocks_per_sm(32 * kTileWarps, INTERLEAVED ? 2 : 3))
    one_pass_kernel(Pixels pixels, int width, int height, int channels, int tiles_x,
                    OnePassState st, unsigned epoch, unsigned id_base, uint32_t* __restrict__ out) {
  using detail::lookback::kFlagAggregate;
  using detail::lookback::kFlagPrefix;
  __shared__ int s_tile;
  __shared__ uint32_t s_row_agg[4][kTileH], s_col_agg[4][kTileW], s_tile_agg[4];
  __shared__ uint32_t s_left[4][kTileH], s_above[4][kTileW], s_corner[4];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) s_tile = static_cast<int>(atomicAdd(st.counter, 1u) - id_base);
  __syncthreads();
  const int tile = s_tile, bx = tile % tiles_x, by = tile / tiles_x;
  const std::size_t C = static_cast<std::size_t>(channels);
  const unsigned epoch_base = epoch * 4u;
  const auto row_word = [&](int tl, int yl, int c) {
    return st.rows + (static_cast<std::size_t>(tl) * kTileH + yl) * C + c;
  };
  const auto col_word = [&](int tl, int xl, int c) {
    return st.cols + (static_cast<std::size_t>(tl) * kTileW + xl) * C + c;
  };
  const auto tile_word = [&](int tl, int c) {
    return st.tsum + static_cast<std::size_t>(tl) * C + c;
  };
  TilePixels<Pixels> px;
  load_tile<Pixels, VEC>(pixels, bx, by, width, height, px);

  // 1. Aggregates: published as they are summed, and kept for step 2.
  tile_sums(
      pixels, px, channels,
      [&](int yl, int c, uint32_t s) {
        s_row_agg[c][yl] = s;
        publish(row_word(tile, yl, c), epoch_base + kFlagAggregate, s);
      },
      [&](int xl, int c, uint32_t s) {
        s_col_agg[c][xl] = s;
        publish(col_word(tile, xl, c), epoch_base + kFlagAggregate, s);
      },
      [&](int c, uint32_t s) {
        s_tile_agg[c] = s;
        publish(tile_word(tile, c), epoch_base + kFlagAggregate, s);
      });
  __syncthreads();

  // 2. and 3. in parallel: warp 0 the rows, warps 1-4 the columns, warp 5 the tile sums, warp 6
  // the corner.
  if (warp == 0) {
    for (int c = 0; c < channels; ++c) {
      const uint32_t left =
          look_back([&](int k) { return row_word(tile - k, lane, c); }, bx, epoch_base);
      s_left[c][lane] = left;
      publish(row_word(tile, lane, c), epoch_base + kFlagPrefix, left + s_row_agg[c][lane]);
    }
  } else if (warp <= 4) {
    const int xl = t - 32;
    for (int c = 0; c < channels; ++c) {
      const uint32_t top =
          look_back([&](int k) { return col_word(tile - k * tiles_x, xl, c); }, by, epoch_base);
      s_above[c][xl] = top;
      publish(col_word(tile, xl, c), epoch_base + kFlagPrefix, top + s_col_agg[c][xl]);
    }
  } else if (warp == 5) {
    if (lane < channels) {
      const int c = lane;
      const uint32_t above =
          look_back([&](int k) { return tile_word(tile - k * tiles_x, c); }, by, epoch_base);
      publish(tile_word(tile, c), epoch_base + kFlagPrefix, above + s_tile_agg[c]);
    }
  } else if (warp == 6) {
    uint32_t part[4] = {0u, 0u, 0u, 0u};
    if (by > 0)
      for (int i = lane; i < bx; i += 32) {
        const int above_left = (by - 1) * tiles_x + i;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          if (c >= channels) break;
          part[c] +=
              static_cast<uint32_t>(wait_word(tile_word(above_left, c), epoch_base, kFlagPrefix));
        }
      }
#pragma unroll
    for (int c = 0; c < 4; ++c) {
#pragma unroll
      for (int d = 16; d > 0; d >>= 1) part[c] += __shfl_xor_sync(0xFFFFFFFFu, part[c], d);
      if (lane == 0) s_corner[c] = part[c];
    }
  }
  __syncthreads();

  // 4. The tile's table, as the three-kernel path's last step writes it.
  const SharedOffsets off{s_left, s_above, s_corner};
  tile_scan<Out, VEC, INTERLEAVED>(pixels, px, bx, by, width, height, channels, off, out);
}

// Host side of the look-back state: the scratch (its own allocation, so no other method's use of
// a shared scratch can leave values that look like this build's words), the epoch and the
// counter's value at the next launch.
struct OnePassScratch {
  void* bytes = nullptr;  // owned by the caller (SatBuilder)
  std::size_t size = 0;   // bytes
  unsigned epoch = 0;     // 0: clear before the next launch
  unsigned id_base = 0;
};

// Launches one build; `ws` must hold at least one_pass_scratch_bytes(w, h, channels) bytes.
template <class Pixels, class Out, bool VEC, bool INTERLEAVED>
void one_pass_sat(Pixels pixels, int width, int height, int channels, uint32_t* out,
                  OnePassScratch& ws, cudaStream_t stream) {
  const TileGrid g = tile_grid(width, height);
  const unsigned tiles = static_cast<unsigned>(g.tiles_x) * static_cast<unsigned>(g.tiles_y);
  if (ws.epoch == 0 || ws.epoch >= (1u << 29) ||
      ws.id_base + static_cast<unsigned long long>(tiles) >= (1ull << 31)) {
    CUDA_CHECK(cudaMemsetAsync(ws.bytes, 0, ws.size, stream));
    ws.epoch = 1;
    ws.id_base = 0;
  }
  one_pass_kernel<Pixels, Out, VEC, INTERLEAVED><<<tiles, 32 * kTileWarps, 0, stream>>>(
      pixels, width, height, channels, g.tiles_x, one_pass_state(ws.bytes, width, height, channels),
      ws.epoch, ws.id_base, out);
  CUDA_CHECK_LAUNCH();
  ++ws.epoch;
  ws.id_base += tiles;
}

}  // namespace sat_detail
}  // namespace scandof
