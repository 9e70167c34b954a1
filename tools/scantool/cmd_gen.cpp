// `scantool gen`: seeded test inputs as .npy, so tests and users need no numpy to make data.
// The project's generator (scandof::util::SplitMix64) and its own mappings, not <random>'s
// distributions, whose output differs between standard libraries: the same seed gives the same
// file everywhere.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "scandof/npy.hpp"
#include "scandof/util/rng.hpp"

namespace scantool {
namespace {

enum class Dist { Uniform, Normal, Ones, Iota };

template <class T>
void fill(T* p, std::size_t n, Dist dist, std::uint64_t seed, double low, double high,
          std::int64_t lo, std::int64_t hi) {
  scandof::util::SplitMix64 rng{seed};
  switch (dist) {
    case Dist::Ones:
      for (std::size_t i = 0; i < n; ++i) p[i] = T(1);
      return;
    case Dist::Iota:
      // Through uint64 so that narrow integer types wrap instead of overflowing.
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>)
          p[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(i));
        else
          p[i] = static_cast<T>(i);
      }
      return;
    case Dist::Normal:
      // Box-Muller; 1 - unit() is in (0, 1], so the log is finite.
      for (std::size_t i = 0; i < n; ++i) {
        const double r = std::sqrt(-2.0 * std::log(1.0 - rng.next_double()));
        p[i] = static_cast<T>(r * std::cos(6.283185307179586 * rng.next_double()));
      }
      return;
    case Dist::Uniform:
      if constexpr (std::is_integral_v<T>) {
        // Unsigned arithmetic: hi - lo may not fit in int64 (the full int64 range).
        const std::uint64_t span =
            static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;  // 0: full range
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t r = span ? rng.next() % span : rng.next();
          p[i] = static_cast<T>(static_cast<std::uint64_t>(lo) + r);
        }
      } else {
        for (std::size_t i = 0; i < n; ++i)
          p[i] = static_cast<T>(low + (high - low) * rng.next_double());
      }
      return;
  }
}

// An integer bound, read exactly: 9223372036854775807 must not round through a double (to 2^63,
// out of int64's range). "1e3" and "100.0" are taken when they are whole numbers.
long double parse_int_bound(const std::string& text, const std::string& what,
                            const std::string& dtype) {
  char* end = nullptr;
  errno = 0;
  if (!text.empty() && text[0] == '-') {
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) return static_cast<long double>(v);
  } else if (!text.empty()) {
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) return static_cast<long double>(v);
  }
  // Beyond 64 bits (surely out of range): long double keeps it apart from the limits, where a
  // double would round -9223372036854775809 to INT64_MIN.
  if (!text.empty() && *end == '\0' && errno == ERANGE) return std::strtold(text.c_str(), nullptr);
  const double v = parse_finite(text, what, -HUGE_VAL, HUGE_VAL);
  if (v != std::floor(v)) throw UsageError("--low and --high must be integers for " + dtype);
  return static_cast<long double>(v);
}

struct Bounds {
  double low = 0, high = 0;          // float dtypes
  std::int64_t ilow = 0, ihigh = 0;  // integer dtypes
};

template <class T>
Bounds check_bounds(const std::string* low_text, const std::string* high_text, double low_default,
                    double high_default, const std::string& dtype) {
  Bounds b;
  if constexpr (std::is_integral_v<T>) {
    const long double lo = low_text ? parse_int_bound(*low_text, "--low", dtype) : low_default;
    const long double hi = high_text ? parse_int_bound(*high_text, "--high", dtype) : high_default;
    const long double tmin = static_cast<long double>(std::numeric_limits<T>::lowest());
    const long double tmax = static_cast<long double>(std::numeric_limits<T>::max());
    if (lo < tmin || lo > tmax || hi < tmin || hi > tmax)
      throw UsageError("--low/--high outside the range of " + dtype + " [" +
                       std::to_string(std::numeric_limits<T>::lowest() + 0) + ", " +
                       std::to_string(std::numeric_limits<T>::max() + 0) + "]");
    if (!(lo <= hi)) throw UsageError("--low must not exceed --high");
    b.ilow = static_cast<std::int64_t>(lo);
    b.ihigh = static_cast<std::int64_t>(hi);
  } else {
    // The values must be finite in T: --low 1e300 for float32 would write infinities.
    const double top = static_cast<double>(std::numeric_limits<T>::max());
    b.low = low_text ? parse_finite(*low_text, "--low (" + dtype + ")", -top, top) : low_default;
    b.high =
        high_text ? parse_finite(*high_text, "--high (" + dtype + ")", -top, top) : high_default;
    if (!(b.low <= b.high)) throw UsageError("--low must not exceed --high");
    if (!std::isfinite(b.high - b.low))
      throw UsageError("--high - --low overflows a double; narrow the range");
  }
  return b;
}

std::vector<std::size_t> parse_shape(const std::string& text) {
  std::vector<std::size_t> shape;
  std::size_t start = 0;
  for (;;) {
    const std::size_t x = text.find_first_of("x,", start);
    shape.push_back(parse_size(text.substr(start, x - start), "--shape"));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (shape.size() > 2) throw UsageError("--shape takes N or RxC (1-D or 2-D)");
  return shape;
}

// Refuses, before anything is allocated or written, an array that cannot exist: more bytes than
// a size_t counts (--n 2^62 of int32) is a wrong argument; more than this machine's memory is a
// run that cannot succeed.
void check_size(const std::vector<std::size_t>& shape, scandof::npy::DType dtype) {
  const std::size_t isz = scandof::npy::item_size(dtype);
  std::size_t n = 1;
  for (std::size_t d : shape) {
    if (d != 0 && n > SIZE_MAX / d)
      throw UsageError("shape " + scandof::npy::shape_string(shape) + " has too many elements");
    n *= d;
  }
  if (n > SIZE_MAX / isz)
    throw UsageError("shape " + scandof::npy::shape_string(shape) + " of " +
                     scandof::npy::to_string(dtype) + " needs more than 2^64 bytes");
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) {
    const long double mem = static_cast<long double>(pages) * page;
    if (static_cast<long double>(n) * isz > mem)
      throw std::runtime_error(
          "shape " + scandof::npy::shape_string(shape) + " of " + scandof::npy::to_string(dtype) +
          " needs " + std::to_string(n * isz) + " bytes, more than this machine's " +
          std::to_string(static_cast<unsigned long long>(mem)) + " bytes of memory");
  }
}

struct Options {
  std::string out, dtype = "int32", n, shape, seed = "1", dist = "uniform", low, high;
};

template <class T>
void generate(scandof::npy::Array& a, Dist dist, std::uint64_t seed, const Options& o,
              double low_default, double high_default) {
  const std::string dn = scandof::npy::to_string(a.dtype);
  const Bounds b =
      check_bounds<T>(o.low.empty() ? nullptr : &o.low, o.high.empty() ? nullptr : &o.high,
                      low_default, high_default, dn);
  if constexpr (std::is_integral_v<T>)
    fill(a.data<T>(), a.count(), dist, seed, 0.0, 0.0, b.ilow, b.ihigh);
  else
    fill(a.data<T>(), a.count(), dist, seed, b.low, b.high, 0, 0);
}

int run_gen(const Options& o) {
  scandof::npy::DType dtype;
  try {
    dtype = scandof::npy::parse_dtype(o.dtype);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--dtype: ") + e.what());
  }
  if (!o.n.empty() && !o.shape.empty()) throw UsageError("give --n or --shape, not both");
  const std::vector<std::size_t> shape =
      !o.shape.empty() ? parse_shape(o.shape)
                       : std::vector<std::size_t>{parse_size(o.n.empty() ? "1000" : o.n, "--n")};
  const std::uint64_t seed = parse_u64(o.seed, "--seed");
  Dist dist;
  if (o.dist == "uniform") {
    dist = Dist::Uniform;
  } else if (o.dist == "normal") {
    dist = Dist::Normal;
  } else if (o.dist == "ones") {
    dist = Dist::Ones;
  } else if (o.dist == "iota") {
    dist = Dist::Iota;
  } else {
    throw UsageError("unknown --dist '" + o.dist + "'; choose uniform, normal, ones or iota");
  }
  using scandof::npy::DType;
  const bool is_float = dtype == DType::Float32 || dtype == DType::Float64;
  if (dist == Dist::Normal && !is_float)
    throw UsageError("--dist normal needs --dtype float32 or float64");
  if ((!o.low.empty() || !o.high.empty()) && dist != Dist::Uniform)
    throw UsageError("--low/--high apply to --dist uniform only");
  const double low_default = (dtype == DType::Int32 || dtype == DType::Int64) ? -100.0 : 0.0;
  const double high_default = is_float ? 1.0 : dtype == DType::UInt8 ? 255.0 : 100.0;
  check_size(shape, dtype);

  scandof::npy::Array a(dtype, shape);
  switch (dtype) {
    case DType::Int32:
      generate<std::int32_t>(a, dist, seed, o, low_default, high_default);
      break;
    case DType::UInt32:
      generate<std::uint32_t>(a, dist, seed, o, low_default, high_default);
      break;
    case DType::Int64:
      generate<std::int64_t>(a, dist, seed, o, low_default, high_default);
      break;
    case DType::Float32:
      generate<float>(a, dist, seed, o, low_default, high_default);
      break;
    case DType::Float64:
      generate<double>(a, dist, seed, o, low_default, high_default);
      break;
    case DType::UInt8:
      generate<std::uint8_t>(a, dist, seed, o, low_default, high_default);
      break;
  }
  scandof::npy::save(o.out, a);
  return kExitOk;
}

std::function<int()> setup(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.description("Writes a seeded array for trying the primitives.");
  sub.add_option("OUT.npy", o->out, "the file to write")->required()->type_name("");
  add_text_options(
      sub,
      {{"--dtype", &o->dtype, "NAME",
        "int32 | uint32 | int64 | float32 | float64 | uint8   (default: int32)"},
       {"--n", &o->n, "N", "number of elements (1-D); also 2^K                  (default: 1000)"},
       {"--shape", &o->shape, "RxC", "a 2-D array instead (e.g. 1080x1920), or a single N"},
       {"--seed", &o->seed, "S", "64-bit seed, 0 .. 2^64-1                         (default: 1)"},
       {"--dist", &o->dist, "NAME",
        "uniform | normal | ones | iota                     (default: uniform)\n"
        "uniform: integers in [low, high], floats in [low, high)\n"
        "normal: floats only, mean 0, standard deviation 1\n"
        "iota: 0, 1, 2, ... (wraps for narrow types)"},
       {"--low", &o->low, "X",
        "uniform lower bound   (default: -100 signed, 0 unsigned and floats);\n"
        "within the dtype's range (float32: finite float32 values)"},
       {"--high", &o->high, "X",
        "uniform upper bound   (default: 100 integers, 255 uint8, 1 floats)"}});
  sub.footer(
      std::string("Examples:\n"
                  "  scantool gen --dtype float32 --n 2^20 --seed 3 in.npy\n"
                  "  scantool gen --dtype uint8 --shape 1080x1920 image.npy\n"
                  "  scantool gen --dist ones --n 100 ones.npy   # its exclusive sum is iota\n\n") +
      kErrorsHelp);
  return [o] { return run_gen(*o); };
}

const Registrar kRegistrar{Command{"gen", "write a seeded test array (.npy) without numpy", setup}};

}  // namespace
}  // namespace scantool
