#include "run/headless_runner.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "automation/run_script.hpp"
#include "diagnostics/report.hpp"
#include "diagnostics/reservoir.hpp"
#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "scandof/gl/context.hpp"

namespace demo {
namespace gl = scandof::gl;

namespace {
constexpr int kWarmupFrames = 5;
}  // namespace

namespace {
// --soak: frames at the soak's sizes and settings until it is done, at most two in flight; a size
// App refuses (FrameSizeRefused: past the GL limits or the free memory, or an allocation failed
// half-way) leaves the frame at the size it had, and the soak goes on there (RunScript::frame).
void soak_loop(App& app, RunScript& script, float dt) {
  constexpr int kFramesInFlight = 2;
  GLsync fences[kFramesInFlight] = {};
  long long i = 0;
  script.start(app);
  for (;;) {
    const ScriptPass pass = script.before_frame(app);
    if (pass.quit) break;
    if (pass.skip) continue;  // a 0x0 frame: nothing to render into
    GLsync& f = fences[i++ % kFramesInFlight];
    if (f) {
      glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
      glDeleteSync(f);
    }
    Requests req = pass.req;
    script.frame(app, 0, 0, dt, &req);
    app.carry_out(req);
    carry_out_checks(app, req);
    f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    script.after_frame(app);
  }
  for (GLsync f : fences)
    if (f) glDeleteSync(f);
  glFinish();
}
}  // namespace

int run_headless(const Options& o, const std::string& res) {
  RunScript script(o, /*headless=*/true);  // before App: --inject-fault no-gl-compute
  if (o.primitives) script.run_primitives();  // needs no GL: before the context
  gl::HeadlessContext ctx;
  ReportInput report;
  report.gl = gl::gl_description();
  report.frames = o.frames;
  App app(res, o.settings, o.width, o.height, /*window=*/false);
  report.app = &app;
  if (app.sat().refused()) {
    // A batch run measures the backend it names: no figures of another one under its name.
    std::fprintf(stderr,
                 "scandof: --backend cuda refused: %s (a headless run measures the backend it "
                 "names; --backend auto, gl or cpu run without CUDA)\n",
                 app.sat().no_cuda().c_str());
    return kExitBadArguments;
  }
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

  if (o.soak.on)
    soak_loop(app, script, dt);
  else
    script.run_plan(app, measure, &report);
  script.done(app, &report);
  return script.exit_status();
}

}  // namespace demo
