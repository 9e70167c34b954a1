// Arming injected faults (--inject-fault, core/soak_options.hpp): the soak arms a fault just before
// the moment it should strike, and the frame's code takes it there, once (core/faults.hpp asks).
// The first arm installs this layer's hook; nothing is installed unless a flag asked.
#pragma once

#include "core/faults.hpp"

namespace demo {

// Arms `f` (one-shot: the next take_fault(f) returns true and disarms it).
void arm_fault(Fault f);
// Arms `f` for the whole run (no-gl-compute: every SatStage made from now on sees no GL compute).
void arm_fault_always(Fault f);
// Arms `f` (one-shot) when frame `frame` (counting from 1) begins: tick_faults(frame) arms it.
void arm_fault_at(Fault f, long long frame);

}  // namespace demo
