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

bool Settings::operator==(const Settings& o) const {
  return focus_distance == o.focus_distance && aperture == o.aperture &&
         max_radius == o.max_radius && variant == o.variant && method == o.method &&
         format == o.format && force_cpu == o.force_cpu && view == o.view && split == o.split &&
         tessellation == o.tessellation && animate == o.animate && vsync == o.vsync &&
         show_ui == o.show_ui && show_overlay == o.show_overlay && show_help == o.show_help &&
         show_primitives == o.show_primitives && primitives == o.primitives;
}

}  // namespace demo
