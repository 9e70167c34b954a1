// Definitions of the sort templates declared in scandof/sort.hpp: argument checks and dispatch to
// device/sort_lsd.cuh and device/sort_split.cuh. Include this in a .cu file for key or value
// types the library does not instantiate.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sort_lsd.cuh"
#include "scandof/device/sort_split.cuh"
#include "scandof/sort.hpp"

namespace scandof {
namespace detail {
namespace sortapi {

// An input and its own output may be the same array (in place), not partly overlap.
inline bool overlaps(const void* a, const void* b, std::size_t bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return x != y && x < y + bytes && y < x + bytes;
}
// Arrays of different roles (keys and values) must not share a byte at all.
inline bool intersects(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + b_bytes && y < x + a_bytes;
}

[[noreturn]] inline void throw_unknown_algorithm(const char* what, SortAlgorithm algo) {
  throw std::invalid_argument(std::string(what) + ": unknown SortAlgorithm " +
                              std::to_string(static_cast<int>(algo)));
}

template <class K>
void check_common(const char* what, SortAlgorithm algo, const K* kin, K* kout, std::size_t n,
                  int begin_bit, int* end_bit) {
  constexpr int kBits = 8 * sizeof(K);
  if (*end_bit < 0) *end_bit = kBits;
  if (begin_bit < 0 || begin_bit > *end_bit || *end_bit > kBits)
    throw std::invalid_argument(std::string(what) + ": bad bit range [" +
                                std::to_string(begin_bit) + ", " + std::to_string(*end_bit) +
                                ") for a " + std::to_string(kBits) + "-bit key");
  if (algo != SortAlgorithm::Lsd && algo != SortAlgorithm::Split)
    throw_unknown_algorithm(what, algo);
  if (n == 0) return;
  if (kin == nullptr) throw std::invalid_argument(std::string(what) + ": d_keys_in is null");
  if (kout == nullptr) throw std::invalid_argument(std::string(what) + ": d_keys_out is null");
  if (algo == SortAlgorithm::Split && n >= (std::size_t(1) << 32))
    throw std::invalid_argument(std::string(what) +
                                ": the split sort needs n below 2^32 (32-bit offsets)");
  if (n > SIZE_MAX / sizeof(K))
    throw std::invalid_argument(std::string(what) + ": n * sizeof(K) overflows size_t");
  if (overlaps(kin, kout, n * sizeof(K)))
    throw std::invalid_argument(std::string(what) + ": d_keys_out partly overlaps d_keys_in");
}

// Everything sort_keys() can reject, checked before any CUDA call (the ScanWorkspace overload
// runs it before it allocates). end_bit: -1 becomes the key's width.
template <class K>
void check_keys(SortAlgorithm algo, const K* kin, K* kout, std::size_t n, int begin_bit,
                int* end_bit) {
  check_common("sort_keys", algo, kin, kout, n, begin_bit, end_bit);
  if (algo == SortAlgorithm::Split && (begin_bit != 0 || *end_bit != 8 * int(sizeof(K))))
    throw std::invalid_argument(
        "sort_keys: the split sort needs the full bit range (its bitonic merge compares whole "
        "keys)");
}

// The same for sort_pairs(): also the values, and no array of keys may share memory with one of
// values.
template <class K, class V>
void check_pairs(SortAlgorithm algo, const K* kin, K* kout, const V* vin, V* vout, std::size_t n,
                 int begin_bit, int* end_bit) {
  check_common("sort_pairs", algo, kin, kout, n, begin_bit, end_bit);
  if (algo != SortAlgorithm::Lsd)
    throw std::invalid_argument(
        "sort_pairs: only SortAlgorithm::Lsd sorts pairs (the split sort's bitonic merge is not "
        "stable)");
  if (n == 0) return;
  if (vin == nullptr) throw std::invalid_argument("sort_pairs: d_values_in is null");
  if (vout == nullptr) throw std::invalid_argument("sort_pairs: d_values_out is null");
  if (n > SIZE_MAX / sizeof(V))
    throw std::invalid_argument("sort_pairs: n * sizeof(V) overflows size_t");
  const std::size_t kb = n * sizeof(K), vb = n * sizeof(V);
  if (overlaps(vin, vout, vb))
    throw std::invalid_argument("sort_pairs: d_values_out partly overlaps d_values_in");
  if (intersects(kout, kb, vin, vb) || intersects(kout, kb, vout, vb) ||
      intersects(kin, kb, vout, vb))
    throw std::invalid_argument("sort_pairs: a keys array overlaps a values array");
}

inline void check_ws(const char* what, void* ws, std::size_t have, std::size_t need) {
  if (have < need || (need > 0 && ws == nullptr))
    throw std::invalid_argument(std::string(what) + ": workspace too small: need " +
                                std::to_string(need) + " bytes, got " + std::to_string(have));
}

}  // namespace sortapi
}  // namespace detail

template <class K>
std::size_t sort_keys_workspace_bytes(SortAlgorithm algo, std::size_t n) {
  if (algo == SortAlgorithm::Split) return detail::split::workspace_bytes<K>(n);
  if (algo != SortAlgorithm::Lsd)
    detail::sortapi::throw_unknown_algorithm("sort_keys_workspace_bytes", algo);
  return detail::lsd::workspace_bytes<K, detail::lsd::NoValue, false>(n);
}

template <class K, class V>
std::size_t sort_pairs_workspace_bytes(SortAlgorithm algo, std::size_t n) {
  // Split is answered (with Lsd's size) and refused by sort_pairs itself.
  if (algo != SortAlgorithm::Lsd && algo != SortAlgorithm::Split)
    detail::sortapi::throw_unknown_algorithm("sort_pairs_workspace_bytes", algo);
  return detail::lsd::workspace_bytes<K, V, true>(n);
}

template <class K>
void sort_keys(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, std::size_t n,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream, int begin_bit,
               int end_bit) {
  detail::sortapi::check_keys(algo, d_keys_in, d_keys_out, n, begin_bit, &end_bit);
  if (n == 0) return;
  detail::sortapi::check_ws("sort_keys", d_workspace, workspace_bytes,
                            sort_keys_workspace_bytes<K>(algo, n));
  if (algo == SortAlgorithm::Split) {
    detail::split::sort<K>(d_keys_in, d_keys_out, n, d_workspace, stream, begin_bit, end_bit);
  } else {
    detail::lsd::sort<K, detail::lsd::NoValue, false>(d_keys_in, d_keys_out, nullptr, nullptr, n,
                                                      d_workspace, workspace_bytes, stream,
                                                      begin_bit, end_bit);
  }
}

template <class K, class V>
void sort_pairs(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                V* d_values_out, std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                cudaStream_t stream, int begin_bit, int end_bit) {
  detail::sortapi::check_pairs(algo, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                               begin_bit, &end_bit);
  if (n == 0) return;
  detail::sortapi::check_ws("sort_pairs", d_workspace, workspace_bytes,
                            sort_pairs_workspace_bytes<K, V>(algo, n));
  detail::lsd::sort<K, V, true>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_workspace,
                                workspace_bytes, stream, begin_bit, end_bit);
}

template <class K>
void sort_keys(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, std::size_t n,
               ScanWorkspace& ws, cudaStream_t stream, int begin_bit, int end_bit) {
  int end = end_bit;  // checked before the workspace grows; the call below checks again
  detail::sortapi::check_keys(algo, d_keys_in, d_keys_out, n, begin_bit, &end);
  void* p = ws.reserve(sort_keys_workspace_bytes<K>(algo, n));
  ws.note_use(false, stream);
  sort_keys<K>(algo, d_keys_in, d_keys_out, n, p, ws.size(), stream, begin_bit, end_bit);
}

template <class K, class V>
void sort_pairs(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                V* d_values_out, std::size_t n, ScanWorkspace& ws, cudaStream_t stream,
                int begin_bit, int end_bit) {
  int end = end_bit;  // checked before the workspace grows; the call below checks again
  detail::sortapi::check_pairs(algo, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                               begin_bit, &end);
  void* p = ws.reserve(sort_pairs_workspace_bytes<K, V>(algo, n));
  ws.note_use(false, stream);
  sort_pairs<K, V>(algo, d_keys_in, d_keys_out, d_values_in, d_values_out, n, p, ws.size(), stream,
                   begin_bit, end_bit);
}

}  // namespace scandof

// Explicit instantiation of every sort entry point for key type K (values: SCANDOF_SORT_VALUE);
// use inside namespace scandof in a .cu file (kernels/src/sort_inst_<type>.cu, one per key type
// so the slow nvcc compiles run in parallel).
#define SCANDOF_INSTANTIATE_SORT(K)                                                             \
  template std::size_t sort_keys_workspace_bytes<K>(SortAlgorithm, std::size_t);                \
  template std::size_t sort_pairs_workspace_bytes<K, SCANDOF_SORT_VALUE>(SortAlgorithm,         \
                                                                         std::size_t);          \
  template void sort_keys<K>(SortAlgorithm, const K*, K*, std::size_t, void*, std::size_t,      \
                             cudaStream_t, int, int);                                           \
  template void sort_pairs<K, SCANDOF_SORT_VALUE>(                                              \
      SortAlgorithm, const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t, \
      void*, std::size_t, cudaStream_t, int, int);                                              \
  template void sort_keys<K>(SortAlgorithm, const K*, K*, std::size_t, ScanWorkspace&,          \
                             cudaStream_t, int, int);                                           \
  template void sort_pairs<K, SCANDOF_SORT_VALUE>(                                              \
      SortAlgorithm, const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t, \
      ScanWorkspace&, cudaStream_t, int, int);
