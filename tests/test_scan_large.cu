// The past-2^31 case: a uint32 Sum scan of n = 2^31 + 1000 elements (8.6 GB in + 8.6 GB out) with
// SinglePass, Cub and one three-phase variant (Optimized), exclusive and inclusive. Any 32-bit
// index or tile-offset computation fails here and nowhere else.
//
// Checked on the GPU, every element, without a reference array: the input is a hash of (seed, i),
// recomputed by the checker, and out is an exclusive scan exactly when out[0] = 0 and
// out[i] = out[i-1] + x[i-1] for every i >= 1 (inclusive: out[0] = x[0], out[i] = out[i-1] + x[i]);
// uint32 addition wraps, so the induction holds exactly. The same pass checks that the input was
// not modified. Independently, the host sums the hashes on all cores and checks out[] at 2^31 - 1,
// 2^31, 2^31 + 1 and the last element. Skips when the device has too little free memory.
//
// SCANDOF_TEST_LARGE_N overrides n; SCANDOF_TEST_MAX_N below n skips (sanitizer runs).
#include <atomic>
#include <cstdint>
#include <iostream>
#include <map>
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/scan.hpp"
#include "test_util.hpp"

namespace {

using scandof::ScanAlgorithm;
using scandof::ScanKind;
using scandof::Sum;
namespace t = scandof::test;

constexpr std::size_t kDefaultN = (std::size_t(1) << 31) + 1000;
constexpr std::size_t kBackGuard = 8192;  // elements after out[n-1] that must stay poisoned

std::size_t large_n() {
  return static_cast<std::size_t>(t::env_u64("SCANDOF_TEST_LARGE_N", kDefaultN));
}

__host__ __device__ inline std::uint32_t value_at(std::uint64_t seed, std::uint64_t i) {
  const std::uint32_t v = static_cast<std::uint32_t>(t::hash_at(seed, i));
  return v != 0 ? v : 1u;  // never zero
}

__global__ void fill_kernel(std::uint32_t* in, unsigned long long n, std::uint64_t seed) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < n; i += stride)
    in[i] = value_at(seed, i);
}

struct LargeCheck {
  t::Mismatches out;           // elements breaking the recurrence
  t::Mismatches in;            // input elements that changed
  unsigned long long checked;  // elements visited (must equal n: proves the loop covers all)
};

__global__ void verify_kernel(const std::uint32_t* in, const std::uint32_t* out,
                              unsigned long long n, std::uint64_t seed, bool inclusive,
                              LargeCheck* res) {
  unsigned long long bad = 0, first = ~0ull, bad_in = 0, first_in = ~0ull, seen = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < n; i += stride) {
    ++seen;
    const std::uint32_t x = value_at(seed, i);
    if (in[i] != x) {
      ++bad_in;
      first_in = min(first_in, i);
    }
    std::uint32_t want;
    if (i == 0) {
      want = inclusive ? x : 0u;
    } else {
      want = out[i - 1] + (inclusive ? x : value_at(seed, i - 1));
    }
    if (out[i] != want) {
      ++bad;
      first = min(first, i);
    }
  }
  atomicAdd(&res->checked, seen);
  if (bad != 0) {
    atomicAdd(&res->out.count, bad);
    atomicMin(&res->out.first, first);
  }
  if (bad_in != 0) {
    atomicAdd(&res->in.count, bad_in);
    atomicMin(&res->in.first, first_in);
  }
}

struct LargeParam {
  ScanAlgorithm algo;
  ScanKind kind;
};

void PrintTo(const LargeParam& p, std::ostream* os) {
  *os << t::algo_name(p.algo) << " " << t::kind_name(p.kind);
}

class ScanLarge : public ::testing::TestWithParam<LargeParam> {
 public:
  static void TearDownTestSuite() {
    in_.reset();
    out_.reset();
    ws_.reset();
    host_prefix_.clear();
  }

 protected:
  static constexpr std::uint64_t seed() { return 0x1A26E5CA; }

  void SetUp() override {
    SCANDOF_SKIP_WITHOUT_GPU();
    n_ = large_n();
    if (n_ < 2) GTEST_SKIP() << "SCANDOF_TEST_LARGE_N must be at least 2";
    if (n_ > t::max_test_n())
      GTEST_SKIP() << "n = " << n_ << " is above SCANDOF_TEST_MAX_N = " << t::max_test_n();
    if (in_ && in_->size() == n_) return;  // already set up by an earlier parameter
    in_.reset();
    out_.reset();
    ws_.reset();
    std::size_t ws_bytes = 0;
    for (ScanAlgorithm a :
         {ScanAlgorithm::SinglePass, ScanAlgorithm::Cub, ScanAlgorithm::Optimized})
      ws_bytes = std::max(ws_bytes, scandof::scan_workspace_bytes<std::uint32_t, Sum>(a, n_));
    const std::size_t need =
        (2 * n_ + kBackGuard) * sizeof(std::uint32_t) + ws_bytes + (std::size_t(256) << 20);
    std::size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (free_b < need)
      GTEST_SKIP() << "needs " << need / 1e9 << " GB of device memory for n = " << n_ << ", only "
                   << free_b / 1e9 << " GB of " << total_b / 1e9 << " GB free";
    in_ = std::make_unique<t::DeviceBuffer<std::uint32_t>>(n_);
    out_ = std::make_unique<t::DeviceBuffer<std::uint32_t>>(n_ + kBackGuard);
    ws_ = std::make_unique<scandof::ScanWorkspace>();
    ws_->reserve(ws_bytes);
    fill_kernel<<<4096, 256>>>(in_->data(), n_, seed());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::size_t> ks = {0, 1, n_ - 1, n_};
    for (std::size_t k : {(std::size_t(1) << 31) - 1, std::size_t(1) << 31,
                          (std::size_t(1) << 31) + 1, (std::size_t(1) << 31) + 2})
      if (k < n_) ks.push_back(k);
    host_prefix_ = host_prefixes(ks);
  }

  // Exclusive prefix sums P(k) = x[0] + ... + x[k-1] (mod 2^32) for every k in `ks`, summed on
  // the host on all cores, independently of every kernel here: one pass, segment by segment.
  static std::map<std::size_t, std::uint32_t> host_prefixes(std::vector<std::size_t> ks) {
    std::sort(ks.begin(), ks.end());
    std::map<std::size_t, std::uint32_t> res;
    std::size_t at = 0;
    std::uint32_t sum = 0;
    for (std::size_t k : ks) {
      std::atomic<std::uint32_t> acc{0};
      t::parallel_for(
          k - at,
          [&](std::size_t b, std::size_t e) {
            std::uint32_t s = 0;
            for (std::size_t i = at + b; i < at + e; ++i) s += value_at(seed(), i);
            acc.fetch_add(s);
          },
          std::size_t(1) << 22);
      sum += acc.load();
      at = k;
      res[k] = sum;
    }
    return res;
  }

  static LargeCheck verify(std::size_t n, bool incl) {
    LargeCheck init{};
    init.out.first = init.in.first = ~0ull;
    LargeCheck* d_res = nullptr;
    CUDA_CHECK(cudaMalloc(&d_res, sizeof(LargeCheck)));
    CUDA_CHECK(cudaMemcpy(d_res, &init, sizeof(init), cudaMemcpyHostToDevice));
    verify_kernel<<<8192, 256>>>(in_->data(), out_->data(), n, seed(), incl, d_res);
    CUDA_CHECK_LAUNCH();
    LargeCheck res{};
    CUDA_CHECK(cudaMemcpy(&res, d_res, sizeof(res), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_res));
    return res;
  }

  std::size_t n_ = 0;
  inline static std::unique_ptr<t::DeviceBuffer<std::uint32_t>> in_, out_;
  inline static std::unique_ptr<scandof::ScanWorkspace> ws_;
  inline static std::map<std::size_t, std::uint32_t> host_prefix_;
};

TEST_P(ScanLarge, Uint32SumEveryElement) {
  const LargeParam p = GetParam();
  const std::size_t n = n_;
  const bool incl = p.kind == ScanKind::Inclusive;
  std::ostringstream name;
  name << t::algo_name(p.algo) << " uint32 Sum " << t::kind_name(p.kind) << " n=" << n;

  out_->poison(0, n + kBackGuard);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  scandof::scan(p.algo, p.kind, in_->data(), out_->data(), n, Sum{}, *ws_);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::cout << "[ info ] " << name.str() << ": " << ms << " ms, "
            << 2.0 * n * sizeof(std::uint32_t) / (ms * 1e6) << " GB/s (one cold run)\n";

  const LargeCheck res = verify(n, incl);

  EXPECT_EQ(res.checked, n) << "the checker did not visit every element";
  EXPECT_EQ(res.in.count, 0u) << name.str() << ": modified its input, first at [" << res.in.first
                              << "]";
  if (res.out.count > 0) {
    const std::size_t i = res.out.first;
    ADD_FAILURE() << name.str() << ": " << res.out.count
                  << " elements break the recurrence, first [" << i
                  << "] = " << t::fetch_element(out_->data(), i)
                  << (i > 0 ? ", previous " + std::to_string(t::fetch_element(out_->data(), i - 1))
                            : std::string())
                  << (i >= (std::size_t(1) << 31) ? " (past 2^31)" : "");
  }
  t::MismatchCounter cnt;
  const t::Mismatches guard = cnt.unpoisoned(out_->data() + n, kBackGuard * sizeof(std::uint32_t));
  EXPECT_EQ(guard.count, 0u) << name.str() << ": wrote past out[n-1]";

  // Independent spot checks from host sums.
  std::vector<std::size_t> ks = {0, n - 1};
  for (std::size_t k :
       {(std::size_t(1) << 31) - 1, std::size_t(1) << 31, (std::size_t(1) << 31) + 1})
    if (k < n) ks.push_back(k);
  std::vector<std::size_t> prefix_at;
  for (std::size_t k : ks) prefix_at.push_back(incl ? k + 1 : k);
  for (std::size_t j = 0; j < ks.size(); ++j) {
    ASSERT_EQ(host_prefix_.count(prefix_at[j]), 1u) << prefix_at[j];
    EXPECT_EQ(t::fetch_element(out_->data(), ks[j]), host_prefix_.at(prefix_at[j]))
        << name.str() << " at [" << ks[j] << "] (host sum)";
  }

  // The checker itself can fail: one element off by one past 2^31 breaks the recurrence at that
  // element and the next one.
  if (res.out.count == 0) {
    const std::size_t i = std::min(n - 2, (std::size_t(1) << 31) + 5);
    const std::uint32_t v = t::fetch_element(out_->data(), i) + 1u;
    CUDA_CHECK(cudaMemcpy(out_->data() + i, &v, sizeof(v), cudaMemcpyHostToDevice));
    const LargeCheck broken = verify(n, incl);
    EXPECT_EQ(broken.out.count, 2u) << "the recurrence check missed a corrupted element";
    EXPECT_EQ(broken.out.first, i);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Large, ScanLarge,
    ::testing::Values(LargeParam{ScanAlgorithm::SinglePass, ScanKind::Exclusive},
                      LargeParam{ScanAlgorithm::SinglePass, ScanKind::Inclusive},
                      LargeParam{ScanAlgorithm::Cub, ScanKind::Exclusive},
                      LargeParam{ScanAlgorithm::Cub, ScanKind::Inclusive},
                      LargeParam{ScanAlgorithm::Optimized, ScanKind::Exclusive},
                      LargeParam{ScanAlgorithm::Optimized, ScanKind::Inclusive}),
    [](const ::testing::TestParamInfo<LargeParam>& info) {
      return std::string(t::algo_name(info.param.algo)) + "_" + t::kind_name(info.param.kind);
    });

}  // namespace
