// CPU tests (run in CI, no GPU) of the radix-sort references: the order-preserving key maps
// (including -0.0, infinities and NaNs for float), stability and bit ranges; SortAlgorithm names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "scandof/sort.hpp"
#include "test_util.hpp"

namespace scandof {
namespace {

float from_u32(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
std::uint32_t to_u32(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(SortTraits, FloatTotalOrder) {
  const float inf = std::numeric_limits<float>::infinity();
  // Ascending in the documented order: -NaN, -inf, -max, -1, -min, -0, +0, min, 1, max, inf, NaN.
  const std::vector<float> ordered = {from_u32(0xffc00000u), -inf, -3.4e38f, -1.f, -1e-45f,
                                      -0.f, 0.f, 1e-45f, 1.f, 3.4e38f, inf, from_u32(0x7fc00000u)};
  for (std::size_t i = 0; i + 1 < ordered.size(); ++i)
    EXPECT_LT(RadixTraits<float>::to_bits(ordered[i]), RadixTraits<float>::to_bits(ordered[i + 1]))
        << "at " << i;
  for (float f : ordered)
    EXPECT_EQ(to_u32(RadixTraits<float>::from_bits(RadixTraits<float>::to_bits(f))), to_u32(f));
}

TEST(SortTraits, Int32Order) {
  const std::vector<int32_t> v = {std::numeric_limits<int32_t>::min(), -5, -1, 0, 1, 7,
                                  std::numeric_limits<int32_t>::max()};
  for (std::size_t i = 0; i + 1 < v.size(); ++i)
    EXPECT_LT(RadixTraits<int32_t>::to_bits(v[i]), RadixTraits<int32_t>::to_bits(v[i + 1]));
  for (int32_t x : v) EXPECT_EQ(RadixTraits<int32_t>::from_bits(RadixTraits<int32_t>::to_bits(x)), x);
}

TEST(SortGold, KeysMatchStdSort) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(5000)}) {
    const auto in = test::random_vector<int32_t>(n, test::derive_seed(2, n), test::Pattern::Full);
    std::vector<int32_t> got(n), want(in);
    sort_keys_gold(in.data(), got.data(), n);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
  }
}

TEST(SortGold, PairsAreStableOnBitRange) {
  // Keys differ only above bit 8; sorting bits [0, 8) must keep equal low bytes in input order.
  const std::size_t n = 4000;
  std::vector<std::uint32_t> keys(n), vals(n), ko(n), vo(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint32_t>(test::hash_at(7, i));
    vals[i] = static_cast<std::uint32_t>(i);
  }
  sort_pairs_gold(keys.data(), ko.data(), vals.data(), vo.data(), n, 0, 8);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const auto a = ko[i] & 0xffu, b = ko[i + 1] & 0xffu;
    ASSERT_LE(a, b) << i;
    if (a == b) ASSERT_LT(vo[i], vo[i + 1]) << "not stable at " << i;
    ASSERT_EQ(ko[i], keys[vo[i]]);
  }
  // Empty range: a copy.
  sort_pairs_gold(keys.data(), ko.data(), vals.data(), vo.data(), n, 5, 5);
  EXPECT_EQ(ko, keys);
  EXPECT_EQ(vo, vals);
  EXPECT_THROW(sort_keys_gold(keys.data(), ko.data(), n, 4, 40), std::invalid_argument);
}

TEST(SortGold, FloatsWithSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {1.f, from_u32(0x7fc00000u), -0.f, 0.f, -inf, from_u32(0xffc00000u),
                                 inf, -2.f, 0.f, -0.f};
  std::vector<float> got(in.size());
  sort_keys_gold(in.data(), got.data(), in.size());
  const std::vector<std::uint32_t> want = {0xffc00000u, to_u32(-inf), to_u32(-2.f), 0x80000000u,
                                           0x80000000u, 0u, 0u, to_u32(1.f), to_u32(inf),
                                           0x7fc00000u};
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(to_u32(got[i]), want[i]) << i;
}

TEST(SortNames, RoundTrip) {
  for (SortAlgorithm a : all_sort_algorithms()) {
    EXPECT_EQ(parse_sort_algorithm(to_string(a)), a);
    EXPECT_EQ(parse_sort_algorithm(std::to_string(static_cast<int>(a))), a);
  }
  EXPECT_EQ(all_sort_algorithms().size(), static_cast<std::size_t>(kNumSortAlgorithms));
  EXPECT_THROW(parse_sort_algorithm("bogo"), std::invalid_argument);
}

}  // namespace
}  // namespace scandof
