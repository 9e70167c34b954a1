// What a change of Settings triggers (core/settings.hpp: changes(), read by App::apply_settings)
// and that operator== sees every field, so a widget's edit always reaches the frame.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/settings.hpp"

namespace demo {
namespace {

using Edit = std::function<void(Settings&)>;

TEST(SettingsChange, NoneWhenEqual) {
  const Settings s;
  EXPECT_FALSE(changes(s, s).any());
  EXPECT_TRUE(s == Settings{});
}

TEST(SettingsChange, EachRebuildingFieldTriggersItsOwnRebuildOnly) {
  const std::vector<std::pair<Edit, bool SettingsChange::*>> cases = {
      {[](Settings& s) { s.format = scandof::SatFormat::F32; }, &SettingsChange::sat_format},
      {[](Settings& s) { s.tessellation = 3; }, &SettingsChange::tessellation},
      {[](Settings& s) { s.anisotropy = 2; }, &SettingsChange::anisotropy},
      {[](Settings& s) { s.msaa = 4; }, &SettingsChange::msaa},
      {[](Settings& s) { s.scene_shading = SceneShading::Forward; },
       &SettingsChange::scene_shading},
      {[](Settings& s) { s.backend = SatBackend::Cpu; }, &SettingsChange::backend},
      {[](Settings& s) { s.pipeline = Pipeline::Ldr; }, &SettingsChange::pipeline},
  };
  const bool SettingsChange::*all[] = {&SettingsChange::sat_format, &SettingsChange::tessellation,
                                       &SettingsChange::anisotropy, &SettingsChange::msaa,
                                       &SettingsChange::scene_shading, &SettingsChange::backend,
                                       &SettingsChange::pipeline};
  for (const auto& [edit, flag] : cases) {
    Settings now;
    edit(now);
    const SettingsChange c = changes(Settings{}, now);
    EXPECT_TRUE(c.*flag);
    EXPECT_TRUE(c.any());
    for (auto other : all)
      if (other != flag) EXPECT_FALSE(c.*other);
    EXPECT_NE(now, Settings{});
  }
}

// Fields read afresh each frame: they differ (the frame sees the edit) but rebuild nothing.
TEST(SettingsChange, PerFrameFieldsRebuildNothingButCompareUnequal) {
  const std::vector<Edit> edits = {
      [](Settings& s) { s.focus_distance = 7; },
      [](Settings& s) { s.exposure_ev = 1.5f; },
      [](Settings& s) { s.auto_exposure = false; },
      [](Settings& s) { s.tone_mapper = scandof::ToneMapper::Reinhard; },
      [](Settings& s) { s.highlight = 2; },
      [](Settings& s) { s.hdr_limit = 64; },
      [](Settings& s) { s.aperture = 3; },
      [](Settings& s) { s.max_radius = 8; },
      [](Settings& s) { s.variant = scandof::ScanAlgorithm::Naive; },
      [](Settings& s) { s.method = scandof::SatMethod::Fused; },
      [](Settings& s) { s.dof_pass = DofPass::Fragment; },
      [](Settings& s) { s.dof_method = scandof::dof::Method::Spread; },
      [](Settings& s) { s.dof_shape = scandof::dof::Shape::Disc; },
      [](Settings& s) { s.disc_boxes = 2; },
      [](Settings& s) { s.layers = 5; },
      [](Settings& s) { s.reference_samples = 16; },
      [](Settings& s) { s.reference_clamp = false; },
      [](Settings& s) { s.error_scale = 0.2f; },
      [](Settings& s) { s.physical = true; },
      [](Settings& s) { s.lens.f_number = 8; },
      [](Settings& s) { s.autofocus = Autofocus::Centre; },
      [](Settings& s) { s.autofocus_teapot = 3; },
      [](Settings& s) { s.focus_speed = 1; },
      [](Settings& s) { s.view = View::Sat; },
      [](Settings& s) { s.split = 0.25f; },
      [](Settings& s) { s.animate = false; },
      [](Settings& s) { s.vsync = false; },
      [](Settings& s) { s.show_ui = false; },
      [](Settings& s) { s.show_overlay = false; },
      [](Settings& s) { s.show_help = true; },
      [](Settings& s) { s.show_primitives = true; },
      [](Settings& s) { s.primitives.log2_n = 12; },
  };
  for (std::size_t i = 0; i < edits.size(); ++i) {
    Settings now;
    edits[i](now);
    EXPECT_NE(now, Settings{}) << "edit " << i;
    EXPECT_FALSE(changes(Settings{}, now).any()) << "edit " << i;
  }
}

TEST(SettingsChange, SeveralAtOnce) {
  Settings now;
  now.msaa = 2;
  now.backend = SatBackend::Gl;
  now.aperture = 1;
  const SettingsChange c = changes(Settings{}, now);
  EXPECT_TRUE(c.msaa && c.backend);
  EXPECT_FALSE(c.sat_format || c.tessellation || c.anisotropy || c.scene_shading);
}

TEST(Settings, DofParamsCarryTheLensAndShape) {
  Settings s;
  s.aperture = 5;
  s.focus_distance = 9;
  s.max_radius = 11;
  s.dof_shape = scandof::dof::Shape::Octagon;
  s.disc_boxes = 6;
  s.layers = 4;
  const scandof::dof::Params p = dof_params(s);
  EXPECT_EQ(p.aperture_px, 5);
  EXPECT_EQ(p.focus, 9);
  EXPECT_EQ(p.max_radius, 11);
  EXPECT_EQ(p.shape, scandof::dof::Shape::Octagon);
  EXPECT_EQ(p.disc_boxes, 6);
  EXPECT_EQ(p.layers, 4);
  EXPECT_EQ(p.border, scandof::dof::Params{}.border);
}

}  // namespace
}  // namespace demo
