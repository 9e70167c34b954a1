// Settings changed on a running App with a GL context (EGL surfaceless; llvmpipe in CI): what
// App::apply_settings rebuilds when changes() says so. The unit tests (settings_test.cpp) check
// the classification; this checks that each rebuild happens and leaves a working frame: the SAT
// backend swapped (the old stage unregistered, the new one registered with the same targets), the
// SAT format (the DoF programs rebuilt for float tables), MSAA targets, the teapot tessellation,
// a resize; after each the tables must equal sat_gold of the frame (verify, diagnostics/frame_checks.hpp) and the DoF image
// must be what it was where the change should not alter it. Built by tests/demo_logic.cmake from
// the demo's own sources (not a *_test.cpp: scandof_app_tests has no GL).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app_suite_gl.hpp"
#include "automation/faults.hpp"
#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "gpu_skip.hpp"
#include "run/resources.hpp"
#include "scandof/gl/context.hpp"

namespace demo {
namespace {

constexpr int kW = 97, kH = 61;

class RuntimeSettings : public AppSuite<RuntimeSettings> {
 protected:
  static void SetUpTestSuite() {
    // suite_settings' RGBA8 pipeline: tests A..G compare 8-bit images exactly; H switches to HDR.
    Settings s = suite_settings();
    // gather/box: verify draws gather/box into the output texture (its pass check), and the
    // tests compare output images taken on both sides of a verify.
    s.dof_shape = scandof::dof::Shape::Box;
    start(s, kW, kH);
  }
  // A few frames (the GL timers and the CPU stage settle), then --verify's checks.
  static void frames(int w = kW, int h = kH) {
    for (int i = 0; i < 3; ++i) app_->frame(w, h, 1.0f / 60.0f);
  }
  static void expect_verified(const std::string& after) {
    std::string msg;
    EXPECT_TRUE(verify(*app_, &msg)) << after << ":" << msg;
    EXPECT_NE(msg.find("OK"), std::string::npos) << after << ":" << msg;
  }
  static std::vector<uint8_t> output() { return app_->targets().read_rgba(app_->targets().output()); }
  static std::vector<uint8_t> sharp() { return app_->targets().read_rgba(app_->targets().color()); }
};

// The tests run in this order on one App: each starts from where the last left it.
TEST_F(RuntimeSettings, A_StartsOnTheCpuBackend) {
  frames();
  EXPECT_EQ(app_->sat().kind(), SatBackend::Cpu);
  EXPECT_EQ(app_->sat().width(), kW);
  EXPECT_EQ(app_->sat().height(), kH);
  expect_verified("start");
}

TEST_F(RuntimeSettings, B_BackendSwapRecreatesTheSatStage) {
  frames();
  const std::vector<uint8_t> cpu_image = output();
  compare_variants(*app_, 1);
  EXPECT_FALSE(app_->measured().comparison.empty());
  app_->settings().backend = SatBackend::Gl;
  frames();
  ASSERT_EQ(app_->sat().kind(), SatBackend::Gl) << app_->sat().backend();
  EXPECT_EQ(app_->sat().backend().rfind("GL compute on ", 0), 0u) << app_->sat().backend();
  EXPECT_EQ(app_->sat().width(), kW);
  EXPECT_TRUE(app_->measured().comparison.empty()) << "the comparison of the old backend was kept";
  expect_verified("CPU -> GL");
  // The same exact tables, so the same depth of field.
  EXPECT_EQ(output(), cpu_image);
}

TEST_F(RuntimeSettings, C_FormatRebuildsTheDofPrograms) {
  frames();
  const std::vector<uint8_t> u32_image = output();
  measure_float_error(*app_);
  EXPECT_GE(app_->measured().float_error, 0.0);
  app_->settings().format = scandof::SatFormat::F32;
  frames();
  EXPECT_LT(app_->measured().float_error, 0.0) << "the float error of the other format was kept";
  // Float tables of a frame this small hold every sum exactly: the same image, unless the DoF
  // programs still read the tables as uint32.
  EXPECT_EQ(output(), u32_image);
  expect_verified("u32 -> f32");
  app_->settings().format = scandof::SatFormat::U32;
  frames();
  EXPECT_EQ(output(), u32_image);
}

TEST_F(RuntimeSettings, D_MsaaRecreatesTheMultisampleTargets) {
  frames();
  const std::vector<uint8_t> one = sharp();
  app_->settings().msaa = 4;
  frames();
  EXPECT_EQ(app_->targets().msaa(), 4);
  EXPECT_NE(sharp(), one) << "4x MSAA resolved the same frame as 1x";
  expect_verified("MSAA 1 -> 4");
  app_->settings().msaa = 1;
  frames();
  EXPECT_EQ(app_->targets().msaa(), 1);
  EXPECT_EQ(sharp(), one);
}

TEST_F(RuntimeSettings, E_TessellationRebuildsTheMesh) {
  frames();
  const std::vector<uint8_t> ten = sharp();
  app_->settings().tessellation = 2;
  frames();
  EXPECT_NE(sharp(), ten) << "2 subdivisions drew the same teapots as 10";
  expect_verified("tessellation 10 -> 2");
  app_->settings().tessellation = 10;
  frames();
  EXPECT_EQ(sharp(), ten);
}

// Ragged sizes and 1080p (not on a software rasterizer, where a 1080p verify takes minutes): the
// targets, the SAT buffer and the registrations follow, and verify's bounds hold at each.
TEST_F(RuntimeSettings, F_ResizeReregisters) {
  std::vector<std::pair<int, int>> sizes = {{64, 48}, {1001, 777}};
  if (!scandof::gl::software_renderer()) sizes.emplace_back(1920, 1080);
  for (const auto& [w, h] : sizes) {
    const std::string at = std::to_string(w) + "x" + std::to_string(h);
    frames(w, h);
    EXPECT_EQ(app_->sat().width(), w);
    EXPECT_EQ(app_->sat().height(), h);
    expect_verified("resize to " + at);
  }
  app_->settings().backend = SatBackend::Cpu;  // and a backend swap at a new size
  frames(64, 48);
  EXPECT_EQ(app_->sat().kind(), SatBackend::Cpu);
  EXPECT_EQ(app_->sat().width(), 64);
  expect_verified("resize, GL -> CPU");
}

TEST_F(RuntimeSettings, G_PerFrameSettingsRebuildNothing) {
  frames();
  compare_variants(*app_, 1);
  const std::size_t n = app_->measured().comparison.size();
  ASSERT_GT(n, 0u);
  app_->settings().aperture = 3;
  app_->settings().variant = scandof::ScanAlgorithm::Naive;
  app_->settings().view = View::Sharp;
  frames();
  EXPECT_EQ(app_->measured().comparison.size(), n) << "a per-frame setting dropped the comparison";
  EXPECT_EQ(output(), sharp()) << "the sharp view does not show the sharp frame";
}

// The pipeline switched at runtime: HDR targets (RGBA16F colour and output, an RGBA8 display),
// the HDR programs, the SAT stage re-registered; the tables equal sat_gold_hdr of the radiance
// frame, the bulbs are far brighter than white, the display differs from the LDR frame; and back.
TEST_F(RuntimeSettings, H_PipelineSwitchRebuildsTargetsAndPrograms) {
  app_->settings().view = View::DepthOfField;
  frames();
  const std::vector<uint8_t> ldr = app_->targets().read_rgba(app_->targets().display());
  EXPECT_FALSE(app_->targets().hdr());
  app_->settings().pipeline = Pipeline::Hdr;
  frames();
  EXPECT_TRUE(app_->targets().hdr());
  EXPECT_NE(app_->targets().display(), app_->targets().output());
  expect_verified("LDR -> HDR");
  float brightest = 0;
  const std::vector<float> r = app_->targets().read_rgba_f32(app_->targets().color());
  for (std::size_t i = 0; i < r.size(); i += 4) brightest = std::max(brightest, r[i + 1]);
  EXPECT_GT(brightest, 4.0f) << "no light brighter than white in the HDR frame";
  EXPECT_NE(app_->targets().read_rgba(app_->targets().display()), ldr);
  for (auto f : {scandof::SatFormat::F32, scandof::SatFormat::U32}) {
    app_->settings().format = f;
    frames();
  }
  app_->settings().backend = SatBackend::Gl;  // the GL backend's RGBA16F path, then back to LDR
  frames();
  expect_verified("HDR, GL");
  app_->settings().pipeline = Pipeline::Ldr;
  app_->settings().backend = SatBackend::Cpu;
  frames();
  EXPECT_FALSE(app_->targets().hdr());
  expect_verified("HDR -> LDR");
  EXPECT_EQ(app_->targets().read_rgba(app_->targets().display()), ldr);
}

// Every program the runs above built (scene, planes, peel, both DoF passes, bokeh, tone map, the
// GL SAT backend, both pipelines) compiled and linked without a warning on this driver.
TEST_F(RuntimeSettings, I_ShadersLinkWithoutWarnings) {
  app_->settings().pipeline = Pipeline::Hdr;  // the default frame: HDR, bokeh from highlights
  app_->settings().backend = SatBackend::Gl;
  app_->settings().dof_shape = Settings{}.dof_shape;
  for (DofPass p : {DofPass::Compute, DofPass::Fragment}) {
    app_->settings().dof_pass = p;
    frames();
  }
  std::string all;
  for (const std::string& w : scandof::gl::shader_warnings()) all += "\n" + w;
  EXPECT_TRUE(scandof::gl::shader_warnings().empty())
      << scandof::gl::shader_warnings().size() << " shader logs warned:" << all;
}

// A GPU backend that fails mid-run (--inject-fault interop-register: on CUDA a real failed
// registration, on GL compute a failed build) gives way to the next for the rest of the run: the
// same frame is built there and verifies, and asking for the failed one again keeps the fallback.
// Last: the App remembers the failure.
TEST_F(RuntimeSettings, J_BackendFailureFallsBackForTheRun) {
  app_->settings().pipeline = Pipeline::Ldr;
  app_->settings().dof_pass = DofPass::Compute;
  const SatBackend first = scandof::cuda_device_available() ? SatBackend::Cuda : SatBackend::Gl;
  app_->settings().backend = first;
  frames();
  // Where the EGL context is on the CUDA device, CUDA runs; a GPU test machine must get it.
  if (first == SatBackend::Cuda && scandof::test::gpu_required())
    ASSERT_EQ(app_->sat().kind(), SatBackend::Cuda) << app_->sat().backend();
  const SatBackend running = app_->sat().kind();
  ASSERT_NE(running, SatBackend::Cpu) << app_->sat().backend();
  const SatBackend next = running == SatBackend::Cuda ? SatBackend::Gl : SatBackend::Cpu;
  testing::internal::CaptureStderr();
  arm_fault(Fault::InteropRegister);
  frames();
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(app_->sat().kind(), next) << app_->sat().backend();
  EXPECT_NE(log.find("falls back for the rest of the run"), std::string::npos) << log;
  EXPECT_EQ(log.find("falls back", log.find("falls back") + 1), std::string::npos)
      << "said more than once: " << log;
  expect_verified("after the fallback");
  app_->settings().backend = SatBackend::Cpu;
  frames();
  app_->settings().backend = running;  // asked for again: the failure is remembered
  frames();
  EXPECT_EQ(app_->sat().kind(), next) << app_->sat().backend();
  EXPECT_NE(app_->sat().backend().find("earlier in this run"), std::string::npos)
      << app_->sat().backend();
  expect_verified("the failed backend asked for again");
}

}  // namespace
}  // namespace demo
