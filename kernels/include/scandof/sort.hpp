// Radix sort: the chapter's second application of scan. Host-side API, usable from plain C++ for
// the built-in key and value types, which the library instantiates; other types: include
// "scandof/device/sort_lsd.cuh" / "scandof/device/sort_split.cuh" in a .cu file.
//
//   scandof::ScanWorkspace ws;
//   scandof::sort_keys(scandof::SortAlgorithm::Lsd, d_in, d_out, n, ws, stream);
//
// Asynchronous on `stream`; errors throw: std::invalid_argument for bad arguments (all checked
// before any CUDA call, so they throw the same without a device), scandof::CudaError for CUDA
// failures.
//
// Key order: unsigned and signed integers in their natural order; floats through the usual
// order-preserving bit transform (negative: flip all bits, positive: flip the sign bit), which
// gives IEEE totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN. So -0.0 sorts before
// +0.0 (they are not treated as equal) and NaNs go to the ends by their sign bit (the default NaN
// of x86 and CUDA arithmetic, 0x7fc00000 / 0xffc00000, lands at the end / the front).
// begin_bit / end_bit select bits of that transformed unsigned image, [begin_bit, end_bit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/config.hpp"
#include "scandof/scan.hpp"

namespace scandof {

enum class SortAlgorithm : int {
  // The chapter's: 1 bit per pass with the split primitive (one block scan per bit) on
  // block-sized chunks in shared memory, then a bitonic merge of the sorted chunks. Keys only,
  // full bit range only (the bitonic merge is not stable).
  Split = 0,
  // Device-wide LSD radix sort, 8-bit digits: one histogram kernel for all digits, then per
  // digit one kernel in which each tile ranks its keys stably and finds its digits' output
  // offsets by decoupled look-back over the earlier tiles ("onesweep"). Stable.
  Lsd = 1,
};
constexpr int kNumSortAlgorithms = 2;

const char* to_string(SortAlgorithm a);
// "split" or "lsd" (or the enum's number). Throws std::invalid_argument naming the choices.
SortAlgorithm parse_sort_algorithm(const std::string& name);
std::vector<SortAlgorithm> all_sort_algorithms();

// The order-preserving map of a key to an unsigned integer of the same width.
template <class K>
struct RadixTraits;
template <>
struct RadixTraits<std::uint32_t> {
  using Bits = std::uint32_t;
  static SCANDOF_HD Bits to_bits(std::uint32_t k) { return k; }
  static SCANDOF_HD std::uint32_t from_bits(Bits b) { return b; }
};
template <>
struct RadixTraits<std::uint64_t> {
  using Bits = std::uint64_t;
  static SCANDOF_HD Bits to_bits(std::uint64_t k) { return k; }
  static SCANDOF_HD std::uint64_t from_bits(Bits b) { return b; }
};
template <>
struct RadixTraits<std::int32_t> {
  using Bits = std::uint32_t;
  static SCANDOF_HD Bits to_bits(std::int32_t k) { return static_cast<Bits>(k) ^ 0x80000000u; }
  static SCANDOF_HD std::int32_t from_bits(Bits b) {
    return static_cast<std::int32_t>(b ^ 0x80000000u);
  }
};
template <>
struct RadixTraits<float> {
  using Bits = std::uint32_t;
  static SCANDOF_HD Bits to_bits(float k) {
#ifdef __CUDA_ARCH__
    Bits b = __float_as_uint(k);
#else
    Bits b;
    std::memcpy(&b, &k, 4);
#endif
    return b ^ ((b >> 31) ? 0xffffffffu : 0x80000000u);
  }
  static SCANDOF_HD float from_bits(Bits b) {
    b ^= (b >> 31) ? 0x80000000u : 0xffffffffu;
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    float k;
    std::memcpy(&k, &b, 4);
    return k;
#endif
  }
};

// Scratch bytes for sorting n keys (and values). 0 is a valid answer. Lsd takes about one spare
// copy of the keys (and values); 4-byte keys with 4-byte values take two copies (16 bytes a pair,
// where cub::DeviceRadixSort::SortPairs takes 8): their middle passes sort 64-bit words of key and
// value between two buffers, 3-5 % faster than keys and values apart (results/sort/README.md).
template <class K>
std::size_t sort_keys_workspace_bytes(SortAlgorithm algo, std::size_t n);
template <class K, class V>
std::size_t sort_pairs_workspace_bytes(SortAlgorithm algo, std::size_t n);

// Sorts keys[0 .. n) ascending into out (out may equal in; other overlaps are not allowed).
// Lsd: any n (positions are 64-bit from 2^32 keys on); Split: n < 2^32. end_bit = -1 means all
// bits of K.
template <class K>
void sort_keys(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, std::size_t n,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = 0,
               int begin_bit = 0, int end_bit = -1);
// Stable key-value sort (Lsd only). Values in and out follow the keys' rule; no array of keys may
// overlap an array of values.
template <class K, class V>
void sort_pairs(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                V* d_values_out, std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                cudaStream_t stream = 0, int begin_bit = 0, int end_bit = -1);

// Convenience: scratch from a ScanWorkspace (grows on demand).
template <class K>
void sort_keys(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, std::size_t n,
               ScanWorkspace& ws, cudaStream_t stream = 0, int begin_bit = 0, int end_bit = -1);
template <class K, class V>
void sort_pairs(SortAlgorithm algo, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                V* d_values_out, std::size_t n, ScanWorkspace& ws, cudaStream_t stream = 0,
                int begin_bit = 0, int end_bit = -1);

// CPU references (kernels/src/sort_gold.cpp): std::stable_sort by the transformed key's bits
// [begin_bit, end_bit).
template <class K>
void sort_keys_gold(const K* in, K* out, std::size_t n, int begin_bit = 0, int end_bit = -1);
template <class K, class V>
void sort_pairs_gold(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                     std::size_t n, int begin_bit = 0, int end_bit = -1);

#define SCANDOF_FOR_EACH_SORT_KEY(X) \
  X(std::uint32_t)                   \
  X(std::int32_t)                    \
  X(float)                           \
  X(std::uint64_t)
// Value type the library compiles for every key type.
#define SCANDOF_SORT_VALUE std::uint32_t

#define SCANDOF_DECLARE_SORT(K)                                                                   \
  extern template std::size_t sort_keys_workspace_bytes<K>(SortAlgorithm, std::size_t);           \
  extern template std::size_t sort_pairs_workspace_bytes<K, SCANDOF_SORT_VALUE>(SortAlgorithm,    \
                                                                                std::size_t);     \
  extern template void sort_keys<K>(SortAlgorithm, const K*, K*, std::size_t, void*, std::size_t, \
                                    cudaStream_t, int, int);                                      \
  extern template void sort_pairs<K, SCANDOF_SORT_VALUE>(                                         \
      SortAlgorithm, const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t,   \
      void*, std::size_t, cudaStream_t, int, int);                                                \
  extern template void sort_keys<K>(SortAlgorithm, const K*, K*, std::size_t, ScanWorkspace&,     \
                                    cudaStream_t, int, int);                                      \
  extern template void sort_pairs<K, SCANDOF_SORT_VALUE>(                                         \
      SortAlgorithm, const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t,   \
      ScanWorkspace&, cudaStream_t, int, int);                                                    \
  extern template void sort_keys_gold<K>(const K*, K*, std::size_t, int, int);                    \
  extern template void sort_pairs_gold<K, SCANDOF_SORT_VALUE>(                                    \
      const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t, int, int);
SCANDOF_FOR_EACH_SORT_KEY(SCANDOF_DECLARE_SORT)
#undef SCANDOF_DECLARE_SORT

}  // namespace scandof
