// Definitions of scan() and scan_workspace_bytes() (declared in scan.hpp). Include this header in
// a .cu file to scan user-defined element types or operators; the built-in pairs
// (SCANDOF_FOR_EACH_BUILTIN_SCAN) stay extern and come from the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "scandof/block/host_shapes.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/device/cub_scan.cuh"
#include "scandof/device/single_pass.cuh"
#include "scandof/device/three_phase.cuh"
#include "scandof/scan.hpp"

namespace scandof {
namespace detail {
// Calls f(std::integral_constant<ScanAlgorithm, A>{}) for the block-scan algorithm A == algo
// (Naive..WarpShuffle, the three-phase family), so each caller names the family once.
template <class F>
decltype(auto) with_three_phase(ScanAlgorithm algo, F&& f) {
  switch (algo) {
    case ScanAlgorithm::WorkEfficient:
      return f(std::integral_constant<ScanAlgorithm, ScanAlgorithm::WorkEfficient>{});
    case ScanAlgorithm::ConflictFree:
      return f(std::integral_constant<ScanAlgorithm, ScanAlgorithm::ConflictFree>{});
    case ScanAlgorithm::Optimized:
      return f(std::integral_constant<ScanAlgorithm, ScanAlgorithm::Optimized>{});
    case ScanAlgorithm::WarpShuffle:
      return f(std::integral_constant<ScanAlgorithm, ScanAlgorithm::WarpShuffle>{});
    default:
      return f(std::integral_constant<ScanAlgorithm, ScanAlgorithm::Naive>{});
  }
}
}  // namespace detail

template <class T, class Op>
std::size_t scan_workspace_bytes(ScanAlgorithm algo, std::size_t n) {
  if (!detail::is_known_algorithm(algo))
    detail::throw_unknown_algorithm("scandof::scan_workspace_bytes", algo);
  if (n == 0) return 0;
  switch (algo) {
    case ScanAlgorithm::SinglePass:
      return detail::single_pass_workspace_bytes<T, Op>(n);
    case ScanAlgorithm::Cub:
      return detail::cub_scan_workspace_bytes<T, Op>(n);
    default:  // is_known_algorithm: one of the three-phase block scans
      return detail::with_three_phase(algo, [&](auto a) {
        return detail::three_phase_workspace_bytes<decltype(a)::value, T, Op>(n);
      });
  }
}

template <class T, class Op>
void scan(ScanAlgorithm algo, ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op,
          T identity, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
          Determinism determinism) {
  detail::check_scan_arguments(algo, kind, d_in, d_out, n, sizeof(T), determinism);
  const bool run_to_run = determinism == Determinism::RunToRun &&
                          !detail::single_pass::exact_in_any_grouping<T>();
  if (run_to_run && algo == ScanAlgorithm::Cub)
    throw std::invalid_argument(
        "scandof::scan: cub::DeviceScan gives no run-to-run guarantee for a non-integer type; "
        "use SinglePass (or a block scan) with Determinism::RunToRun");
  if (n == 0) return;
  const std::size_t need = scan_workspace_bytes<T, Op>(algo, n);
  if (need > 0 && (d_workspace == nullptr || workspace_bytes < need))
    throw std::invalid_argument(
        "scandof::scan: " + std::string(to_string(algo)) + " needs " + std::to_string(need) +
        " workspace bytes for n = " + std::to_string(n) + ", got " +
        std::to_string(workspace_bytes) + (d_workspace == nullptr ? " (null pointer)" : ""));

  switch (algo) {
    case ScanAlgorithm::SinglePass:
      return detail::single_pass_scan<T, Op>(kind, d_in, d_out, n, op, identity, d_workspace,
                                             workspace_bytes, stream, run_to_run);
    case ScanAlgorithm::Cub:
      return detail::cub_scan<T, Op>(kind, d_in, d_out, n, op, identity, d_workspace,
                                     workspace_bytes, stream);
    default:  // check_scan_arguments rejected unknown values
      return detail::with_three_phase(algo, [&](auto a) {
        detail::three_phase_scan<decltype(a)::value>(kind, d_in, d_out, n, op, identity,
                                                     d_workspace, workspace_bytes, stream);
      });
  }
}

}  // namespace scandof

// Explicit instantiation of one (T, Op) pair; use inside namespace scandof in a .cu file.
#define SCANDOF_INSTANTIATE_SCAN(T, OP)                                                       \
  template std::size_t scan_workspace_bytes<T, OP>(ScanAlgorithm, std::size_t);               \
  template void scan<T, OP>(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, OP, T, void*, \
                            std::size_t, cudaStream_t, Determinism);

// Every built-in operator for element type T (kernels/src/scan_inst_<type>.cu, one file per type).
// SCANDOF_FOR_EACH_BUILTIN_SCAN (scan.hpp) lists the pairs the library declares extern: each
// built-in type with exactly these three operators, which the count below keeps honest.
#define SCANDOF_INSTANTIATE_SCANS_OF(T) \
  SCANDOF_INSTANTIATE_SCAN(T, Sum)      \
  SCANDOF_INSTANTIATE_SCAN(T, Min)      \
  SCANDOF_INSTANTIATE_SCAN(T, Max)
#define SCANDOF_COUNT_SCAN_PAIR(T, OP) +1
static_assert(0 SCANDOF_FOR_EACH_BUILTIN_SCAN(SCANDOF_COUNT_SCAN_PAIR) == 5 * 3,
              "SCANDOF_FOR_EACH_BUILTIN_SCAN changed: update SCANDOF_INSTANTIATE_SCANS_OF and the "
              "scan_inst_<type>.cu files");
#undef SCANDOF_COUNT_SCAN_PAIR
