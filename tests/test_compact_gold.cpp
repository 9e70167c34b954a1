// CPU tests (run in CI, no GPU) of the compaction / partition references and the
// CompactAlgorithm names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "scandof/compact.hpp"
#include "test_util.hpp"

namespace scandof {
namespace {

TEST(CompactGold, HandCase) {
  const std::vector<int32_t> in = {5, -3, 8, 1, -7, 2, 9, -1};
  std::vector<int32_t> out(in.size(), -99);
  const std::size_t k = compact_gold(in.data(), out.data(), in.size(), LessThan<int32_t>{2});
  ASSERT_EQ(k, 4u);
  EXPECT_EQ((std::vector<int32_t>(out.begin(), out.begin() + 4)),
            (std::vector<int32_t>{-3, 1, -7, -1}));
  EXPECT_EQ(out[4], -99);  // past the count: untouched
}

TEST(CompactGold, PartitionHandCaseIsStable) {
  const std::vector<float> in = {0.5f, 3.f, 0.25f, 4.f, 1.f, 0.f};
  std::vector<float> out(in.size());
  const std::size_t k = partition_gold(in.data(), out.data(), in.size(), LessThan<float>{1.f});
  ASSERT_EQ(k, 3u);
  EXPECT_EQ(out, (std::vector<float>{0.5f, 0.25f, 0.f, 3.f, 4.f, 1.f}));
}

TEST(CompactGold, FlaggedMatchesPredicate) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(10007)}) {
    const auto in = test::random_vector<int64_t>(n, test::derive_seed(1, n), test::Pattern::Full);
    std::vector<std::uint8_t> flags(n);
    const NotEqualTo<int64_t> pred{in.empty() ? 0 : in[n / 2]};
    for (std::size_t i = 0; i < n; ++i) flags[i] = static_cast<std::uint8_t>(pred(in[i]) ? 1 + i % 200 : 0);
    std::vector<int64_t> a(n), b(n), c(n), d(n);
    const std::size_t ka = compact_gold(in.data(), a.data(), n, pred);
    const std::size_t kb = compact_flagged_gold(in.data(), flags.data(), b.data(), n);
    const std::size_t kc = partition_gold(in.data(), c.data(), n, pred);
    const std::size_t kd = partition_flagged_gold(in.data(), flags.data(), d.data(), n);
    ASSERT_EQ(ka, kb);
    ASSERT_EQ(ka, kc);
    ASSERT_EQ(ka, kd);
    EXPECT_TRUE(std::equal(a.begin(), a.begin() + ka, b.begin()));
    EXPECT_EQ(c, d);
    EXPECT_TRUE(std::equal(a.begin(), a.begin() + ka, c.begin()));
    // The rejected tail keeps input order.
    std::vector<int64_t> rej;
    for (auto x : in)
      if (!pred(x)) rej.push_back(x);
    EXPECT_TRUE(std::equal(rej.begin(), rej.end(), c.begin() + kc));
  }
}

TEST(CompactNames, RoundTrip) {
  for (CompactAlgorithm a : all_compact_algorithms()) {
    EXPECT_EQ(parse_compact_algorithm(to_string(a)), a);
    EXPECT_EQ(parse_compact_algorithm(std::to_string(static_cast<int>(a))), a);
  }
  EXPECT_EQ(all_compact_algorithms().size(), static_cast<std::size_t>(kNumCompactAlgorithms));
  EXPECT_THROW(parse_compact_algorithm("quick"), std::invalid_argument);
  EXPECT_THROW(parse_compact_algorithm(""), std::invalid_argument);
}

}  // namespace
}  // namespace scandof
