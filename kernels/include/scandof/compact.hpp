// Stream compaction and stable partition: the chapter's first application of scan (Figure 39-10).
// Host-side API, usable from plain C++ for the built-in element types and predicates, which the
// library instantiates. For a user-defined element type or predicate functor include
// "scandof/device/compact_impl.cuh" in a .cu file instead: same functions.
//
//   scandof::ScanWorkspace ws;
//   std::size_t kept = scandof::compact_if(d_in, d_out, n, scandof::LessThan<float>{0.5f}, ws);
//
// Every call is asynchronous on `stream` except the convenience overloads that return the count
// (they copy it to the host and synchronize the stream). Errors throw: std::invalid_argument for
// bad arguments (all checked before any CUDA call, so they throw the same without a device),
// scandof::CudaError for CUDA failures. n may exceed 2^31 (64-bit indexing; the
// count is a uint64).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <string>
#include <vector>

#include "scandof/config.hpp"
#include "scandof/scan.hpp"

namespace scandof {

enum class CompactAlgorithm : int {
  // The chapter's: predicate -> flags array, device-wide scan of the flags with the library's
  // scan (any ScanAlgorithm), scatter. Traffic ~ read T + write flag + scan (2 x flags) + read
  // flag, scan, T + write T: the most bytes, but any scan variant plugs in.
  Paper = 0,
  // The book section's: a fixed number of blocks each count their contiguous chunk, one block
  // scans the counts, then each block re-reads its chunk, ranks locally and scatters. Reads the
  // input twice, no flags array.
  ReduceThenScan = 1,
  // One pass: each tile ranks its items locally and gets its global offset through decoupled
  // look-back over tile counts (Merrill & Garland 2016). Reads the input once.
  SinglePass = 2,
};
constexpr int kNumCompactAlgorithms = 3;

const char* to_string(CompactAlgorithm a);
// "paper", "reduce-then-scan", "single-pass" (or the enum's number). Throws std::invalid_argument.
CompactAlgorithm parse_compact_algorithm(const std::string& name);
std::vector<CompactAlgorithm> all_compact_algorithms();

struct CompactOptions {
  CompactAlgorithm algo = CompactAlgorithm::SinglePass;
  // Only for CompactAlgorithm::Paper: which scan the flags go through.
  ScanAlgorithm paper_scan = ScanAlgorithm::Optimized;
};

// Built-in predicates (the library instantiates them for every built-in type).
template <class T>
struct LessThan {
  T threshold;
  SCANDOF_HD bool operator()(const T& x) const { return x < threshold; }
};
template <class T>
struct NotEqualTo {
  T value;
  SCANDOF_HD bool operator()(const T& x) const { return !(x == value); }
};

// One predicate type for the tests a command line or a UI picks at run time (scantool compact
// uses it), so the library compiles one kernel set per type for all of them instead of one per
// test. The switch costs a few instructions per element, hidden behind the loads. Odd and Even
// test integers; for floating-point T they are false (callers reject them first).
enum class ValueTestKind : int {
  Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual, NonZero, Odd, Even
};
template <class T>
struct ValueTest {
  ValueTestKind kind;
  T value;
  SCANDOF_HD bool operator()(const T& x) const {
    switch (kind) {
      case ValueTestKind::Less: return x < value;
      case ValueTestKind::LessEqual: return x <= value;
      case ValueTestKind::Greater: return value < x;
      case ValueTestKind::GreaterEqual: return value <= x;
      case ValueTestKind::Equal: return x == value;
      case ValueTestKind::NotEqual: return !(x == value);
      case ValueTestKind::NonZero: return !(x == T(0));
      case ValueTestKind::Odd:
      case ValueTestKind::Even:
        if constexpr (std::is_integral<T>::value)
          return ((x & T(1)) != T(0)) == (kind == ValueTestKind::Odd);
        else
          return false;
    }
    return false;
  }
};

// The ValueTest that keeps exactly the x of type T for which `x OP threshold` holds with the
// threshold given as text, compared as numpy compares an array with a Python number: in exact
// arithmetic, not after wrapping the threshold into T. So on int32 '>3000000000' keeps none, on
// uint32 '>-1' keeps all, on int32 '>2.5' is '>2' and '==2.5' keeps none; a NaN threshold keeps
// none, except '!=' which keeps all. For float32 a decimal threshold within float32's range is
// rounded to float32 first (numpy casts it to the array's dtype); integer text and thresholds
// beyond float32 compare exactly ('>1e300' keeps +inf only). Out-of-range thresholds become an
// equivalent in-range test, so the one ValueTest kernel serves them on the GPU and the CPU
// reference agrees bit for bit. kind must take a value (not NonZero, Odd, Even). Throws
// std::invalid_argument when the text is not a number.
template <class T>
ValueTest<T> make_value_test(ValueTestKind kind, const std::string& threshold);

// Scratch bytes for n elements of T with the given options (the same for every predicate, for
// the flags variants and for partition). 0 is a valid answer.
// CompactAlgorithm::SinglePass keeps its look-back state in the workspace between calls, as the
// single-pass scan does (scan.hpp), so a call is one kernel launch: zero-fill the workspace
// before its first use (clear_workspace; ScanWorkspace does it) and again after anything else
// wrote it (the other algorithms' scratch, partition's, your data); then reuse it for any number
// of single-pass compactions and scans, one at a time. The other algorithms and partition take
// any memory.
template <class T>
std::size_t compact_workspace_bytes(std::size_t n, CompactOptions opt = {});

// Keeps in[i] where pred(in[i]) holds, order preserved, in out[0 .. count). Writes the count to
// the device location d_count (asynchronously; no host synchronization). out must not overlap in.
// Elements of out past the count are left untouched.
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::uint64_t* d_count, std::size_t n, Pred pred,
                void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = 0,
                CompactOptions opt = {});
// The same with a flags array: in[i] is kept where d_flags[i] != 0 (out must not overlap it).
template <class T>
void compact_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::uint64_t* d_count,
                     std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                     cudaStream_t stream = 0, CompactOptions opt = {});
// Stable partition: selected elements first (input order), then the rest (input order); writes
// all n elements of out and the selected count to d_count.
template <class T, class Pred>
void partition_if(const T* d_in, T* d_out, std::uint64_t* d_count, std::size_t n, Pred pred,
                  void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = 0,
                  CompactOptions opt = {});
template <class T>
void partition_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::uint64_t* d_count,
                       std::size_t n, void* d_workspace, std::size_t workspace_bytes,
                       cudaStream_t stream = 0, CompactOptions opt = {});

// Convenience overloads: scratch (and the device count) from a ScanWorkspace; return the count,
// which synchronizes `stream`.
namespace detail {
constexpr std::size_t kCountSlotBytes = 256;  // count slot at the front, keeps the rest aligned
}
template <class T, class Pred>
std::size_t compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, ScanWorkspace& ws,
                       cudaStream_t stream = 0, CompactOptions opt = {});
template <class T>
std::size_t compact_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::size_t n,
                            ScanWorkspace& ws, cudaStream_t stream = 0, CompactOptions opt = {});
template <class T, class Pred>
std::size_t partition_if(const T* d_in, T* d_out, std::size_t n, Pred pred, ScanWorkspace& ws,
                         cudaStream_t stream = 0, CompactOptions opt = {});
template <class T>
std::size_t partition_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out, std::size_t n,
                              ScanWorkspace& ws, cudaStream_t stream = 0, CompactOptions opt = {});

// CPU references (kernels/src/compact_gold.cpp; std::copy_if / std::stable_partition). Return
// the count; out must hold n elements for partition, the count for compaction.
template <class T, class Pred>
std::size_t compact_gold(const T* in, T* out, std::size_t n, Pred pred);
template <class T>
std::size_t compact_flagged_gold(const T* in, const std::uint8_t* flags, T* out, std::size_t n);
template <class T, class Pred>
std::size_t partition_gold(const T* in, T* out, std::size_t n, Pred pred);
template <class T>
std::size_t partition_flagged_gold(const T* in, const std::uint8_t* flags, T* out, std::size_t n);

// The element types the library compiles (with LessThan<T>, NotEqualTo<T> and ValueTest<T> as
// predicates).
#define SCANDOF_FOR_EACH_COMPACT_TYPE(X) \
  X(int32_t)                             \
  X(uint32_t)                            \
  X(int64_t)                             \
  X(float)                               \
  X(double)

#define SCANDOF_DECLARE_COMPACT_PRED(T, P)                                                     \
  extern template void compact_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*,   \
                                        std::size_t, cudaStream_t, CompactOptions);            \
  extern template void partition_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*, \
                                          std::size_t, cudaStream_t, CompactOptions);          \
  extern template std::size_t compact_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&,   \
                                               cudaStream_t, CompactOptions);                  \
  extern template std::size_t partition_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&, \
                                                 cudaStream_t, CompactOptions);                \
  extern template std::size_t compact_gold<T, P>(const T*, T*, std::size_t, P);                \
  extern template std::size_t partition_gold<T, P>(const T*, T*, std::size_t, P);
#define SCANDOF_DECLARE_COMPACT(T)                                                                 \
  extern template std::size_t compact_workspace_bytes<T>(std::size_t, CompactOptions);             \
  extern template void compact_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*,       \
                                          std::size_t, void*, std::size_t, cudaStream_t,           \
                                          CompactOptions);                                         \
  extern template void partition_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*,     \
                                            std::size_t, void*, std::size_t, cudaStream_t,         \
                                            CompactOptions);                                       \
  extern template std::size_t compact_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t,   \
                                                 ScanWorkspace&, cudaStream_t, CompactOptions);    \
  extern template std::size_t partition_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t, \
                                                   ScanWorkspace&, cudaStream_t, CompactOptions);  \
  extern template std::size_t compact_flagged_gold<T>(const T*, const std::uint8_t*, T*,           \
                                                      std::size_t);                                \
  extern template std::size_t partition_flagged_gold<T>(const T*, const std::uint8_t*, T*,         \
                                                        std::size_t);                              \
  SCANDOF_DECLARE_COMPACT_PRED(T, LessThan<T>)                                                     \
  SCANDOF_DECLARE_COMPACT_PRED(T, NotEqualTo<T>)                                                   \
  SCANDOF_DECLARE_COMPACT_PRED(T, ValueTest<T>)
SCANDOF_FOR_EACH_COMPACT_TYPE(SCANDOF_DECLARE_COMPACT)
#undef SCANDOF_DECLARE_COMPACT

}  // namespace scandof
