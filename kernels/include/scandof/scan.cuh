// Definitions of scan() and scan_workspace_bytes() (declared in scan.hpp). Include this header in
// a .cu file to scan user-defined element types or operators; the built-in pairs
// (SCANDOF_FOR_EACH_BUILTIN_SCAN) stay extern and come from the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scandof/block/host_shapes.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/device/cub_scan.cuh"
#include "scandof/device/single_pass.cuh"
#include "scandof/device/three_phase.cuh"
#include "scandof/scan.hpp"

namespace scandof {
template <class T, class Op>
std::size_t scan_workspace_bytes(ScanAlgorithm algo, std::size_t n) {
  if (!detail::is_known_algorithm(algo))
    detail::throw_unknown_algorithm("scandof::scan_workspace_bytes", algo);
  if (n == 0) return 0;
  switch (algo) {
    case ScanAlgorithm::Naive:
      return detail::three_phase_workspace_bytes<ScanAlgorithm::Naive, T, Op>(n);
    case ScanAlgorithm::WorkEfficient:
      return detail::three_phase_workspace_bytes<ScanAlgorithm::WorkEfficient, T, Op>(n);
    case ScanAlgorithm::ConflictFree:
      return detail::three_phase_workspace_bytes<ScanAlgorithm::ConflictFree, T, Op>(n);
    case ScanAlgorithm::Optimized:
      return detail::three_phase_workspace_bytes<ScanAlgorithm::Optimized, T, Op>(n);
    case ScanAlgorithm::WarpShuffle:
      return detail::three_phase_workspace_bytes<ScanAlgorithm::WarpShuffle, T, Op>(n);
    case ScanAlgorithm::SinglePass:
      return detail::single_pass_workspace_bytes<T, Op>(n);
    case ScanAlgorithm::Cub:
      return detail::cub_scan_workspace_bytes<T, Op>(n);
  }
  detail::throw_unknown_algorithm("scandof::scan_workspace_bytes", algo);
}

template <class T, class Op>
void scan(ScanAlgorithm algo, ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op,
          T identity, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  detail::check_scan_arguments(algo, kind, d_in, d_out, n, sizeof(T));
  if (n == 0) return;
  const std::size_t need = scan_workspace_bytes<T, Op>(algo, n);
  if (need > 0 && (d_workspace == nullptr || workspace_bytes < need))
    throw std::invalid_argument(
        "scandof::scan: " + std::string(to_string(algo)) + " needs " + std::to_string(need) +
        " workspace bytes for n = " + std::to_string(n) + ", got " +
        std::to_string(workspace_bytes) + (d_workspace == nullptr ? " (null pointer)" : ""));

  switch (algo) {
    case ScanAlgorithm::Naive:
      return detail::three_phase_scan<ScanAlgorithm::Naive>(kind, d_in, d_out, n, op, identity,
                                                            d_workspace, workspace_bytes, stream);
    case ScanAlgorithm::WorkEfficient:
      return detail::three_phase_scan<ScanAlgorithm::WorkEfficient>(
          kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream);
    case ScanAlgorithm::ConflictFree:
      return detail::three_phase_scan<ScanAlgorithm::ConflictFree>(
          kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream);
    case ScanAlgorithm::Optimized:
      return detail::three_phase_scan<ScanAlgorithm::Optimized>(
          kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream);
    case ScanAlgorithm::WarpShuffle:
      return detail::three_phase_scan<ScanAlgorithm::WarpShuffle>(
          kind, d_in, d_out, n, op, identity, d_workspace, workspace_bytes, stream);
    case ScanAlgorithm::SinglePass:
      return detail::single_pass_scan<T, Op>(kind, d_in, d_out, n, op, identity, d_workspace,
                                             workspace_bytes, stream);
    case ScanAlgorithm::Cub:
      return detail::cub_scan<T, Op>(kind, d_in, d_out, n, op, identity, d_workspace,
                                     workspace_bytes, stream);
  }
  detail::throw_unknown_algorithm("scandof::scan", algo);
}

}  // namespace scandof

// Explicit instantiation of one (T, Op) pair; use inside namespace scandof in a .cu file.
#define SCANDOF_INSTANTIATE_SCAN(T, OP)                                                       \
  template std::size_t scan_workspace_bytes<T, OP>(ScanAlgorithm, std::size_t);               \
  template void scan<T, OP>(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, OP, T, void*, \
                            std::size_t, cudaStream_t);
