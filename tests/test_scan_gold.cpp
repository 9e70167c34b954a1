// CPU-only tests (run in CI, no GPU): the gold references scan_gold / scan_gold_parallel that every
// GPU test trusts, the test helpers' own checks, and the host side of the scan API (names,
// argument errors, device detection) as it must behave on a machine without a GPU.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/ops.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"
#include "test_util.hpp"

namespace {

using scandof::Affine;
using scandof::ComposeAffine;
using scandof::Max;
using scandof::Min;
using scandof::scan_gold;
using scandof::scan_gold_parallel;
using scandof::ScanAlgorithm;
using scandof::ScanKind;
using scandof::Sum;
namespace t = scandof::test;

constexpr ScanKind kExcl = ScanKind::Exclusive;
constexpr ScanKind kIncl = ScanKind::Inclusive;

// ---- hand-computed cases ----------------------------------------------------------------------

// The example of the paper (Harris 2007, section 1).
TEST(ScanGoldHand, PaperExampleSum) {
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<int> out(in.size(), -1);
  scan_gold(kExcl, in.data(), out.data(), in.size(), Sum{});
  EXPECT_EQ(out, (std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}));
  scan_gold(kIncl, in.data(), out.data(), in.size(), Sum{});
  EXPECT_EQ(out, (std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25}));
}

TEST(ScanGoldHand, MinMaxWithIdentities) {
  const std::vector<std::int32_t> in = {5, 7, 2, 9, -4, 8, -4, 12};
  std::vector<std::int32_t> out(in.size());
  const std::int32_t imax = std::numeric_limits<std::int32_t>::max();
  const std::int32_t imin = std::numeric_limits<std::int32_t>::lowest();
  scan_gold(kExcl, in.data(), out.data(), in.size(), Min{});
  EXPECT_EQ(out, (std::vector<std::int32_t>{imax, 5, 5, 2, 2, -4, -4, -4}));
  scan_gold(kIncl, in.data(), out.data(), in.size(), Min{});
  EXPECT_EQ(out, (std::vector<std::int32_t>{5, 5, 2, 2, -4, -4, -4, -4}));
  scan_gold(kExcl, in.data(), out.data(), in.size(), Max{});
  EXPECT_EQ(out, (std::vector<std::int32_t>{imin, 5, 7, 7, 9, 9, 9, 9}));
  scan_gold(kIncl, in.data(), out.data(), in.size(), Max{});
  EXPECT_EQ(out, (std::vector<std::int32_t>{5, 7, 7, 9, 9, 9, 9, 12}));

  // Floats: the identities are +-infinity, not the largest finite value.
  const std::vector<float> fin = {0.5f, -1.25f, 3.0f};
  std::vector<float> fout(3);
  scan_gold(kExcl, fin.data(), fout.data(), 3, Min{});
  EXPECT_EQ(fout, (std::vector<float>{std::numeric_limits<float>::infinity(), 0.5f, -1.25f}));
  scan_gold(kExcl, fin.data(), fout.data(), 3, Max{});
  EXPECT_EQ(fout, (std::vector<float>{-std::numeric_limits<float>::infinity(), 0.5f, 0.5f}));
}

TEST(ScanGoldHand, Uint32SumWraps) {
  const std::vector<std::uint32_t> in = {0xFFFFFFF0u, 0x20u, 0xFFFFFFFFu};
  std::vector<std::uint32_t> out(3);
  scan_gold(kIncl, in.data(), out.data(), 3, Sum{});
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0xFFFFFFF0u, 0x10u, 0x0Fu}));
}

// f then g: x -> 2x+3, then x -> 3x+5, then x -> 5x+7.
TEST(ScanGoldHand, ComposeAffineOrder) {
  const std::vector<Affine> in = {{2, 3}, {3, 5}, {5, 7}};
  std::vector<Affine> out(3, Affine{0, 0});
  scan_gold(kExcl, in.data(), out.data(), 3, ComposeAffine{});
  // 3(2x+3)+5 = 6x+14.
  EXPECT_TRUE(t::all_equal(out, std::vector<Affine>{{1, 0}, {2, 3}, {6, 14}}));
  scan_gold(kIncl, in.data(), out.data(), 3, ComposeAffine{});
  // 5(6x+14)+7 = 30x+77.
  EXPECT_TRUE(t::all_equal(out, std::vector<Affine>{{2, 3}, {6, 14}, {30, 77}}));
  // Applying the inclusive prefix to x must equal applying the maps one by one.
  std::uint32_t x = 11;
  for (const Affine& f : in) x = f.a * x + f.b;
  EXPECT_EQ(out.back().a * 11u + out.back().b, x);
}

TEST(ScanGoldHand, ExplicitIdentityAndEmpty) {
  const std::vector<double> in = {1.5, 2.5};
  std::vector<double> out(2);
  scan_gold(kExcl, in.data(), out.data(), 2, Sum{}, 0.0);
  EXPECT_EQ(out, (std::vector<double>{0.0, 1.5}));
  // n == 0 touches nothing, null pointers included.
  scan_gold<double>(kExcl, nullptr, nullptr, 0, Sum{});
  scan_gold_parallel<double>(kIncl, nullptr, nullptr, 0, Sum{}, 0.0, 4);
  // n == 1.
  scan_gold(kExcl, in.data(), out.data(), 1, Sum{});
  EXPECT_EQ(out[0], 0.0);
  scan_gold(kIncl, in.data(), out.data(), 1, Sum{});
  EXPECT_EQ(out[0], 1.5);
}

// ---- non-commutativity --------------------------------------------------------------------------

// The deliberately wrong operator: combines as op(later, earlier).
struct SwappedCompose {
  Affine operator()(const Affine& f, const Affine& g) const { return ComposeAffine{}(g, f); }
  template <class T = Affine>
  static constexpr Affine identity() {
    return Affine{1u, 0u};
  }
};

// Proves the checks used everywhere (all_equal against scan_gold with ComposeAffine) catch an
// implementation that swaps operands: with Sum, Min or Max it would pass unnoticed.
TEST(ScanGoldNonCommutative, SwappedOperandsFailTheCheck) {
  const std::size_t n = 1000;
  const auto in = t::random_vector<Affine>(n, t::derive_seed(1));
  std::vector<Affine> want(n), wrong(n);
  for (ScanKind kind : {kExcl, kIncl}) {
    scan_gold(kind, in.data(), want.data(), n, ComposeAffine{});
    scan_gold(kind, in.data(), wrong.data(), n, SwappedCompose{});
    const ::testing::AssertionResult r = t::all_equal(wrong.data(), want.data(), n);
    EXPECT_FALSE(r) << "a swapped operand order went unnoticed (" << t::kind_name(kind) << ")";
    // Exclusive [0] and [1] are the same either way (identity, in[0]); from [2] on they differ.
    EXPECT_NE(r.message(), std::string());

    // The parallel reference must get the order right too, and so catch the same thing.
    std::vector<Affine> par(n);
    scan_gold_parallel(kind, in.data(), par.data(), n, ComposeAffine{}, Affine{1, 0}, 4);
    EXPECT_TRUE(t::all_equal(par.data(), want.data(), n));
  }
  // With a commutative operator the same swap is invisible: why Affine is needed at all.
  const auto ints = t::random_vector<std::uint32_t>(n, t::derive_seed(2));
  std::vector<std::uint32_t> a(n), b(n);
  scan_gold(kIncl, ints.data(), a.data(), n, Sum{});
  scan_gold(
      kIncl, ints.data(), b.data(), n, [](std::uint32_t x, std::uint32_t y) { return y + x; }, 0u);
  EXPECT_TRUE(t::all_equal(a, b));
}

TEST(ScanGoldNonCommutative, ParallelChunksKeepOrder) {
  // Large enough that scan_gold_parallel really splits (its minimum chunk is 2^16).
  const std::size_t n = (std::size_t(1) << 18) + 12345;
  const auto in = t::random_vector<Affine>(n, t::derive_seed(3));
  std::vector<Affine> seq(n), par(n);
  for (ScanKind kind : {kExcl, kIncl}) {
    for (unsigned threads : {2u, 3u, 4u, 7u}) {
      t::poison(par);
      scan_gold(kind, in.data(), seq.data(), n, ComposeAffine{});
      scan_gold_parallel(kind, in.data(), par.data(), n, ComposeAffine{}, Affine{1, 0}, threads);
      EXPECT_TRUE(t::all_equal(par, seq)) << t::kind_name(kind) << ", " << threads << " threads";
    }
  }
}

// ---- every type x operator: sequential vs parallel, in place -----------------------------------

template <class T>
class ScanGoldTyped : public ::testing::Test {};
using GoldTypes = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(ScanGoldTyped, GoldTypes);

// Integers, or floats holding small integers so every partial sum is exact: then the parallel and
// sequential references must agree bit for bit, whatever the association.
template <class T>
std::vector<T> exact_sum_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_floating_point_v<T>) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(1 + t::hash_at(seed, i) % 8);
    return v;  // sums <= 8 n < 2^24 for the sizes below
  } else {
    return t::random_vector<T>(n, seed, t::Pattern::Summable);
  }
}

template <class T, class Op>
void check_parallel_matches(const std::vector<T>& in, Op op) {
  const std::size_t n = in.size();
  std::vector<T> seq(n), par(n);
  for (ScanKind kind : {kExcl, kIncl}) {
    for (unsigned threads : {0u, 1u, 2u, 5u, 16u}) {
      t::poison(seq);
      t::poison(par);
      scan_gold(kind, in.data(), seq.data(), n, op);
      scan_gold_parallel(kind, in.data(), par.data(), n, op, scandof::identity_of<Op, T>(),
                         threads);
      ASSERT_TRUE(t::all_equal(par, seq))
          << t::type_name<T>() << " " << t::op_name<Op>() << " " << t::kind_name(kind) << " n=" << n
          << " threads=" << threads;
    }
    // In place (in == out) must give the same answer, for both references.
    std::vector<T> a = in, b = in;
    scan_gold(kind, a.data(), a.data(), n, op);
    scan_gold_parallel(kind, b.data(), b.data(), n, op, scandof::identity_of<Op, T>(), 4);
    ASSERT_TRUE(t::all_equal(a, seq)) << "scan_gold in place, " << t::kind_name(kind);
    ASSERT_TRUE(t::all_equal(b, seq)) << "scan_gold_parallel in place, " << t::kind_name(kind);
  }
}

TYPED_TEST(ScanGoldTyped, ParallelMatchesSequentialAllOps) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1025),
                        std::size_t(1) << 17, (std::size_t(1) << 19) + 77}) {
    const std::uint64_t seed = t::derive_seed(sizeof(T), std::is_floating_point_v<T>, n);
    check_parallel_matches(exact_sum_input<T>(n, seed), Sum{});
    check_parallel_matches(t::random_vector<T>(n, seed + 1, t::Pattern::Walk), Min{});
    check_parallel_matches(t::random_vector<T>(n, seed + 2, t::Pattern::Walk), Max{});
    check_parallel_matches(t::random_vector<T>(n, seed + 3, t::Pattern::Full), Min{});
    check_parallel_matches(t::random_vector<T>(n, seed + 4, t::Pattern::Full), Max{});
  }
}

// Exclusive and inclusive are consistent: incl[i] = op(excl[i], in[i]) and excl[i+1] = incl[i].
TYPED_TEST(ScanGoldTyped, ExclusiveInclusiveRelation) {
  using T = TypeParam;
  const std::size_t n = 4097;
  const auto in = t::random_vector<T>(n, t::derive_seed(7, sizeof(T)), t::Pattern::Walk);
  std::vector<T> ex(n), inc(n);
  scan_gold(kExcl, in.data(), ex.data(), n, Max{});
  scan_gold(kIncl, in.data(), inc.data(), n, Max{});
  EXPECT_TRUE(t::same_bits(ex[0], scandof::identity_of<Max, T>()));
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(t::same_bits(inc[i], Max{}(ex[i], in[i]))) << i;
    if (i + 1 < n) ASSERT_TRUE(t::same_bits(ex[i + 1], inc[i])) << i;
  }
}

// A direct check of the Min / Max references against std::min / std::max running values.
TYPED_TEST(ScanGoldTyped, MinMaxAgainstStd) {
  using T = TypeParam;
  const std::size_t n = 3001;
  const auto in = t::random_vector<T>(n, t::derive_seed(8, sizeof(T)), t::Pattern::Full);
  std::vector<T> mn(n), mx(n);
  scan_gold(kIncl, in.data(), mn.data(), n, Min{});
  scan_gold(kIncl, in.data(), mx.data(), n, Max{});
  T lo = in[0], hi = in[0];
  for (std::size_t i = 0; i < n; ++i) {
    lo = std::min(lo, in[i]);
    hi = std::max(hi, in[i]);
    ASSERT_EQ(mn[i], lo) << i;
    ASSERT_EQ(mx[i], hi) << i;
  }
}

// ---- the test helpers themselves ----------------------------------------------------------------

TEST(TestUtil, InputsAreSeededNonzeroAndVaried) {
  const auto a = t::random_vector<std::int32_t>(10000, 42);
  const auto b = t::random_vector<std::int32_t>(10000, 42);
  const auto c = t::random_vector<std::int32_t>(10000, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (auto v : a) ASSERT_NE(v, 0);
  for (float v : t::random_vector<float>(10000, 5)) ASSERT_TRUE(v > 0.0f && v <= 1.0f) << v;
  for (double v : t::random_vector<double>(10000, 5)) ASSERT_TRUE(v > 0.0 && v <= 1.0) << v;
  for (auto v : t::random_vector<std::uint32_t>(10000, 5)) ASSERT_NE(v, 0u);
  for (auto v : t::random_vector<std::int64_t>(10000, 5)) ASSERT_NE(v, 0);
  for (const Affine& f : t::random_vector<Affine>(10000, 5)) ASSERT_EQ(f.a & 1u, 1u);
  // A walk moves at every step.
  const auto w = t::random_vector<std::int64_t>(10000, 9, t::Pattern::Walk);
  for (std::size_t i = 1; i < w.size(); ++i) ASSERT_NE(w[i], w[i - 1]);
}

TEST(TestUtil, PoisonIsNotAPlausibleValue) {
  EXPECT_EQ(t::poison_value<std::uint32_t>(), 0xABABABABu);
  std::vector<float> v(4, 1.0f);
  t::poison(v);
  for (float x : v) EXPECT_NE(x, 1.0f);
  EXPECT_NE(t::poison_value<Affine>(), ComposeAffine::identity());
}

TEST(TestUtil, SizeListsAndCap) {
  const auto s = t::awkward_sizes();
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(s.front(), 0u);
  const auto r = t::random_sizes(5, 1000, 1 << 20, 99);
  EXPECT_EQ(r, t::random_sizes(5, 1000, 1 << 20, 99));
  for (auto x : r) EXPECT_TRUE(x >= 1000 && x <= (1u << 20)) << x;
}

TEST(TestUtil, FloatToleranceCatchesALostElement) {
  const std::size_t n = 1025;
  const auto in = t::random_vector<float>(n, 11);
  const auto ref = t::float_sum_reference(kIncl, in.data(), n);
  std::vector<float> got(n);
  scan_gold(kIncl, in.data(), got.data(), n, Sum{});
  const double f = t::sum_tolerance_factor<float>(n);
  EXPECT_TRUE(t::all_close(got.data(), ref, n, f));  // float rounding passes
  got[700] -= in[700];                               // one element missing from one prefix
  EXPECT_FALSE(t::all_close(got.data(), ref, n, f));
  // Exclusive [0] must be exactly the identity: zero magnitude, zero tolerance.
  const auto eref = t::float_sum_reference(kExcl, in.data(), n);
  std::vector<float> eg(n);
  scan_gold(kExcl, in.data(), eg.data(), n, Sum{});
  EXPECT_TRUE(t::all_close(eg.data(), eref, n, f));
  eg[0] = 1e-30f;
  EXPECT_FALSE(t::all_close(eg.data(), eref, n, f));
}

// ---- host-side API without a GPU ----------------------------------------------------------------

TEST(ScanApiHost, AlgorithmNamesRoundTrip) {
  const auto all = scandof::all_scan_algorithms();
  ASSERT_EQ(all.size(), static_cast<std::size_t>(scandof::kNumScanAlgorithms));
  for (int i = 0; i < scandof::kNumScanAlgorithms; ++i) {
    const ScanAlgorithm a = static_cast<ScanAlgorithm>(i);
    EXPECT_EQ(all[i], a) << "all_scan_algorithms() out of enum order at " << i;
    const char* name = scandof::to_string(a);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(scandof::parse_scan_algorithm(name), a) << name;
    EXPECT_EQ(scandof::parse_scan_algorithm(std::to_string(i)), a) << i;
  }
  const std::array<std::pair<const char*, ScanAlgorithm>, 7> documented = {{
      {"naive", ScanAlgorithm::Naive},
      {"work-efficient", ScanAlgorithm::WorkEfficient},
      {"conflict-free", ScanAlgorithm::ConflictFree},
      {"optimized", ScanAlgorithm::Optimized},
      {"warp-shuffle", ScanAlgorithm::WarpShuffle},
      {"single-pass", ScanAlgorithm::SinglePass},
      {"cub", ScanAlgorithm::Cub},
  }};
  for (const auto& [name, a] : documented) {
    EXPECT_EQ(scandof::parse_scan_algorithm(name), a) << name;
    EXPECT_STREQ(scandof::to_string(a), name);
  }
  EXPECT_STRNE(scandof::to_string(ScanKind::Exclusive), scandof::to_string(ScanKind::Inclusive));
  EXPECT_STRNE(scandof::to_string(scandof::OpKind::Sum), scandof::to_string(scandof::OpKind::Min));
  EXPECT_STRNE(scandof::to_string(scandof::OpKind::Min), scandof::to_string(scandof::OpKind::Max));
}

TEST(ScanApiHost, BadAlgorithmNamesThrow) {
  for (const char* bad : {"", "foo", "7", "-1", "single pass", "naive ", "99999999999999999999"}) {
    EXPECT_THROW(scandof::parse_scan_algorithm(bad), std::invalid_argument) << '"' << bad << '"';
  }
  try {
    scandof::parse_scan_algorithm("bogus");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    // The message should tell the user what is accepted.
    EXPECT_NE(std::string(e.what()).find("single-pass"), std::string::npos) << e.what();
  }
}

bool path_exists(const char* p) {
  struct stat st;
  return ::stat(p, &st) == 0;
}

TEST(ScanApiHost, DeviceDetectionNeverThrows) {
  std::string why;
  bool have = false;
  EXPECT_NO_THROW(have = scandof::cuda_device_available(&why));
  EXPECT_EQ(have, scandof::cuda_device_available(nullptr)) << "two calls disagree";
  if (!have) EXPECT_FALSE(why.empty()) << "no device, but no reason given";
  // Without the NVIDIA driver's device nodes no CUDA device can exist: the answer must be false.
  if (!path_exists("/dev/nvidiactl") && !path_exists("/dev/nvidia0") && !path_exists("/dev/dxg")) {
    EXPECT_FALSE(have) << "claims a device on a machine without NVIDIA device nodes";
  }
  std::cout << "[ info ] cuda_device_available: " << (have ? "yes" : "no")
            << (have ? std::string() : " (" + why + ")") << "\n";
}

// What a user expects: a null pointer with n > 0 is a bad argument, reported as such before any
// CUDA call, so the same answer comes with or without a GPU (and without CUDA in the build).
TEST(ScanApiHost, NullPointersWithElementsThrowInvalidArgument) {
  std::vector<std::int32_t> host(16, 1);
  // A non-null pointer that is never dereferenced: the null one must be rejected first.
  std::int32_t* some = host.data();
  for (ScanAlgorithm a : t::every_algorithm()) {
    SCOPED_TRACE(t::algo_name(a));
    EXPECT_THROW(scandof::scan<std::int32_t>(a, kExcl, nullptr, some, 16, Sum{}, 0, nullptr, 0),
                 std::invalid_argument);
    EXPECT_THROW(scandof::scan<std::int32_t>(a, kIncl, some, nullptr, 16, Sum{}, 0, nullptr, 0),
                 std::invalid_argument);
    EXPECT_THROW(scandof::scan<float>(a, kIncl, nullptr, nullptr, 1, Max{},
                                      scandof::identity_of<Max, float>(), nullptr, 0),
                 std::invalid_argument);
  }
}

// Scanning nothing is a no-op: no launch, no workspace, no error, even without a GPU.
TEST(ScanApiHost, EmptyScanIsANoOp) {
  for (ScanAlgorithm a : t::every_algorithm()) {
    SCOPED_TRACE(t::algo_name(a));
    EXPECT_NO_THROW(
        scandof::scan<std::int64_t>(a, kExcl, nullptr, nullptr, 0, Sum{}, 0, nullptr, 0));
    EXPECT_NO_THROW(scandof::scan<double>(a, kIncl, nullptr, nullptr, 0, Min{},
                                          scandof::identity_of<Min, double>(), nullptr, 0));
  }
}

// An unused workspace costs nothing and needs no GPU; the convenience overload with n == 0 is a
// no-op like the explicit one.
TEST(ScanApiHost, EmptyWorkspaceNeedsNoGpu) {
  {
    scandof::ScanWorkspace ws;
    EXPECT_EQ(ws.data(), nullptr);
    EXPECT_EQ(ws.size(), 0u);
    EXPECT_NO_THROW(ws.reserve(0));
    scandof::ScanWorkspace moved(std::move(ws));
    EXPECT_EQ(moved.size(), 0u);
    for (ScanAlgorithm a : t::every_algorithm()) {
      SCOPED_TRACE(t::algo_name(a));
      EXPECT_NO_THROW(scandof::scan<std::uint32_t>(a, kExcl, nullptr, nullptr, 0, Sum{}, moved));
    }
  }  // destructors run here: must not throw or abort without a device
  SUCCEED();
}

// The three-phase variants size their scratch on the host (sum arrays per recursion level): the
// query must work without a GPU, be 0 or more for n = 0, and not shrink as n grows.
TEST(ScanApiHost, ThreePhaseWorkspaceQueryNeedsNoGpu) {
  for (ScanAlgorithm a :
       {ScanAlgorithm::Naive, ScanAlgorithm::WorkEfficient, ScanAlgorithm::ConflictFree,
        ScanAlgorithm::Optimized, ScanAlgorithm::WarpShuffle}) {
    SCOPED_TRACE(t::algo_name(a));
    std::size_t prev = 0;
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1025), std::size_t(1) << 20,
                          (std::size_t(1) << 31) + 1000}) {
      std::size_t bytes = 0;
      EXPECT_NO_THROW((bytes = scandof::scan_workspace_bytes<float, Sum>(a, n))) << n;
      EXPECT_GE(bytes, prev) << "workspace shrank at n=" << n;
      prev = bytes;
    }
    EXPECT_GT(prev, 0u) << "no scratch at all for 2^31 elements?";
  }
}

}  // namespace
