// ScanWorkspace's moves, the same in builds with and without CUDA. The destructor and reserve()
// are the build-specific parts (scan_runtime.cu frees with cudaFree, scan_nocuda.cpp holds
// nothing); move assignment releases the old buffer through the destructor.
#include <utility>

#include "scandof/scan.hpp"

namespace scandof {

ScanWorkspace::ScanWorkspace(ScanWorkspace&& o) noexcept
    : ptr_(o.ptr_), bytes_(o.bytes_), clean_for_lookback_(o.clean_for_lookback_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
  o.clean_for_lookback_ = true;
}

ScanWorkspace& ScanWorkspace::operator=(ScanWorkspace&& o) noexcept {
  if (this != &o) {
    ScanWorkspace old(std::move(*this));  // frees this buffer when it goes out of scope
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    clean_for_lookback_ = o.clean_for_lookback_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
    o.clean_for_lookback_ = true;
  }
  return *this;
}

}  // namespace scandof
