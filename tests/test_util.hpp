// Shared helpers for scandof's tests: seeded random inputs per element type (never all zeros),
// poison values, host and device comparison with reports that name the first bad element, fp64
// references with a rounding bound for floating-point sums, the size lists, environment knobs and
// (in .cu files only) RAII device buffers and GPU comparison kernels.
//
// Environment:
//   SCANDOF_TEST_SEED   base seed of every random input (default 0x5CA9D0F); printed on failure.
//   SCANDOF_TEST_MAX_N  drop sizes above this (default: none), e.g. 70000 under compute-sanitizer.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/config.hpp"
#include "scandof/ops.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"
#include "scandof/util/parallel_for.hpp"
#include "scandof/util/rng.hpp"

#include "gpu_skip.hpp"
#include "inputs.hpp"

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include "scandof/cuda_check.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/stream.hpp"
#endif

namespace scandof {
namespace test {

// ---- environment ------------------------------------------------------------------------------

inline std::uint64_t env_u64(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 0);
  return (end != nullptr && *end == '\0') ? static_cast<std::uint64_t>(v) : fallback;
}

inline std::uint64_t base_seed() {
  return env_u64("SCANDOF_TEST_SEED", 0x5CA9D0Full);
}

// Sizes above this are skipped: memcheck is 10-100x slower, so sanitizer runs cap the sweep.
inline std::size_t max_test_n() {
  return static_cast<std::size_t>(
      env_u64("SCANDOF_TEST_MAX_N", std::numeric_limits<std::uint64_t>::max()));
}

// ---- hashing / random numbers -----------------------------------------------------------------

// The project's counter-based generator and host threads (scandof/util): element i of a seeded
// input can be made in any order, on any thread, or on the GPU, and always comes out the same.
using util::hash_at;
using util::mix64;
using util::parallel_for;

// Derives a seed for one input from the base seed and small tags (type, operator, size, ...).
inline std::uint64_t derive_seed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0,
                                 std::uint64_t d = 0) {
  std::uint64_t s = mix64(base_seed() ^ mix64(a));
  s = mix64(s ^ mix64(b + 0x1000));
  s = mix64(s ^ mix64(c + 0x2000));
  return mix64(s ^ mix64(d + 0x3000));
}

// ---- names and printing -----------------------------------------------------------------------

using bench::type_name;  // bench/inputs.hpp: one spelling for tests, benchmarks and reports

template <class Op>
const char* op_name() {
  if constexpr (std::is_same_v<Op, Sum>)
    return "Sum";
  else if constexpr (std::is_same_v<Op, Min>)
    return "Min";
  else if constexpr (std::is_same_v<Op, Max>)
    return "Max";
  else if constexpr (std::is_same_v<Op, ComposeAffine>)
    return "ComposeAffine";
  else
    return "Op";
}

inline const char* kind_name(ScanKind k) {
  return k == ScanKind::Exclusive ? "Exclusive" : "Inclusive";
}

// Identifier-safe CamelCase names (gtest parameter names, --gtest_filter=*SinglePass*). Kept
// here rather than using to_string() so test registration does not depend on the library.
inline const char* algo_name(ScanAlgorithm a) {
  static const char* const names[] = {"Naive",       "WorkEfficient", "ConflictFree", "Optimized",
                                      "WarpShuffle", "SinglePass",    "Cub"};
  const int i = static_cast<int>(a);
  return (i >= 0 && i < kNumScanAlgorithms) ? names[i] : "Unknown";
}

inline std::vector<ScanAlgorithm> every_algorithm() {
  std::vector<ScanAlgorithm> v;
  for (int i = 0; i < kNumScanAlgorithms; ++i) v.push_back(static_cast<ScanAlgorithm>(i));
  return v;
}

// A frame size as a gtest parameter. SCANDOF_FRAME_SIZE_SUITE(Suite, {w, h}, ...) instantiates the
// TestWithParam<Size2D> suite Suite over those sizes, each case named Sizes/Suite.Test/WxH
// (--gtest_filter=*/640x480).
struct Size2D {
  int w, h;
};
inline std::string size_name(const ::testing::TestParamInfo<Size2D>& i) {
  return std::to_string(i.param.w) + "x" + std::to_string(i.param.h);
}
#define SCANDOF_FRAME_SIZE_SUITE(suite, ...)                                                       \
  INSTANTIATE_TEST_SUITE_P(Sizes, suite,                                                           \
                           ::testing::ValuesIn(std::vector<::scandof::test::Size2D>{__VA_ARGS__}), \
                           ::scandof::test::size_name)

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_same_v<T, Affine>) {
    os << "{a=" << v.a << ", b=" << v.b << "}";
  } else if constexpr (std::is_floating_point_v<T>) {
    os.precision(std::numeric_limits<T>::max_digits10);
    os << v;
  } else {
    os << +v;
  }
  return os.str();
}

// ---- poison -----------------------------------------------------------------------------------

// Outputs are filled with this byte before every run, so an element a kernel forgot to write never
// passes by accident (0xABABABAB is neither a plausible sum nor an identity of any operator).
constexpr unsigned char kPoisonByte = 0xAB;

template <class T>
T poison_value() {
  static_assert(std::is_trivially_copyable_v<T>, "poison needs a trivially copyable type");
  T v;
  std::memset(static_cast<void*>(&v), kPoisonByte, sizeof(T));
  return v;
}

template <class T>
void poison(std::vector<T>& v) {
  if (!v.empty()) std::memset(static_cast<void*>(v.data()), kPoisonByte, v.size() * sizeof(T));
}

// ---- random inputs ----------------------------------------------------------------------------

// What the values look like. None of them is all zeros.
//   Summable: small nonzero integers or floats in (0, 1]: sums stay exact (ints) or well
//             conditioned (floats: no cancellation, so a relative bound is meaningful). uint32 and
//             uint64 use the full range: unsigned wrap-around is defined and worth exercising.
//   Walk:     a random walk (nonzero steps): running minima / maxima keep changing, so a missing or
//             misplaced block prefix shows; uniform data would pin the running min within a few
//             thousand elements and hide it.
//   Full:     uniformly random bits (floats: uniform in [-1e6, 1e6)).
enum class Pattern { Summable, Walk, Full };

template <class Op>
constexpr Pattern pattern_for() {
  return std::is_same_v<Op, Min> || std::is_same_v<Op, Max> ? Pattern::Walk : Pattern::Summable;
}

namespace detail {

// A nonzero integer in [-r, r] from a 64-bit hash.
inline std::int64_t nonzero_in(std::uint64_t h, std::int64_t r) {
  const std::int64_t v = static_cast<std::int64_t>(h % static_cast<std::uint64_t>(2 * r)) - r;
  return v >= 0 ? v + 1 : v;  // [-r, r) -> [-r, -1] U [1, r]
}

template <class T>
T summable_at(std::uint64_t h) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return static_cast<T>(nonzero_in(h, 1000));
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return nonzero_in(h, std::int64_t(1) << 40);  // high bits in use; 2^26 of them stay < 2^63
  } else if constexpr (std::is_unsigned_v<T>) {
    const T v = static_cast<T>(h);
    return v == 0 ? T(1) : v;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>((h >> 40) + 1) * 0x1p-24f;  // (0, 1], exact in float
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>((h >> 11) + 1) * 0x1p-53;  // (0, 1], exact in double
  } else {
    static_assert(sizeof(T) == 0, "no summable pattern for this type");
  }
}

template <class T>
T full_at(std::uint64_t h) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(h);
  } else {
    return static_cast<T>(static_cast<double>(h >> 11) * 0x1p-53 * 2e6 - 1e6);
  }
}

}  // namespace detail

// n seeded values of T following `pattern`.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed,
                             Pattern pattern = Pattern::Summable) {
  std::vector<T> v(n);
  if (pattern == Pattern::Walk) {
    // x[i] = start + step[0] + ... + step[i], summed exactly (int64, or doubles that are multiples
    // of 2^-20 below 2^32), so the parallel sum gives the same values on any number of cores.
    using Acc = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;
    std::vector<Acc> walk(n);
    const std::int64_t step = std::is_same_v<T, std::int64_t> ? (std::int64_t(1) << 32) : 1000;
    parallel_for(n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        if constexpr (std::is_integral_v<T>) {
          walk[i] = detail::nonzero_in(hash_at(seed, i), step);
        } else {
          walk[i] = static_cast<double>(detail::nonzero_in(hash_at(seed, i), 1 << 20)) * 0x1p-20;
        }
      }
    });
    scan_gold_parallel(ScanKind::Inclusive, walk.data(), walk.data(), n, Sum{}, Acc(0));
    const Acc start =
        std::is_unsigned_v<T> ? static_cast<Acc>(std::uint64_t(1) << (sizeof(T) * 8 - 1)) : Acc(0);
    parallel_for(n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        if constexpr (std::is_unsigned_v<T>) {
          v[i] = static_cast<T>(static_cast<std::uint64_t>(start + walk[i]));  // wraps, defined
        } else {
          v[i] = static_cast<T>(start + walk[i]);
        }
      }
    });
    return v;
  }
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t h = hash_at(seed, i);
      v[i] = pattern == Pattern::Full ? detail::full_at<T>(h) : detail::summable_at<T>(h);
    }
  });
  return v;
}

// Affine maps with odd `a`: odd numbers are units mod 2^32, so a long composition never collapses
// to a constant (with even `a` the product is 0 after ~32 factors and every prefix would depend
// only on the last few dozen elements, hiding a wrong block prefix).
template <>
inline std::vector<Affine> random_vector<Affine>(std::size_t n, std::uint64_t seed, Pattern) {
  std::vector<Affine> v(n);
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t h = hash_at(seed, i);
      v[i] = Affine{static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32)};
    }
  });
  return v;
}

// ---- sizes ------------------------------------------------------------------------------------

// Edges of warps, blocks, tiles (1024, 2048, 4096 items) and recursion levels of the three-phase
// scan, plus the sizes of the paper's table. Ascending, so the first failure reported is the
// smallest size that fails.
inline std::vector<std::size_t> awkward_sizes() {
  return {0,
          1,
          2,
          31,
          32,
          33,
          127,
          129,
          1023,
          1024,
          1025,
          2047,
          2049,
          4095,
          4096,
          4097,
          8193,
          (1u << 16) - 1,
          1u << 16,
          (1u << 16) + 1,
          (1u << 18) + 3,
          (1u << 20) + 7};
}

// `count` sizes drawn log-uniformly from [lo, hi] (seeded; the same every run with one seed).
inline std::vector<std::size_t> random_sizes(std::size_t count, std::size_t lo, std::size_t hi,
                                             std::uint64_t seed) {
  std::vector<std::size_t> v;
  const double llo = std::log2(static_cast<double>(lo)), lhi = std::log2(static_cast<double>(hi));
  for (std::size_t k = 0; k < count; ++k) {
    const double u = static_cast<double>(hash_at(seed, k) >> 11) * 0x1p-53;
    const std::size_t s = static_cast<std::size_t>(std::exp2(llo + u * (lhi - llo)));
    v.push_back(std::min(hi, std::max(lo, s)));
  }
  return v;
}

// Drops sizes above SCANDOF_TEST_MAX_N; keeps order.
inline std::vector<std::size_t> capped(std::vector<std::size_t> v) {
  const std::size_t cap = max_test_n();
  v.erase(std::remove_if(v.begin(), v.end(), [cap](std::size_t s) { return s > cap; }), v.end());
  return v;
}

// ---- SAT inputs -------------------------------------------------------------------------------

// A w x h image read from `pixels` (RGBA8 unless the caller sets `format`) with rows
// `pitch_bytes` apart; every other field SatInput's default.
inline SatInput pixel_input(const void* pixels, std::size_t pitch_bytes, int w, int h) {
  SatInput in;
  in.pixels = pixels;
  in.pitch_bytes = pitch_bytes;
  in.width = w;
  in.height = h;
  return in;
}

// ---- references and tolerances ----------------------------------------------------------------

// Reference for a floating-point Sum scan: the exact-as-possible prefix sums (accumulated in long
// double: 64-bit mantissa, so even a double result is checked against something 2^11 times finer)
// and the prefix sums of |x| that scale the allowed error.
struct FloatSumReference {
  std::vector<double> value;  // rounded once from the long double accumulation
  std::vector<double> mag;    // same kind of scan over |x|
};

template <class T>
FloatSumReference float_sum_reference(ScanKind kind, const T* in, std::size_t n) {
  FloatSumReference r;
  r.value.resize(n);
  r.mag.resize(n);
  // Two passes over fixed chunks (chunk totals, then each chunk rescanned from its carry) so the
  // cores share the slow x87 arithmetic; the association differs from a serial loop only at the
  // long-double level, 2^-64 relative, far below any tolerance used with it.
  const std::size_t chunk = std::size_t(1) << 20;
  const std::size_t chunks = (n + chunk - 1) / chunk;
  std::vector<long double> tot(chunks), mtot(chunks);
  parallel_for(
      chunks,
      [&](std::size_t cb, std::size_t ce) {
        for (std::size_t c = cb; c < ce; ++c) {
          long double a = 0, m = 0;
          for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
            a += static_cast<long double>(in[i]);
            m += std::fabs(static_cast<long double>(in[i]));
          }
          tot[c] = a;
          mtot[c] = m;
        }
      },
      1);
  long double carry = 0, mcarry = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const long double a = tot[c], m = mtot[c];
    tot[c] = carry;
    mtot[c] = mcarry;
    carry += a;
    mcarry += m;
  }
  parallel_for(
      chunks,
      [&](std::size_t cb, std::size_t ce) {
        for (std::size_t c = cb; c < ce; ++c) {
          long double acc = tot[c], macc = mtot[c];
          for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
            const long double x = static_cast<long double>(in[i]);
            if (kind == ScanKind::Inclusive) {
              acc += x;
              macc += std::fabs(x);
            }
            r.value[i] = static_cast<double>(acc);
            r.mag[i] = static_cast<double>(macc);
            if (kind == ScanKind::Exclusive) {
              acc += x;
              macc += std::fabs(x);
            }
          }
        }
      },
      1);
  return r;
}

// Allowed |got - ref| as a multiple of (sum of |x| up to that element): c * eps * (4 log2 n + 16).
// A tree scan rounds O(log n) times on the way to any element; decoupled look-back adds a serial
// chain across tiles. Simulating a float look-back (serial scan inside 1024- and 3840-item tiles,
// serial chain of tile prefixes) at n = 2^26 with inputs in [0.25, 1) gave at most 43 eps; this
// bound allows 120 eps there and 56 eps at n = 1025, where one lost element of the input (~0.5 of
// ~500) would be 1e-3 relative: wrong indexing still fails by orders of magnitude.
template <class T>
double sum_tolerance_factor(std::size_t n) {
  const double eps = std::numeric_limits<T>::epsilon();
  return eps * (4.0 * std::log2(static_cast<double>(n) + 1.0) + 16.0);
}

// ---- host comparison --------------------------------------------------------------------------

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every element must match exactly (bitwise; inputs never hold NaN or -0). Reports the count and
// the first few mismatches with their indices.
template <class T>
::testing::AssertionResult all_equal(const T* got, const T* want, std::size_t n,
                                     std::size_t max_report = 5) {
  std::size_t bad = 0;
  std::ostringstream os;
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_bits(got[i], want[i])) {
      if (bad < max_report)
        os << "\n  [" << i << "] got " << show(got[i]) << ", want " << show(want[i]);
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << n << " elements differ" << os.str();
}

template <class T>
::testing::AssertionResult all_equal(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
  return all_equal(got.data(), want.data(), got.size());
}

// |got[i] - ref.value[i]| <= factor * ref.mag[i] for every i (a NaN fails).
template <class T>
::testing::AssertionResult all_close(const T* got, const FloatSumReference& ref, std::size_t n,
                                     double factor, std::size_t max_report = 5) {
  std::size_t bad = 0;
  std::ostringstream os;
  os.precision(17);
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::fabs(static_cast<double>(got[i]) - ref.value[i]);
    if (!(d <= factor * ref.mag[i])) {
      if (bad < max_report)
        os << "\n  [" << i << "] got " << show(got[i]) << ", want " << ref.value[i] << " +- "
           << factor * ref.mag[i];
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << n << " elements out of bound" << os.str();
}

// ---- device helpers (.cu files only) ----------------------------------------------------------
#if defined(__CUDACC__)

// util::DeviceBuffer (which owns the memory) with the tests' conveniences: made from a host
// vector, synchronous copies at an element offset, downloads into a new vector, and poisoning
// with kPoisonByte. n == 0 holds nullptr.
template <class T>
class DeviceBuffer : public util::DeviceBuffer<T> {
  using Base = util::DeviceBuffer<T>;

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : Base(n) {}
  explicit DeviceBuffer(const std::vector<T>& h) { assign(h); }

  void assign(const std::vector<T>& h) {
    Base::resize(h.size());
    upload(h.data(), h.size());
  }
  void upload(const T* h, std::size_t n, std::size_t offset = 0) {
    if (n > 0)
      CUDA_CHECK(cudaMemcpy(this->data() + offset, h, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(std::size_t n, std::size_t offset = 0) const {
    std::vector<T> h(n);
    if (n > 0)
      CUDA_CHECK(
          cudaMemcpy(h.data(), this->data() + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  std::vector<T> download() const { return download(this->size()); }
  // Fills the first n elements (all by default) with kPoisonByte bytes, asynchronously.
  void poison(cudaStream_t s = 0, std::size_t n = std::size_t(-1)) {
    n = std::min(n, this->size());
    if (n > 0) CUDA_CHECK(cudaMemsetAsync(this->data(), kPoisonByte, n * sizeof(T), s));
  }
};

struct Mismatches {
  unsigned long long count = 0;      // elements that failed
  unsigned long long first = ~0ull;  // smallest failing index (valid when count > 0)
};

namespace kernels {

// Exact comparison of n elements of wpe words each (4-byte words, or bytes for odd sizes).
template <class W>
__global__ void count_unequal(const W* a, const W* b, unsigned long long n, unsigned long long wpe,
                              Mismatches* res) {
  unsigned long long bad = 0, first = ~0ull;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < n; i += stride) {
    for (unsigned long long w = 0; w < wpe; ++w) {
      if (a[i * wpe + w] != b[i * wpe + w]) {
        ++bad;
        first = min(first, i);
        break;
      }
    }
  }
  if (bad != 0) {
    atomicAdd(&res->count, bad);
    atomicMin(&res->first, first);
  }
}

template <class T>
__global__ void count_far(const T* got, const double* ref, const double* mag, unsigned long long n,
                          double factor, Mismatches* res) {
  unsigned long long bad = 0, first = ~0ull;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < n; i += stride) {
    const double d = fabs(static_cast<double>(got[i]) - ref[i]);
    if (!(d <= factor * mag[i])) {
      ++bad;
      first = min(first, i);
    }
  }
  if (bad != 0) {
    atomicAdd(&res->count, bad);
    atomicMin(&res->first, first);
  }
}

__global__ inline void count_not_byte(const unsigned char* p, unsigned long long bytes,
                                      unsigned char v, Mismatches* res) {
  unsigned long long bad = 0, first = ~0ull;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < bytes; i += stride) {
    if (p[i] != v) {
      ++bad;
      first = min(first, i);
    }
  }
  if (bad != 0) {
    atomicAdd(&res->count, bad);
    atomicMin(&res->first, first);
  }
}

}  // namespace kernels

// Grid for a grid-stride loop over n items: enough blocks to fill an H100 several times over.
inline unsigned compare_grid(unsigned long long n) {
  const unsigned long long blocks = (n + 255) / 256;
  return static_cast<unsigned>(
      std::max<unsigned long long>(1, std::min<unsigned long long>(blocks, 4096)));
}

// Runs one of the counting kernels above and returns its result (synchronizes the stream).
class MismatchCounter {
 public:
  MismatchCounter() { CUDA_CHECK(cudaMalloc(&d_, sizeof(Mismatches))); }
  ~MismatchCounter() { cudaFree(d_); }
  MismatchCounter(const MismatchCounter&) = delete;
  MismatchCounter& operator=(const MismatchCounter&) = delete;

  // Exact (bitwise) comparison of n elements of T.
  template <class T>
  Mismatches exact(const T* a, const T* b, std::size_t n, cudaStream_t s = 0) {
    reset(s);
    if (n > 0) {
      if constexpr (sizeof(T) % 4 == 0) {
        kernels::count_unequal<<<compare_grid(n), 256, 0, s>>>(
            reinterpret_cast<const std::uint32_t*>(a), reinterpret_cast<const std::uint32_t*>(b), n,
            sizeof(T) / 4, d_);
      } else {
        kernels::count_unequal<<<compare_grid(n), 256, 0, s>>>(
            reinterpret_cast<const unsigned char*>(a), reinterpret_cast<const unsigned char*>(b), n,
            sizeof(T), d_);
      }
      CUDA_CHECK_LAUNCH();
    }
    return fetch(s);
  }

  // |got - ref| <= factor * mag for n elements.
  template <class T>
  Mismatches close(const T* got, const double* ref, const double* mag, std::size_t n, double factor,
                   cudaStream_t s = 0) {
    reset(s);
    if (n > 0) {
      kernels::count_far<<<compare_grid(n), 256, 0, s>>>(got, ref, mag, n, factor, d_);
      CUDA_CHECK_LAUNCH();
    }
    return fetch(s);
  }

  // Bytes in [p, p + bytes) that are not kPoisonByte (a guard zone someone wrote into).
  Mismatches unpoisoned(const void* p, std::size_t bytes, cudaStream_t s = 0) {
    reset(s);
    if (bytes > 0) {
      kernels::count_not_byte<<<compare_grid(bytes), 256, 0, s>>>(
          static_cast<const unsigned char*>(p), bytes, kPoisonByte, d_);
      CUDA_CHECK_LAUNCH();
    }
    return fetch(s);
  }

 private:
  void reset(cudaStream_t s) {
    const Mismatches init;
    CUDA_CHECK(cudaMemcpyAsync(d_, &init, sizeof(init), cudaMemcpyHostToDevice, s));
  }
  Mismatches fetch(cudaStream_t s) {
    Mismatches h;
    CUDA_CHECK(cudaMemcpyAsync(&h, d_, sizeof(h), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return h;
  }
  Mismatches* d_ = nullptr;
};

// One element copied back (for failure messages).
template <class T>
T fetch_element(const T* d, std::size_t i) {
  T h;
  CUDA_CHECK(cudaMemcpy(&h, d + i, sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// util::Stream is created with cudaStreamNonBlocking (no implicit sync with the legacy default
// stream), so work the library wrongly puts on stream 0 races instead of silently serialising.
using util::Stream;

#endif  // __CUDACC__

}  // namespace test
}  // namespace scandof
