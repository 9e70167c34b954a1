// The scan API of a build without CUDA: everything links, nothing runs. scan() throws, the
// workspace holds no memory, and cuda_device_available() says why.
#include <stdexcept>
#include <string>

#include "scandof/scan.hpp"

namespace scandof {

namespace {
[[noreturn]] void built_without_cuda(const char* what) {
  throw std::runtime_error(std::string(what) + ": scandof was built without CUDA");
}
}  // namespace

template <class T, class Op>
std::size_t scan_workspace_bytes(ScanAlgorithm, std::size_t) {
  return 0;
}

template <class T, class Op>
void scan(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, Op, T, void*, std::size_t,
          cudaStream_t) {
  built_without_cuda("scandof::scan");
}

#define SCANDOF_INSTANTIATE_SCAN_STUB(T, OP)                                                  \
  template std::size_t scan_workspace_bytes<T, OP>(ScanAlgorithm, std::size_t);               \
  template void scan<T, OP>(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, OP, T, void*, \
                            std::size_t, cudaStream_t);
SCANDOF_FOR_EACH_BUILTIN_SCAN(SCANDOF_INSTANTIATE_SCAN_STUB)
#undef SCANDOF_INSTANTIATE_SCAN_STUB

ScanWorkspace::~ScanWorkspace() = default;

ScanWorkspace::ScanWorkspace(ScanWorkspace&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
}

ScanWorkspace& ScanWorkspace::operator=(ScanWorkspace&& o) noexcept {
  ptr_ = o.ptr_;
  bytes_ = o.bytes_;
  o.ptr_ = nullptr;
  o.bytes_ = 0;
  return *this;
}

void* ScanWorkspace::reserve(std::size_t bytes) {
  if (bytes == 0) return ptr_;
  built_without_cuda("scandof::ScanWorkspace::reserve");
}

bool cuda_device_available(std::string* why_not) {
  if (why_not != nullptr) *why_not = "scandof was built without CUDA";
  return false;
}

}  // namespace scandof
