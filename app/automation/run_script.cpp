#include "automation/run_script.hpp"

#include <algorithm>
#include <cstdio>

#include "diagnostics/report.hpp"
#include "frame/app.hpp"
#include "ui/panels.hpp"

namespace demo {

RunScript::RunScript(const Options& o, bool headless)
    : o_(o), headless_(headless), automation_(o, headless), soak_(o, headless) {}

void RunScript::start(App& app) {
  if (soak_.on()) soak_.start(app);
}

ScriptPass RunScript::before_frame(App& app) {
  ScriptPass pass;
  step_ = SoakStep{};
  if (!headless_) {
    if (const auto change = automation_.resize_step(loop_no_)) pass.window.push_back(*change);
    ++loop_no_;
    if (frames_ == 0) automation_.first_frame_requests(&pass.req);
  }
  if (!soak_.on()) return pass;
  if (soak_.done()) {
    end_ = End::SoakOver;
    pass.quit = true;
    return pass;
  }
  step_ = soak_.before_pass(app);
  if (step_.window) pass.window.push_back(*step_.window);
  if (step_.minimised) {
    soak_.skipped_pass();
    pass.skip = true;
    return pass;
  }
  pass.req.run_primitives |= step_.req.run_primitives;
  return pass;
}

std::optional<Toast> RunScript::frame(App& app, int fb_w, int fb_h, float dt, Requests* req) {
  std::optional<Toast> toast;
  int w = fb_w, h = fb_h;
  if (headless_ || step_.past_window) {  // e.g. a huge-resize fault: past the window system
    w = step_.width;
    h = step_.height;
  }
  if (w == refused_w_ && h == refused_h_) {  // drawn at the size App kept, scaled by present()
    w = app.width();
    h = app.height();
  }
  try {
    app.frame(w, h, dt);
  } catch (const FrameSizeRefused& e) {
    if (soak_.on()) {
      soak_.resize_refused(app, w, h, e.what());
    } else {
      std::fprintf(stderr, "[scandof] %s; drawing at %dx%d\n", e.what(), app.width(),
                   app.height());
    }
    // The window system's size stays refused until it changes; a soak's fault only once.
    if (w == fb_w && h == fb_h && !soak_.on()) {
      refused_w_ = w;
      refused_h_ = h;
    }
    toast = Toast{std::string("Resize refused: ") + e.what(), true};
    app.frame(app.width(), app.height(), dt);
  }
  if (req->screenshot) {
    req->screenshot = false;
    Toast shot;
    shot.text = automation_.screenshot_key(app, &shot.error);
    toast = shot;
  }
  return toast;
}

bool RunScript::after_frame(App& app, UiCheck* check, float display_h) {
  if (soak_.on()) soak_.after_frame(app);
  ++frames_;
  if (headless_) return false;
  if (check->enabled && automation_.ui_selftest_step(check, display_h)) {
    end_ = End::SelfTestOver;
    return true;
  }
  if (!soak_.on() && automation_.window_done(frames_)) {
    end_ = End::FramesDone;
    return true;
  }
  return false;
}

void RunScript::done(App& app, ReportInput* report, int fb_w, int fb_h,
                     const std::function<void()>& swap) {
  if (end_ == End::SelfTestOver || end_ == End::FramesDone) {
    automation_.window_ui_screenshot(fb_w, fb_h);  // the back buffer, before the swap
    if (end_ == End::SelfTestOver) return;
    swap();
  }
  if (!headless_ && end_ == End::Running) return;  // the window was closed
  if (soak_.on()) soak_rc_ = soak_.finish(report);
  automation_.finish(app, headless_ ? report : nullptr);
  if (!headless_ && soak_.on() && !o_.report.empty()) write_report(o_.report, *report);
}

int RunScript::exit_status() const { return std::max(soak_rc_, automation_.exit_status()); }

}  // namespace demo
