// The DoF path choice (core/dof_path.hpp) over every parameter the methods may refuse, not only a
// negative aperture (dof_path_test.cpp): NaN and infinite values, the focus at or behind the lens,
// k and K out of range, and the radius the spreading methods cannot sum (refused for spread and
// layered, taken by gather). Validity is spelled out here from scandof/dof.hpp's documented
// limits, per method; and the settings that are not the DoF's leave the choice alone.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/dof_path.hpp"

namespace demo {
namespace {

using scandof::dof::Method;
using scandof::dof::Shape;

bool params_ok(const Settings& s) {
  auto finite_ge0 = [](float v) { return std::isfinite(v) && v >= 0; };
  return finite_ge0(s.aperture) && std::isfinite(s.focus_distance) && s.focus_distance > 0 &&
         finite_ge0(s.max_radius) && s.disc_boxes >= 1 && s.disc_boxes <= 8 &&
         (s.dof_method != Method::Layered || (s.layers >= 2 && s.layers <= 8)) &&
         (s.dof_method == Method::Gather || s.max_radius <= 256.0f);
}

DofRoute oracle(const Settings& s, const DofCaps& c) {
  const bool on_dof = s.view == View::DepthOfField || s.view == View::Reference ||
                      s.view == View::Error;
  const bool compute = s.dof_pass == DofPass::Compute && on_dof;
  const bool ok = params_ok(s);
  // The GL passes draw gather with every shape (round apertures).
  const bool gather_box = s.dof_method == Method::Gather && s.dof_blades == 0;
  if (!ok || !on_dof) return compute ? DofRoute::ComputeGl : DofRoute::FragmentGl;
  if (gather_box && !compute) return DofRoute::FragmentGl;
  if (c.cuda_dof && !c.cuda_missing) return DofRoute::ComputeCuda;
  if (gather_box) return DofRoute::ComputeGl;
  return DofRoute::CpuGold;
}

struct Variant {
  const char* name;
  std::function<void(Settings&)> edit;
};

const std::vector<Variant>& variants() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  static const std::vector<Variant> v = {
      {"defaults", [](Settings&) {}},
      {"aperture 0", [](Settings& s) { s.aperture = 0; }},
      {"aperture nan", [nan](Settings& s) { s.aperture = nan; }},
      {"aperture inf", [inf](Settings& s) { s.aperture = inf; }},
      {"focus 0", [](Settings& s) { s.focus_distance = 0; }},
      {"focus -3", [](Settings& s) { s.focus_distance = -3; }},
      {"focus inf", [inf](Settings& s) { s.focus_distance = inf; }},
      {"max_radius -1", [](Settings& s) { s.max_radius = -1; }},
      {"max_radius nan", [nan](Settings& s) { s.max_radius = nan; }},
      {"max_radius 256", [](Settings& s) { s.max_radius = 256; }},
      {"max_radius 300", [](Settings& s) { s.max_radius = 300; }},
      {"disc_boxes 0", [](Settings& s) { s.disc_boxes = 0; }},
      {"disc_boxes 9", [](Settings& s) { s.disc_boxes = 9; }},
      {"disc_boxes 8", [](Settings& s) { s.disc_boxes = 8; }},
      {"layers 1", [](Settings& s) { s.layers = 1; }},
      {"layers 9", [](Settings& s) { s.layers = 9; }},
      {"layers 2", [](Settings& s) { s.layers = 2; }},
  };
  return v;
}

TEST(DofPathParams, EveryRefusalPerMethod) {
  int n = 0, refused = 0;
  for (const Variant& var : variants())
    for (int cuda = 0; cuda < 2; ++cuda)
      for (int missing = 0; missing < 2; ++missing)
        for (int pass = 0; pass < kNumDofPasses; ++pass)
          for (int m = 0; m < 3; ++m)
            for (int sh = 0; sh < 3; ++sh)
              for (int v = 0; v < kNumViews; ++v) {
                Settings s;
                var.edit(s);
                s.dof_pass = static_cast<DofPass>(pass);
                s.dof_method = static_cast<Method>(m);
                s.dof_shape = static_cast<Shape>(sh);
                s.view = static_cast<View>(v);
                const DofCaps caps{cuda != 0, missing != 0};
                const DofPath p = choose_dof_path(s, caps);
                const std::string what = std::string(var.name) + ", " + to_string(s.dof_pass) +
                                         " " + scandof::dof::to_string(s.dof_method) + "/" +
                                         scandof::dof::to_string(s.dof_shape) + " view " +
                                         to_string(s.view) + (cuda ? " cuda" : "") +
                                         (missing ? " missing" : "");
                EXPECT_EQ(p.route, oracle(s, caps)) << what;
                const bool ok = params_ok(s);
                // A refusal says why and that the GL gather shows instead; nothing else does.
                EXPECT_EQ(p.message.find("showing gather/") != std::string::npos, !ok) << what;
                if (!ok) {
                  EXPECT_EQ(p.message.rfind("dof::Params: ", 0), 0u) << what << ": " << p.message;
                  ++refused;
                }
                ++n;
              }
  EXPECT_EQ(n, static_cast<int>(variants().size()) * 2 * 2 * 2 * 3 * 3 * kNumViews);
  EXPECT_GT(refused, 0);
}

// The radius the spreading sums cannot hold is a method's limit, not the parameters': gather
// takes it (and runs on CUDA), spread and layered fall back to gather/box on the GL pass.
TEST(DofPathParams, SpreadingRadiusLimitIsPerMethod) {
  Settings s;
  s.max_radius = 300;
  for (Method m : {Method::Gather, Method::Spread, Method::Layered}) {
    s.dof_method = m;
    const DofPath p = choose_dof_path(s, {true, false});
    EXPECT_EQ(p.route, m == Method::Gather ? DofRoute::ComputeCuda : DofRoute::ComputeGl)
        << scandof::dof::to_string(m);
  }
  s.max_radius = 256;  // the limit itself is taken
  s.dof_method = Method::Spread;
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::ComputeCuda);
}

// Settings that are not the DoF method's (SAT variant, format and backend, the scene, the camera,
// the UI) never change the path.
TEST(DofPathParams, OtherSettingsDoNotMatter) {
  const std::vector<std::function<void(Settings&)>> edits = {
      [](Settings& s) { s.variant = scandof::ScanAlgorithm::Naive; },
      [](Settings& s) { s.method = scandof::SatMethod::FusedOnePass; },
      [](Settings& s) { s.format = scandof::SatFormat::F32; },
      [](Settings& s) { s.backend = SatBackend::Cpu; },
      [](Settings& s) { s.msaa = 4; },
      [](Settings& s) { s.tessellation = 2; },
      [](Settings& s) { s.anisotropy = 1; },
      [](Settings& s) { s.scene_shading = SceneShading::Forward; },
      [](Settings& s) { s.physical = true; },
      [](Settings& s) { s.autofocus = Autofocus::Centre; },
      [](Settings& s) { s.reference_samples = 3; },
      [](Settings& s) { s.animate = false; },
      [](Settings& s) { s.show_ui = false; },
  };
  for (int m = 0; m < 3; ++m)
    for (int pass = 0; pass < kNumDofPasses; ++pass)
      for (int cuda = 0; cuda < 2; ++cuda) {
        Settings base;
        base.dof_method = static_cast<Method>(m);
        base.dof_pass = static_cast<DofPass>(pass);
        const DofCaps caps{cuda != 0, false};
        const DofPath want = choose_dof_path(base, caps);
        for (std::size_t i = 0; i < edits.size(); ++i) {
          Settings s = base;
          edits[i](s);
          const DofPath p = choose_dof_path(s, caps);
          EXPECT_EQ(p.route, want.route) << "edit " << i;
          EXPECT_EQ(p.gl_route, want.gl_route) << "edit " << i;
          EXPECT_EQ(p.message, want.message) << "edit " << i;
        }
      }
}

}  // namespace
}  // namespace demo
