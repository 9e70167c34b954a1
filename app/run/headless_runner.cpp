#include "run/headless_runner.hpp"

#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "automation/automation.hpp"
#include "diagnostics/report.hpp"
#include "diagnostics/reservoir.hpp"
#include "frame/app.hpp"
#include "scandof/gl/context.hpp"

namespace demo {
namespace gl = scandof::gl;

namespace {
constexpr int kWarmupFrames = 5;
}  // namespace

int run_headless(const Options& o, const std::string& res) {
  Automation automation(o, /*headless=*/true);
  if (o.primitives) automation.run_primitives();  // needs no GL: before the context
  gl::HeadlessContext ctx;
  ReportInput report;
  report.gl = gl::gl_description();
  report.frames = o.frames;
  App app(res, o.settings, o.width, o.height);
  report.app = &app;
  std::fprintf(stderr, "[scandof] headless %dx%d, SAT backend: %s\n", o.width, o.height,
               app.sat().backend().c_str());
  const float dt = 1.0f / 60.0f;

  // One measured run: warm-up frames, then o.frames frames whose stage times are kept: all of
  // them up to kSampledFrames, a uniform sample of that many beyond (bounded memory for runs of
  // any length; a median of 8192 frames is within a fraction of a percentile of the whole run's).
  constexpr std::size_t kSampledFrames = 8192;
  auto measure = [&](const std::string& name) {
    Reservoir<FrameTimes> kept(kSampledFrames);
    FrameTimes pending;  // the last frame, kept once the next one's start gives its interval
    bool have_pending = false;
    // At most kFramesInFlight frames queued, as a swap chain allows a window: without it the host
    // runs arbitrarily far ahead of the GPU (nothing else blocks it on the GL backend), the timer
    // rings are overwritten before their results arrive, and the CPU frame time means nothing.
    constexpr int kFramesInFlight = 2;
    GLsync fences[kFramesInFlight] = {};
    auto last_start = std::chrono::steady_clock::now();
    for (long long i = 0; i < kWarmupFrames + o.frames; ++i) {
      GLsync& f = fences[i % kFramesInFlight];
      if (f) {
        glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
        glDeleteSync(f);
      }
      const auto start = std::chrono::steady_clock::now();
      if (have_pending) {
        pending.frame_interval_ms =
            std::chrono::duration<float, std::milli>(start - last_start).count();
        kept.add(pending);
      }
      last_start = start;
      app.frame(o.width, o.height, dt);
      f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      if (i >= kWarmupFrames) {
        pending = app.last();
        have_pending = true;
      }
    }
    // The last frame has no successor to time it by: it is not kept.
    for (GLsync f : fences)
      if (f) glDeleteSync(f);
    // GL and CUDA timer results arrive a few frames late (no stalls); over many frames the
    // median is the same.
    glFinish();
    RunMedians m = run_medians(name, kept.items(), app.sat().kind() != SatBackend::Cpu);
    m.frames = static_cast<int>(kept.seen());
    return m;
  };

  automation.run_plan(app, measure, &report);
  automation.finish(app, &report);
  return automation.exit_status();
}

}  // namespace demo
