// Where an injected fault (--inject-fault, core/soak_options.hpp) takes effect inside the frame:
// the code at that moment (App::resize, SatStage's choice of backend, the lens reference's sample
// loop, the free-memory check of a resize) asks take_fault(), and the answer comes from the hook
// the automation layer installs (automation/faults.*) when a run arms a fault. Without a hook
// nothing strikes: each question costs one load of the hook pointer.
#pragma once

#include <stdexcept>

#include "core/soak_options.hpp"

namespace demo {

// What the automation layer answers for the frame (automation/faults.cpp implements it).
class FaultHook {
 public:
  virtual ~FaultHook() = default;
  virtual bool take(Fault f) = 0;         // armed? (disarms a one-shot fault)
  virtual bool armed(Fault f) const = 0;  // armed, without taking it
  virtual void tick(long long frame) = 0;  // frame `frame` (from 1) begins
};

// Installs `h` for the rest of the run (nullptr: none); the hook must outlive its use.
void install_fault_hook(FaultHook* h);

// Whether `f` is armed now; disarms a one-shot fault. False without a hook.
bool take_fault(Fault f);
bool fault_armed(Fault f);
// Called as each frame begins (App::frame): arms what was scheduled for it.
void tick_faults(long long frame);

// The lens reference stopped before its last sample (--inject-fault reference-cancel, half-way):
// nothing of it is kept, the next use renders it from the start.
class ReferenceCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace demo
