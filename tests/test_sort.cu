// GPU tests of the radix sorts: LSD (keys and key-value pairs, bit ranges, stability) and the
// paper's split + bitonic-merge sort (keys, full range), for uint32, int32, float (NaNs, -0.0,
// infinities included through random bit patterns) and uint64 keys, over awkward and random sizes
// and skewed inputs (all equal, few distinct, sorted, reversed), against std::stable_sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/device/sort_lsd.cuh"  // the onesweep policies (LsdPolicies below)
#include "scandof/sort.hpp"
#include "test_util.hpp"

namespace scandof {
namespace {

using test::DeviceBuffer;

enum class Dist { Uniform, AllEqual, FewDistinct, Sorted, Reversed };
const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Uniform:
      return "uniform";
    case Dist::AllEqual:
      return "all-equal";
    case Dist::FewDistinct:
      return "few-distinct";
    case Dist::Sorted:
      return "sorted";
    case Dist::Reversed:
      return "reversed";
  }
  return "?";
}

template <class K>
K key_from_bits(std::uint64_t h) {
  K k;
  std::memcpy(&k, &h, sizeof(K));  // every bit pattern, so floats include NaNs, infs, -0.0
  return k;
}

template <class K>
std::vector<K> make_keys(std::size_t n, Dist d, std::uint64_t seed) {
  std::vector<K> v(n);
  const std::uint64_t same = test::hash_at(seed, 12345);
  test::parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t h = test::hash_at(seed, i);
      switch (d) {
        case Dist::Uniform:
        case Dist::Sorted:
        case Dist::Reversed:
          v[i] = key_from_bits<K>(h);
          break;
        case Dist::AllEqual:
          v[i] = key_from_bits<K>(same);
          break;
        case Dist::FewDistinct:
          v[i] = key_from_bits<K>(test::hash_at(seed, h % 7));
          break;
      }
    }
  });
  if (d == Dist::Sorted || d == Dist::Reversed) {
    std::vector<K> s(n);
    sort_keys_gold(v.data(), s.data(), n);
    if (d == Dist::Reversed) std::reverse(s.begin(), s.end());
    v.swap(s);
  }
  return v;
}

std::vector<std::size_t> sort_sizes(std::uint64_t tag, std::size_t max_random) {
  auto v = test::awkward_sizes();
  for (std::size_t s :
       test::random_sizes(2, std::size_t(1) << 20, max_random, test::derive_seed(tag, 77)))
    v.push_back(s);
  return test::capped(v);
}

template <class K>
class SortTyped : public ::testing::Test {};
using SortKeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t>;
TYPED_TEST_SUITE(SortTyped, SortKeyTypes);

TYPED_TEST(SortTyped, LsdKeysAndPairs) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using K = TypeParam;
  using V = std::uint32_t;
  test::Stream stream;
  ScanWorkspace ws;
  const auto sizes = sort_sizes(sizeof(K) * 3 + std::is_floating_point_v<K>, std::size_t(1) << 24);
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const Dist dist = si % 3 == 0 ? Dist::Uniform : static_cast<Dist>(si % 5);
    const auto keys = make_keys<K>(n, dist, test::derive_seed(21, sizeof(K), n));
    std::vector<V> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<V>(test::hash_at(22, i));
    // Bit ranges: full, and every few sizes a partial one (stability on the rest matters then).
    const int bits = 8 * sizeof(K);
    std::vector<std::pair<int, int>> ranges = {{0, bits}};
    if (si % 4 == 1) ranges.push_back({3, bits - 5});
    if (si % 4 == 3) ranges.push_back({bits - 8, bits});
    if (si == 5) ranges.push_back({7, 7});
    DeviceBuffer<K> d_kin(keys), d_kout(n);
    DeviceBuffer<V> d_vin(vals), d_vout(n);
    for (auto r : ranges) {
      SCOPED_TRACE(std::string(test::type_name<K>()) + " n=" + std::to_string(n) + " " +
                   dist_name(dist) + " bits [" + std::to_string(r.first) + "," +
                   std::to_string(r.second) + ")");
      std::vector<K> wk(n);
      std::vector<V> wv(n);
      sort_pairs_gold(keys.data(), wk.data(), vals.data(), wv.data(), n, r.first, r.second);
      // Keys only (through the explicit-workspace API).
      d_kout.poison(stream);
      const std::size_t kb = sort_keys_workspace_bytes<K>(SortAlgorithm::Lsd, n);
      DeviceBuffer<unsigned char> scratch(kb);
      sort_keys(SortAlgorithm::Lsd, d_kin.data(), d_kout.data(), n, scratch.data(), kb, stream,
                r.first, r.second);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      ASSERT_TRUE(test::all_equal(d_kout.download(n).data(), wk.data(), n)) << "keys only";
      // Pairs (ScanWorkspace API): the values prove stability.
      d_kout.poison(stream);
      d_vout.poison(stream);
      sort_pairs(SortAlgorithm::Lsd, d_kin.data(), d_kout.data(), d_vin.data(), d_vout.data(), n,
                 ws, stream, r.first, r.second);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      ASSERT_TRUE(test::all_equal(d_kout.download(n).data(), wk.data(), n)) << "pair keys";
      ASSERT_TRUE(test::all_equal(d_vout.download(n).data(), wv.data(), n)) << "pair values";
    }
  }
}

TYPED_TEST(SortTyped, SplitKeys) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using K = TypeParam;
  test::Stream stream;
  ScanWorkspace ws;
  const auto sizes = sort_sizes(sizeof(K) * 5 + 1, std::size_t(1) << 22);
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const Dist dist = si % 2 == 0 ? Dist::Uniform : static_cast<Dist>(si % 5);
    SCOPED_TRACE(std::string(test::type_name<K>()) + " n=" + std::to_string(n) + " " +
                 dist_name(dist));
    const auto keys = make_keys<K>(n, dist, test::derive_seed(23, sizeof(K), n));
    std::vector<K> want(n);
    sort_keys_gold(keys.data(), want.data(), n);
    DeviceBuffer<K> d_in(keys), d_out(n);
    d_out.poison(stream);
    sort_keys(SortAlgorithm::Split, d_in.data(), d_out.data(), n, ws, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ASSERT_TRUE(test::all_equal(d_out.download(n).data(), want.data(), n));
  }
}

TEST(Sort, InPlace) {
  SCANDOF_SKIP_WITHOUT_GPU();
  ScanWorkspace ws;
  for (std::size_t n : test::capped({1, 1000, 100003})) {
    for (SortAlgorithm a : all_sort_algorithms()) {
      // 3 passes (odd: the input must first move to the spare buffer) and 4 passes.
      for (int end : {24, 32}) {
        if (a == SortAlgorithm::Split && end != 32) continue;
        const auto keys = make_keys<std::uint32_t>(n, Dist::Uniform, test::derive_seed(24, n));
        std::vector<std::uint32_t> want(n);
        sort_keys_gold(keys.data(), want.data(), n, 0, end);
        DeviceBuffer<std::uint32_t> d(keys);
        sort_keys(a, d.data(), d.data(), n, ws, 0, 0, end);
        ASSERT_TRUE(test::all_equal(d.download().data(), want.data(), n))
            << to_string(a) << " n=" << n << " end=" << end;
      }
    }
    // Pairs in place.
    const auto keys = make_keys<float>(n, Dist::FewDistinct, test::derive_seed(25, n));
    std::vector<std::uint32_t> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<std::uint32_t>(i);
    std::vector<float> wk(n);
    std::vector<std::uint32_t> wv(n);
    sort_pairs_gold(keys.data(), wk.data(), vals.data(), wv.data(), n, 0, 24);
    DeviceBuffer<float> dk(keys);
    DeviceBuffer<std::uint32_t> dv(vals);
    sort_pairs(SortAlgorithm::Lsd, dk.data(), dk.data(), dv.data(), dv.data(), n, ws, 0, 0, 24);
    ASSERT_TRUE(test::all_equal(dk.download().data(), wk.data(), n));
    ASSERT_TRUE(test::all_equal(dv.download().data(), wv.data(), n));
  }
}

// Calls f(policy, name) for each onesweep policy behind the public default (the benchmark times
// them): every residency, look-back batch and tile size, values loaded with
// or after the keys, look-back sleeps, and the small-tiles shape of GPUs with little shared memory
// per block.
template <bool kPairs, class F>
void for_each_policy(F&& f) {
  using detail::lsd::OnesweepPolicy;
  f(detail::lsd::DefaultOnesweepPolicy<std::uint32_t, kPairs>{}, "default");
  f(detail::lsd::EightBitOnesweepPolicy<std::uint32_t, kPairs>{}, "8-bit");
  if constexpr (kPairs) {
    using detail::lsd::AsyncValuesPolicy;
    f(AsyncValuesPolicy<24, 3>{}, "values by cp.async, 24 keys, 3 blocks");
    f(AsyncValuesPolicy<32, 2, 1>{}, "values by cp.async, 32 keys, look-back batch 1");
    f(AsyncValuesPolicy<16, 4>{}, "values by cp.async, 16 keys, 4 blocks");
    f(AsyncValuesPolicy<48, 2>{}, "values by cp.async, 48 keys (the default from 2^25 pairs)");
    using detail::lsd::ValuesAfterPolicy;
    f(ValuesAfterPolicy<32, 3>{}, "values after the keys, 32 keys, 3 blocks");
    f(ValuesAfterPolicy<24, 2, 1>{}, "values after the keys, 24 keys, look-back batch 1");
    f(detail::lsd::PackedPairsPolicy<std::uint32_t, 30, 2, 1>{},
      "packed pairs, 30 words, look-back batch 1");
  }
  f(detail::lsd::SmallTilesPolicy<std::uint32_t, kPairs>{}, "small tiles");
  f(OnesweepPolicy<24, 2, kPairs>{}, "24 keys, 2 blocks");
  f(OnesweepPolicy<24, 3, !kPairs>{}, "24 keys, 3 blocks, values the other way");
  f(OnesweepPolicy<24, 4, false>{}, "24 keys, 4 blocks");
  f(OnesweepPolicy<16, 4, false, 1>{}, "16 keys, look-back batch 1");
  f(OnesweepPolicy<32, 2, false, 2>{}, "32 keys, look-back batch 2");
  f(OnesweepPolicy<24, 3, false, 8, 100>{}, "look-back batch 8, 100 ns sleeps");
}

// Pairs with a partial bit range prove stability.
TEST(Sort, LsdPolicies) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using K = std::uint32_t;
  using V = std::uint32_t;
  test::Stream stream;
  for (std::size_t n : test::capped({1, 777, 4096, 4097, 40009, 100003, 3000017})) {
    const auto keys = make_keys<K>(n, Dist::FewDistinct, test::derive_seed(26, n));
    std::vector<V> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<V>(test::hash_at(27, i));
    std::vector<K> wk(n);
    std::vector<V> wv(n);
    sort_pairs_gold(keys.data(), wk.data(), vals.data(), wv.data(), n, 2, 29);
    DeviceBuffer<K> d_kin(keys), d_kout(n);
    DeviceBuffer<V> d_vin(vals), d_vout(n);
    for_each_policy<true>([&](auto policy, const char* name) {
      SCOPED_TRACE(std::string(name) + " n=" + std::to_string(n));
      const std::size_t wb = detail::lsd::workspace_bytes<K, V, true, decltype(policy)>(n);
      DeviceBuffer<unsigned char> scratch(wb);
      d_kout.poison(stream);
      d_vout.poison(stream);
      detail::lsd::sort<K, V, true, decltype(policy)>(d_kin.data(), d_kout.data(), d_vin.data(),
                                                      d_vout.data(), n, scratch.data(), wb, stream,
                                                      2, 29);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      ASSERT_TRUE(test::all_equal(d_kout.download(n).data(), wk.data(), n)) << "keys";
      ASSERT_TRUE(test::all_equal(d_vout.download(n).data(), wv.data(), n)) << "values";
    });
  }
}

// The default 4-byte pairs policy's fallback (LargeTilePairsPolicy, odd pass counts) changes shape
// at BELOW_N keys: both sides of it, uniform and few-distinct keys, a partial bit range on one.
// uint64 pairs keep one shape at every size (the typed tests and the policy tests cover it).
TEST(Sort, DefaultPairsAcrossTileThreshold) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using K = std::uint32_t;
  using V = std::uint32_t;
  using Fallback = detail::lsd::DefaultOnesweepPolicy<K, true>::Fallback;
  constexpr std::size_t kAt = Fallback::BELOW_N;
  static_assert(detail::lsd::DefaultOnesweepPolicy<K, true>::PACKED_PAIRS,
                "4-byte pairs sort as packed words by default");
  static_assert(detail::lsd::HasBelowPolicy<Fallback>::value,
                "the pairs fallback names a policy for small inputs");
  static_assert(
      !detail::lsd::HasBelowPolicy<detail::lsd::DefaultOnesweepPolicy<std::uint64_t, true>>::value,
      "uint64 pairs: one shape");
  test::Stream stream;
  ScanWorkspace ws;
  // SCANDOF_TEST_MAX_N (the sanitizer runs) may drop both: the policy tests cover its shapes.
  const std::vector<std::size_t> sizes = test::capped({kAt - 1, kAt + 7});
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const Dist dist = si == 0 ? Dist::Uniform : Dist::FewDistinct;
    const int begin = si == 0 ? 0 : 3, end = si == 0 ? 32 : 27;
    const std::size_t wb = detail::lsd::workspace_bytes<K, V, true, Fallback>(n);
    DeviceBuffer<unsigned char> scratch(wb);
    SCOPED_TRACE("n=" + std::to_string(n) + " " + dist_name(dist));
    const auto keys = make_keys<K>(n, dist, test::derive_seed(28, n));
    std::vector<V> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<V>(test::hash_at(29, i));
    std::vector<K> wk(n);
    std::vector<V> wv(n);
    sort_pairs_gold(keys.data(), wk.data(), vals.data(), wv.data(), n, begin, end);
    DeviceBuffer<K> d_kin(keys), d_kout(n);
    DeviceBuffer<V> d_vin(vals), d_vout(n);
    d_kout.poison(stream);
    d_vout.poison(stream);
    detail::lsd::sort<K, V, true, Fallback>(d_kin.data(), d_kout.data(), d_vin.data(),
                                            d_vout.data(), n, scratch.data(), wb, stream, begin,
                                            end);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ASSERT_TRUE(test::all_equal(d_kout.download(n).data(), wk.data(), n)) << "keys";
    ASSERT_TRUE(test::all_equal(d_vout.download(n).data(), wv.data(), n)) << "values";
  }
}

// 4-byte pairs through the public API take packed_pairs_passes where the passes are even, and the
// fallback otherwise; each case names the route it expects (so a change of route fails here) and
// checks keys and values against the gold: odd n, in place, 2 and 4 passes, a partial last digit,
// odd pass counts, arrays 4 bytes off 8-byte alignment, equal and sorted keys (single-digit
// tiles), signed and float keys.
TEST(Sort, PackedPairsRoutes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using V = std::uint32_t;
  test::Stream stream;
  ScanWorkspace ws;
  auto run = [&](auto key, std::size_t n, Dist dist, int begin, int end, bool in_place,
                 std::size_t koff, std::size_t voff, bool want_packed) {
    using K = decltype(key);
    SCOPED_TRACE(std::string(test::type_name<K>()) + " n=" + std::to_string(n) + " " +
                 dist_name(dist) + " bits [" + std::to_string(begin) + "," + std::to_string(end) +
                 ")" + (in_place ? " in place" : "") + " key offset " + std::to_string(koff) +
                 " value offset " + std::to_string(voff));
    const auto keys = make_keys<K>(n, dist, test::derive_seed(31, n, begin));
    std::vector<V> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<V>(test::hash_at(32, i));
    std::vector<K> wk(n);
    std::vector<V> wv(n);
    sort_pairs_gold(keys.data(), wk.data(), vals.data(), wv.data(), n, begin, end);
    std::vector<K> kbuf(n + koff, K{});
    std::vector<V> vbuf(n + voff, 0x5a5a5a5au);
    std::copy(keys.begin(), keys.end(), kbuf.begin() + koff);
    std::copy(vals.begin(), vals.end(), vbuf.begin() + voff);
    DeviceBuffer<K> d_kin(kbuf), d_kout(n + koff);
    DeviceBuffer<V> d_vin(vbuf), d_vout(n + voff);
    K* kout = in_place ? d_kin.data() + koff : d_kout.data() + koff;
    V* vout = in_place ? d_vin.data() + voff : d_vout.data() + voff;
    if (!in_place) {
      d_kout.poison(stream);
      d_vout.poison(stream);
    }
    using Default = detail::lsd::DefaultOnesweepPolicy<K, true>;
    const int passes = detail::lsd::num_passes(begin, end, detail::lsd::kRadixBits);
    ASSERT_EQ(want_packed, n >= Default::BELOW_N &&
                               (detail::lsd::packed_pairs_apply<Default, K, V, true>(n, passes)));
    sort_pairs(SortAlgorithm::Lsd, d_kin.data() + koff, kout, d_vin.data() + voff, vout, n, ws,
               stream, begin, end);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto& kres = in_place ? d_kin : d_kout;
    const auto& vres = in_place ? d_vin : d_vout;
    ASSERT_TRUE(test::all_equal(kres.download(n + koff).data() + koff, wk.data(), n)) << "keys";
    ASSERT_TRUE(test::all_equal(vres.download(n + voff).data() + voff, wv.data(), n)) << "values";
  };
  // Below BELOW_N pairs the default sorts with its Below policy; the policy tests cover the packed
  // passes at small sizes. SCANDOF_TEST_MAX_N (the sanitizer runs) may drop both sizes.
  constexpr std::size_t kAt = detail::lsd::DefaultOnesweepPolicy<std::uint32_t, true>::BELOW_N;
  for (std::size_t n : test::capped({kAt - 1}))
    run(std::uint32_t{}, n, Dist::Uniform, 0, 32, false, 0, 0, false);
  for (std::size_t n : test::capped({kAt + 7, 3000000})) {
    run(std::uint32_t{}, n, Dist::Uniform, 0, 32, false, 0, 0, true);
    run(std::int32_t{}, n, Dist::Uniform, 0, 32, true, 0, 0, true);
    run(float{}, n, Dist::FewDistinct, 2, 29, false, 0, 0, true);     // a 3-bit last digit
    run(std::uint32_t{}, n, Dist::Uniform, 8, 24, true, 0, 0, true);  // 2 passes
    run(std::uint32_t{}, n, Dist::AllEqual, 0, 32, false, 0, 0, true);
    run(std::uint32_t{}, n, Dist::Sorted, 0, 32, false, 0, 0, true);
    run(std::uint32_t{}, n, Dist::Uniform, 0, 24, true, 0, 0, false);  // 3 passes
    run(std::uint32_t{}, n, Dist::Uniform, 0, 32, false, 1, 0, true);
    run(std::uint32_t{}, n, Dist::FewDistinct, 0, 32, true, 1, 1, true);
    run(std::uint32_t{}, n, Dist::Uniform, 24, 32, false, 0, 1, false);  // 1 pass
  }
}

// Values copied into shared memory by cp.async (AsyncValuesPolicy): 16-byte copies where the
// values are 16-byte aligned and the tile whole, one copy a value otherwise (values 4 bytes off
// alignment here); uint64 keys too; equal and sorted keys take the single-digit tile shortcut,
// which reads the values from shared memory. Values after the keys (ValuesAfterPolicy, the uint64
// pairs default among them) on the same inputs.
TEST(Sort, LsdAsyncValuesAlignment) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using V = std::uint32_t;
  test::Stream stream;
  auto run = [&](auto key, auto policy, Dist dist, std::size_t n, std::size_t voff) {
    using K = decltype(key);
    using P = decltype(policy);
    SCOPED_TRACE(std::string(dist_name(dist)) + " n=" + std::to_string(n) + " key bytes " +
                 std::to_string(sizeof(K)) + " value offset " + std::to_string(voff) + " tile " +
                 std::to_string(P::TILE));
    const auto keys = make_keys<K>(n, dist, test::derive_seed(29, n));
    std::vector<V> vals(n + voff, 0x5a5a5a5au);
    for (std::size_t i = 0; i < n; ++i) vals[voff + i] = static_cast<V>(test::hash_at(30, i));
    std::vector<K> wk(n);
    std::vector<V> wv(n);
    const int b1 = 8 * static_cast<int>(sizeof(K)) - 1;
    sort_pairs_gold(keys.data(), wk.data(), vals.data() + voff, wv.data(), n, 1, b1);
    DeviceBuffer<K> d_kin(keys), d_kout(n);
    DeviceBuffer<V> d_vin(vals), d_vout(n + voff);
    const std::size_t wb = detail::lsd::workspace_bytes<K, V, true, P>(n);
    DeviceBuffer<unsigned char> scratch(wb);
    d_kout.poison(stream);
    d_vout.poison(stream);
    detail::lsd::sort<K, V, true, P>(d_kin.data(), d_kout.data(), d_vin.data() + voff,
                                     d_vout.data() + voff, n, scratch.data(), wb, stream, 1, b1);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ASSERT_TRUE(test::all_equal(d_kout.download(n).data(), wk.data(), n)) << "keys";
    ASSERT_TRUE(test::all_equal(d_vout.download(n + voff).data() + voff, wv.data(), n)) << "values";
  };
  using detail::lsd::AsyncValuesPolicy;
  for (Dist dist : {Dist::Uniform, Dist::AllEqual, Dist::Sorted}) {
    for (std::size_t n : test::capped({6145, 100003, 1048583})) {
      for (std::size_t voff : {std::size_t(0), std::size_t(1)}) {
        run(std::uint32_t{}, AsyncValuesPolicy<24, 3>{}, dist, n, voff);
        run(std::uint64_t{}, AsyncValuesPolicy<16, 3>{}, dist, n, voff);
        run(std::uint64_t{}, AsyncValuesPolicy<24, 2>{}, dist, n, voff);
        run(std::uint32_t{}, detail::lsd::ValuesAfterPolicy<32, 3>{}, dist, n, voff);
        run(std::uint64_t{}, detail::lsd::ValuesAfterPolicy<16, 3>{}, dist, n, voff);
        run(std::uint64_t{}, detail::lsd::ValuesAfterPolicy<30, 2>{}, dist, n, voff);
        run(std::uint32_t{}, detail::lsd::PackedPairsPolicy<std::uint32_t>{}, dist, n, voff);
      }
    }
  }
}

// The same policies sorting keys on skewed and uniform inputs, partial tiles included.
TEST(Sort, LsdPoliciesSkewedKeys) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using K = std::uint32_t;
  using NoValue = detail::lsd::NoValue;
  test::Stream stream;
  // All-equal and sorted keys take the single-digit tile shortcut (all tiles, or the top digits'
  // tiles), next to tiles that rank.
  for (Dist dist : {Dist::Uniform, Dist::FewDistinct, Dist::AllEqual, Dist::Sorted}) {
    for (std::size_t n : test::capped({4097, 30011, 100003, 1048583})) {
      const auto keys = make_keys<K>(n, dist, test::derive_seed(28, n));
      for (const std::pair<int, int>& bits : {std::pair{0, 32}, std::pair{3, 30}}) {
        const int b0 = bits.first, b1 = bits.second;  // plain ints: the lambda below captures them
        std::vector<K> want(n);
        sort_keys_gold(keys.data(), want.data(), n, b0, b1);
        DeviceBuffer<K> d_in(keys), d_out(n);
        for_each_policy<false>([&](auto policy, const char* name) {
          SCOPED_TRACE(std::string(dist_name(dist)) + " n=" + std::to_string(n) + " bits " +
                       std::to_string(b0) + ".." + std::to_string(b1) + " " + name);
          const std::size_t wb =
              detail::lsd::workspace_bytes<K, NoValue, false, decltype(policy)>(n);
          // Poisoned scratch: the sort clears the status rows it reads.
          DeviceBuffer<unsigned char> scratch(wb);
          CUDA_CHECK(cudaMemsetAsync(scratch.data(), 0xff, wb, stream));
          d_out.poison(stream);
          detail::lsd::sort<K, NoValue, false, decltype(policy)>(
              d_in.data(), d_out.data(), nullptr, nullptr, n, scratch.data(), wb, stream, b0, b1);
          CUDA_CHECK(cudaStreamSynchronize(stream));
          ASSERT_TRUE(test::all_equal(d_out.download(n).data(), want.data(), n));
        });
      }
    }
  }
}

// Host only: the look-back status rows are planned for the smallest onesweep tile (4096 keys),
// one row of 256 words per tile, for every key width; 8-byte keys were once given rows for tiles
// of 2048, twice what any of their shapes uses.
// The digit counts alone, against the CPU's: the 16-copy kernel the sorts use and the vectorised
// one they fall back to (blocks without the copies' shared memory), every key type, awkward
// sizes, inputs 1-3 elements off 16-byte alignment (counted one by one at the head and tail),
// partial bit ranges, uniform and few distinct keys. The totals start at zero (the kernels add to
// them); those of passes past the bit range must stay zero.
TEST(Sort, DigitHistograms) {
  SCANDOF_SKIP_WITHOUT_GPU();
  namespace L = detail::lsd;
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  auto check = [&](auto key, std::size_t n, std::size_t off, Dist dist, int begin, int end) {
    using K = decltype(key);
    SCOPED_TRACE(std::string(test::type_name<K>()) + " n=" + std::to_string(n) + " offset " +
                 std::to_string(off) + " " + dist_name(dist) + " bits [" + std::to_string(begin) +
                 "," + std::to_string(end) + ")");
    const auto keys = make_keys<K>(n, dist, test::derive_seed(47, n, off));
    std::vector<unsigned long long> want(L::kMaxPasses * L::kRadix, 0);
    const int passes = L::num_passes(begin, end);
    for (const K k : keys)
      for (int p = 0; p < passes; ++p) {
        const int shift = begin + p * L::kRadixBits;
        const int width = std::min(L::kRadixBits, end - shift);
        ++want[p * L::kRadix + ((RadixTraits<K>::to_bits(k) >> shift) & ((1u << width) - 1u))];
      }
    std::vector<K> buf(n + off);
    std::copy(keys.begin(), keys.end(), buf.begin() + off);
    DeviceBuffer<K> d_keys(buf);
    DeviceBuffer<unsigned long long> d_tot(want.size());
    auto run = [&](const char* name, auto kernel, int grid, int block, std::size_t smem) {
      SCOPED_TRACE(name);
      L::allow_smem(kernel, smem);
      CUDA_CHECK(cudaMemset(d_tot.data(), 0, want.size() * 8));
      kernel<<<grid, block, smem>>>(d_keys.data() + off, n, begin, end, d_tot.data());
      CUDA_CHECK(cudaGetLastError());
      EXPECT_EQ(d_tot.download(), want);
    };
    constexpr int kVecs = sizeof(K) == 4 ? 4 : 8;
    run("copies", L::histogram_copies_kernel<K, kVecs, 1024, 16>, sms, 1024,
        L::histogram_copies_smem_bytes<K, 16>());
    run("copies, 3 blocks", L::histogram_copies_kernel<K, kVecs, 1024, 16>, 3, 1024,
        L::histogram_copies_smem_bytes<K, 16>());
    run("vectorised", L::histogram_vec_kernel<K, 2>, 2 * sms, L::kThreads, 0);
  };
  const std::vector<std::size_t> sizes = {1, 2, 31, 33, 1025, 8193, (std::size_t(1) << 20) + 7};
  for (std::size_t n : test::capped(sizes))
    for (std::size_t off : {0, 1, 3}) {
      check(std::uint32_t{}, n, off, Dist::Uniform, 0, 32);
      check(std::int32_t{}, n, off, Dist::Uniform, 0, 32);
      check(float{}, n, off, Dist::FewDistinct, 0, 32);
      check(std::uint32_t{}, n, off, Dist::Uniform, 3, 20);
      check(std::uint64_t{}, n, off, Dist::Uniform, 0, 64);
      check(std::uint64_t{}, n, off, Dist::FewDistinct, 5, 41);
    }
}

TEST(Sort, StatusRowsPlannedForTheSmallestTile) {
  namespace lsd = detail::lsd;
  const std::size_t tile = std::size_t(lsd::kThreads) * lsd::kMinOnesweepItems;
  EXPECT_EQ(tile, 4096u);
  for (const std::size_t n : {std::size_t(1) << 20, (std::size_t(1) << 28) + 7}) {
    const std::size_t tiles = (n + tile - 1) / tile;
    const lsd::StatusPlan p32 = lsd::status_plan<std::uint32_t>(n);
    const lsd::StatusPlan p64 = lsd::status_plan<std::uint64_t>(n);
    EXPECT_EQ(p32.tiles, tiles);
    EXPECT_EQ(p64.tiles, tiles);
    // Two sets of rows (passes alternate between them) while a set is at most 128 MiB.
    EXPECT_EQ(p32.sets, 2);
    EXPECT_EQ(p32.bytes, lsd::align_up(2 * tiles * lsd::kRadix * 4));
    EXPECT_EQ(p64.bytes, lsd::align_up(2 * tiles * lsd::kRadix * 4));
  }
}

}  // namespace
}  // namespace scandof
