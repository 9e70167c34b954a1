// The DoF path choice (core/dof_path.hpp) over every combination of backend capabilities x pass x
// method x shape x view, with good and refused parameters, against the rules spelled out once more
// here as the frame routed them before the choice was one function; and named cases.
#include <gtest/gtest.h>

#include <string>

#include "core/dof_path.hpp"

namespace demo {
namespace {

using scandof::dof::Method;
using scandof::dof::Shape;

// The rules as booleans: the GL passes draw gather with every shape, no blades (and the fragment
// pass every debug view);
// DofGpu takes the compute pass or a method the fragment pass lacks; else the CPU gold method.
DofRoute oracle(const Settings& s, const DofCaps& c, bool params_ok) {
  const bool on_dof = s.view == View::DepthOfField || s.view == View::Reference ||
                      s.view == View::Error;
  const bool compute = s.dof_pass == DofPass::Compute && on_dof;
  const bool frag_ok = (s.dof_method == Method::Gather && s.dof_blades == 0) || !params_ok;
  const bool gpu = on_dof && c.cuda_dof && params_ok && !c.cuda_missing && (!frag_ok || compute);
  if (gpu) return DofRoute::ComputeCuda;
  if (on_dof && !frag_ok) return DofRoute::CpuGold;
  return compute ? DofRoute::ComputeGl : DofRoute::FragmentGl;
}

TEST(DofPath, EveryCombination) {
  int n = 0;
  for (int cuda = 0; cuda < 2; ++cuda)
    for (int missing = 0; missing < 2; ++missing)
      for (int pass = 0; pass < kNumDofPasses; ++pass)
        for (int m = 0; m < 3; ++m)
          for (int sh = 0; sh < 3; ++sh)
            for (int v = 0; v < kNumViews; ++v)
              for (int bad = 0; bad < 3; ++bad) {
                Settings s;
                if (bad == 2) s.dof_blades = 6;  // blades: a good value the GL passes lack
                s.dof_pass = static_cast<DofPass>(pass);
                s.dof_method = static_cast<Method>(m);
                s.dof_shape = static_cast<Shape>(sh);
                s.view = static_cast<View>(v);
                if (bad == 1) s.aperture = -1;  // refused by scandof::dof::validate, every method
                // blades with spread/layered are refused too (gather and hybrid only)
                const bool ok = bad != 1 && !(bad == 2 && (s.dof_method == Method::Spread ||
                                                           s.dof_method == Method::Layered));
                const DofCaps caps{cuda != 0, missing != 0};
                const DofPath p = choose_dof_path(s, caps);
                const std::string what = std::string(to_string(s.dof_pass)) + " " +
                                         scandof::dof::to_string(s.dof_method) + "/" +
                                         scandof::dof::to_string(s.dof_shape) + " view " +
                                         to_string(s.view) + (cuda ? " cuda" : "") +
                                         (missing ? " missing" : "") + (bad ? " bad" : "") +
                                         (bad == 2 ? " blades" : "");
                EXPECT_EQ(p.route, oracle(s, caps, ok)) << what;
                const bool compute = s.dof_pass == DofPass::Compute && dof_view(s.view);
                EXPECT_EQ(p.gl_route, compute ? DofRoute::ComputeGl : DofRoute::FragmentGl)
                    << what;
                if (!ok) {
                  EXPECT_NE(p.message.find("showing gather/"), std::string::npos) << what;
                  EXPECT_NE(p.route, DofRoute::ComputeCuda) << what;
                  EXPECT_NE(p.route, DofRoute::CpuGold) << what;
                } else if (p.route == DofRoute::CpuGold) {
                  EXPECT_NE(p.message.find("CPU gold method"), std::string::npos) << what;
                  EXPECT_EQ(p.message.rfind("no CUDA: ", 0) == 0, !cuda) << what;
                } else {
                  EXPECT_TRUE(p.message.empty()) << what << ": " << p.message;
                }
                ++n;
              }
  EXPECT_EQ(n, 2 * 2 * 2 * 3 * 3 * kNumViews * 3);
}

TEST(DofPath, NamedCases) {
  Settings s;  // compute pass, gather/octagon with the radius offset (the default), DoF view
  EXPECT_EQ(s.dof_method, Method::Gather);
  EXPECT_EQ(s.dof_shape, Shape::Octagon);
  EXPECT_EQ(s.dof_radius_offset, 0.5f);
  EXPECT_EQ(s.dof_bokeh, 1.0f);  // the bokeh from highlights on
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::ComputeCuda);
  EXPECT_EQ(choose_dof_path(s, {false, false}).route, DofRoute::ComputeGl);
  s.dof_pass = DofPass::Fragment;
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::FragmentGl);
  s.dof_method = Method::Layered;
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::ComputeCuda);
  EXPECT_EQ(choose_dof_path(s, {true, true}).route, DofRoute::CpuGold);
  EXPECT_EQ(choose_dof_path(s, {false, false}).message,
            "no CUDA: CPU gold method (read back, scandof::dof::render, upload)");
  s.view = View::CircleOfConfusion;  // debug views are the fragment pass's alone
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::FragmentGl);
  s.view = View::Error;
  EXPECT_EQ(choose_dof_path(s, {false, false}).route, DofRoute::CpuGold);
  s.dof_method = Method::Spread;  // spreading past kSpreadMaxRadius: refused, the GL gather shown
  s.max_radius = 1e6f;
  const DofPath p = choose_dof_path(s, {true, false});
  EXPECT_EQ(p.route, DofRoute::FragmentGl);
  EXPECT_NE(p.message.find("showing gather/octagon"), std::string::npos);
}

// The bokeh split: a gather as far as the routes go (every GPU pass draws it); it applies to the
// HDR gather with U32 tables and a round aperture only, and elsewhere changes nothing (not even
// the tables' encoding).
TEST(DofPath, BokehSplit) {
  Settings s;
  s.dof_bokeh = 1.0f;
  EXPECT_EQ(bokeh_threshold(s), 1.0f);
  EXPECT_EQ(dof_params(s).bokeh_threshold, 1.0f);
  EXPECT_EQ(table_fixed_point(s).max_value, 1u << fixed_point(s).frac_bits);
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::ComputeCuda);
  EXPECT_EQ(choose_dof_path(s, {false, false}).route, DofRoute::ComputeGl);
  s.dof_pass = DofPass::Fragment;
  EXPECT_EQ(choose_dof_path(s, {true, false}).route, DofRoute::FragmentGl);
  for (auto off : {+[](Settings& t) { t.pipeline = Pipeline::Ldr; },
                   +[](Settings& t) { t.format = scandof::SatFormat::F32; },
                   +[](Settings& t) { t.dof_blades = 6; },
                   +[](Settings& t) { t.dof_method = Method::Spread; },
                   +[](Settings& t) { t.max_radius = 300.0f; }}) {
    Settings t = s;
    off(t);
    EXPECT_EQ(bokeh_threshold(t), 0.0f);
    EXPECT_EQ(dof_params(t).bokeh_threshold, 0.0f);
    EXPECT_EQ(table_fixed_point(t), fixed_point(t));
  }
}

TEST(DofPath, RouteNames) {
  EXPECT_STREQ(to_string(DofRoute::FragmentGl), "fragment");
  EXPECT_STREQ(to_string(DofRoute::ComputeGl), "compute (GL)");
  EXPECT_STREQ(to_string(DofRoute::ComputeCuda), "compute (CUDA)");
  EXPECT_STREQ(to_string(DofRoute::CpuGold), "cpu");
}

}  // namespace
}  // namespace demo
