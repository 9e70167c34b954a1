// Which pass makes the frame's depth of field, decided once per frame by one pure function of the
// settings and what the SAT backend can do, so the frame (frame/app.cpp) runs the pass it names
// and the unit tests (app/tests/dof_path_test.cpp) can walk every combination without a GL context.
//
// The GL passes (shaders/dof.frag, shaders/dof.comp) draw gather with every shape (round apertures
// only) and, the fragment pass, every debug view; the other methods are scandof::DofGpu's inside the CUDA SAT stage's one map, or the
// CPU gold method (scandof::dof::render on the read-back frame) where no GPU pass draws them.
#pragma once

#include <string>

#include "core/settings.hpp"

namespace demo {

enum class DofRoute {
  FragmentGl,   // shaders/dof.frag (also every debug view but the DoF one)
  ComputeGl,    // shaders/dof.comp after the SAT build (GL backend, CPU fallback)
  ComputeCuda,  // scandof::DofGpu inside the SAT stage's map (CUDA backend)
  CpuGold,      // read back, scandof::dof::render, upload
};
const char* to_string(DofRoute r);  // "fragment", "compute (GL)", "compute (CUDA)", "cpu"

// What the SAT backend offers the DoF pass this frame.
struct DofCaps {
  bool cuda_dof = false;     // the CUDA backend runs: DofGpu can draw inside the SAT map
  bool cuda_missing = false;  // DofGpu said it lacks the settings' method and shape
  bool cuda_two_layer = false;  // DofGpu can spread the second depth layer (two_layer())
};

struct DofPath {
  DofRoute route = DofRoute::FragmentGl;
  // The GL pass that draws instead when the CPU gold method refuses the parameters (the GL passes
  // take any): compute where asked for on the DoF view, else fragment.
  DofRoute gl_route = DofRoute::FragmentGl;
  std::string message;  // why the method does not run where asked (empty: it does)
};

// Debug views drawn over the DoF image (the DoF view itself, the lens reference and the error map)
// take the DoF method; the others (sharp, CoC, SAT, split) are the fragment pass's alone.
bool dof_view(View v);

// The pass for this frame. Parameters no method takes (scandof::dof::validate refuses them) show
// the GL pass's gather of the shape asked for, with the reason; a method the fragment pass cannot draw
// goes to DofGpu where it has it, else to the CPU gold method; the compute pass goes to DofGpu
// when it has the method (it has gather wherever CUDA runs), else to GL compute.
DofPath choose_dof_path(const Settings& s, const DofCaps& caps);

}  // namespace demo
