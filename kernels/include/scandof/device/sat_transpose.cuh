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

template <class T>
__global__ void __launch_bounds__(kTransposeTile* kTransposeRowsPerPass)
    transpose_kernel(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  static_assert(sizeof(T) == 4, "the bank-conflict padding assumes 4-byte elements");
  __shared__ T tile[kTransposeTile][kTransposeTile + 1];
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  const T* src = in + blockIdx.z * plane;
  T* dst = out + blockIdx.z * plane;
  const int c0 = blockIdx.x * kTransposeTile, r0 = blockIdx.y * kTransposeTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
  for (int j = ty; j < kTransposeTile; j += kTransposeRowsPerPass) {
    const int r = r0 + j, c = c0 + tx;
    if (r < rows && c < cols) tile[j][tx] = src[static_cast<std::size_t>(r) * cols + c];
  }
  __syncthreads();
  // Output row = input column c0 + j, output column = input row r0 + tx.
#pragma unroll
  for (int j = ty; j < kTransposeTile; j += kTransposeRowsPerPass) {
    const int c = c0 + j, r = r0 + tx;
    if (r < rows && c < cols) dst[static_cast<std::size_t>(c) * rows + r] = tile[tx][j];
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

}  // namespace sat_detail
}  // namespace scandof
