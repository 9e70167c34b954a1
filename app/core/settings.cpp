#include "core/settings.hpp"

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
    case View::Reference:
      return "reference";
    case View::Error:
      return "error";
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

const char* to_string(Pipeline p) {
  return p == Pipeline::Hdr ? "hdr" : "ldr";
}

float table_value_scale(const Settings& s) {
  if (!hdr(s)) return 1.0f / 255.0f;
  if (s.format == scandof::SatFormat::F32) return 1.0f;
  return 1.0f / static_cast<float>(1u << fixed_point(s).frac_bits);
}

const char* to_string(DofPass p) {
  return p == DofPass::Compute ? "compute" : "fragment";
}

const char* to_string(SceneShading m) {
  switch (m) {
    case SceneShading::Deferred: return "deferred";
    case SceneShading::Forward: return "forward";
    default: return "auto";
  }
}

scandof::dof::Params dof_params(const Settings& s) {
  // In Params' field order; the spread border keeps its default.
  return {s.aperture,   s.focus_distance, s.max_radius,
          s.dof_shape,  s.disc_boxes,     s.layers,
          scandof::dof::SpreadBorder::Reflect, s.dof_rings, s.dof_radius_offset,
          s.dof_blades, s.dof_blade_rotation, bokeh_threshold(s)};
}

SettingsChange changes(const Settings& was, const Settings& now) {
  SettingsChange c;
  c.sat_format = now.format != was.format;
  c.tessellation = now.tessellation != was.tessellation;
  c.anisotropy = now.anisotropy != was.anisotropy;
  c.msaa = now.msaa != was.msaa;
  c.scene_shading = now.scene_shading != was.scene_shading;
  c.backend = now.backend != was.backend;
  c.pipeline = now.pipeline != was.pipeline;
  c.scene = now.scene_file != was.scene_file || now.scene_camera != was.scene_camera;
  return c;
}

const char* to_string(Autofocus a) {
  switch (a) {
    case Autofocus::Off:
      return "off";
    case Autofocus::Cursor:
      return "cursor";
    case Autofocus::Centre:
      return "centre";
    case Autofocus::Teapot:
      return "teapot";
  }
  return "?";
}

bool Settings::operator==(const Settings& o) const {
  return focus_distance == o.focus_distance && aperture == o.aperture &&
         max_radius == o.max_radius && variant == o.variant && method == o.method &&
         format == o.format && backend == o.backend && dof_pass == o.dof_pass && view == o.view &&
         split == o.split && tessellation == o.tessellation && animate == o.animate &&
         vsync == o.vsync && show_ui == o.show_ui && show_overlay == o.show_overlay &&
         show_help == o.show_help && show_primitives == o.show_primitives &&
         primitives == o.primitives && dof_method == o.dof_method && dof_shape == o.dof_shape &&
         disc_boxes == o.disc_boxes && layers == o.layers && dof_rings == o.dof_rings &&
         dof_layers == o.dof_layers && dof_oracle == o.dof_oracle &&
         dof_radius_offset == o.dof_radius_offset && dof_blades == o.dof_blades &&
         dof_blade_rotation == o.dof_blade_rotation && dof_bokeh == o.dof_bokeh &&
         reference_samples == o.reference_samples && reference_clamp == o.reference_clamp &&
         error_scale == o.error_scale && physical == o.physical && lens == o.lens &&
         autofocus == o.autofocus && autofocus_teapot == o.autofocus_teapot &&
         focus_speed == o.focus_speed && anisotropy == o.anisotropy && msaa == o.msaa &&
         scene_shading == o.scene_shading && pipeline == o.pipeline &&
         exposure_ev == o.exposure_ev && auto_exposure == o.auto_exposure &&
         tone_mapper == o.tone_mapper && highlight == o.highlight && hdr_limit == o.hdr_limit &&
         scene_file == o.scene_file && scene_camera == o.scene_camera &&
         scene_focus == o.scene_focus && camera_path == o.camera_path &&
         record_dir == o.record_dir && record_path_file == o.record_path_file;
}

}  // namespace demo
