// ScanAlgorithm::Cub: cub::DeviceScan with the caller's operator, the reference to beat. num_items
// is passed as std::size_t, for which CCCL 3 picks 64-bit offsets (choose_offset_t), so
// n >= 2^31 works.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cub/device/device_scan.cuh>

#include "scandof/cuda_check.hpp"
#include "scandof/scan.hpp"

namespace scandof {
namespace detail {

// CUB's adapter: its kernels call the operator on device; ours are __host__ __device__ already,
// this only fixes the return type to T for any user functor.
template <class T, class Op>
struct CubOp {
  Op op;
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const {
    return op(a, b);
  }
};

// Stands in for an operator that cannot be default-constructed during the size query: CUB's
// scratch (tile descriptors) depends on the accumulator type T and n, not on what op computes.
template <class T>
struct KeepLater {
  __host__ __device__ __forceinline__ T operator()(const T&, const T& b) const { return b; }
};

// Scratch for the larger of the two calls (they differ by at most CUB's bookkeeping), so one
// query serves both kinds. The query launches nothing but asks the runtime for the device.
template <class T, class Op>
std::size_t cub_scan_workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  using QueryOp = std::conditional_t<std::is_default_constructible<Op>::value, Op, KeepLater<T>>;
  std::size_t excl = 0, incl = 0;
  const T* in = nullptr;
  T* out = nullptr;
  const CubOp<T, QueryOp> op{QueryOp{}};
  CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, excl, in, out, op, T{}, n));
  CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, incl, in, out, op, n));
  return excl > incl ? excl : incl;
}

template <class T, class Op>
void cub_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
              void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  if (n == 0) return;
  std::size_t bytes = workspace_bytes;
  if (kind == ScanKind::Exclusive) {
    CUDA_CHECK(cub::DeviceScan::ExclusiveScan(d_workspace, bytes, d_in, d_out, CubOp<T, Op>{op},
                                              identity, n, stream));
  } else {
    CUDA_CHECK(cub::DeviceScan::InclusiveScan(d_workspace, bytes, d_in, d_out, CubOp<T, Op>{op},
                                              n, stream));
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace detail
}  // namespace scandof
