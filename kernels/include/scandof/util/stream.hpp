// RAII CUDA stream and event, and a query of the current device's name and sizes. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "scandof/cuda_check.hpp"

namespace scandof {
namespace util {

class Stream {
 public:
  // Non-blocking: work on it does not serialize with the legacy default stream.
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }
  void sync() const { CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() {
    if (e_) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      if (e_) cudaEventDestroy(e_);
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  cudaEvent_t get() const { return e_; }
  void record(cudaStream_t s = nullptr) { CUDA_CHECK(cudaEventRecord(e_, s)); }
  // True once the GPU has passed the event; never waits.
  bool done() const {
    const cudaError_t err = cudaEventQuery(e_);
    if (err == cudaErrorNotReady) return false;
    CUDA_CHECK(err);
    return true;
  }
  void sync() const { CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Milliseconds from `start` to this event. Waits for this event: use it off the hot path, or
  // after done() says so.
  float since(const Event& start) const {
    sync();
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

struct DeviceInfo {
  std::string name;
  int ordinal = 0, sm_count = 0, cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0, global_bytes = 0;
  int driver_version = 0, runtime_version = 0;
};

inline DeviceInfo current_device() {
  DeviceInfo d;
  CUDA_CHECK(cudaGetDevice(&d.ordinal));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, d.ordinal));
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_bytes = p.totalGlobalMem;
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

// "13.0" from CUDA's integer version 13000.
inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace util
}  // namespace scandof
