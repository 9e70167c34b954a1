// RAII device memory for hosts programs (tests, benchmarks, the demo, scantool). Plain cudaMalloc,
// no initialisation: callers poison or fill it themselves, so an untouched element is never
// mistaken for a computed zero. Needs the CUDA runtime headers (CUDA builds only).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "scandof/cuda_check.hpp"

namespace scandof {
namespace util {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { resize(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }

  // Drops the old contents. cudaMalloc/cudaFree synchronize the device, so size buffers before
  // timing, never inside a timed loop.
  void resize(std::size_t count) {
    if (count == n_) return;
    release();
    if (count) {
      void* p = nullptr;  // cuda_runtime_api.h has only the void** overload in host compilers
      CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
      p_ = static_cast<T*>(p);
    }
    n_ = count;
  }
  void release() noexcept {
    if (p_) cudaFree(p_);  // a destructor must not throw; a failed free is not actionable
    p_ = nullptr, n_ = 0;
  }

  T* get() const { return p_; }
  T* data() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }
  bool empty() const { return n_ == 0; }

  void upload(const T* host, std::size_t count, cudaStream_t s = nullptr) {
    if (count) CUDA_CHECK(cudaMemcpyAsync(p_, host, count * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(T* host, std::size_t count, cudaStream_t s = nullptr) const {
    if (count) CUDA_CHECK(cudaMemcpyAsync(host, p_, count * sizeof(T), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
  }
  // Fills every byte with `byte` (0xA5 by default): a poison that is neither 0 nor a small value.
  void poison(cudaStream_t s = nullptr, int byte = 0xA5) {
    if (n_) CUDA_CHECK(cudaMemsetAsync(p_, byte, bytes(), s));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace util
}  // namespace scandof
