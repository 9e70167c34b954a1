// CPU references for stream compaction and stable partition (std::copy_if and
// std::stable_partition semantics), and the CompactAlgorithm names. Host only: built with and
// without CUDA, so CI tests them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
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

#define SCANDOF_GOLD_PRED(T, P)                                          \
  template std::size_t compact_gold<T, P>(const T*, T*, std::size_t, P); \
  template std::size_t partition_gold<T, P>(const T*, T*, std::size_t, P);
#define SCANDOF_GOLD(T)                                                                           \
  template std::size_t compact_flagged_gold<T>(const T*, const std::uint8_t*, T*, std::size_t);   \
  template std::size_t partition_flagged_gold<T>(const T*, const std::uint8_t*, T*, std::size_t); \
  SCANDOF_GOLD_PRED(T, LessThan<T>)                                                               \
  SCANDOF_GOLD_PRED(T, NotEqualTo<T>)                                                             \
  SCANDOF_GOLD_PRED(T, ValueTest<T>)
SCANDOF_FOR_EACH_COMPACT_TYPE(SCANDOF_GOLD)

}  // namespace scandof
