// Single-pass device-wide scan with decoupled look-back (Merrill & Garland 2016).
// PLACEHOLDER: the real implementation replaces this file; the interface below is fixed.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "scandof/scan.hpp"

namespace scandof {
namespace detail {

template <class T, class Op>
std::size_t single_pass_workspace_bytes(std::size_t n) {
  (void)n;
  return 0;
}

template <class T, class Op>
void single_pass_scan(ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op, T identity,
                      void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  (void)kind; (void)d_in; (void)d_out; (void)n; (void)op; (void)identity; (void)d_workspace;
  (void)workspace_bytes; (void)stream;
  throw std::logic_error("single-pass scan not implemented yet");
}

}  // namespace detail
}  // namespace scandof
