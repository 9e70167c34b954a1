// The consumer of scandof as a package: scan, compaction, radix sort and a summed-area table of a
// small image on the GPU, each compared with the library's CPU reference. Without a CUDA device
// (or in a build without CUDA) it says so, runs the CPU references against hand-computed values
// and exits 0; SCANDOF_REQUIRE_GPU=1 makes a missing device a failure.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/compact.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"
#include "scandof/sort.hpp"

#if SCANDOF_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {
int failures = 0;
void check(bool ok, const char* what) {
  std::printf("  %-44s %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

// Test data: n pseudo-random values (xorshift, fixed seed) and a w x h RGBA8 image.
std::vector<std::int32_t> make_values(std::size_t n) {
  std::vector<std::int32_t> v(n);
  std::uint32_t s = 12345u;
  for (auto& x : v) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    x = static_cast<std::int32_t>(s % 2001u) - 1000;
  }
  return v;
}
std::vector<std::uint8_t> make_image(int w, int h) {
  std::vector<std::uint8_t> px(4u * w * h);
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<std::uint8_t>((i * 37u) % 251u);
  return px;
}

// The CPU references against values worked out by hand: what runs on a machine without a GPU.
void cpu_checks() {
  const std::int32_t in[5] = {3, -1, 4, -1, 5};
  std::int32_t out[5];
  scandof::scan_gold(scandof::ScanKind::Exclusive, in, out, 5, scandof::Sum{});
  const std::int32_t ex[5] = {0, 3, 2, 6, 5};
  check(std::memcmp(out, ex, sizeof ex) == 0, "scan_gold exclusive sum");

  std::int32_t kept[5];
  const std::size_t k = scandof::compact_gold(in, kept, 5, scandof::LessThan<std::int32_t>{0});
  check(k == 2 && kept[0] == -1 && kept[1] == -1, "compact_gold x < 0");

  const std::uint32_t keys[6] = {9, 2, 7, 2, 0, 4000000000u};
  std::uint32_t sorted[6];
  scandof::sort_keys_gold(keys, sorted, 6);
  const std::uint32_t want[6] = {0, 2, 2, 7, 9, 4000000000u};
  check(std::memcmp(sorted, want, sizeof want) == 0, "sort_keys_gold uint32");

  // 2 x 2 image, R = 1 2 / 3 4: the R plane of the table is 1 3 / 4 10.
  const std::uint8_t img[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
  std::uint32_t sat[12];
  scandof::sat_gold(img, 2, 2, sat, 3);
  check(sat[0] == 1 && sat[1] == 3 && sat[2] == 4 && sat[3] == 10, "sat_gold 2x2 R plane");
}

#if SCANDOF_WITH_CUDA
template <class T>
T* to_device(const std::vector<T>& h) {
  void* d = nullptr;
  cudaMalloc(&d, h.size() * sizeof(T) + 1);
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return static_cast<T*>(d);
}
template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

void gpu_checks() {
  const std::size_t n = 100000;  // several tiles of every variant, still a millisecond
  const auto values = make_values(n);
  scandof::ScanWorkspace ws;
  std::int32_t* d_in = to_device(values);
  std::int32_t* d_out = to_device(std::vector<std::int32_t>(n));

  std::vector<std::int32_t> gold(n);
  scandof::scan_gold(scandof::ScanKind::Inclusive, values.data(), gold.data(), n, scandof::Sum{});
  scandof::scan(scandof::ScanAlgorithm::SinglePass, scandof::ScanKind::Inclusive, d_in, d_out, n,
                scandof::Sum{}, ws);
  check(to_host(d_out, n) == gold, "scan single-pass inclusive sum == scan_gold");

  const scandof::LessThan<std::int32_t> negative{0};
  std::vector<std::int32_t> kept_gold(n);
  kept_gold.resize(scandof::compact_gold(values.data(), kept_gold.data(), n, negative));
  const std::size_t kept = scandof::compact_if(d_in, d_out, n, negative, ws);
  check(kept == kept_gold.size() && to_host(d_out, kept) == kept_gold,
        "compact_if x < 0 == compact_gold");

  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint32_t>(values[i]) * 2654435761u;
  std::vector<std::uint32_t> sorted_gold(n);
  scandof::sort_keys_gold(keys.data(), sorted_gold.data(), n);
  std::uint32_t* d_keys = to_device(keys);
  std::uint32_t* d_sorted = to_device(std::vector<std::uint32_t>(n));
  scandof::sort_keys(scandof::SortAlgorithm::Lsd, d_keys, d_sorted, n, ws);
  check(to_host(d_sorted, n) == sorted_gold, "sort_keys LSD uint32 == sort_keys_gold");

  const int w = 300, h = 200;  // not multiples of any tile size
  const auto img = make_image(w, h);
  std::vector<std::uint32_t> sat_gold(3u * w * h);
  scandof::sat_gold(img.data(), w, h, sat_gold.data(), 3);
  std::uint8_t* d_img = to_device(img);
  void* d_sat_raw = nullptr;
  cudaMalloc(&d_sat_raw, scandof::SatBuilder::table_bytes(w, h, 3));
  auto* d_sat = static_cast<std::uint32_t*>(d_sat_raw);
  scandof::SatInput sin;
  sin.pixels = d_img;
  sin.pitch_bytes = 4u * w;
  sin.width = w;
  sin.height = h;
  scandof::SatBuilder builder;
  builder.build(sin, d_sat, scandof::SatFormat::U32, scandof::SatMethod::Fused,
                scandof::ScanAlgorithm::SinglePass);
  check(to_host(d_sat, sat_gold.size()) == sat_gold, "SAT fused u32 300x200 == sat_gold");
  const cudaError_t err = cudaDeviceSynchronize();
  check(err == cudaSuccess, "no CUDA error");

  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_out), static_cast<void*>(d_keys),
                  static_cast<void*>(d_sorted), static_cast<void*>(d_img),
                  static_cast<void*>(d_sat)})
    cudaFree(p);
}
#endif
}  // namespace

int main() {
  std::printf("scandof consumer (%s)\nCPU references:\n", CONSUMER_MODE);
  cpu_checks();
  std::string why;
  if (scandof::cuda_device_available(&why)) {
#if SCANDOF_WITH_CUDA
    std::printf("GPU:\n");
    try {
      gpu_checks();
    } catch (const std::exception& e) {
      std::printf("  exception: %s\n", e.what());
      ++failures;
    }
#endif
  } else {
    const char* req = std::getenv("SCANDOF_REQUIRE_GPU");
    if (req && *req && std::strcmp(req, "0") != 0) {
      std::printf("FAILED: SCANDOF_REQUIRE_GPU is set but no CUDA device is usable: %s\n",
                  why.c_str());
      return 1;
    }
    std::printf("GPU checks skipped: no CUDA device (%s); CPU references checked only\n",
                why.c_str());
  }
  std::printf(failures ? "consumer: %d check(s) FAILED\n" : "consumer: all checks passed\n",
              failures);
  return failures ? 1 : 0;
}
