// The headless runner's bounded sample of frames (diagnostics/reservoir.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "diagnostics/reservoir.hpp"

namespace demo {
namespace {

TEST(Reservoir, BelowCapacityKeepsEverythingInOrder) {
  Reservoir<int> r(8);
  for (int i = 0; i < 5; ++i) r.add(i);
  EXPECT_EQ(r.items(), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(r.seen(), 5u);
}

TEST(Reservoir, AboveCapacityHoldsAUniformSampleInBoundedMemory) {
  constexpr int kN = 200000, kCap = 4000;
  Reservoir<int> r(kCap);
  for (int i = 0; i < kN; ++i) r.add(i);
  ASSERT_EQ(r.items().size(), static_cast<std::size_t>(kCap));
  EXPECT_EQ(r.seen(), static_cast<std::uint64_t>(kN));
  EXPECT_LE(r.items().capacity(), static_cast<std::size_t>(kCap));  // never grew past it
  const std::set<int> distinct(r.items().begin(), r.items().end());
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kCap));
  // Uniform over the stream: the sample's median near the stream's, a quarter in each quarter.
  std::vector<int> v = r.items();
  std::nth_element(v.begin(), v.begin() + kCap / 2, v.end());
  EXPECT_NEAR(v[kCap / 2], kN / 2, kN / 50);
  for (int q = 0; q < 4; ++q) {
    const auto in = std::count_if(r.items().begin(), r.items().end(), [&](int x) {
      return x >= q * kN / 4 && x < (q + 1) * kN / 4;
    });
    EXPECT_NEAR(static_cast<double>(in), kCap / 4.0, kCap / 20.0) << "quarter " << q;
  }
  // Repeatable: the same stream gives the same sample.
  Reservoir<int> again(kCap);
  for (int i = 0; i < kN; ++i) again.add(i);
  EXPECT_EQ(again.items(), r.items());
}

}  // namespace
}  // namespace demo
