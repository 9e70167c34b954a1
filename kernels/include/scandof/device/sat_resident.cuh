// The fused SAT's three phases in one cooperative kernel whose blocks stay resident
// (SatMethod::FusedResident): the tiles, sums and small scans of sat_tiled.cuh, without its kernel
// boundaries and with the pixels kept on chip between the reduce and the scan.
//
// The grid is as many 256-thread blocks as fit on the GPU at once (a cooperative launch, so every
// block is resident and a grid-wide barrier cannot deadlock); block b takes tiles b, b + grid, ...
//   1. reduce: each tile's pixels are loaded once from DRAM (the next tile's while this one is
//      reduced), its row/column/tile sums written (Rt, Ct, St as in sat_tiled.cuh), and the first
//      `stash` tiles kept in shared memory;
//   -- grid barrier --
//   2. small scans, spread over all blocks: Rt across tile columns, Ct and St down tile rows, a
//      quad of threads per chain;
//   -- grid barrier --
//   3. scan, in reverse order: each tile's table from its stashed pixels (or a reload, which L2
//      mostly serves: the tiles not stashed are the latest loaded and go first), with its offsets
//      copied into shared memory (cp.async) while the tile before it is scanned.
// What it saves against the three kernels: their drains and ramps, and the second pixel read of
// stashed tiles. What it costs (H100, 1080p, from per-block %globaltimer stamps): each grid
// barrier about 1.2-1.4 us after the last block arrives, during which no memory traffic flows,
// and blocks sized for residency (2 per SM) rather than for the scan alone (3). A cooperative
// launch itself costs no more than a normal one (H100: both 0.7 us apart back to back;
// launch_gap.cu of commit 391792b).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_tiled.cuh"

namespace scandof {
namespace sat_detail {

constexpr int kResidentThreads = 32 * kTileWarps;
// A stashed tile is its raw pixels, kQuadVecs 16-byte vectors per lane and row: 16 KiB RGBA8,
// 32 KiB RGBA16F.
template <class Pixels>
constexpr int stash_bytes_per_tile() {
  return kRowsPerWarp * kQuadVecs<Pixels> * 16 * kResidentThreads;
}
static_assert(stash_bytes_per_tile<Rgba8Format>() == kTileW * kTileH * 4, "RGBA8: 4 B a pixel");

// One tile's offsets, copied into shared memory while the tile before it is scanned: the scanned
// Ct of its columns and Rt of its rows as they lie in global memory ([x][C], [y][C]), and the
// column-scanned St of the tiles left of it in its tile row ([i][C], summed into the corner).
constexpr int kStagedStWords = 256;  // corners of tiles up to 85 tile columns in (RGB) staged
struct StagedOffsetWords {
  uint32_t above[kTileW * 4], left[kTileH * 4], st[kStagedStWords];
};
struct StagedOffsets {
  const StagedOffsetWords* w;
  const uint32_t* s_corner;
  int channels;
  __device__ uint32_t left(int c, int yl) const { return w->left[yl * channels + c]; }
  __device__ uint32_t above(int c, int xl) const { return w->above[xl * channels + c]; }
  __device__ uint32_t corner(int c) const { return s_corner[c]; }
};

// 4-byte global -> shared copies that do not hold up the issuing thread (sm_80's cp.async), so
// the next tile's offsets travel while this one is scanned; a plain load and store before sm_80.
__device__ __forceinline__ void copy_async4(uint32_t* dst, const uint32_t* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d), "l"(src) : "memory");
#else
  *dst = *src;
#endif
}
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(kPending) : "memory");
#endif
}

// Two blocks per SM (128 registers): at the tile-scan kernel's three (80 registers) the phases'
// combined live state spilled 632 bytes per thread.
constexpr int kResidentBlocksPerSm = 2;
template <class Pixels, class Out, bool VEC, bool INTERLEAVED>
__global__ void __launch_bounds__(kResidentThreads,
                                  arch::min_blocks_per_sm(kResidentThreads, kResidentBlocksPerSm))
    resident_sat_kernel(Pixels pixels, int width, int height, int channels, TileArrays a, int stash,
                        uint32_t* __restrict__ out) {
  namespace cg = cooperative_groups;
  // [stash][kRowsPerWarp][kVecs][kResidentThreads]: 16 B per lane and vector
  extern __shared__ uint4 s_stash[];
  constexpr int kVecs = kQuadVecs<Pixels>;
  __shared__ uint32_t s_corner[4];
  __shared__ StagedOffsetWords s_off[2];
  const int tiles_x = (width + kTileW - 1) / kTileW, tiles_y = (height + kTileH - 1) / kTileH;
  const int tiles = tiles_x * tiles_y;
  const int tid = threadIdx.x;
  // This block's tiles: blockIdx.x + k * gridDim.x, k < mine.
  const int mine = blockIdx.x < tiles ? (tiles - 1 - blockIdx.x) / gridDim.x + 1 : 0;

  // 1. Reduce. The next tile's pixels are requested before this one is reduced (alone, that gained
  // little at 1080p: 6.4 -> 6.2 us; the phase took 3.8 us once tile_sums stopped reducing its 12
  // sums one after another).
  auto coords = [&](int k, int& bx, int& by) {
    const int t = blockIdx.x + k * gridDim.x;
    bx = t % tiles_x;
    by = t / tiles_x;
  };
  TilePixels<Pixels> px, nx;
  // (Tried: every stashed tile's quads copied to shared memory by cp.async at the start, all in
  // flight at once: slower, 4.5 against 3.8 us at 1080p and 23.7 against 19.4 at 4K.)
  // Tiles that will be stashed are read here for the last time: evict-first loads, so they do not
  // push out of L2 the ones phase 3 reloads (H100, 4K: 0.071-0.072 -> 0.066-0.069 ms).
  auto load = [&](int k, TilePixels<Pixels>& dst) {
    int bx, by;
    coords(k, bx, by);
    if (k < stash)
      load_tile<Pixels, VEC, true>(pixels, bx, by, width, height, dst);
    else
      load_tile<Pixels, VEC>(pixels, bx, by, width, height, dst);
  };
  if (mine > 0) load(0, px);
  for (int k = 0; k < mine; ++k) {
    int bx, by;
    if (k + 1 < mine) load(k + 1, nx);
    coords(k, bx, by);
    if (k < stash) {
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        uint4 v[kVecs];
        Pixels::pack(px[r], v);
#pragma unroll
        for (int j = 0; j < kVecs; ++j)
          s_stash[((k * kRowsPerWarp + r) * kVecs + j) * kResidentThreads + tid] = v[j];
      }
    }
    tile_sums_to_arrays(pixels, px, bx, by, width, height, channels, tiles_x, a.rt, a.ct, a.st);
    __syncthreads();  // tile_sums' shared partials are rewritten by the next tile
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
      for (int i = 0; i < 4; ++i) px[r][i] = nx[r][i];
  }
  cg::this_grid().sync();

  // 2. Small scans: a quad of threads per chain, over all the grid's threads (the quad's 4 lanes
  // share a chain, so they take the same branches and rounds).
  {
    const std::size_t row_chains = static_cast<std::size_t>(height) * channels;
    const std::size_t col_chains = static_cast<std::size_t>(width) * channels;
    const std::size_t st_chains = static_cast<std::size_t>(tiles_x) * channels;
    const std::size_t total = row_chains + col_chains + st_chains;
    const std::size_t quads = static_cast<std::size_t>(gridDim.x) * blockDim.x / 4;
    const std::size_t quad = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid) / 4;
    const int q = tid & 3;
    for (std::size_t i0 = 0; i0 < total; i0 += quads) {
      const std::size_t i = i0 + quad;
      if (i >= total) break;
      if (i < row_chains)
        exclusive_scan_strided_quad(a.rt + i, row_chains, tiles_x, q);
      else if (i < row_chains + col_chains)
        exclusive_scan_strided_quad(a.ct + (i - row_chains), col_chains, tiles_y, q);
      else
        exclusive_scan_strided_quad(a.st + (i - row_chains - col_chains), st_chains, tiles_y, q);
    }
  }
  cg::this_grid().sync();

  // 3. Scan, in reverse: the reloaded tiles (k >= stash) first, latest loaded first (most likely
  // still in L2), then the stashed ones; again the next tile's pixels are fetched before this
  // one is scanned.
  auto fetch = [&](int k, TilePixels<Pixels>& dst) {
    if (k < stash) {
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        uint4 v[kVecs];
#pragma unroll
        for (int j = 0; j < kVecs; ++j)
          v[j] = s_stash[((k * kRowsPerWarp + r) * kVecs + j) * kResidentThreads + tid];
        Pixels::unpack(v, dst[r]);
      }
    } else {
      int bx, by;
      coords(k, bx, by);
      load_tile<Pixels, VEC>(pixels, bx, by, width, height, dst);
    }
  };
  // The offsets of tile k into s_off[buf], asynchronously (one commit group per tile).
  auto stage = [&](int k, int buf) {
    int bx, by;
    coords(k, bx, by);
    StagedOffsetWords& w = s_off[buf];
    const int ncol = min(kTileW, width - bx * kTileW) * channels;
    const uint32_t* ct = a.ct + (static_cast<std::size_t>(by) * width + bx * kTileW) * channels;
    for (int i = tid; i < ncol; i += kResidentThreads) copy_async4(&w.above[i], ct + i);
    const int nrow = min(kTileH, height - by * kTileH) * channels;
    const uint32_t* rt = a.rt + (static_cast<std::size_t>(bx) * height + by * kTileH) * channels;
    for (int i = tid; i < nrow; i += kResidentThreads) copy_async4(&w.left[i], rt + i);
    const int nst = bx * channels;
    const uint32_t* st = a.st + static_cast<std::size_t>(by) * tiles_x * channels;
    if (nst <= kStagedStWords)
      for (int i = tid; i < nst; i += kResidentThreads) copy_async4(&w.st[i], st + i);
    copy_async_commit();
  };
  if (mine > 0) {
    fetch(mine - 1, px);
    stage(mine - 1, 0);
  }
  for (int k = mine - 1; k >= 0; --k) {
    const int buf = (mine - 1 - k) & 1;
    if (k > 0) {
      fetch(k - 1, nx);
      stage(k - 1, buf ^ 1);
      copy_async_wait<1>();  // this tile's group; the next one's may still be in flight
    } else {
      copy_async_wait<0>();
    }
    __syncthreads();  // every thread's copies of s_off[buf]
    int bx, by;
    coords(k, bx, by);
    const bool staged = bx * channels <= kStagedStWords;
    tile_corner_to_shared(
        bx, channels,
        [&](int i, int c) {
          return staged ? s_off[buf].st[i * channels + c]
                        : a.st[(static_cast<std::size_t>(by) * tiles_x + i) * channels + c];
        },
        s_corner);
    const StagedOffsets off{&s_off[buf], s_corner, channels};
    tile_scan<Out, VEC, INTERLEAVED>(pixels, px, bx, by, width, height, channels, off, out);
    __syncthreads();  // s_off[buf] is staged into again two tiles on, tile_scan's buffers next
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
      for (int i = 0; i < 4; ++i) px[r][i] = nx[r][i];
  }
}

// Grid, stash and dynamic shared memory of one launch shape; grid 0 where none can run.
struct ResidentLaunch {
  int grid = 0, stash = 0;
  std::size_t dyn = 0;
};

// The launch shape of `kernel` for `tiles` tiles on the current device, worked out once per
// (kernel, device, tiles) instead of a handful of attribute and occupancy queries per build.
template <class Kernel>
ResidentLaunch resident_launch(Kernel kernel, int tiles, int tile_bytes) {
  static std::mutex mu;
  static std::map<std::tuple<const void*, int, int>, ResidentLaunch> cache;
  static std::map<std::pair<const void*, int>, int> dyn_limit;  // per kernel and device
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), dev, tiles);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  ResidentLaunch r;
  int coop = 0, sms = 0, smem_sm = 0, smem_block_optin = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  CUDA_CHECK(
      cudaDeviceGetAttribute(&smem_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (coop) {
    cudaFuncAttributes fa;
    CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    const int fixed = static_cast<int>(fa.sharedSizeBytes);
    // Stash what a block holds at the intended residency, no more than its tiles need.
    const int per_sm = kResidentBlocksPerSm;
    const int per_block = (tiles + per_sm * sms - 1) / (per_sm * sms);
    const int slot_bytes = smem_sm / per_sm - fixed - 1024;  // 1 KiB reserved per block
    r.stash = std::min(per_block, std::max(0, slot_bytes) / tile_bytes);
    r.stash = std::min(r.stash, std::max(0, smem_block_optin - fixed) / tile_bytes);
    r.dyn = static_cast<std::size_t>(r.stash) * tile_bytes;
    // The kernel's limit only ever grows: shapes cached earlier keep launching with theirs.
    int& limit = dyn_limit[std::make_pair(reinterpret_cast<const void*>(kernel), dev)];
    if (static_cast<int>(r.dyn) > limit) {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(r.dyn)));
      limit = static_cast<int>(r.dyn);
    }
    int occ = 0;
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, kResidentThreads, r.dyn));
    r.grid = std::min(tiles, occ * sms);
  }
  cache.emplace(key, r);
  return r;
}

// One build; `a` in a scratch of tile_scratch_words(w, h, channels) words. Returns false (nothing
// launched) where the device has no cooperative launch.
template <class Pixels, class Out, bool VEC, bool INTERLEAVED>
bool resident_sat(Pixels pixels, int width, int height, int channels, TileArrays a, uint32_t* out,
                  cudaStream_t stream) {
  auto kernel = resident_sat_kernel<Pixels, Out, VEC, INTERLEAVED>;
  const TileGrid g = tile_grid(width, height);
  const ResidentLaunch r =
      resident_launch(kernel, g.tiles_x * g.tiles_y, stash_bytes_per_tile<Pixels>());
  if (r.grid < 1) return false;
  int stash = r.stash;
  void* args[] = {&pixels, &width, &height, &channels, &a, &stash, &out};
  // (Tried: the cooperative launch also as a programmatic dependent, so that a build's launch
  // overlaps the one before: no change, 0.0227 / 0.0795 ms.)
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(r.grid),
                                         dim3(kResidentThreads), args, r.dyn, stream));
  return true;
}

}  // namespace sat_detail
}  // namespace scandof
