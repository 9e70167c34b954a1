#include "core/faults.hpp"

namespace demo {

namespace {
FaultHook* g_hook = nullptr;  // the GL thread's; the soak and the hooks run on it alone
}  // namespace

void install_fault_hook(FaultHook* h) { g_hook = h; }
bool take_fault(Fault f) { return g_hook && g_hook->take(f); }
bool fault_armed(Fault f) { return g_hook && g_hook->armed(f); }
void tick_faults(long long frame) {
  if (g_hook) g_hook->tick(frame);
}

}  // namespace demo
