// The single-pass scan's look-back from call to call: the run-to-run deterministic mode (float and
// double, both kinds, awkward sizes, 20 runs each, bitwise) and the status that lives in the
// workspace instead of being cleared by a kernel before each call (many calls on one workspace,
// sizes up and down, other algorithms and element types in between, two streams, the epoch forced
// to its wrap). The argument checks of the Determinism option run without a GPU; everything else
// skips (with the reason) without a CUDA device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/scan.cuh"  // the user-operator path (Affine) and the look-back header's layout
#include "scandof/util/stream.hpp"
#include "test_util.hpp"

namespace {

using scandof::Affine;
using scandof::ComposeAffine;
using scandof::Determinism;
using scandof::ScanAlgorithm;
using scandof::ScanKind;
using scandof::ScanWorkspace;
using scandof::Sum;
using scandof::detail::lookback::LookbackHeader;
namespace t = scandof::test;

constexpr ScanAlgorithm kSP = ScanAlgorithm::SinglePass;

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// ---- argument checks (no device needed: they throw before any CUDA call) -----------------------

TEST(ScanDeterminism, UnknownValueIsRejected) {
  float* p = reinterpret_cast<float*>(std::uintptr_t(256));
  EXPECT_THROW((scandof::scan<float, Sum>(kSP, ScanKind::Exclusive, p, p, 1000, Sum{}, 0.f,
                                          nullptr, 0, 0, static_cast<Determinism>(7))),
               std::invalid_argument);
}

TEST(ScanDeterminism, CubRefusesRunToRunForFloats) {
  float* p = reinterpret_cast<float*>(std::uintptr_t(256));
  try {
    scandof::scan<float, Sum>(ScanAlgorithm::Cub, ScanKind::Exclusive, p, p, 1000, Sum{}, 0.f,
                              nullptr, 0, 0, Determinism::RunToRun);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("run-to-run"), std::string::npos) << e.what();
  }
}

TEST(ScanDeterminism, Names) {
  EXPECT_STREQ(scandof::to_string(Determinism::NotGuaranteed), "not-guaranteed");
  EXPECT_STREQ(scandof::to_string(Determinism::RunToRun), "run-to-run");
}

// ---- determinism -------------------------------------------------------------------------------

// Values of mixed sign and magnitude: a float sum whose grouping shows in its last bits.
template <class T>
std::vector<T> rounding_input(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t h = t::hash_at(seed, i);
    const double mant = double(h >> 11) * 0x1p-53 - 0.5;
    const int ex = int((h >> 3) % 24) - 12;
    v[i] = static_cast<T>(std::ldexp(mant, ex));
  }
  return v;
}

template <class T>
void expect_run_to_run(std::size_t n, ScanKind kind, int runs) {
  const std::vector<T> h = rounding_input<T>(n, t::derive_seed(n, int(kind), sizeof(T)));
  t::DeviceBuffer<T> d_in(h), d_out(n);
  ScanWorkspace ws;
  std::vector<T> first;
  // Reference in long double, sequential: the deterministic result must still be a scan.
  std::vector<long double> ref(n);
  long double acc = 0, mag = 0, worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (kind == ScanKind::Inclusive) acc += h[i];
    ref[i] = acc;
    if (kind == ScanKind::Exclusive) acc += h[i];
    mag += std::fabs(static_cast<long double>(h[i]));
  }
  const long double tol =
      mag * (std::is_same<T, float>::value ? 1e-4L : 1e-12L) + 1e-30L;
  for (int run = 0; run < runs; ++run) {
    d_out.poison();
    scandof::scan(kSP, kind, d_in.data(), d_out.data(), n, Sum{}, ws, 0, Determinism::RunToRun);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> got = d_out.download();
    if (run == 0) {
      for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(static_cast<long double>(got[i]) - ref[i]));
      EXPECT_LE(worst, tol) << "n=" << n << ": not a scan";
      first = std::move(got);
    } else {
      ASSERT_TRUE(same_bits(first, got))
          << (sizeof(T) == 4 ? "float" : "double") << " " << t::kind_name(kind) << " n=" << n
          << ": repetition " << run << " differs from the first";
    }
  }
}

class ScanLookback : public ::testing::Test {
 protected:
  void SetUp() override { SCANDOF_SKIP_WITHOUT_GPU(); }
};

std::vector<std::size_t> determinism_sizes() {
  return t::capped({1, 31, 33, 1025, 8191, 8193, 65536, 65537, (1u << 20) + 7, (1u << 22) + 4097,
                    std::size_t(1) << 24});
}

TEST_F(ScanLookback, FloatRunToRunIsBitwiseRepeatable) {
  for (std::size_t n : determinism_sizes())
    for (ScanKind k : {ScanKind::Exclusive, ScanKind::Inclusive}) expect_run_to_run<float>(n, k, 20);
}

TEST_F(ScanLookback, DoubleRunToRunIsBitwiseRepeatable) {
  for (std::size_t n : determinism_sizes())
    for (ScanKind k : {ScanKind::Exclusive, ScanKind::Inclusive})
      expect_run_to_run<double>(n, k, 20);
}

// A non-commutative operator through the fixed grouping: ComposeAffine is exact (mod 2^32), so the
// run-to-run path must give the CPU reference bit for bit.
TEST_F(ScanLookback, RunToRunKeepsTheOrderOfANonCommutativeOp) {
  for (std::size_t n : t::capped({33, 8193, 300001, (1u << 21) + 5}))
    for (ScanKind k : {ScanKind::Exclusive, ScanKind::Inclusive}) {
      const std::vector<Affine> h = t::random_vector<Affine>(n, t::derive_seed(n, int(k)));
      std::vector<Affine> want(n);
      scandof::scan_gold(k, h.data(), want.data(), n, ComposeAffine{},
                         scandof::identity_of<ComposeAffine, Affine>());
      t::DeviceBuffer<Affine> d_in(h), d_out(n);
      ScanWorkspace ws;
      d_out.poison();
      scandof::scan(kSP, k, d_in.data(), d_out.data(), n, ComposeAffine{}, ws, 0,
                    Determinism::RunToRun);
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_TRUE(same_bits(want, d_out.download())) << "n=" << n << " " << t::kind_name(k);
    }
}

// Integers are exact in any grouping: RunToRun takes the default path and gives the same bits.
TEST_F(ScanLookback, IntegerRunToRunIsTheDefault) {
  const std::size_t n = t::capped({(1u << 22) + 3}).front();
  const std::vector<std::int32_t> h = t::random_vector<std::int32_t>(n, 77);
  t::DeviceBuffer<std::int32_t> d_in(h), a(n), b(n);
  ScanWorkspace ws;
  scandof::scan(kSP, ScanKind::Exclusive, d_in.data(), a.data(), n, Sum{}, ws);
  scandof::scan(kSP, ScanKind::Exclusive, d_in.data(), b.data(), n, Sum{}, ws, 0,
                Determinism::RunToRun);
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(same_bits(a.download(), b.download()));
}

// ---- the status kept in the workspace ----------------------------------------------------------

template <class T>
std::vector<T> exclusive_gold(const std::vector<T>& h) {
  std::vector<T> want(h.size());
  scandof::scan_gold(ScanKind::Exclusive, h.data(), want.data(), h.size(), Sum{}, T(0));
  return want;
}

// Many calls on one workspace, n going up and down, other algorithms (which scribble on the
// scratch) and other element types in between, both determinism modes: every result exact.
TEST_F(ScanLookback, OneWorkspaceServesManyCalls) {
  const std::size_t big = t::capped({(1u << 22) + 17}).front();
  const std::vector<std::int32_t> h = t::random_vector<std::int32_t>(big, 5);
  const std::vector<double> hd = t::random_vector<double>(big / 2, 6, t::Pattern::Walk);
  t::DeviceBuffer<std::int32_t> d_in(h), d_out(big);
  t::DeviceBuffer<double> dd_in(hd), dd_out(hd.size());
  ScanWorkspace ws;
  const std::size_t sizes[] = {big, 8193, big / 3, 65537, 2, big, 1025, big - 1, 300000, 16385};
  int call = 0;
  for (int round = 0; round < 20; ++round)
    for (std::size_t n : sizes) {
      n = std::min(n, big);
      const std::vector<std::int32_t> part(h.begin(), h.begin() + n);
      const ScanAlgorithm a = call % 7 == 3 ? ScanAlgorithm::Cub
                              : call % 7 == 5 ? ScanAlgorithm::Optimized
                                              : kSP;
      d_out.poison();
      scandof::scan(a, ScanKind::Exclusive, d_in.data(), d_out.data(), n, Sum{}, ws, 0,
                    call % 2 ? Determinism::RunToRun : Determinism::NotGuaranteed);
      if (call % 5 == 0) {  // a double scan (two status words per tile) on the same workspace
        const std::size_t m = std::min(n, hd.size());
        scandof::scan(kSP, ScanKind::Exclusive, dd_in.data(), dd_out.data(), m, Sum{}, ws, 0,
                      Determinism::RunToRun);
      }
      CUDA_CHECK(cudaDeviceSynchronize());
      ASSERT_TRUE(t::all_equal(d_out.download(n), exclusive_gold(part)))
          << "call " << call << " n=" << n << " " << t::algo_name(a);
      ++call;
    }
}

// A buffer of the caller's own, zeroed once, reused at a larger then a smaller n, two streams
// taking turns on it (ordered by events, as the contract asks).
TEST_F(ScanLookback, OwnBufferTwoStreamsLargerThenSmaller) {
  const std::size_t big = t::capped({(1u << 23) + 9}).front();
  const std::vector<std::int32_t> h = t::random_vector<std::int32_t>(big, 9);
  t::DeviceBuffer<std::int32_t> d_in(h), d_out(big);
  const std::size_t bytes = scandof::scan_workspace_bytes<std::int32_t, Sum>(kSP, big);
  t::DeviceBuffer<unsigned char> w(bytes);
  scandof::util::Stream s1, s2;
  scandof::util::Event e;
  scandof::clear_workspace(w.data(), bytes, s1);
  e.record(s1);
  for (std::size_t n : {big / 7, big, big / 2, std::size_t(65537), big, std::size_t(9000)}) {
    for (int turn = 0; turn < 2; ++turn) {
      cudaStream_t s = turn ? s2.get() : s1.get();
      CUDA_CHECK(cudaStreamWaitEvent(s, e.get(), 0));
      d_out.poison(s);
      scandof::scan<std::int32_t, Sum>(kSP, ScanKind::Exclusive, d_in.data(), d_out.data(), n,
                                       Sum{}, 0, w.data(), bytes, s);
      e.record(s);
      CUDA_CHECK(cudaStreamSynchronize(s));
      const std::vector<std::int32_t> part(h.begin(), h.begin() + n);
      ASSERT_TRUE(t::all_equal(d_out.download(n), exclusive_gold(part)))
          << "n=" << n << " stream " << turn + 1;
    }
  }
}

// The epoch counts calls in the header's top half; only its parity picks a region. Forced to just
// before its wrap, the calls across the wrap stay exact and the count wraps to 0.
TEST_F(ScanLookback, EpochWrapIsHarmless) {
  const std::size_t n = t::capped({(1u << 21) + 3}).front();
  const std::vector<std::int32_t> h = t::random_vector<std::int32_t>(n, 11);
  const std::vector<std::int32_t> want = exclusive_gold(h);
  t::DeviceBuffer<std::int32_t> d_in(h), d_out(n);
  ScanWorkspace ws;
  scandof::scan(kSP, ScanKind::Exclusive, d_in.data(), d_out.data(), n, Sum{}, ws);
  CUDA_CHECK(cudaDeviceSynchronize());
  LookbackHeader head{};
  CUDA_CHECK(cudaMemcpy(&head, ws.data(), sizeof head, cudaMemcpyDeviceToHost));
  EXPECT_EQ(head.ticket_epoch, 1ull << 32) << "one call: epoch 1, no ticket left taken";
  head.ticket_epoch = 0xFFFFFFFEull << 32;  // two calls before the wrap, same parity as now
  CUDA_CHECK(cudaMemcpy(ws.data(), &head, sizeof head, cudaMemcpyHostToDevice));
  for (int call = 0; call < 5; ++call) {
    d_out.poison();
    scandof::scan(kSP, ScanKind::Exclusive, d_in.data(), d_out.data(), n - call * 1000, Sum{}, ws);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<std::int32_t> part(h.begin(), h.begin() + (n - call * 1000));
    ASSERT_TRUE(t::all_equal(d_out.download(n - call * 1000), exclusive_gold(part)))
        << "call " << call << " across the epoch's wrap";
  }
  CUDA_CHECK(cudaMemcpy(&head, ws.data(), sizeof head, cudaMemcpyDeviceToHost));
  EXPECT_EQ(head.ticket_epoch, 3ull << 32) << "0xFFFFFFFE + 5 calls wraps to 3";
}

}  // namespace
