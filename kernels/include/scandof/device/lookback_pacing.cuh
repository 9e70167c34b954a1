// Look-back pacing from the device, not from one GPU's nanoseconds (host side).
//
// A tile that has published its aggregate sleeps before its first poll and between polls, so its
// polls do not meet predecessors that are still loading and add L2 round trips to the data
// stream. How long the predecessors take scales with one "wave": the bytes every resident tile
// reads and writes, over the device's memory bandwidth. The waits are therefore fractions of a
// wave, and a wave is worked out once per device (and per kernel, for its residency) from what
// the device reports: SM count, memory clock and bus width, and the occupancy of the kernel.
// The same fractions then give about 3 us on the H100 and 2.3 us on the H200 (whose bandwidth is
// 1.4x), the optimum each showed in its own sweep (bench/tune_single_pass.cu --pacing).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>
#include <unordered_map>

#include <cuda_runtime.h>

#include "scandof/cuda_check.hpp"
#include "scandof/device/tile_status.cuh"

namespace scandof {
namespace detail {
namespace lookback {

struct DeviceRate {
  double bytes_per_ns = 0;  // peak DRAM bandwidth (0: the device does not say)
  int sms = 0;
};

// The current device's rate, asked of the runtime once per device.
inline DeviceRate device_rate() {
  static std::mutex m;
  static std::unordered_map<int, DeviceRate> cache;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(m);
  const auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int clock_khz = 0, bus_bits = 0, sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  // Either attribute may be 0 where the device hides it (some virtualized parts).
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess) {
    cudaGetLastError();
    clock_khz = bus_bits = 0;
  }
  DeviceRate r;
  r.sms = sms;
  r.bytes_per_ns = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) * 1e-9;  // double data rate
  cache.emplace(dev, r);
  return r;
}

// Resident blocks per SM of `kernel` at `threads` per block on the current device, asked once per
// device and kernel.
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel, int threads) {
  static std::mutex m;
  static std::map<std::pair<int, const void*>, int> cache;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const std::pair<int, const void*> key{dev, reinterpret_cast<const void*>(kernel)};
  std::lock_guard<std::mutex> lock(m);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
  cache.emplace(key, blocks);
  return blocks;
}

// Blocks of `kernel` the device holds at once.
template <class Kernel>
std::size_t resident_tiles(Kernel kernel, int threads) {
  return std::size_t(device_rate().sms) * resident_blocks_per_sm(kernel, threads);
}

// One wave in ns: every resident tile's bytes (read + written) over the bandwidth.
inline double wave_ns(std::size_t tile_bytes, int blocks_per_sm, const DeviceRate& r) {
  if (r.bytes_per_ns <= 0) return 0;
  return double(r.sms) * blocks_per_sm * double(tile_bytes) / r.bytes_per_ns;
}

// Waits as thousandths of a wave.
inline LookbackDelays paced_delays(double wave, unsigned first_permille, unsigned spin_permille) {
  return LookbackDelays{static_cast<unsigned>(wave * first_permille / 1000.0),
                        static_cast<unsigned>(wave * spin_permille / 1000.0)};
}

}  // namespace lookback
}  // namespace detail
}  // namespace scandof
