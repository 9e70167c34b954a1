// The second depth layer's settings and DoF path (core/settings.hpp two_layer(),
// core/dof_path.cpp): only layered with --dof-layers 2 asks for it, and the CUDA pass draws it
// only where the SAT stage has the layer registered; else the CPU gold method does.
#include <gtest/gtest.h>

#include "core/dof_path.hpp"
#include "core/settings.hpp"

namespace demo {
namespace {

using scandof::dof::Method;

TEST(TwoLayerPath, OnlyLayeredWithTwoLayersAsksForIt) {
  Settings s;
  EXPECT_EQ(1, s.dof_layers);  // off by default: the default frame renders nothing more
  EXPECT_FALSE(two_layer(s));
  s.dof_layers = 2;
  EXPECT_FALSE(two_layer(s));  // the default method (gather) has no use for it
  s.dof_method = Method::Layered;
  EXPECT_TRUE(two_layer(s));
  for (Method m : {Method::Gather, Method::Spread, Method::Engine, Method::Hybrid}) {
    s.dof_method = m;
    EXPECT_FALSE(two_layer(s)) << scandof::dof::to_string(m);
  }
  Settings a, b;
  b.dof_layers = 2;
  EXPECT_NE(a, b);
}

TEST(TwoLayerPath, CudaOnlyWithTheLayerRegistered) {
  Settings s;
  s.dof_method = Method::Layered;
  s.dof_layers = 2;
  // CUDA runs and DofGpu has layered, but the second layer is not registered: the CPU gold.
  DofPath p = choose_dof_path(s, {true, false, false});
  EXPECT_EQ(DofRoute::CpuGold, p.route);
  EXPECT_FALSE(p.message.empty());
  p = choose_dof_path(s, {true, false, true});
  EXPECT_EQ(DofRoute::ComputeCuda, p.route);
  EXPECT_TRUE(p.message.empty());
  // One layer needs nothing registered.
  s.dof_layers = 1;
  EXPECT_EQ(DofRoute::ComputeCuda, choose_dof_path(s, {true, false, false}).route);
  // No CUDA: the CPU gold either way.
  s.dof_layers = 2;
  EXPECT_EQ(DofRoute::CpuGold, choose_dof_path(s, {false, false, false}).route);
}

}  // namespace
}  // namespace demo
