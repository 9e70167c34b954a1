// LSD radix sort of n = 2^31 + 1000 uint32 keys (past 2^31: 64-bit indexing, 32-bit offsets up
// to their limit) and of n = 2^32 + 1000 (64-bit positions), the latter also with every key in one
// top digit (a digit count past 2^32). Checked on the GPU: the output is non-decreasing and has the
// same multiset fingerprint as the input (count, sum, sum of squares and sum of a hash, all mod
// 2^64), the last also in the small-tiles shape. Skipped when the device lacks the memory (~27 GB
// and ~52 GB free).
#include <gtest/gtest.h>

#include <cstdint>

#include "scandof/device/sort_lsd.cuh"  // SmallTilesPolicy
#include "scandof/sort.hpp"
#include "test_util.hpp"

namespace scandof {
namespace {

// top < 256: every key's top byte is `top` (one digit holds all n keys in the last pass).
__global__ void fill_keys(std::uint32_t* p, std::uint64_t n, int top) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const auto k = static_cast<std::uint32_t>(test::hash_at(77, i));
    p[i] = top < 256 ? (k & 0x00FFFFFFu) | (static_cast<std::uint32_t>(top) << 24) : k;
  }
}

// res[0..2]: sum, sum of squares, sum of mix64; res[3]: order violations.
__global__ void fingerprint(const std::uint32_t* p, std::uint64_t n, bool check_order,
                            unsigned long long* res) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long s = 0, q = 0, h = 0, bad = 0;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned long long x = p[i];
    s += x;
    q += x * x;
    h += test::mix64(x);
    if (check_order && i + 1 < n) bad += p[i] > p[i + 1];
  }
  atomicAdd(res, s);
  atomicAdd(res + 1, q);
  atomicAdd(res + 2, h);
  atomicAdd(res + 3, bad);
}

// small_tiles: the sort's shape for GPUs with little shared memory per block
// (detail::lsd::SmallTilesPolicy), here with 64-bit positions.
void check_large_sort(std::uint64_t n, int top, bool small_tiles = false) {
  std::size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t need =
      2 * n * 4 + sort_keys_workspace_bytes<std::uint32_t>(SortAlgorithm::Lsd, n) + (1ull << 28);
  if (free_b < need)
    GTEST_SKIP() << "needs ~" << (need >> 30) << " GiB of free device memory, has "
                 << (free_b >> 30) << " GiB";
  test::DeviceBuffer<std::uint32_t> in(n), out(n);
  test::DeviceBuffer<unsigned long long> a(4), b(4);
  fill_keys<<<4096, 256>>>(in.data(), n, top);
  CUDA_CHECK_LAUNCH();
  out.poison();
  if (small_tiles) {
    using NoValue = detail::lsd::NoValue;
    const std::size_t wb = detail::lsd::workspace_bytes<std::uint32_t, NoValue, false>(n);
    test::DeviceBuffer<unsigned char> scratch(wb);
    detail::lsd::sort<std::uint32_t, NoValue, false,
                      detail::lsd::SmallTilesPolicy<std::uint32_t, false>>(
        in.data(), out.data(), nullptr, nullptr, n, scratch.data(), wb, nullptr, 0, 32);
    CUDA_CHECK(cudaDeviceSynchronize());
  } else {
    ScanWorkspace ws;
    sort_keys(SortAlgorithm::Lsd, in.data(), out.data(), n, ws);
  }
  CUDA_CHECK(cudaMemset(a.data(), 0, 32));
  CUDA_CHECK(cudaMemset(b.data(), 0, 32));
  fingerprint<<<4096, 256>>>(in.data(), n, false, a.data());
  fingerprint<<<4096, 256>>>(out.data(), n, true, b.data());
  CUDA_CHECK_LAUNCH();
  const auto fa = a.download(4), fb = b.download(4);
  EXPECT_EQ(fb[3], 0u) << "adjacent pairs out of order";
  EXPECT_EQ(fa[0], fb[0]);
  EXPECT_EQ(fa[1], fb[1]);
  EXPECT_EQ(fa[2], fb[2]);
}

TEST(SortLarge, LsdPastTwoToThe31) {
  SCANDOF_SKIP_WITHOUT_GPU();
  check_large_sort((std::uint64_t(1) << 31) + 1000, 256);
}

TEST(SortLarge, LsdPastTwoToThe32) {
  SCANDOF_SKIP_WITHOUT_GPU();
  check_large_sort((std::uint64_t(1) << 32) + 1000, 256);
}

TEST(SortLarge, LsdPastTwoToThe32OneTopDigit) {
  SCANDOF_SKIP_WITHOUT_GPU();
  check_large_sort((std::uint64_t(1) << 32) + 1000, 0x5A);
}

TEST(SortLarge, LsdPastTwoToThe32SmallTiles) {
  SCANDOF_SKIP_WITHOUT_GPU();
  check_large_sort((std::uint64_t(1) << 32) + 1000, 256, /*small_tiles=*/true);
}

}  // namespace
}  // namespace scandof
