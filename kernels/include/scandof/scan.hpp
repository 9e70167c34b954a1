// Device-wide scan: the public, host-side API. Usable from plain C++ (no nvcc needed) for the
// built-in element types and operators, which the library instantiates. For a user-defined
// operator or element type include "scandof/scan.cuh" in a .cu file instead: same functions.
//
//   scandof::ScanWorkspace ws;                                        // grows on demand
//   scandof::scan(ScanAlgorithm::SinglePass, ScanKind::Exclusive, d_in, d_out, n, Sum{}, ws, stream);
//
// Every call is asynchronous on `stream`. Errors throw: std::invalid_argument for bad arguments
// (checked before any CUDA call, except that a CUB scan's workspace size is the device's answer),
// scandof::CudaError for CUDA failures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/ops.hpp"

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#else
typedef struct CUstream_st* cudaStream_t;
#endif

namespace scandof {

// The variants of the chapter, in the order the paper builds them up, plus today's single-pass
// scan and CUB as the reference to beat.
enum class ScanAlgorithm : int {
  Naive = 0,          // Hillis-Steele, double-buffered in shared memory: O(n log n) adds
  WorkEfficient = 1,  // Blelloch up-sweep / down-sweep: O(n) adds, bank conflicts
  ConflictFree = 2,   // Blelloch with padded shared-memory indices (32 banks)
  Optimized = 3,      // paper's final: 8 items/thread, vector loads, unrolled tree
  WarpShuffle = 4,    // per-thread serial scan + __shfl_up_sync warp scans
  SinglePass = 5,     // decoupled look-back (Merrill & Garland 2016): one pass, ~2n traffic
  Cub = 6,            // cub::DeviceScan, the reference
};
constexpr int kNumScanAlgorithms = 7;

enum class ScanKind : int { Exclusive = 0, Inclusive = 1 };

// Whether a scan's bits may change from run to run. A floating-point sum is not associative, and
// the single-pass scan combines its predecessors in whatever grouping their timing gave, so its
// last bits may differ between runs of the same input (so do cub::DeviceScan's).
//  - NotGuaranteed (the default): the fastest grouping.
//  - RunToRun: bitwise identical output for the same input, n, operator and GPU, every run. The
//    single-pass scan then combines its look-back in a grouping fixed by the tile id (a few
//    percent slower: results/scan/README.md); the paper's block scans (Naive .. WarpShuffle) are
//    deterministic as they are; Cub refuses it for non-integer types (std::invalid_argument).
// Integer scans are exact in any grouping (Sum wraps modulo 2^bits, Min and Max are exact), so they
// are run-to-run deterministic in either mode and take the fastest path.
enum class Determinism : int { NotGuaranteed = 0, RunToRun = 1 };

const char* to_string(ScanAlgorithm a);
const char* to_string(ScanKind k);
const char* to_string(Determinism d);
// Parses "naive", "work-efficient", "conflict-free", "optimized", "warp-shuffle", "single-pass",
// "cub" (also the enum's number). Throws std::invalid_argument naming the choices.
ScanAlgorithm parse_scan_algorithm(const std::string& name);
std::vector<ScanAlgorithm> all_scan_algorithms();

// Scratch bytes scan() needs for n elements of type T with operator Op (0 is a valid answer).
template <class T, class Op>
std::size_t scan_workspace_bytes(ScanAlgorithm algo, std::size_t n);

// The core entry point with explicit scratch. `identity` must satisfy op(identity, x) == x.
// in == out (in place) is allowed; other overlaps are not. n may exceed 2^31.
//
// The workspace of SinglePass (and of compaction's single pass) keeps its look-back state from
// call to call, so a call is one kernel launch with no clearing before it. Its contract: the
// memory is zero-filled before its first use (ScanWorkspace does it; for a buffer of your own,
// clear_workspace or cudaMemsetAsync to 0 once), and again after anything else wrote it (another
// algorithm's scratch, your own data). Then reuse it for any number of calls, at any n it is large
// enough for, in any stream order, as long as two calls on one workspace never run at the same
// time and the allocation stays as large as the largest call made with it. The other algorithms
// take any memory.
template <class T, class Op>
void scan(ScanAlgorithm algo, ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op,
          T identity, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = 0,
          Determinism determinism = Determinism::NotGuaranteed);

// Zero-fills `bytes` of a workspace on `stream` (what a buffer needs before its first look-back
// call). No-op for bytes == 0.
void clear_workspace(void* d_workspace, std::size_t bytes, cudaStream_t stream = 0);

// A device scratch buffer that grows to the largest size asked of it; owns its memory (RAII).
class ScanWorkspace {
 public:
  ScanWorkspace() = default;
  ~ScanWorkspace();
  ScanWorkspace(const ScanWorkspace&) = delete;
  ScanWorkspace& operator=(const ScanWorkspace&) = delete;
  ScanWorkspace(ScanWorkspace&& o) noexcept;
  ScanWorkspace& operator=(ScanWorkspace&& o) noexcept;

  // Ensures at least `bytes`; reallocation synchronizes the device (cudaFree), so size it once.
  // New memory is zero-filled, as the look-back kernels want it.
  void* reserve(std::size_t bytes);
  void* data() const { return ptr_; }
  std::size_t size() const { return bytes_; }

  // For the library's convenience overloads: records that a call of the look-back kind (true) or
  // of any other kind (false) is about to use the memory, and zero-fills it on `stream` when a
  // look-back call follows another kind of use (whose scratch would read as published status).
  void note_use(bool lookback, cudaStream_t stream);

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  bool clean_for_lookback_ = true;  // zero, or only look-back calls have used it since
};

namespace detail {
inline bool is_known_algorithm(ScanAlgorithm a) {
  const int v = static_cast<int>(a);
  return v >= 0 && v < kNumScanAlgorithms;
}

[[noreturn]] inline void throw_unknown_algorithm(const char* where, ScanAlgorithm a) {
  throw std::invalid_argument(std::string(where) + ": unknown ScanAlgorithm " +
                              std::to_string(static_cast<int>(a)));
}

// Everything scan() can reject without CUDA: algorithm and kind, null pointers with n > 0, a size
// whose byte count overflows, and overlapping ranges other than in == out (in place is fine:
// every variant reads a tile before writing it; a shifted overlap would let tiles read elements
// that another tile already overwrote).
inline void check_scan_arguments(ScanAlgorithm algo, ScanKind kind, const void* d_in,
                                 const void* d_out, std::size_t n, std::size_t elem_size,
                                 Determinism det = Determinism::NotGuaranteed) {
  if (!is_known_algorithm(algo)) throw_unknown_algorithm("scandof::scan", algo);
  if (kind != ScanKind::Exclusive && kind != ScanKind::Inclusive)
    throw std::invalid_argument("scandof::scan: unknown ScanKind " +
                                std::to_string(static_cast<int>(kind)));
  if (det != Determinism::NotGuaranteed && det != Determinism::RunToRun)
    throw std::invalid_argument("scandof::scan: unknown Determinism " +
                                std::to_string(static_cast<int>(det)));
  if (n == 0) return;
  if (d_in == nullptr) throw std::invalid_argument("scandof::scan: d_in is null with n > 0");
  if (d_out == nullptr) throw std::invalid_argument("scandof::scan: d_out is null with n > 0");
  if (n > SIZE_MAX / elem_size)
    throw std::invalid_argument("scandof::scan: n * sizeof(T) overflows size_t");
  const auto in_b = reinterpret_cast<std::uintptr_t>(d_in);
  const auto out_b = reinterpret_cast<std::uintptr_t>(d_out);
  const std::size_t bytes = n * elem_size;
  if (in_b != out_b && in_b < out_b + bytes && out_b < in_b + bytes)
    throw std::invalid_argument(
        "scandof::scan: d_in and d_out overlap without being equal (only in == out is allowed)");
}

}  // namespace detail

// Convenience: scratch from a ScanWorkspace, identity from the built-in operator. The arguments
// are checked before the workspace grows, so a bad call throws std::invalid_argument without
// touching the device (and checking twice costs a few compares).
template <class T, class Op>
void scan(ScanAlgorithm algo, ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op op,
          ScanWorkspace& ws, cudaStream_t stream = 0,
          Determinism determinism = Determinism::NotGuaranteed) {
  detail::check_scan_arguments(algo, kind, d_in, d_out, n, sizeof(T), determinism);
  const std::size_t need = scan_workspace_bytes<T, Op>(algo, n);
  void* p = ws.reserve(need);
  if (need > 0) ws.note_use(algo == ScanAlgorithm::SinglePass, stream);
  scan<T, Op>(algo, kind, d_in, d_out, n, op, identity_of<Op, T>(), p, ws.size(), stream,
              determinism);
}

// Whether a usable CUDA device is present (false also when built without CUDA). Never throws.
bool cuda_device_available(std::string* why_not = nullptr);

// The element types and operators the library itself compiles (scan.hpp users get these).
#define SCANDOF_FOR_EACH_BUILTIN_SCAN(X) \
  X(int32_t, Sum)                        \
  X(int32_t, Min)                        \
  X(int32_t, Max)                        \
  X(uint32_t, Sum)                       \
  X(uint32_t, Min)                       \
  X(uint32_t, Max)                       \
  X(int64_t, Sum)                        \
  X(int64_t, Min)                        \
  X(int64_t, Max)                        \
  X(float, Sum)                          \
  X(float, Min)                          \
  X(float, Max)                          \
  X(double, Sum)                         \
  X(double, Min)                         \
  X(double, Max)

#define SCANDOF_DECLARE_SCAN(T, OP)                                                              \
  extern template std::size_t scan_workspace_bytes<T, OP>(ScanAlgorithm, std::size_t);          \
  extern template void scan<T, OP>(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, OP, T,   \
                                   void*, std::size_t, cudaStream_t, Determinism);
SCANDOF_FOR_EACH_BUILTIN_SCAN(SCANDOF_DECLARE_SCAN)
#undef SCANDOF_DECLARE_SCAN

}  // namespace scandof
