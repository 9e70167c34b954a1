// CPU references for the radix sorts (std::stable_sort on the order-preserving bit image,
// restricted to bits [begin_bit, end_bit)) and the SortAlgorithm names. Host only: built with and
// without CUDA, so CI tests them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/sort.hpp"

namespace scandof {

const char* to_string(SortAlgorithm a) {
  switch (a) {
    case SortAlgorithm::Split:
      return "split";
    case SortAlgorithm::Lsd:
      return "lsd";
  }
  return "unknown";
}

SortAlgorithm parse_sort_algorithm(const std::string& name) {
  for (SortAlgorithm a : all_sort_algorithms())
    if (name == to_string(a) || name == std::to_string(static_cast<int>(a))) return a;
  throw std::invalid_argument("unknown sort algorithm '" + name + "' (choices: split, lsd)");
}

std::vector<SortAlgorithm> all_sort_algorithms() {
  return {SortAlgorithm::Split, SortAlgorithm::Lsd};
}

namespace {
template <class K>
struct MaskedKey {
  using Bits = typename RadixTraits<K>::Bits;
  int begin;
  Bits mask;
  MaskedKey(int begin_bit, int end_bit) : begin(begin_bit) {
    const int w = end_bit - begin_bit;
    mask = w >= int(8 * sizeof(Bits)) ? ~Bits(0) : ((Bits(1) << w) - 1);
  }
  Bits operator()(K k) const { return (RadixTraits<K>::to_bits(k) >> begin) & mask; }
};

template <class K>
void check_range(int begin_bit, int* end_bit) {
  const int bits = 8 * sizeof(K);
  if (*end_bit < 0) *end_bit = bits;
  if (begin_bit < 0 || begin_bit > *end_bit || *end_bit > bits)
    throw std::invalid_argument("sort gold: bad bit range");
}
}  // namespace

template <class K>
void sort_keys_gold(const K* in, K* out, std::size_t n, int begin_bit, int end_bit) {
  check_range<K>(begin_bit, &end_bit);
  if (begin_bit == end_bit) {
    std::copy(in, in + n, out);
    return;
  }
  const MaskedKey<K> key(begin_bit, end_bit);
  std::vector<K> tmp(in, in + n);
  std::stable_sort(tmp.begin(), tmp.end(), [&](K a, K b) { return key(a) < key(b); });
  std::copy(tmp.begin(), tmp.end(), out);
}

template <class K, class V>
void sort_pairs_gold(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                     std::size_t n, int begin_bit, int end_bit) {
  check_range<K>(begin_bit, &end_bit);
  const MaskedKey<K> key(begin_bit, end_bit);
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  if (begin_bit != end_bit)
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      return key(keys_in[a]) < key(keys_in[b]);
    });
  std::vector<K> k(n);
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    k[i] = keys_in[idx[i]];
    v[i] = values_in[idx[i]];
  }
  std::copy(k.begin(), k.end(), keys_out);
  std::copy(v.begin(), v.end(), values_out);
}

#define SCANDOF_SORT_GOLD(K)                                            \
  template void sort_keys_gold<K>(const K*, K*, std::size_t, int, int); \
  template void sort_pairs_gold<K, SCANDOF_SORT_VALUE>(                 \
      const K*, K*, const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*, std::size_t, int, int);
SCANDOF_FOR_EACH_SORT_KEY(SCANDOF_SORT_GOLD)

}  // namespace scandof
