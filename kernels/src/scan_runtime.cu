// ScanWorkspace and the device probe: the host-side runtime pieces of the scan API.
#include <stdexcept>
#include <string>

#include "scandof/cuda_check.hpp"
#include "scandof/scan.hpp"

namespace scandof {

ScanWorkspace::~ScanWorkspace() {
  if (ptr_ != nullptr) cudaFree(ptr_);  // no throw from a destructor; a failure here is moot
}

// Moves: scan_workspace.cpp (shared with the build without CUDA).

void* ScanWorkspace::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return ptr_;
  // Free first: the contents are scratch, and holding both would raise the peak for large n.
  if (ptr_ != nullptr) {
    void* old = ptr_;
    ptr_ = nullptr;
    bytes_ = 0;
    CUDA_CHECK(cudaFree(old));
  }
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  ptr_ = p;
  bytes_ = bytes;
  // Synchronous like the allocation: a workspace comes out of reserve() ready for a look-back.
  CUDA_CHECK(cudaMemset(ptr_, 0, bytes_));
  clean_for_lookback_ = true;
  return ptr_;
}

void ScanWorkspace::note_use(bool lookback, cudaStream_t stream) {
  if (!lookback) {
    clean_for_lookback_ = false;
    return;
  }
  if (!clean_for_lookback_) clear_workspace(ptr_, bytes_, stream);
  clean_for_lookback_ = true;
}

void clear_workspace(void* d_workspace, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (d_workspace == nullptr)
    throw std::invalid_argument("scandof::clear_workspace: null workspace with bytes > 0");
  CUDA_CHECK(cudaMemsetAsync(d_workspace, 0, bytes, stream));
}

namespace {
// Its only purpose is to ask whether this binary carries code the current GPU can run.
__global__ void probe_kernel() {}
}  // namespace

bool cuda_device_available(std::string* why_not) {
  auto fail = [&](const std::string& why) {
    if (why_not != nullptr) *why_not = why;
    return false;
  };
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // leave no error behind for the caller's next check
    return fail(std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err));
  }
  if (count == 0) return fail("no CUDA device found");
  // A GPU older or newer than the compiled architectures (and no PTX to JIT) fails every launch;
  // report that here rather than as a failure in the first kernel.
  cudaFuncAttributes attr;
  err = cudaFuncGetAttributes(&attr, probe_kernel);
  if (err != cudaSuccess) {
    cudaGetLastError();
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    return fail("this build has no kernel code for the GPU (compute capability " +
                std::to_string(major) + "." + std::to_string(minor) +
                "): " + cudaGetErrorString(err));
  }
  if (why_not != nullptr) why_not->clear();
  return true;
}

}  // namespace scandof
