#include "core/dof_path.hpp"

#include <stdexcept>

namespace demo {

const char* to_string(DofRoute r) {
  switch (r) {
    case DofRoute::FragmentGl:
      return "fragment";
    case DofRoute::ComputeGl:
      return "compute (GL)";
    case DofRoute::ComputeCuda:
      return "compute (CUDA)";
    case DofRoute::CpuGold:
      return "cpu";
  }
  return "?";
}

bool dof_view(View v) {
  return v == View::DepthOfField || v == View::Reference || v == View::Error;
}

DofPath choose_dof_path(const Settings& s, const DofCaps& caps) {
  DofPath p;
  const bool on_dof_view = dof_view(s.view);
  const bool compute = s.dof_pass == DofPass::Compute && on_dof_view;
  p.gl_route = compute ? DofRoute::ComputeGl : DofRoute::FragmentGl;
  p.route = p.gl_route;
  // Refused here, so that DofGpu's "cannot do this" means a method it lacks, not bad values.
  try {
    scandof::dof::validate(dof_params(s), s.dof_method);
  } catch (const std::invalid_argument& e) {
    p.message = std::string(e.what()) + "; showing gather/" +
                scandof::dof::to_string(s.dof_shape) + " on the GL pass";
    return p;
  }
  const bool fragment_ok = fragment_can_draw(s);
  if (!on_dof_view || (fragment_ok && !compute)) return p;
  // The two-layer method needs the second layer on the GPU path too; else the CPU gold method.
  const bool cuda_has = !caps.cuda_missing && (!two_layer(s) || caps.cuda_two_layer);
  if (caps.cuda_dof && cuda_has) {
    p.route = DofRoute::ComputeCuda;
    return p;
  }
  if (fragment_ok) return p;  // compute asked for, gather: GL compute draws it
  p.route = DofRoute::CpuGold;
  p.message = std::string(caps.cuda_dof ? "" : "no CUDA: ") +
              "CPU gold method (read back, scandof::dof::render, upload)";
  return p;
}

}  // namespace demo
