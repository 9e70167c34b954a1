// CPU references for stream compaction and stable partition (std::copy_if and
// std::stable_partition semantics), and the CompactAlgorithm names. Host only: built with and
// without CUDA, so CI tests them.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "scandof/compact.hpp"

namespace scandof {

const char* to_string(CompactAlgorithm a) {
  switch (a) {
    case CompactAlgorithm::Paper:
      return "paper";
    case CompactAlgorithm::ReduceThenScan:
      return "reduce-then-scan";
    case CompactAlgorithm::SinglePass:
      return "single-pass";
  }
  return "unknown";
}

CompactAlgorithm parse_compact_algorithm(const std::string& name) {
  for (CompactAlgorithm a : all_compact_algorithms())
    if (name == to_string(a) || name == std::to_string(static_cast<int>(a))) return a;
  throw std::invalid_argument("unknown compaction algorithm '" + name +
                              "' (choices: paper, reduce-then-scan, single-pass)");
}

std::vector<CompactAlgorithm> all_compact_algorithms() {
  return {CompactAlgorithm::Paper, CompactAlgorithm::ReduceThenScan, CompactAlgorithm::SinglePass};
}

template <class T, class Pred>
std::size_t compact_gold(const T* in, T* out, std::size_t n, Pred pred) {
  return static_cast<std::size_t>(std::copy_if(in, in + n, out, pred) - out);
}

template <class T>
std::size_t compact_flagged_gold(const T* in, const std::uint8_t* flags, T* out, std::size_t n) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i]) out[k++] = in[i];
  return k;
}

template <class T, class Pred>
std::size_t partition_gold(const T* in, T* out, std::size_t n, Pred pred) {
  std::copy(in, in + n, out);
  return static_cast<std::size_t>(std::stable_partition(out, out + n, pred) - out);
}

template <class T>
std::size_t partition_flagged_gold(const T* in, const std::uint8_t* flags, T* out, std::size_t n) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i]) out[k++] = in[i];
  std::size_t r = k;
  for (std::size_t i = 0; i < n; ++i)
    if (!flags[i]) out[r++] = in[i];
  return k;
}

namespace {

// The threshold as a long double: exact for every 64-bit integer and every double. Integer text is
// read as an integer first so that 9223372036854775807 is not rounded through a double.
struct Threshold {
  long double value;
  bool integer_text;  // "3000000000", not "3e9" or "2.5"
};
Threshold parse_threshold(const std::string& text) {
  const auto bad = [&] {
    return std::invalid_argument("cannot parse the test value '" + text + "' as a number");
  };
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) throw bad();
  char* end = nullptr;
  errno = 0;
  if (text[0] == '-') {
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) return {static_cast<long double>(v), true};
  } else {
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) return {static_cast<long double>(v), true};
  }
  // Integer text beyond 64 bits: long double's 64-bit mantissa still tells it from the limits
  // (-9223372036854775809 must not round to INT64_MIN).
  if (*end == '\0' && errno == ERANGE) return {std::strtold(text.c_str(), nullptr), true};
  if (text.find_first_of("xX") != std::string::npos) throw bad();  // strtod would take hex
  errno = 0;
  // As a double, the type numpy's Python float has (strtold would read "0.1" more precisely than
  // numpy does). Overflow gives +-inf and compares as such; 1e400 is beyond every dtype anyway.
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0') throw bad();
  return {static_cast<long double>(v), false};
}

template <class T>
ValueTest<T> keep_none() {
  // Nothing is below the lowest integer; NaN equals nothing.
  if constexpr (std::is_integral_v<T>)
    return ValueTest<T>{ValueTestKind::Less, std::numeric_limits<T>::lowest()};
  else
    return ValueTest<T>{ValueTestKind::Equal, std::numeric_limits<T>::quiet_NaN()};
}
template <class T>
ValueTest<T> keep_all() {
  if constexpr (std::is_integral_v<T>)
    return ValueTest<T>{ValueTestKind::GreaterEqual, std::numeric_limits<T>::lowest()};
  else
    return ValueTest<T>{ValueTestKind::NotEqual, std::numeric_limits<T>::quiet_NaN()};
}

}  // namespace

template <class T>
ValueTest<T> make_value_test(ValueTestKind kind, const std::string& threshold) {
  using K = ValueTestKind;
  if (kind == K::NonZero || kind == K::Odd || kind == K::Even)
    throw std::invalid_argument("make_value_test: this test takes no value");
  const Threshold t = parse_threshold(threshold);
  long double v = t.value;
  if (std::isnan(v)) return kind == K::NotEqual ? keep_all<T>() : keep_none<T>();
  if constexpr (std::is_integral_v<T>) {
    const long double lo = static_cast<long double>(std::numeric_limits<T>::lowest());
    const long double hi = static_cast<long double>(std::numeric_limits<T>::max());
    // For integer x: x < v <=> x < ceil(v), x <= v <=> x <= floor(v), and so on; each branch
    // first settles the thresholds that every or no value of T passes.
    switch (kind) {
      case K::Less:
        if (v > hi) return keep_all<T>();
        if (v <= lo) return keep_none<T>();
        return {kind, static_cast<T>(std::ceil(v))};
      case K::LessEqual:
        if (v >= hi) return keep_all<T>();
        if (v < lo) return keep_none<T>();
        return {kind, static_cast<T>(std::floor(v))};
      case K::Greater:
        if (v >= hi) return keep_none<T>();
        if (v < lo) return keep_all<T>();
        return {kind, static_cast<T>(std::floor(v))};
      case K::GreaterEqual:
        if (v > hi) return keep_none<T>();
        if (v <= lo) return keep_all<T>();
        return {kind, static_cast<T>(std::ceil(v))};
      case K::Equal:
      case K::NotEqual: {
        const bool representable = v >= lo && v <= hi && v == std::floor(v);
        if (!representable) return kind == K::Equal ? keep_none<T>() : keep_all<T>();
        return {kind, static_cast<T>(v)};
      }
      default:
        break;
    }
    throw std::invalid_argument("make_value_test: unknown test");
  } else {
    const long double top = static_cast<long double>(std::numeric_limits<T>::max());
    const T inf = std::numeric_limits<T>::infinity();
    // numpy casts a Python float that fits float32 to float32 before comparing with a float32
    // array; integers, and floats beyond float32, it compares in float64 or exactly.
    if (!t.integer_text && std::fabs(v) <= top) v = static_cast<T>(static_cast<double>(v));
    if (std::isinf(v)) return {kind, v > 0 ? inf : -inf};
    // Between two neighbours lo < v < hi of T, or equal to one of them.
    T lo, hi;
    if (v > top) {
      lo = std::numeric_limits<T>::max(), hi = inf;
    } else if (v < -top) {
      lo = -inf, hi = std::numeric_limits<T>::lowest();
    } else {
      const T f = static_cast<T>(v);
      if (static_cast<long double>(f) == v) return {kind, f};
      if (static_cast<long double>(f) < v)
        lo = f, hi = std::nextafter(f, inf);
      else
        hi = f, lo = std::nextafter(f, -inf);
    }
    switch (kind) {
      case K::Less:
      case K::LessEqual:
        return {K::LessEqual, lo};  // x < v <=> x <= lo; NaN fails both
      case K::Greater:
      case K::GreaterEqual:
        return {K::GreaterEqual, hi};
      case K::Equal:
        return keep_none<T>();
      case K::NotEqual:
        return keep_all<T>();
      default:
        break;
    }
    throw std::invalid_argument("make_value_test: unknown test");
  }
}

#define SCANDOF_GOLD_PRED(T, P)                                          \
  template std::size_t compact_gold<T, P>(const T*, T*, std::size_t, P); \
  template std::size_t partition_gold<T, P>(const T*, T*, std::size_t, P);
#define SCANDOF_GOLD(T)                                                                           \
  template std::size_t compact_flagged_gold<T>(const T*, const std::uint8_t*, T*, std::size_t);   \
  template std::size_t partition_flagged_gold<T>(const T*, const std::uint8_t*, T*, std::size_t); \
  SCANDOF_GOLD_PRED(T, LessThan<T>)                                                               \
  SCANDOF_GOLD_PRED(T, NotEqualTo<T>)                                                             \
  SCANDOF_GOLD_PRED(T, ValueTest<T>)                                                              \
  template ValueTest<T> make_value_test<T>(ValueTestKind, const std::string&);
SCANDOF_FOR_EACH_COMPACT_TYPE(SCANDOF_GOLD)

}  // namespace scandof
