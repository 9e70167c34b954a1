// The fused SAT path: two kernels, no de-interleave or transpose passes.
//
// 1. fused_row_kernel: a block of 4 warps per image row reads the pixels (RGBA8 or RGBA16F, 4
//    pixels per lane), scans all channels at once (a 4-item serial sum per lane, one 5-step shuffle
//    scan per channel and chunk of 128 pixels, warp totals combined through shared memory), and
//    writes the row-scanned planes. A first version used one warp per row (8 warps per SM at
//    1080p, 4 chunks in flight per warp): 0.0175 ms for 33 MB; sharing a row among 4 warps puts
//    4x the loads in flight.
// 2. fused_column_kernel: a block owns COLS adjacent columns of one plane; its 32 row-segments
//    (threadIdx.y) each hold K consecutive rows of a column in registers, scan them serially, and a
//    warp per column scans the 32 segment totals through shared memory. The block walks down the
//    image 32*K rows at a time carrying each column's total. A warp reads COLS consecutive elements
//    of 32/COLS rows per load: whole 32-byte sectors for COLS >= 8.
//
// Traffic per pixel: 4 (read RGBA8) + 4C (write rows) + 4C (read) + 4C (write) bytes for C
// channels, against 4 + 4C for an ideal single pass; the intermediate stays mostly in L2 at 1080p.
// The column pass runs in place on the output, so the path needs no scratch memory.
//
// Accumulator: for float tables the sums are accumulated in uint32 (exact) and converted once when
// written, so each element is the exact sum rounded once; the host picks float accumulation only
// when the image could overflow 32 bits (more than 2^32/255 pixels), and for HDR radiance into
// float tables (summed in float, as sat_gold_hdr's float tables are: the tiled methods hand those
// to this path). HDR into uint32 tables sums the fixed-point values (scandof/hdr.hpp) modulo 2^32.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "scandof/device/sat_pixels.cuh"

namespace scandof {
namespace sat_detail {

constexpr int kFusedRowWarps = 4;     // warps sharing one row (block = one row)
constexpr int kFusedRowMaxGroup = 4;  // chunks of 128 pixels per warp per round, at most

template <class T>
struct Vec4Of;
template <>
struct Vec4Of<uint32_t> {
  using type = uint4;
};
template <>
struct Vec4Of<float> {
  using type = float4;
};

// One block of kFusedRowWarps warps per image row. A round covers kFusedRowWarps * group chunks
// of 128 pixels; warp w takes `group` consecutive chunks, loads all of them before scanning (up
// to 2 KB in flight per warp), scans them with a warp-local carry, publishes its per-channel total
// in shared memory, and after one barrier adds the totals of the warps to its left plus the
// row's carry from earlier rounds. The lanes keep only the pixels and one prefix per chunk and
// channel across the barrier (the 4-pixel serial sums are recomputed: 3 adds, not 16 registers).
// `group` (1..kFusedRowMaxGroup, uniform) spreads short rows over all warps.
// VEC: width % 4 == 0 and 16-byte aligned input rows: 16-byte pixel loads and table stores.
// INTERLEAVED: 4 words per pixel (channel sums; words >= channels are 0), one 16-byte store per
// pixel; the column pass then treats the table as one plane of 4 * width columns.
template <class Pixels, class Acc, bool VEC, bool INTERLEAVED = false>
__global__ void __launch_bounds__(32 * kFusedRowWarps)
    fused_row_kernel(Pixels pixels, int width, int height, int channels, int group,
                     Acc* __restrict__ out) {
  constexpr int kChunk = 128, G = kFusedRowMaxGroup;
  // Double-buffered by round parity: a warp can run at most one round ahead of another (the
  // barrier), so one barrier per round suffices.
  __shared__ Acc warp_total[2][kFusedRowWarps][4];
  using Raw = typename Pixels::Raw;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int y = blockIdx.x;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  Acc* row_out = out + static_cast<std::size_t>(y) * width * (INTERLEAVED ? 4 : 1);
  Acc carry[4] = {Acc(0), Acc(0), Acc(0), Acc(0)};
  const int round_px = kFusedRowWarps * group * kChunk;
  int parity = 0;
  for (int base = 0; base < width; base += round_px, parity ^= 1) {
    const int warp_base = base + warp * group * kChunk + lane * 4;
    Raw px[G][4];
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const int x0 = warp_base + g * kChunk;
      if (VEC) {
        if (g < group && x0 < width) {
          pixels.quad(x0, y, px[g]);
        } else {
#pragma unroll
          for (int i = 0; i < 4; ++i) px[g][i] = Raw{};
        }
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i)
          px[g][i] = (g < group && x0 + i < width) ? pixels.pixel(x0 + i, y) : Raw{};
      }
    }
    // This pass reads the pixels first: clamps (HDR into uint32) are counted here. Pixels outside
    // the row load as +0, which never clamps.
    if constexpr (Pixels::kHalf && std::is_same<Acc, uint32_t>::value)
      pixels.count_clamped(pixels.clamped_pixels(px));
    bool unused = false;  // later decodes of the same pixels are not counted again
    const auto val = [&](const Raw& p, int c) { return pixels.template value<Acc>(p, c, unused); };
    Acc prefix[G][4];  // exclusive prefix of this lane's 4 pixels within the warp's chunks
    Acc wsum[4] = {Acc(0), Acc(0), Acc(0), Acc(0)};
#pragma unroll
    for (int g = 0; g < G; ++g) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const Acc s = val(px[g][0], c) + val(px[g][1], c) + val(px[g][2], c) + val(px[g][3], c);
        Acc incl = s;
        if (c < channels && g < group) {
#pragma unroll
          for (int d = 1; d < 32; d <<= 1) {
            const Acc up = __shfl_up_sync(0xFFFFFFFFu, incl, d);
            if (lane >= d) incl += up;
          }
          // The exclusive prefix: integers subtract (exact); float takes the previous lane's
          // inclusive sum, since incl - s rounds relative to incl, and a bright pixel right of a
          // dark run put its rounding into the run's sums (HDR float tables: 26 ulps off).
          Acc ex;
          if constexpr (std::is_integral<Acc>::value) {
            ex = incl - s;
          } else {
            ex = __shfl_up_sync(0xFFFFFFFFu, incl, 1);
            if (lane == 0) ex = Acc(0);
          }
          prefix[g][c] = wsum[c] + ex;
          wsum[c] += __shfl_sync(0xFFFFFFFFu, incl, 31);
        }
      }
    }
    if (lane == 0) {
#pragma unroll
      for (int c = 0; c < 4; ++c) warp_total[parity][warp][c] = wsum[c];
    }
    __syncthreads();
    Acc off[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      off[c] = carry[c];
#pragma unroll
      for (int w = 0; w < kFusedRowWarps; ++w) {
        const Acc t = warp_total[parity][w][c];
        if (w < warp) off[c] += t;
        carry[c] += t;
      }
    }
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const int x0 = warp_base + g * kChunk;
      if (g >= group || x0 >= width) continue;
      if constexpr (INTERLEAVED) {
        Acc res[4][4];  // [pixel][channel]
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          Acc run = off[c] + prefix[g][c];
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            run += val(px[g][i], c);
            res[i][c] = c < channels ? run : Acc(0);
          }
        }
        auto* dst = reinterpret_cast<typename Vec4Of<Acc>::type*>(row_out) + x0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          typename Vec4Of<Acc>::type o;
          o.x = res[i][0];
          o.y = res[i][1];
          o.z = res[i][2];
          o.w = res[i][3];
          if (x0 + i < width) dst[i] = o;
        }
      } else {
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          if (c >= channels) continue;
          const Acc add = off[c] + prefix[g][c];
          Acc v[4];
          v[0] = add + val(px[g][0], c);
#pragma unroll
          for (int i = 1; i < 4; ++i) v[i] = v[i - 1] + val(px[g][i], c);
          Acc* dst = row_out + c * plane + x0;
          if (VEC) {
            typename Vec4Of<Acc>::type o;
            o.x = v[0];
            o.y = v[1];
            o.z = v[2];
            o.w = v[3];
            *reinterpret_cast<typename Vec4Of<Acc>::type*>(dst) = o;
          } else {
#pragma unroll
            for (int i = 0; i < 4; ++i)
              if (x0 + i < width) dst[i] = v[i];
          }
        }
      }
    }
  }
}

template <class Pixels, class Acc, bool VEC, bool INTERLEAVED = false>
void fused_rows(Pixels pixels, int width, int height, int channels, Acc* out, cudaStream_t stream) {
  const int chunks = (width + 127) / 128;
  int group = (chunks + kFusedRowWarps - 1) / kFusedRowWarps;
  group = group < 1 ? 1 : (group > kFusedRowMaxGroup ? kFusedRowMaxGroup : group);
  fused_row_kernel<Pixels, Acc, VEC, INTERLEAVED>
      <<<height, 32 * kFusedRowWarps, 0, stream>>>(pixels, width, height, channels, group, out);
}

constexpr int kFusedColumnCols = 16;  // columns per block (block = 16 x 32 = 512 threads)
constexpr int kFusedColumnK = 8;      // rows per thread per step: 256 rows per block step

// Out's bits in an Acc-typed slot: the in-place pass reads and writes through one pointer type,
// so no type-based alias analysis can move a store above the load of the same element.
__device__ __forceinline__ uint32_t out_bits(uint32_t v, uint32_t) {
  return v;
}
__device__ __forceinline__ uint32_t out_bits(uint32_t v, float) {
  return __float_as_uint(static_cast<float>(v));
}
__device__ __forceinline__ float out_bits(float v, float) {
  return v;
}
__device__ __forceinline__ uint64_t out_bits(uint64_t v, uint64_t) {  // dof.cu's packed pairs
  return v;
}

// In place over `planes` planes of height x width: reads Acc, writes Out (same 4-byte size, so
// each thread overwrites exactly the elements it has read).
template <class Acc, class Out>
__global__ void __launch_bounds__(kFusedColumnCols * 32)
    fused_column_kernel(Acc* data, int width, int height) {
  static_assert(sizeof(Acc) == sizeof(Out), "in-place column pass");
  constexpr int COLS = kFusedColumnCols, K = kFusedColumnK, SEGS = 32;
  __shared__ Acc seg_scan[SEGS][COLS + 1];  // +1: a warp reads a column of it conflict-free
  __shared__ Acc col_total[COLS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * COLS + tx;
  const std::size_t plane_off = static_cast<std::size_t>(blockIdx.y) * width * height;
  Acc* col = data + plane_off + x;
  const int linear = ty * COLS + tx, warp = linear >> 5, lane = linear & 31;
  Acc carry = Acc(0);
  for (int r0 = 0; r0 < height; r0 += SEGS * K) {
    const int rb = r0 + ty * K;
    Acc v[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
      v[k] =
          (x < width && rb + k < height) ? col[static_cast<std::size_t>(rb + k) * width] : Acc(0);
#pragma unroll
    for (int k = 1; k < K; ++k) v[k] += v[k - 1];
    seg_scan[ty][tx] = v[K - 1];
    __syncthreads();
    // Warp w scans column w's 32 segment totals (COLS warps in the block, one per column).
    {
      Acc t = seg_scan[lane][warp];
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const Acc up = __shfl_up_sync(0xFFFFFFFFu, t, d);
        if (lane >= d) t += up;
      }
      seg_scan[lane][warp] = t;
      if (lane == 31) col_total[warp] = t;
    }
    __syncthreads();
    const Acc add = carry + (ty > 0 ? seg_scan[ty - 1][tx] : Acc(0));
    carry += col_total[tx];
    if (x < width) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (rb + k < height)
          col[static_cast<std::size_t>(rb + k) * width] = out_bits(v[k] + add, Out{});
    }
    __syncthreads();  // seg_scan and col_total are rewritten by the next step
  }
}

template <class Acc, class Out>
void fused_columns(Acc* data, int width, int height, int planes, cudaStream_t stream) {
  static_assert(kFusedColumnCols * 32 / 32 == kFusedColumnCols, "one warp per column");
  const dim3 block(kFusedColumnCols, 32);
  const dim3 grid((width + kFusedColumnCols - 1) / kFusedColumnCols, planes);
  fused_column_kernel<Acc, Out><<<grid, block, 0, stream>>>(data, width, height);
}

}  // namespace sat_detail
}  // namespace scandof
