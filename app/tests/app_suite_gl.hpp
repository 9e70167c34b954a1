// A GL context (EGL surfaceless; llvmpipe in CI) and one App on it for a whole test suite: the
// fixture of runtime_settings_gl.cpp and scene_switch_gl.cpp, which tests/demo_logic.cmake and
// tests/demo_gltf.cmake build from the demo's sources.
#pragma once

#include <gtest/gtest.h>

#include "frame/app.hpp"
#include "run/resources.hpp"
#include "scandof/gl/context.hpp"

namespace demo {

// Suite is the fixture deriving from this one (each suite its own context and App); its tests run
// in order on the one App, each from where the last left it.
template <class Suite>
class AppSuite : public ::testing::Test {
 protected:
  // The settings the suites start from: no animation, the CPU SAT backend, anisotropy 1
  // (llvmpipe's anisotropic filtering is slow and not what these tests check) and the paper's
  // RGBA8 pipeline (8-bit images compared exactly, no exposure adaptation).
  static Settings suite_settings() {
    Settings s;
    s.animate = false;
    s.backend = SatBackend::Cpu;
    s.anisotropy = 1;
    s.pipeline = Pipeline::Ldr;
    return s;
  }
  // The context, then a w x h App with `s` on it (from SetUpTestSuite).
  static void start(const Settings& s, int w, int h) {
    ctx_ = new scandof::gl::HeadlessContext();
    app_ = new App(find_resources(""), s, w, h);
  }
  static void TearDownTestSuite() {
    delete app_;
    delete ctx_;
  }
  static scandof::gl::HeadlessContext* ctx_;
  static App* app_;
};
template <class Suite>
scandof::gl::HeadlessContext* AppSuite<Suite>::ctx_ = nullptr;
template <class Suite>
App* AppSuite<Suite>::app_ = nullptr;

}  // namespace demo
