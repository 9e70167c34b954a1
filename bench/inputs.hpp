// What the benchmarks and the tests share about their inputs (host and device code, no CUDA
// runtime): element type names as the command lines and reports spell them, and the compaction
// inputs of compactbench and tests/test_compact.cu, so both select what they say they select.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "scandof/config.hpp"
#include "scandof/ops.hpp"

namespace scandof {
namespace bench {

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return "uint32";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return "uint64";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, Affine>)
    return "Affine";
  else
    return "T";
}

// Values spread over the element type's range and the threshold that keeps about a fraction
// `sel` of them under the predicate x < threshold.
// Uniform in [0, 1) for floating point, all bits for integers, from one hash of the generator.
template <class T>
SCANDOF_HD T uniform_value(std::uint64_t h) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(h >> 11) * 0x1p-53);
  else
    return static_cast<T>(h);
}

// The threshold t with P(uniform_value<T>() < t) ~ sel; sel >= 1 keeps everything but the maximum.
template <class T>
T threshold_for(double sel) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(sel);
  } else if constexpr (std::is_unsigned_v<T>) {
    return sel >= 1.0 ? std::numeric_limits<T>::max()
                      : static_cast<T>(sel * static_cast<double>(std::numeric_limits<T>::max()));
  } else {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    return sel >= 1.0 ? std::numeric_limits<T>::max() : static_cast<T>(lo + sel * (-2.0 * lo));
  }
}

}  // namespace bench
}  // namespace scandof
