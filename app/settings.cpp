#include "settings.hpp"

namespace demo {

const char* to_string(View v) {
  switch (v) {
    case View::DepthOfField:
      return "dof";
    case View::Sharp:
      return "sharp";
    case View::CircleOfConfusion:
      return "coc";
    case View::Sat:
      return "sat";
    case View::Split:
      return "split";
  }
  return "?";
}

const char* to_string(SatBackend b) {
  switch (b) {
    case SatBackend::Auto:
      return "auto";
    case SatBackend::Cuda:
      return "cuda";
    case SatBackend::Gl:
      return "gl";
    case SatBackend::Cpu:
      return "cpu";
  }
  return "?";
}

const char* to_string(DofPass p) {
  return p == DofPass::Compute ? "compute" : "fragment";
}

bool Settings::operator==(const Settings& o) const {
  return focus_distance == o.focus_distance && aperture == o.aperture &&
         max_radius == o.max_radius && variant == o.variant && method == o.method &&
         format == o.format && backend == o.backend && dof_pass == o.dof_pass && view == o.view &&
         split == o.split && tessellation == o.tessellation && animate == o.animate &&
         vsync == o.vsync && show_ui == o.show_ui && show_overlay == o.show_overlay &&
         show_help == o.show_help && show_primitives == o.show_primitives &&
         primitives == o.primitives;
}

}  // namespace demo
