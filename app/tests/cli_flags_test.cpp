// Every flag of the command line (run/cli.cpp) reaches the one Options / Settings field it names,
// and nothing else: a good value is parsed and the whole Options compared with the defaults plus
// that one edit, so a flag written into a neighbour's field (--f-number into the focal length)
// fails here. One bad value per flag is refused with exit status 2. A flag that `--help` lists and
// this table lacks fails the coverage test, so a new flag arrives with its test.
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cli_test_util.hpp"
#include "run/cli.hpp"

namespace demo {
namespace {

using cli_test::parse;
using cli_test::parse_quiet;

// The names of the Settings fields that differ (the same list as Settings::operator==, so a field
// that operator== forgets shows up as "equal by fields, unequal by operator==" below).
std::string settings_diff(const Settings& a, const Settings& b) {
  std::ostringstream d;
#define SCANDOF_FIELD(f) \
  if (!(a.f == b.f)) d << " " #f;
  SCANDOF_FIELD(focus_distance) SCANDOF_FIELD(aperture) SCANDOF_FIELD(max_radius)
  SCANDOF_FIELD(variant) SCANDOF_FIELD(method) SCANDOF_FIELD(format) SCANDOF_FIELD(backend)
  SCANDOF_FIELD(dof_pass) SCANDOF_FIELD(dof_method) SCANDOF_FIELD(dof_shape)
  SCANDOF_FIELD(disc_boxes) SCANDOF_FIELD(layers) SCANDOF_FIELD(dof_rings)
  SCANDOF_FIELD(dof_radius_offset) SCANDOF_FIELD(dof_blades) SCANDOF_FIELD(dof_blade_rotation)
  SCANDOF_FIELD(dof_bokeh) SCANDOF_FIELD(reference_samples)
  SCANDOF_FIELD(reference_clamp) SCANDOF_FIELD(error_scale) SCANDOF_FIELD(physical)
  SCANDOF_FIELD(lens.focal_length_mm) SCANDOF_FIELD(lens.f_number)
  SCANDOF_FIELD(lens.sensor_width_mm) SCANDOF_FIELD(autofocus) SCANDOF_FIELD(autofocus_teapot)
  SCANDOF_FIELD(focus_speed) SCANDOF_FIELD(anisotropy) SCANDOF_FIELD(msaa)
  SCANDOF_FIELD(scene_shading) SCANDOF_FIELD(view) SCANDOF_FIELD(split) SCANDOF_FIELD(tessellation)
  SCANDOF_FIELD(animate) SCANDOF_FIELD(vsync) SCANDOF_FIELD(show_ui) SCANDOF_FIELD(show_overlay)
  SCANDOF_FIELD(show_help) SCANDOF_FIELD(show_primitives) SCANDOF_FIELD(primitives)
  SCANDOF_FIELD(pipeline) SCANDOF_FIELD(exposure_ev) SCANDOF_FIELD(auto_exposure)
  SCANDOF_FIELD(tone_mapper) SCANDOF_FIELD(highlight) SCANDOF_FIELD(hdr_limit)
  SCANDOF_FIELD(scene_file) SCANDOF_FIELD(scene_camera) SCANDOF_FIELD(scene_focus)
  SCANDOF_FIELD(camera_path) SCANDOF_FIELD(record_dir) SCANDOF_FIELD(record_path_file)
#undef SCANDOF_FIELD
  return d.str();
}

// The fields of Options that differ, settings included.
std::string options_diff(const Options& a, const Options& b) {
  std::ostringstream d;
#define SCANDOF_FIELD(f) \
  if (!(a.f == b.f)) d << " " #f;
  SCANDOF_FIELD(headless) SCANDOF_FIELD(width) SCANDOF_FIELD(height) SCANDOF_FIELD(frames)
  SCANDOF_FIELD(exit_after) SCANDOF_FIELD(out) SCANDOF_FIELD(out_frame) SCANDOF_FIELD(screenshot)
  SCANDOF_FIELD(screenshot_ui) SCANDOF_FIELD(report) SCANDOF_FIELD(dump_sat)
  SCANDOF_FIELD(resources) SCANDOF_FIELD(screenshot_dir) SCANDOF_FIELD(ui_selftest)
  SCANDOF_FIELD(verify) SCANDOF_FIELD(compare) SCANDOF_FIELD(exercise_resize)
  SCANDOF_FIELD(all_variants) SCANDOF_FIELD(primitives) SCANDOF_FIELD(prim_log2)
  SCANDOF_FIELD(quality) SCANDOF_FIELD(all_methods) SCANDOF_FIELD(out_reference)
  SCANDOF_FIELD(method_images) SCANDOF_FIELD(method_sheet) SCANDOF_FIELD(method_gold)
  SCANDOF_FIELD(view_preset) SCANDOF_FIELD(soak)
#undef SCANDOF_FIELD
  const std::string s = settings_diff(a.settings, b.settings);
  if (!s.empty()) d << " settings:" << s;
  if (s.empty() && a.settings != b.settings) d << " settings (a field settings_diff lacks)";
  return d.str();
}

struct FlagCase {
  std::string flag;
  std::vector<std::string> args;  // a good line; "--headless" is put in front unless `window`
  std::function<void(Options&)> expect;  // the defaults' edit that line must make
  std::vector<std::string> bad;          // a line that must be refused (exit 2)
  bool window = false;
};

std::ostream& operator<<(std::ostream& os, const FlagCase& c) { return os << c.flag; }

using S = std::vector<std::string>;
const std::vector<FlagCase>& cases() {
  static const std::vector<FlagCase> k = {
      {"--headless", {}, [](Options&) {}, {"--headless=maybe"}},
      {"--size", {"--size", "321x123"}, [](Options& e) { e.width = 321, e.height = 123; },
       {"--size", "321x"}},
      {"--frames", {"--frames", "7"}, [](Options& e) { e.frames = 7; }, {"--frames", "seven"}},
      {"--exit", {"--frames", "3", "--exit"},
       [](Options& e) { e.frames = 3, e.exit_after = true; }, {"--exit"}, true},
      {"--focus", {"--focus", "7.5"},
       [](Options& e) { e.settings.focus_distance = 7.5f, e.settings.scene_focus = false; },
       {"--focus", "-2"}},
      {"--scene", {"--scene", "x.glb"}, [](Options& e) { e.settings.scene_file = "x.glb"; },
       {"--scene"}},
      {"--scene-camera", {"--scene", "x.glb", "--scene-camera", "2"},
       [](Options& e) { e.settings.scene_file = "x.glb", e.settings.scene_camera = 2; },
       {"--scene", "x.glb", "--scene-camera", "-2"}},
      {"--camera-path", {"--camera-path", "p.json"},
       [](Options& e) { e.settings.camera_path = "p.json"; }, {"--camera-path"}},
      {"--record", {"--record", "frames"}, [](Options& e) { e.settings.record_dir = "frames"; },
       {"--record"}},
      {"--record-path", {"--record-path", "p.json"},
       [](Options& e) { e.settings.record_path_file = "p.json"; },
       {"--headless", "--record-path", "p.json"}, true},
      {"--aperture", {"--aperture", "3.25"}, [](Options& e) { e.settings.aperture = 3.25f; },
       {"--aperture", "3px"}},
      {"--max-radius", {"--max-radius", "9.5"}, [](Options& e) { e.settings.max_radius = 9.5f; },
       {"--max-radius", ""}},
      {"--variant", {"--variant", "warp-shuffle"},
       [](Options& e) { e.settings.variant = scandof::ScanAlgorithm::WarpShuffle; },
       {"--variant", "7"}},
      {"--method", {"--method", "fused-one-pass"},
       [](Options& e) { e.settings.method = scandof::SatMethod::FusedOnePass; },
       {"--method", "fused-three-pass"}},
      {"--format", {"--format", "f32"},
       [](Options& e) { e.settings.format = scandof::SatFormat::F32; }, {"--format", "f64"}},
      {"--view", {"--view", "coc"}, [](Options& e) { e.settings.view = View::CircleOfConfusion; },
       {"--view", "depth"}},
      {"--dof-pass", {"--dof-pass", "fragment"},
       [](Options& e) { e.settings.dof_pass = DofPass::Fragment; }, {"--dof-pass", "cuda"}},
      {"--backend", {"--backend", "gl"}, [](Options& e) { e.settings.backend = SatBackend::Gl; },
       {"--backend", "GL"}},
      {"--cpu", {"--cpu"}, [](Options& e) { e.settings.backend = SatBackend::Cpu; },
       {"--cpu=maybe"}},
      {"--pipeline", {"--pipeline", "ldr"},
       [](Options& e) { e.settings.pipeline = Pipeline::Ldr; }, {"--pipeline", "sdr"}},
      {"--ldr", {"--ldr"}, [](Options& e) { e.settings.pipeline = Pipeline::Ldr; },
       {"--ldr=maybe"}},
      {"--exposure", {"--exposure", "-2.5"}, [](Options& e) { e.settings.exposure_ev = -2.5f; },
       {"--exposure", "21"}},
      {"--auto-exposure", {"--auto-exposure", "off"},
       [](Options& e) { e.settings.auto_exposure = false; }, {"--auto-exposure", "no"}},
      {"--tonemap", {"--tonemap", "agx"},
       [](Options& e) { e.settings.tone_mapper = scandof::ToneMapper::AgX; },
       {"--tonemap", "filmic"}},
      {"--highlight", {"--highlight", "8"}, [](Options& e) { e.settings.highlight = 8; },
       {"--highlight", "-1"}},
      {"--hdr-limit", {"--hdr-limit", "500"}, [](Options& e) { e.settings.hdr_limit = 500; },
       {"--hdr-limit", "0"}},
      {"--dof", {"--dof", "layered"},
       [](Options& e) { e.settings.dof_method = scandof::dof::Method::Layered; },
       {"--dof", "scatter"}},
      {"--shape", {"--shape", "disc"},
       [](Options& e) { e.settings.dof_shape = scandof::dof::Shape::Disc; },
       {"--shape", "hexagon"}},
      {"--disc-k", {"--disc-k", "7"}, [](Options& e) { e.settings.disc_boxes = 7; },
       {"--disc-k", "2.5"}},
      {"--dof-rings", {"--dof-rings", "5"}, [](Options& e) { e.settings.dof_rings = 5; },
       {"--dof-rings", "9"}},
      {"--dof-radius-offset", {"--dof-radius-offset", "0"},
       [](Options& e) { e.settings.dof_radius_offset = 0.0f; }, {"--dof-radius-offset", "1.5"}},
      {"--dof-blades", {"--dof-blades", "6"}, [](Options& e) { e.settings.dof_blades = 6; },
       {"--dof-blades", "4"}},
      {"--dof-blade-rotation", {"--dof-blade-rotation", "15"},
       [](Options& e) { e.settings.dof_blade_rotation = 15.0f; }, {"--dof-blade-rotation", "400"}},
      {"--dof-bokeh", {"--dof-bokeh", "1.5"}, [](Options& e) { e.settings.dof_bokeh = 1.5f; },
       {"--dof-bokeh", "-1"}},
      {"--layers", {"--layers", "5"}, [](Options& e) { e.settings.layers = 5; },
       {"--layers", "0x5"}},
      {"--dof-layers", {"--dof-layers", "2"}, [](Options& e) { e.settings.dof_layers = 2; },
       {"--dof-layers", "3"}},
      {"--dof-oracle", {"--dof-oracle"}, [](Options& e) { e.settings.dof_oracle = true; },
       {"--dof-oracle=maybe"}},
      {"--reference", {"--reference", "32"},
       [](Options& e) { e.settings.reference_samples = 32, e.quality = true; },
       {"--reference", "-4"}},
      {"--quality", {"--quality"}, [](Options& e) { e.quality = true; }, {"--quality=maybe"}},
      {"--reference-unclamped", {"--reference-unclamped"},
       [](Options& e) { e.settings.reference_clamp = false; }, {"--reference-unclamped=maybe"}},
      {"--out-reference", {"--out-reference", "ref.png"},
       [](Options& e) { e.out_reference = "ref.png"; }, {"--out-reference"}},
      {"--all-methods", {"--all-methods"}, [](Options& e) { e.all_methods = true; },
       {"--all-methods=maybe"}},
      {"--method-images", {"--method-images", "imgs"},
       [](Options& e) { e.method_images = "imgs"; }, {"--method-images"}},
      {"--method-sheet", {"--method-sheet", "sheet.png"},
       [](Options& e) { e.method_sheet = "sheet.png"; }, {"--method-sheet"}},
      {"--method-gold", {"--method-images", "imgs", "--method-gold"},
       [](Options& e) { e.method_images = "imgs", e.method_gold = true; }, {"--method-gold"}},
      {"--view-preset", {"--view-preset", "focus8"},
       [](Options& e) {
         e.view_preset = "focus8", e.settings.animate = false, e.settings.focus_distance = 8;
       },
       {"--view-preset", "far-blur"}},
      {"--physical", {"--physical"}, [](Options& e) { e.settings.physical = true; },
       {"--physical=maybe"}},
      {"--focal-length", {"--focal-length", "85"},
       [](Options& e) { e.settings.lens.focal_length_mm = 85; }, {"--focal-length", "-50"}},
      {"--f-number", {"--f-number", "1.4"}, [](Options& e) { e.settings.lens.f_number = 1.4f; },
       {"--f-number", "0"}},
      {"--sensor-width", {"--sensor-width", "23.6"},
       [](Options& e) { e.settings.lens.sensor_width_mm = 23.6f; }, {"--sensor-width", "inf"}},
      {"--autofocus", {"--autofocus", "teapot"},
       [](Options& e) { e.settings.autofocus = Autofocus::Teapot; }, {"--autofocus", "center"}},
      {"--focus-teapot", {"--focus-teapot", "3"},
       [](Options& e) { e.settings.autofocus_teapot = 3; }, {"--focus-teapot", "red"}},
      {"--focus-speed", {"--focus-speed", "2.5"},
       [](Options& e) { e.settings.focus_speed = 2.5f; }, {"--focus-speed", "-1"}},
      {"--anisotropy", {"--anisotropy", "4"}, [](Options& e) { e.settings.anisotropy = 4; },
       {"--anisotropy", "0"}},
      {"--scene-shading", {"--scene-shading", "forward"},
       [](Options& e) { e.settings.scene_shading = SceneShading::Forward; },
       {"--scene-shading", "Forward"}},
      {"--msaa", {"--msaa", "8"}, [](Options& e) { e.settings.msaa = 8; }, {"--msaa", "4x"}},
      {"--no-animate", {"--no-animate"}, [](Options& e) { e.settings.animate = false; },
       {"--no-animate=maybe"}},
      {"--no-vsync", {"--no-vsync"}, [](Options& e) { e.settings.vsync = false; },
       {"--no-vsync=maybe"}},
      {"--tess", {"--tess", "17"}, [](Options& e) { e.settings.tessellation = 17; },
       {"--tess", "99999999999"}},
      {"--out", {"--out", "o.png"}, [](Options& e) { e.out = "o.png"; }, {"--out"}},
      {"--out-frame", {"--out-frame", "f.png"}, [](Options& e) { e.out_frame = "f.png"; },
       {"--out-frame"}},
      {"--screenshot", {"--frames", "2", "--screenshot", "s.png"},
       [](Options& e) { e.frames = 2, e.screenshot = "s.png"; }, {"--screenshot"}, true},
      {"--screenshot-ui", {"--screenshot-ui", "ui.png"},
       [](Options& e) { e.screenshot_ui = "ui.png"; }, {"--screenshot-ui"}},
      {"--report", {"--report", "r.json"}, [](Options& e) { e.report = "r.json"; }, {"--report"}},
      {"--all-variants", {"--all-variants"}, [](Options& e) { e.all_variants = true; },
       {"--all-variants=maybe"}},
      {"--dump-sat", {"--dump-sat", "sat.npy"}, [](Options& e) { e.dump_sat = "sat.npy"; },
       {"--dump-sat"}},
      {"--verify", {"--verify"}, [](Options& e) { e.verify = true; }, {"--verify=maybe"}},
      {"--compare", {"--compare"}, [](Options& e) { e.compare = true; }, {"--compare=maybe"}},
      {"--exercise-resize", {"--exercise-resize"}, [](Options& e) { e.exercise_resize = true; },
       {"--exercise-resize=maybe"}, true},
      {"--primitives", {"--primitives"}, [](Options& e) { e.primitives = true; },
       {"--primitives=maybe"}},
      {"--prim-size", {"--prim-size", "2^12"},
       [](Options& e) { e.prim_log2 = 12, e.settings.primitives.log2_n = 12; },
       {"--prim-size", "4096.0"}},
      {"--screenshot-dir", {"--screenshot-dir", "shots"},
       [](Options& e) { e.screenshot_dir = "shots"; }, {"--screenshot-dir"}, true},
      {"--ui-selftest", {"--ui-selftest"}, [](Options& e) { e.ui_selftest = true; },
       {"--ui-selftest=maybe"}, true},
      {"--resources", {"--resources", "res"}, [](Options& e) { e.resources = "res"; },
       {"--resources"}},
      {"--soak", {"--soak", "90.5"}, [](Options& e) { e.soak.on = true, e.soak.seconds = 90.5; },
       {"--soak", "inf"}},
      {"--soak-frames", {"--soak-frames", "2000"},
       [](Options& e) { e.soak.on = true, e.soak.frames = 2000; }, {"--soak-frames", "0"}},
      {"--soak-switch", {"--soak-switch", "7"}, [](Options& e) { e.soak.switch_every = 7; },
       {"--soak-switch", "0"}},
      {"--soak-resize", {"--soak-resize", "33"}, [](Options& e) { e.soak.resize_every = 33; },
       {"--soak-resize", "-1"}},
      {"--soak-seed", {"--soak-seed", "42"}, [](Options& e) { e.soak.seed = 42; },
       {"--soak-seed", "x"}},
      {"--soak-verify", {"--soak-verify", "3"}, [](Options& e) { e.soak.verify_every = 3; },
       {"--soak-verify", "0"}},
      {"--soak-flat-limit", {"--soak-flat-limit", "2.5"},
       [](Options& e) { e.soak.flat_limit = 0.025; }, {"--soak-flat-limit", "0"}},
      {"--soak-backends", {"--soak-backends", "cuda,gl"},
       [](Options& e) { e.soak.backends = {SatBackend::Cuda, SatBackend::Gl}; },
       {"--soak-backends", "cuda,vulkan"}},
      {"--soak-vary", {"--soak-vary", "backend,size"},
       [](Options& e) { e.soak.vary = kVaryBackend | kVarySize; }, {"--soak-vary", "colour"}},
      {"--inject-fault", {"--inject-fault", "no-gl-compute"},
       [](Options& e) { e.soak.faults = {Fault::NoGlCompute}; },
       {"--inject-fault", "huge-resize"}},  // refused: fires during a soak only
  };
  return k;
}

class CliFlag : public ::testing::TestWithParam<FlagCase> {};

TEST_P(CliFlag, ReachesItsFieldAndNothingElse) {
  const FlagCase& c = GetParam();
  S args = c.args;
  Options want;
  if (!c.window) {
    args.insert(args.begin(), "--headless");
    want.headless = true;
    want.frames = 60;
  }
  c.expect(want);
  Options got;
  ASSERT_EQ(parse(args, &got), -1) << c.flag;
  const std::string d = options_diff(got, want);
  EXPECT_TRUE(d.empty()) << c.flag << " differs from what it should set in:" << d;
}

TEST_P(CliFlag, BadValueRefused) {
  const FlagCase& c = GetParam();
  S args = c.bad;
  if (!c.window) args.insert(args.begin(), "--headless");
  EXPECT_EQ(parse_quiet(args), kExitBadArguments) << c.flag;
}

INSTANTIATE_TEST_SUITE_P(EveryFlag, CliFlag, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<FlagCase>& i) {
                           std::string n;
                           for (char ch : i.param.flag)
                             if (std::isalnum(static_cast<unsigned char>(ch))) n += ch;
                           return n;
                         });

// Every flag `--help` names (options and those its texts mention) has a case above, and every case
// is a flag --help names.
TEST(CliFlags, TableCoversHelp) {
  Options o;
  testing::internal::CaptureStdout();
  ASSERT_EQ(parse({"--help"}, &o), 0);
  const std::string help = testing::internal::GetCapturedStdout();
  std::set<std::string> listed;
  const std::regex flag("--[a-z][a-z0-9-]*");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), flag); it != std::sregex_iterator();
       ++it)
    listed.insert(it->str());
  listed.erase("--help");
  std::set<std::string> tested;
  for (const FlagCase& c : cases()) tested.insert(c.flag);
  for (const std::string& f : listed) EXPECT_TRUE(tested.count(f)) << f << " has no case";
  for (const std::string& f : tested) EXPECT_TRUE(listed.count(f)) << f << " is not in --help";
  EXPECT_GE(listed.size(), 50u);
}

// The named flags take every name their enum has, each reaching its own value.
TEST(CliFlags, EveryNameReachesItsValue) {
  auto one = [](const std::string& flag, const std::string& name) {
    Options o;
    EXPECT_EQ(parse({"--headless", flag, name}, &o), -1) << flag << " " << name;
    return o.settings;
  };
  // Every value of an enum with `count` values, named as its to_string names it, reaches `field`.
  auto every = [&](const char* flag, int count, auto field) {
    using E = std::decay_t<decltype(Settings{}.*field)>;
    for (int i = 0; i < count; ++i) {
      const auto e = static_cast<E>(i);
      EXPECT_EQ(one(flag, to_string(e)).*field, e) << flag << " " << i;
    }
  };
  every("--variant", scandof::kNumScanAlgorithms, &Settings::variant);
  every("--method", scandof::kNumSatMethods, &Settings::method);
  every("--view", kNumViews, &Settings::view);
  every("--dof-pass", kNumDofPasses, &Settings::dof_pass);
  every("--backend", kNumSatBackends, &Settings::backend);
  every("--autofocus", kNumAutofocus, &Settings::autofocus);
  every("--dof", 3, &Settings::dof_method);
  every("--pipeline", kNumPipelines, &Settings::pipeline);
  for (auto m : {scandof::ToneMapper::Aces, scandof::ToneMapper::AgX, scandof::ToneMapper::Reinhard})
    EXPECT_EQ(one("--tonemap", scandof::to_string(m)).tone_mapper, m);
  every("--shape", 3, &Settings::dof_shape);
  for (auto f : {scandof::SatFormat::U32, scandof::SatFormat::F32})
    EXPECT_EQ(one("--format", scandof::to_string(f)).format, f);
  for (auto m : {SceneShading::Auto, SceneShading::Deferred, SceneShading::Forward})
    EXPECT_EQ(one("--scene-shading", to_string(m)).scene_shading, m);
}

// Range ends: the largest and smallest accepted values arrive unchanged.
TEST(CliFlags, RangeEndsAccepted) {
  struct End {
    S args;
    std::function<bool(const Options&)> ok;
  };
  const std::vector<End> ends = {
      {{"--tess", "1"}, [](const Options& o) { return o.settings.tessellation == 1; }},
      {{"--tess", "64"}, [](const Options& o) { return o.settings.tessellation == 64; }},
      {{"--msaa", "1"}, [](const Options& o) { return o.settings.msaa == 1; }},
      {{"--msaa", "16"}, [](const Options& o) { return o.settings.msaa == 16; }},
      {{"--layers", "2"}, [](const Options& o) { return o.settings.layers == 2; }},
      {{"--layers", "8"}, [](const Options& o) { return o.settings.layers == 8; }},
      {{"--disc-k", "1"}, [](const Options& o) { return o.settings.disc_boxes == 1; }},
      {{"--disc-k", "8"}, [](const Options& o) { return o.settings.disc_boxes == 8; }},
      {{"--reference", "1"}, [](const Options& o) { return o.settings.reference_samples == 1; }},
      {{"--reference", "65536"},
       [](const Options& o) { return o.settings.reference_samples == 65536; }},
      {{"--focus-teapot", "0"}, [](const Options& o) { return o.settings.autofocus_teapot == 0; }},
      {{"--focus-teapot", "4"}, [](const Options& o) { return o.settings.autofocus_teapot == 4; }},
      {{"--anisotropy", "1"}, [](const Options& o) { return o.settings.anisotropy == 1; }},
      {{"--aperture", "0"}, [](const Options& o) { return o.settings.aperture == 0; }},
      {{"--max-radius", "0"}, [](const Options& o) { return o.settings.max_radius == 0; }},
      {{"--prim-size", "10"}, [](const Options& o) { return o.prim_log2 == 10; }},
      {{"--prim-size", "1073741824"}, [](const Options& o) { return o.prim_log2 == 30; }},
      {{"--frames", "9223372036854775807"},
       [](const Options& o) { return o.frames == 9223372036854775807LL; }},
      {{"--size", "1x16384"}, [](const Options& o) { return o.width == 1 && o.height == 16384; }},
  };
  for (const End& e : ends) {
    S args = e.args;
    args.insert(args.begin(), "--headless");
    Options o;
    ASSERT_EQ(parse(args, &o), -1) << args[1] << " " << args[2];
    EXPECT_TRUE(e.ok(o)) << args[1] << " " << args[2];
  }
}

// Flags combine without disturbing each other; a value flag given twice is refused, not
// silently the first or the last.
TEST(CliFlags, CombinedLine) {
  EXPECT_EQ(parse_quiet({"--headless", "--size", "64x48", "--size", "80x60"}), kExitBadArguments);
  EXPECT_EQ(parse_quiet({"--headless", "--focus", "3", "--focus", "4"}), kExitBadArguments);
  Options o;
  ASSERT_EQ(parse({"--headless", "--size", "80x60", "--physical",
                   "--focal-length", "35", "--f-number", "4", "--sensor-width", "24", "--focus",
                   "3", "--cpu", "--msaa", "2", "--tess", "5", "--format", "f32"},
                  &o),
            -1);
  EXPECT_EQ(o.width, 80);
  EXPECT_EQ(o.height, 60);
  EXPECT_TRUE(o.settings.physical);
  EXPECT_EQ(o.settings.lens, (PhysicalCamera{35, 4, 24}));
  EXPECT_EQ(o.settings.focus_distance, 3.0f);
  EXPECT_EQ(o.settings.backend, SatBackend::Cpu);
  EXPECT_EQ(o.settings.msaa, 2);
  EXPECT_EQ(o.settings.tessellation, 5);
  EXPECT_EQ(o.settings.format, scandof::SatFormat::F32);
}

// A switch given a false value ("--cpu=false", CLI11's flag syntax) does not switch.
TEST(CliFlags, FalseValuedSwitchesDoNothing) {
  for (const char* v : {"false", "0", "no", "off"}) {
    Options o;
    const std::string eq = std::string("=") + v;
    ASSERT_EQ(parse({"--headless", "--cpu" + eq, "--physical" + eq, "--no-animate" + eq,
                     "--no-vsync" + eq, "--reference-unclamped" + eq, "--verify" + eq},
                    &o),
              -1)
        << v;
    const std::string d = options_diff(o, [] {
      Options e;
      e.headless = true;
      e.frames = 60;
      return e;
    }());
    EXPECT_TRUE(d.empty()) << v << ":" << d;
  }
}

// --view-preset wall: the camera square to the back wall, focus 10 unless --focus says otherwise,
// still scene; headless only, and --method-gold only with --method-images.
TEST(CliFlags, WallPresetAndMethodGoldNeedTheirCompanions) {
  Options o;
  ASSERT_EQ(parse({"--headless", "--view-preset", "wall"}, &o), -1);
  EXPECT_EQ(o.view_preset, "wall");
  EXPECT_EQ(o.settings.focus_distance, 10.0f);
  EXPECT_FALSE(o.settings.animate);
  EXPECT_EQ(parse_quiet({"--view-preset", "wall"}), kExitBadArguments);
  EXPECT_EQ(parse_quiet({"--headless", "--method-gold"}), kExitBadArguments);
}

}  // namespace
}  // namespace demo
