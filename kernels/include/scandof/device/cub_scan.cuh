// ScanAlgorithm::Cub: cub::DeviceScan with the caller's operator, the reference to beat. Counts up
// to 2^32 - 1 go in as uint32 (32-bit offsets), larger ones as uint64: CCCL picks the offset type
// from num_items (choose_offset_t), so n >= 2^31 (and >= 2^32) works.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

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

// Sum over arithmetic T goes to CUB as cuda::std::plus: CUB recognizes it and picks its tuned
// sm_90 policies (ours would look like an unknown functor and get the generic ones: about 15%
// slower at 2^28 int32 on the H100).
template <class T, class Op>
struct CubOpFor {
  using type = CubOp<T, Op>;
  static type make(const Op& op) { return type{op}; }
};
template <class T>
struct CubOpFor<T, Sum> {
  using type =
      std::conditional_t<std::is_arithmetic<T>::value, ::cuda::std::plus<T>, CubOp<T, Sum>>;
  static type make(const Sum& op) {
    if constexpr (std::is_arithmetic<T>::value) {
      (void)op;
      return type{};
    } else {
      return type{op};
    }
  }
};

// num_items as uint32 while n fits (CUB's 32-bit offsets: cheaper indexing, the tuned path), as
// uint64 past that: CCCL picks the offset type from the type of num_items.
template <class F>
cudaError_t with_cub_count(std::size_t n, F&& f) {
  if (n <= static_cast<std::size_t>(UINT32_MAX)) return f(static_cast<std::uint32_t>(n));
  return f(static_cast<unsigned long long>(n));
}

// Scratch for the larger of the two calls (they differ by at most CUB's bookkeeping), so one
// query serves both kinds. The query launches nothing but asks the runtime for the device.
template <class T, class Op>
std::size_t cub_scan_workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  using QueryOp = std::conditional_t<std::is_default_constructible<Op>::value, Op, KeepLater<T>>;
  const auto op = CubOpFor<T, QueryOp>::make(QueryOp{});
  std::size_t excl = 0, incl = 0;
  const T* in = nullptr;
  T* out = nullptr;
  CUDA_CHECK(with_cub_count(n, [&](auto count) {
    return cub::DeviceScan::ExclusiveScan(nullptr, excl, in, out, op, T{}, count);
  }));
  CUDA_CHECK(with_cub_count(n, [&](auto count) {
    return cub::DeviceScan::InclusiveScan(nullptr, incl, in, out, op, count);
  }));
  return excl > incl ? excl : incl;
}

template <class T, class Op>
void cub_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
              void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  if (n == 0) return;
  const auto cop = CubOpFor<T, Op>::make(op);
  std::size_t bytes = workspace_bytes;
  if (kind == ScanKind::Exclusive) {
    CUDA_CHECK(with_cub_count(n, [&](auto count) {
      return cub::DeviceScan::ExclusiveScan(d_workspace, bytes, d_in, d_out, cop, identity, count,
                                            stream);
    }));
  } else {
    CUDA_CHECK(with_cub_count(n, [&](auto count) {
      return cub::DeviceScan::InclusiveScan(d_workspace, bytes, d_in, d_out, cop, count, stream);
    }));
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace detail
}  // namespace scandof
