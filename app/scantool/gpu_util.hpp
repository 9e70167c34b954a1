// Small RAII helpers for the subcommands' GPU paths (device buffers, timing). Only meaningful in
// CUDA builds; every user wraps its GPU path in `#if SCANDOF_WITH_CUDA`.
#pragma once

#if SCANDOF_WITH_CUDA
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"

namespace scantool {

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    if (n == 0) return;
    void* p = nullptr;  // cuda_runtime_api.h has only the void** overload
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    p_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);  // no throwing from a destructor; a failed free is not actionable here
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s = 0) { CUDA_CHECK(cudaEventRecord(e_, s)); }
  // Milliseconds from `start` to this event; synchronizes on this event.
  float since(const Event& start) const {
    CUDA_CHECK(cudaEventSynchronize(e_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

inline std::string current_device_name() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  return p.name;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace scantool
#endif  // SCANDOF_WITH_CUDA
