// Where an injected fault (--inject-fault, automation/soak_options.hpp) takes effect inside the
// frame: the soak arms a fault just before the moment it should strike, and the code at that moment
// (App::resize, SatStage's choice of backend, the lens reference's sample loop, the free-memory
// check of a resize) takes it, once. Nothing is armed unless a flag asked: each hook costs one
// load of a flag word.
#pragma once

#include <stdexcept>
#include <string>

#include "automation/soak_options.hpp"

namespace demo {

// Arms `f` (one-shot: the next take() of it returns true and disarms it).
void arm_fault(Fault f);
// Arms `f` for the whole run (no-gl-compute: every SatStage made from now on sees no GL compute).
void arm_fault_always(Fault f);
// Whether `f` is armed; disarms a one-shot fault.
bool take_fault(Fault f);
bool fault_armed(Fault f);
// Arms `f` (one-shot) when frame `frame` (counting from 1) begins: tick_faults(frame) arms it.
void arm_fault_at(Fault f, long long frame);
// Called as each frame begins (App::frame): arms what was scheduled for it.
void tick_faults(long long frame);

// The lens reference stopped before its last sample (--inject-fault reference-cancel, half-way):
// nothing of it is kept, the next use renders it from the start.
class ReferenceCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// --inject-fault alloc@resize: the allocation the SAT stage makes for a new size fails. On a
// usable CUDA device a real cudaMalloc of 2^50 bytes is made and fails through the project's
// CUDA_CHECK (scandof::CudaError, cudaErrorMemoryAllocation; the error is not sticky and is
// cleared); elsewhere a host allocation failure (std::bad_alloc) is thrown. Never returns.
[[noreturn]] void fail_allocation();

}  // namespace demo
