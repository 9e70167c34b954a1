// `scantool gen`: seeded test inputs as .npy, so tests and users need no numpy to make data.
// Its own generator (splitmix64) and mappings, not <random>'s distributions, whose output differs
// between standard libraries: the same seed gives the same file everywhere.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "scandof/npy.hpp"

namespace scantool {
namespace {

const char* const kUsage =
    "Usage: scantool gen [OPTIONS] OUT.npy\n"
    "\n"
    "Writes a seeded array for trying the primitives.\n"
    "\n"
    "Options:\n"
    "  --dtype NAME    int32 | uint32 | int64 | float32 | float64 | uint8   (default: int32)\n"
    "  --n N           number of elements (1-D); also 2^K                  (default: 1000)\n"
    "  --shape RxC     a 2-D array instead (e.g. 1080x1920), or a single N\n"
    "  --seed S        64-bit seed                                        (default: 1)\n"
    "  --dist NAME     uniform | normal | ones | iota                     (default: uniform)\n"
    "                  uniform: integers in [low, high], floats in [low, high)\n"
    "                  normal: floats only, mean 0, standard deviation 1\n"
    "                  iota: 0, 1, 2, ... (wraps for narrow types)\n"
    "  --low X         uniform lower bound   (default: -100 signed, 0 unsigned and floats)\n"
    "  --high X        uniform upper bound   (default: 100 integers, 255 uint8, 1 floats)\n"
    "  -h, --help      this text\n"
    "\n"
    "Examples:\n"
    "  scantool gen --dtype float32 --n 2^20 --seed 3 in.npy\n"
    "  scantool gen --dtype uint8 --shape 1080x1920 image.npy\n"
    "  scantool gen --dist ones --n 100 ones.npy   # its exclusive sum is iota\n";

struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

enum class Dist { Uniform, Normal, Ones, Iota };

template <class T>
void fill(T* p, std::size_t n, Dist dist, std::uint64_t seed, double low, double high) {
  SplitMix64 rng{seed};
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
        const double r = std::sqrt(-2.0 * std::log(1.0 - rng.unit()));
        p[i] = static_cast<T>(r * std::cos(6.283185307179586 * rng.unit()));
      }
      return;
    case Dist::Uniform:
      if constexpr (std::is_integral_v<T>) {
        const auto lo = static_cast<std::int64_t>(low), hi = static_cast<std::int64_t>(high);
        // Unsigned arithmetic: hi - lo may not fit in int64 (the full int64 range).
        const std::uint64_t span =
            static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;  // 0: full range
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t r = span ? rng.next() % span : rng.next();
          p[i] = static_cast<T>(static_cast<std::uint64_t>(lo) + r);
        }
      } else {
        for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(low + (high - low) * rng.unit());
      }
      return;
  }
}

template <class T>
void check_bounds(double low, double high, const std::string& dtype) {
  if (!(low <= high)) throw UsageError("--low must not exceed --high");
  if constexpr (std::is_integral_v<T>) {
    if (low != std::floor(low) || high != std::floor(high))
      throw UsageError("--low and --high must be integers for " + dtype);
    if (low < static_cast<double>(std::numeric_limits<T>::lowest()) ||
        high >= std::ldexp(1.0, std::numeric_limits<T>::digits))  // max + 1, exact as double
      throw UsageError("--low/--high outside the range of " + dtype);
  }
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

int run_gen(const std::vector<std::string>& args) {
  const ParsedArgs p = parse_args(args, {{"--dtype", true},
                                         {"--n", true},
                                         {"--shape", true},
                                         {"--seed", true},
                                         {"--dist", true},
                                         {"--low", true},
                                         {"--high", true}});
  if (p.positional.size() != 1)
    throw UsageError(p.positional.empty() ? "needs OUT.npy"
                                          : "too many arguments (expected OUT.npy)");
  scandof::npy::DType dtype;
  try {
    dtype = scandof::npy::parse_dtype(p.get("--dtype", "int32"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--dtype: ") + e.what());
  }
  if (p.has("--n") && p.has("--shape")) throw UsageError("give --n or --shape, not both");
  const std::vector<std::size_t> shape =
      p.has("--shape") ? parse_shape(p.get("--shape", ""))
                       : std::vector<std::size_t>{parse_size(p.get("--n", "1000"), "--n")};
  const std::uint64_t seed = parse_u64(p.get("--seed", "1"), "--seed");
  const std::string dist_name = p.get("--dist", "uniform");
  Dist dist;
  if (dist_name == "uniform") {
    dist = Dist::Uniform;
  } else if (dist_name == "normal") {
    dist = Dist::Normal;
  } else if (dist_name == "ones") {
    dist = Dist::Ones;
  } else if (dist_name == "iota") {
    dist = Dist::Iota;
  } else {
    throw UsageError("unknown --dist '" + dist_name + "'; choose uniform, normal, ones or iota");
  }
  using scandof::npy::DType;
  const bool is_float = dtype == DType::Float32 || dtype == DType::Float64;
  if (dist == Dist::Normal && !is_float)
    throw UsageError("--dist normal needs --dtype float32 or float64");
  if ((p.has("--low") || p.has("--high")) && dist != Dist::Uniform)
    throw UsageError("--low/--high apply to --dist uniform only");
  const double low = p.has("--low") ? parse_double(p.get("--low", ""), "--low")
                     : (dtype == DType::Int32 || dtype == DType::Int64) ? -100.0
                                                                        : 0.0;
  const double high = p.has("--high")         ? parse_double(p.get("--high", ""), "--high")
                      : is_float              ? 1.0
                      : dtype == DType::UInt8 ? 255.0
                                              : 100.0;

  scandof::npy::Array a(dtype, shape);
  const std::size_t n = a.count();
  const std::string dn = scandof::npy::to_string(dtype);
  switch (dtype) {
    case DType::Int32:
      check_bounds<std::int32_t>(low, high, dn);
      fill(a.data<std::int32_t>(), n, dist, seed, low, high);
      break;
    case DType::UInt32:
      check_bounds<std::uint32_t>(low, high, dn);
      fill(a.data<std::uint32_t>(), n, dist, seed, low, high);
      break;
    case DType::Int64:
      check_bounds<std::int64_t>(low, high, dn);
      fill(a.data<std::int64_t>(), n, dist, seed, low, high);
      break;
    case DType::Float32:
      check_bounds<float>(low, high, dn);
      fill(a.data<float>(), n, dist, seed, low, high);
      break;
    case DType::Float64:
      check_bounds<double>(low, high, dn);
      fill(a.data<double>(), n, dist, seed, low, high);
      break;
    case DType::UInt8:
      check_bounds<std::uint8_t>(low, high, dn);
      fill(a.data<std::uint8_t>(), n, dist, seed, low, high);
      break;
  }
  scandof::npy::save(p.positional[0], a);
  return kExitOk;
}

const Registrar kRegistrar{
    Command{"gen", "write a seeded test array (.npy) without numpy", kUsage, run_gen}};

}  // namespace
}  // namespace scantool
