// The scan API of a build without CUDA: everything links, nothing runs. scan() checks its
// arguments exactly as the CUDA build does (so bad arguments and n == 0 behave alike), then throws;
// the three-phase workspace query gives the CUDA build's answer; the workspace holds no memory;
// cuda_device_available() says why.
#include <stdexcept>
#include <string>

#include "scandof/block/host_shapes.hpp"
#include "scandof/scan.hpp"

namespace scandof {

namespace {
[[noreturn]] void built_without_cuda(const char* what) {
  throw std::runtime_error(std::string(what) + ": scandof was built without CUDA");
}
}  // namespace

// Single-pass and CUB scratch depends on device code (and CUB asks the device): 0 here.
template <class T, class Op>
std::size_t scan_workspace_bytes(ScanAlgorithm algo, std::size_t n) {
  if (!detail::is_known_algorithm(algo))
    detail::throw_unknown_algorithm("scandof::scan_workspace_bytes", algo);
  if (n == 0 || !block::shape::is_block_algorithm(algo)) return 0;
  return detail::three_phase_workspace_bytes(
      static_cast<std::size_t>(block::shape::tile_items(algo, sizeof(T))), sizeof(T), n);
}

template <class T, class Op>
void scan(ScanAlgorithm algo, ScanKind kind, const T* d_in, T* d_out, std::size_t n, Op, T, void*,
          std::size_t, cudaStream_t, Determinism det) {
  detail::check_scan_arguments(algo, kind, d_in, d_out, n, sizeof(T), det);
  if (n == 0) return;
  built_without_cuda("scandof::scan");
}

#define SCANDOF_INSTANTIATE_SCAN_STUB(T, OP)                                                  \
  template std::size_t scan_workspace_bytes<T, OP>(ScanAlgorithm, std::size_t);               \
  template void scan<T, OP>(ScanAlgorithm, ScanKind, const T*, T*, std::size_t, OP, T, void*, \
                            std::size_t, cudaStream_t, Determinism);
SCANDOF_FOR_EACH_BUILTIN_SCAN(SCANDOF_INSTANTIATE_SCAN_STUB)
#undef SCANDOF_INSTANTIATE_SCAN_STUB

ScanWorkspace::~ScanWorkspace() = default;

// Moves: scan_workspace.cpp (shared with the CUDA build).

void* ScanWorkspace::reserve(std::size_t bytes) {
  if (bytes == 0) return ptr_;
  built_without_cuda("scandof::ScanWorkspace::reserve");
}

void ScanWorkspace::note_use(bool, cudaStream_t) {}

void clear_workspace(void*, std::size_t bytes, cudaStream_t) {
  if (bytes != 0) built_without_cuda("scandof::clear_workspace");
}

bool cuda_device_available(std::string* why_not) {
  if (why_not != nullptr) *why_not = "scandof was built without CUDA";
  return false;
}

}  // namespace scandof
