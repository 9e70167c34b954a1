#include "automation/faults.hpp"

#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "scandof/scan.hpp"
#if SCANDOF_WITH_CUDA
#include <cuda_runtime_api.h>

#include "scandof/cuda_check.hpp"
#endif

namespace demo {

namespace {
// One bit per fault; the soak runs on one thread (the GL thread), as do the hooks.
unsigned g_once = 0, g_always = 0;
unsigned bit(Fault f) { return 1u << static_cast<int>(f); }
std::vector<std::pair<long long, Fault>> g_at;  // (frame, fault) scheduled by arm_fault_at
}  // namespace

void arm_fault_at(Fault f, long long frame) { g_at.emplace_back(frame, f); }
void tick_faults(long long frame) {
  if (g_at.empty()) return;  // the common case: one load a frame
  for (auto it = g_at.begin(); it != g_at.end();) {
    if (it->first == frame) {
      arm_fault(it->second);
      it = g_at.erase(it);
    } else {
      ++it;
    }
  }
}

void arm_fault(Fault f) { g_once |= bit(f); }
void arm_fault_always(Fault f) { g_always |= bit(f); }
bool fault_armed(Fault f) { return ((g_once | g_always) & bit(f)) != 0; }
bool take_fault(Fault f) {
  if (g_always & bit(f)) return true;
  if (!(g_once & bit(f))) return false;
  g_once &= ~bit(f);
  return true;
}

void fail_allocation() {
#if SCANDOF_WITH_CUDA
  if (scandof::cuda_device_available()) {
    void* p = nullptr;
    try {
      // 1 PiB: fails on every device, through the one check macro (scandof::CudaError naming
      // cudaErrorMemoryAllocation).
      CUDA_CHECK(cudaMalloc(&p, std::size_t(1) << 50));
    } catch (...) {
      cudaGetLastError();  // a failed allocation is not sticky; leave no error for later checks
      throw;
    }
    cudaFree(p);
    throw std::runtime_error("injected allocation failure: a 1 PiB cudaMalloc succeeded");
  }
#endif
  throw std::bad_alloc();
}

}  // namespace demo
