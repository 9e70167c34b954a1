#include "automation/faults.hpp"

#include <utility>
#include <vector>

namespace demo {

namespace {

// One bit per fault; the soak runs on one thread (the GL thread), as do the hooks.
class ArmedFaults final : public FaultHook {
 public:
  static unsigned bit(Fault f) { return 1u << static_cast<int>(f); }
  bool take(Fault f) override {
    if (always_ & bit(f)) return true;
    if (!(once_ & bit(f))) return false;
    once_ &= ~bit(f);
    return true;
  }
  bool armed(Fault f) const override { return ((once_ | always_) & bit(f)) != 0; }
  void tick(long long frame) override {
    if (at_.empty()) return;  // the common case: one load a frame
    for (auto it = at_.begin(); it != at_.end();) {
      if (it->first == frame) {
        once_ |= bit(it->second);
        it = at_.erase(it);
      } else {
        ++it;
      }
    }
  }
  unsigned once_ = 0, always_ = 0;
  std::vector<std::pair<long long, Fault>> at_;  // (frame, fault) scheduled by arm_fault_at
};

ArmedFaults& armed() {
  static ArmedFaults a;
  install_fault_hook(&a);
  return a;
}

}  // namespace

void arm_fault(Fault f) { armed().once_ |= ArmedFaults::bit(f); }
void arm_fault_always(Fault f) { armed().always_ |= ArmedFaults::bit(f); }
void arm_fault_at(Fault f, long long frame) { armed().at_.emplace_back(frame, f); }

}  // namespace demo
