// Tiled transpose of `planes` row-major planes (rows x cols -> cols x rows) through shared memory.
// A 32 x 32 tile is read with coalesced rows and written with coalesced rows of the transpose; the
// tile row is padded to 33 elements so reading a tile column touches 32 different banks (unpadded,
// all 32 threads of a warp would hit one bank: a 32-way conflict). The padding costs 128 bytes of
// shared memory per tile.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace scandof {
namespace sat_detail {

constexpr int kTransposeTile = 32, kTransposeRowsPerPass = 8;

// INTERLEAVE_OUT: plane z of the result is written as word z of 4 words per element (the
// interleaved table layout), planes >= `planes` as zeros; the grid then has 4 planes in z. The
// stores stride by 16 bytes, so a warp writes 512 bytes instead of 128 and the paper pipeline's
// last pass costs more than its planar twin; it saves a separate interleave pass.
template <class T, bool INTERLEAVE_OUT = false>
__global__ void __launch_bounds__(kTransposeTile* kTransposeRowsPerPass)
    transpose_kernel(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                     int planes = 1) {
  static_assert(sizeof(T) == 4, "the bank-conflict padding assumes 4-byte elements");
  __shared__ T tile[kTransposeTile][kTransposeTile + 1];
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  const bool live = !INTERLEAVE_OUT || static_cast<int>(blockIdx.z) < planes;
  const T* src = in + (live ? blockIdx.z * plane : 0);
  T* dst = out + (INTERLEAVE_OUT ? 0 : blockIdx.z * plane);
  const int c0 = blockIdx.x * kTransposeTile, r0 = blockIdx.y * kTransposeTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
  for (int j = ty; j < kTransposeTile; j += kTransposeRowsPerPass) {
    const int r = r0 + j, c = c0 + tx;
    if (r < rows && c < cols)
      tile[j][tx] = live ? src[static_cast<std::size_t>(r) * cols + c] : T(0);
  }
  __syncthreads();
  // Output row = input column c0 + j, output column = input row r0 + tx.
#pragma unroll
  for (int j = ty; j < kTransposeTile; j += kTransposeRowsPerPass) {
    const int c = c0 + j, r = r0 + tx;
    if (r < rows && c < cols) {
      const std::size_t e = static_cast<std::size_t>(c) * rows + r;
      if (INTERLEAVE_OUT)
        dst[e * 4 + blockIdx.z] = tile[tx][j];
      else
        dst[e] = tile[tx][j];
    }
  }
}

// Grid: (ceil(cols/32), ceil(rows/32), planes); gridDim.y caps rows at 2^21, gridDim.z planes
// at 64.
template <class T>
void transpose_planes(const T* in, T* out, int rows, int cols, int planes, cudaStream_t stream) {
  const dim3 block(kTransposeTile, kTransposeRowsPerPass);
  const dim3 grid((cols + kTransposeTile - 1) / kTransposeTile,
                  (rows + kTransposeTile - 1) / kTransposeTile, planes);
  transpose_kernel<T><<<grid, block, 0, stream>>>(in, out, rows, cols);
}

// The same transpose writing the interleaved layout (4 words per element) into `out`.
template <class T>
void transpose_planes_interleaved(const T* in, T* out, int rows, int cols, int planes,
                                  cudaStream_t stream) {
  const dim3 block(kTransposeTile, kTransposeRowsPerPass);
  const dim3 grid((cols + kTransposeTile - 1) / kTransposeTile,
                  (rows + kTransposeTile - 1) / kTransposeTile, 4);
  transpose_kernel<T, true><<<grid, block, 0, stream>>>(in, out, rows, cols, planes);
}

}  // namespace sat_detail
}  // namespace scandof
