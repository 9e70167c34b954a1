// GPU tests of stream compaction and stable partition: every CompactAlgorithm (the paper's with
// several scan variants) x element types {int32, uint32, int64, float, double, a user struct} x
// {compact_if, compact_flagged, partition_if, partition_flagged} x awkward and random sizes x
// selectivities 0, 1%, 50%, 99%, 100%, against std::copy_if / std::stable_partition. Outputs are
// poisoned before each run; compaction must leave out[count..n) untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/compact.hpp"
#include "scandof/device/compact_impl.cuh"  // the user struct and predicate below
#include "inputs.hpp"  // bench/: the same inputs and thresholds as compactbench
#include "test_util.hpp"

namespace scandof {
namespace {

using test::DeviceBuffer;

// A user-defined 16-byte element with a user predicate (instantiated here through the .cuh).
struct Particle {
  float x, y, z;
  std::int32_t id;
};
struct OutsideRadius {
  float r2;
  __host__ __device__ bool operator()(const Particle& p) const {
    return p.x * p.x + p.y * p.y + p.z * p.z > r2;
  }
};

enum class Mode { If, Flagged, PartitionIf, PartitionFlagged };
const char* mode_name(Mode m) {
  switch (m) {
    case Mode::If:
      return "compact_if";
    case Mode::Flagged:
      return "compact_flagged";
    case Mode::PartitionIf:
      return "partition_if";
    case Mode::PartitionFlagged:
      return "partition_flagged";
  }
  return "?";
}
bool is_partition(Mode m) {
  return m == Mode::PartitionIf || m == Mode::PartitionFlagged;
}

std::string opt_name(CompactOptions o) {
  std::string s = to_string(o.algo);
  if (o.algo == CompactAlgorithm::Paper) s += std::string("/") + test::algo_name(o.paper_scan);
  return s;
}

template <class T>
struct Case {
  std::vector<T> in;
  std::vector<std::uint8_t> flags;
};

// Bitwise comparison of n elements; prints values for arithmetic types, indices for others.
template <class T>
::testing::AssertionResult equal_elements(const T* got, const T* want, std::size_t n) {
  if constexpr (std::is_arithmetic_v<T>) {
    return test::all_equal(got, want, n);
  } else {
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!test::same_bits(got[i], want[i]) && bad++ == 0) first = i;
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << bad << " of " << n << " elements differ, first at " << first;
  }
}

// Runs one configuration and checks it against the CPU reference `want` (count `k`).
template <class T, class Pred>
void run_and_check(const char* type, CompactOptions opt, Mode mode, std::size_t n, Pred pred,
                   const DeviceBuffer<T>& d_in, const DeviceBuffer<std::uint8_t>& d_flags,
                   DeviceBuffer<T>& d_out, const std::vector<T>& want, std::size_t k,
                   ScanWorkspace& ws, bool device_count, cudaStream_t stream) {
  SCOPED_TRACE(std::string(type) + " " + mode_name(mode) + " " + opt_name(opt) +
               " n=" + std::to_string(n) + (device_count ? " (device count)" : " (host count)"));
  d_out.poison(stream);
  std::size_t got_k = 0;
  if (device_count) {
    const std::size_t bytes = compact_workspace_bytes<T>(n, opt);
    DeviceBuffer<unsigned char> scratch(bytes);
    scandof::clear_workspace(scratch.data(), bytes, stream);  // the single pass's contract
    DeviceBuffer<std::uint64_t> d_count(1);
    d_count.poison(stream);
    switch (mode) {
      case Mode::If:
        compact_if(d_in.data(), d_out.data(), d_count.data(), n, pred, scratch.data(), bytes,
                   stream, opt);
        break;
      case Mode::Flagged:
        compact_flagged(d_in.data(), d_flags.data(), d_out.data(), d_count.data(), n,
                        scratch.data(), bytes, stream, opt);
        break;
      case Mode::PartitionIf:
        partition_if(d_in.data(), d_out.data(), d_count.data(), n, pred, scratch.data(), bytes,
                     stream, opt);
        break;
      case Mode::PartitionFlagged:
        partition_flagged(d_in.data(), d_flags.data(), d_out.data(), d_count.data(), n,
                          scratch.data(), bytes, stream, opt);
        break;
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    got_k = static_cast<std::size_t>(d_count.download(1)[0]);
  } else {
    switch (mode) {
      case Mode::If:
        got_k = compact_if(d_in.data(), d_out.data(), n, pred, ws, stream, opt);
        break;
      case Mode::Flagged:
        got_k = compact_flagged(d_in.data(), d_flags.data(), d_out.data(), n, ws, stream, opt);
        break;
      case Mode::PartitionIf:
        got_k = partition_if(d_in.data(), d_out.data(), n, pred, ws, stream, opt);
        break;
      case Mode::PartitionFlagged:
        got_k = partition_flagged(d_in.data(), d_flags.data(), d_out.data(), n, ws, stream, opt);
        break;
    }
  }
  ASSERT_EQ(got_k, k);
  const std::vector<T> got = d_out.download(n);
  const std::size_t check = is_partition(mode) ? n : k;
  ASSERT_TRUE(equal_elements(got.data(), want.data(), check));
  if (!is_partition(mode)) {
    // Past the count nothing may be written.
    const T p = test::poison_value<T>();
    std::size_t touched = 0;
    for (std::size_t i = k; i < n; ++i) touched += !test::same_bits(got[i], p);
    ASSERT_EQ(touched, 0u) << "elements past the count were written";
  }
}

std::vector<CompactOptions> main_options() {
  return {{CompactAlgorithm::SinglePass, ScanAlgorithm::Optimized},
          {CompactAlgorithm::ReduceThenScan, ScanAlgorithm::Optimized},
          {CompactAlgorithm::Paper, ScanAlgorithm::Optimized},
          {CompactAlgorithm::Paper, ScanAlgorithm::Cub}};
}

std::vector<std::size_t> compact_sizes(std::uint64_t tag) {
  auto v = test::awkward_sizes();
  for (std::size_t s : test::random_sizes(2, std::size_t(1) << 20, std::size_t(1) << 24,
                                          test::derive_seed(tag, 99)))
    v.push_back(s);
  return test::capped(v);
}

template <class T>
class CompactTyped : public ::testing::Test {};
using CompactTypes = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CompactTyped, CompactTypes);

TYPED_TEST(CompactTyped, AllAlgorithmsModesSizes) {
  SCANDOF_SKIP_WITHOUT_GPU();
  using T = TypeParam;
  const double sels[] = {0.01, 0.5, 0.99, 0.0, 1.0};
  test::Stream stream;
  ScanWorkspace ws;
  const auto sizes = compact_sizes(sizeof(T) * 7 + std::is_floating_point_v<T>);
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    const double sel = sels[si % 5];
    const std::uint64_t seed = test::derive_seed(11, sizeof(T), std::is_signed_v<T>, n);
    std::vector<T> in(n);
    std::vector<std::uint8_t> flags(n);
    test::parallel_for(n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        in[i] = bench::uniform_value<T>(test::hash_at(seed, i));
        // Flags: any nonzero byte selects; about `sel` of them, independent of the values.
        const std::uint64_t h = test::hash_at(seed ^ 0xF1A6, i);
        flags[i] = (static_cast<double>(h >> 11) * 0x1p-53 < sel)
                       ? static_cast<std::uint8_t>(1 + h % 255)
                       : 0;
      }
    });
    const LessThan<T> pred{bench::threshold_for<T>(sel)};
    DeviceBuffer<T> d_in(in), d_out(n);
    DeviceBuffer<std::uint8_t> d_flags(flags);
    for (Mode mode : {Mode::If, Mode::Flagged, Mode::PartitionIf, Mode::PartitionFlagged}) {
      std::vector<T> want(n);
      std::size_t k = 0;
      switch (mode) {
        case Mode::If:
          k = compact_gold(in.data(), want.data(), n, pred);
          break;
        case Mode::Flagged:
          k = compact_flagged_gold(in.data(), flags.data(), want.data(), n);
          break;
        case Mode::PartitionIf:
          k = partition_gold(in.data(), want.data(), n, pred);
          break;
        case Mode::PartitionFlagged:
          k = partition_flagged_gold(in.data(), flags.data(), want.data(), n);
          break;
      }
      int oi = 0;
      for (CompactOptions opt : main_options()) {
        run_and_check(test::type_name<T>(), opt, mode, n, pred, d_in, d_flags, d_out, want, k, ws,
                      (si + oi++) % 2 == 0, stream);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// The paper's path with every scan variant of the library.
TEST(Compact, PaperWithEveryScanAlgorithm) {
  SCANDOF_SKIP_WITHOUT_GPU();
  test::Stream stream;
  ScanWorkspace ws;
  for (std::size_t n : test::capped({1, 33, 1025, 4097, (1u << 16) + 1, (1u << 20) + 7})) {
    const auto in =
        test::random_vector<float>(n, test::derive_seed(12, n), test::Pattern::Summable);
    const LessThan<float> pred{0.5f};
    std::vector<float> want(n);
    const std::size_t k = partition_gold(in.data(), want.data(), n, pred);
    DeviceBuffer<float> d_in(in), d_out(n);
    DeviceBuffer<std::uint8_t> no_flags;
    for (ScanAlgorithm a : test::every_algorithm())
      run_and_check("float", {CompactAlgorithm::Paper, a}, Mode::PartitionIf, n, pred, d_in,
                    no_flags, d_out, want, k, ws, false, stream);
  }
}

TEST(Compact, NotEqualToWithRepeats) {
  SCANDOF_SKIP_WITHOUT_GPU();
  test::Stream stream;
  ScanWorkspace ws;
  const std::size_t n = 300007;
  std::vector<std::int32_t> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::int32_t>(test::hash_at(5, i) % 3);
  const NotEqualTo<std::int32_t> pred{1};
  std::vector<std::int32_t> want(n);
  const std::size_t k = compact_gold(in.data(), want.data(), n, pred);
  DeviceBuffer<std::int32_t> d_in(in), d_out(n);
  DeviceBuffer<std::uint8_t> no_flags;
  for (CompactOptions opt : main_options())
    run_and_check("int32", opt, Mode::If, n, pred, d_in, no_flags, d_out, want, k, ws, true,
                  stream);
}

// The single pass's policies behind the public default (the benchmark times them): 64, 96 or 128
// bytes per thread, paced or not (pacing forced on for small grids too), each at an aligned and a
// misaligned input (scalar loads).
TEST(Compact, SinglePassPolicies) {
  SCANDOF_SKIP_WITHOUT_GPU();
  test::Stream stream;
  for (std::size_t n : test::capped({1, 8191, 8192, 8193, 300007, 5000011})) {
    std::vector<std::int32_t> in(n + 1);
    for (std::size_t i = 0; i < n + 1; ++i) in[i] = static_cast<std::int32_t>(test::hash_at(6, i));
    const LessThan<std::int32_t> pred{0};
    DeviceBuffer<std::int32_t> d_in(in), d_out(n);
    DeviceBuffer<std::uint64_t> d_count(1);
    const CompactOptions opt{CompactAlgorithm::SinglePass};
    const std::size_t wb = compact_workspace_bytes<std::int32_t>(n, opt);
    DeviceBuffer<unsigned char> scratch(wb);
    // Zeroed once, then every policy's calls reuse the look-back state (tiles of 64 to 128 bytes
    // a thread: a call publishes fewer or more words than the one before it).
    scandof::clear_workspace(scratch.data(), wb, stream);
    for (int off = 0; off < 2; ++off) {  // off 1: a 4-byte offset input (no 16-byte loads)
      std::vector<std::int32_t> want(n);
      const std::size_t k = compact_gold(in.data() + off, want.data(), n, pred);
      auto check = [&](auto policy, const char* name) {
        SCOPED_TRACE(std::string(name) + " n=" + std::to_string(n) +
                     " offset=" + std::to_string(off));
        d_out.poison(stream);
        detail::compact::run<false, decltype(policy)>(
            "test", d_in.data() + off, d_out.data(), d_count.data(), n,
            detail::compact::PredSelect<LessThan<std::int32_t>>{pred}, false, nullptr,
            scratch.data(), wb, stream, opt);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        ASSERT_EQ(d_count.download(1)[0], k);
        const auto got = d_out.download(n);
        ASSERT_TRUE(test::all_equal(got.data(), want.data(), k));
      };
      using detail::compact::SinglePassPolicy;
      check(detail::compact::DefaultSinglePassPolicy{}, "default");
      check(SinglePassPolicy<64, 194, 39>{}, "64 B");
      check(SinglePassPolicy<96, 194, 39>{}, "96 B");
      check(SinglePassPolicy<128, 0, 0>{}, "unpaced");
      check(SinglePassPolicy<128, 194, 39, 1>{}, "paced from one tile");
    }
  }
}

// The single pass keeps its look-back state in the workspace, one launch a call (compact.hpp):
// one raw workspace, zeroed once, taken by compactions at larger then smaller n (more and fewer
// status words than the call before), by single-pass scans between them (the same header and
// regions), and by calls on two streams in turn; every result checked. A stale word read as
// published would give a wrong count or offset.
TEST(Compact, SinglePassWorkspaceReusedWithoutClearing) {
  SCANDOF_SKIP_WITHOUT_GPU();
  test::Stream s1, s2;
  const std::vector<std::size_t> sizes = test::capped({5000011, 300007, 8193, 1, 8192, 5000011,
                                                        33, 1025, (1u << 20) + 7, 300007});
  std::size_t max_n = 0;
  for (std::size_t n : sizes) max_n = std::max(max_n, n);
  const CompactOptions opt{CompactAlgorithm::SinglePass};
  const std::size_t wb = std::max(compact_workspace_bytes<std::int32_t>(max_n, opt),
                                  scan_workspace_bytes<std::int32_t, Sum>(ScanAlgorithm::SinglePass,
                                                                          max_n));
  DeviceBuffer<unsigned char> ws(wb);
  scandof::clear_workspace(ws.data(), wb, s1);
  DeviceBuffer<std::uint64_t> d_count(1);
  int call = 0;
  for (std::size_t n : sizes) {
    SCOPED_TRACE("call " + std::to_string(call) + " n=" + std::to_string(n));
    cudaStream_t st = call % 2 ? s2.get() : s1.get();
    std::vector<std::int32_t> in(n);
    for (std::size_t i = 0; i < n; ++i)
      in[i] = static_cast<std::int32_t>(test::hash_at(test::derive_seed(41, n + call), i));
    const LessThan<std::int32_t> pred{0};
    std::vector<std::int32_t> want(n);
    const std::size_t k = compact_gold(in.data(), want.data(), n, pred);
    DeviceBuffer<std::int32_t> d_in(in), d_out(n), d_scan(n);
    // The other stream's last call must be done: two calls on one workspace never overlap.
    CUDA_CHECK(cudaDeviceSynchronize());
    d_out.poison(st);
    compact_if(d_in.data(), d_out.data(), d_count.data(), n, pred, ws.data(), wb, st, opt);
    CUDA_CHECK(cudaStreamSynchronize(st));
    ASSERT_EQ(d_count.download(1)[0], k);
    ASSERT_TRUE(test::all_equal(d_out.download(n).data(), want.data(), k));
    // A scan on the same state between compactions.
    d_scan.poison(st);
    scan<std::int32_t, Sum>(ScanAlgorithm::SinglePass, ScanKind::Inclusive, d_in.data(),
                            d_scan.data(), n, Sum{}, 0, ws.data(), wb, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    const auto got = d_scan.download(n);
    std::int32_t run = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run = static_cast<std::int32_t>(static_cast<std::uint32_t>(run) +
                                      static_cast<std::uint32_t>(in[i]));
      bad += got[i] != run;
    }
    ASSERT_EQ(bad, 0u) << "the scan on the compaction's workspace";
    ++call;
  }
}

TEST(Compact, UserStructAndPredicate) {
  SCANDOF_SKIP_WITHOUT_GPU();
  test::Stream stream;
  ScanWorkspace ws;
  for (std::size_t n : test::capped({0, 1, 31, 33, 1025, (1u << 20) + 7, 3000017})) {
    std::vector<Particle> in(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t h = test::hash_at(test::derive_seed(13, n), i);
      in[i] = Particle{static_cast<float>(h & 0xffff) / 65536.f - 0.5f,
                       static_cast<float>((h >> 16) & 0xffff) / 65536.f - 0.5f,
                       static_cast<float>((h >> 32) & 0xffff) / 65536.f - 0.5f,
                       static_cast<std::int32_t>(i)};
    }
    const OutsideRadius pred{0.16f};
    DeviceBuffer<Particle> d_in(in), d_out(n);
    DeviceBuffer<std::uint8_t> no_flags;
    for (Mode mode : {Mode::If, Mode::PartitionIf}) {
      std::vector<Particle> want(n);
      std::size_t k = 0;
      if (mode == Mode::If) {
        for (const auto& p : in)
          if (pred(p)) want[k++] = p;
      } else {
        for (const auto& p : in)
          if (pred(p)) want[k++] = p;
        std::size_t r = k;
        for (const auto& p : in)
          if (!pred(p)) want[r++] = p;
      }
      int oi = 0;
      for (CompactOptions opt : main_options())
        run_and_check("Particle", opt, mode, n, pred, d_in, no_flags, d_out, want, k, ws,
                      oi++ % 2 == 0, stream);
    }
  }
}

// n == 0: no work, the count set to 0, null data allowed. The argument checks run without a
// device in test_validation.cu.
TEST(Compact, ZeroElementsWriteCountZero) {
  SCANDOF_SKIP_WITHOUT_GPU();
  DeviceBuffer<std::uint64_t> c(1);
  const LessThan<float> p{0.5f};
  for (CompactOptions opt : main_options()) {
    c.poison();
    compact_if<float>(nullptr, nullptr, c.data(), 0, p, nullptr, 0, 0, opt);
    EXPECT_EQ(c.download(1)[0], 0u) << to_string(opt.algo);
  }
}

}  // namespace
}  // namespace scandof
