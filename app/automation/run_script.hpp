// The fixed points at which both loops (run/window_loop.cpp, run/headless_runner.cpp) hand a
// scripted run its turn: Automation (the flags of the first frame, --exercise-resize, --frames
// with --exit or a screenshot, --ui-selftest, the end-of-run outputs) and the Soak (its passes,
// window changes, minimised passes, refused sizes and report) are called from here alone, so a
// loop reads as a plain loop:
//
//   start(app)
//   each pass:  before_frame (what this pass must do)  -> the loop's input and UI
//               frame        (App::frame at the size the run asks)  -> App::carry_out
//               after_frame  (the soak's checks; whether this was the last frame)
//   done(app, report)        (the outputs, the soak's summary and report), exit_status()
//
// The headless runner's measured runs (--all-variants, --all-methods, the chosen one) are
// run_plan; a headless soak runs the pass loop above.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "automation/automation.hpp"
#include "automation/soak.hpp"
#include "core/requests.hpp"
#include "core/run_options.hpp"

namespace demo {

class App;
struct ReportInput;
struct UiCheck;

// What one loop pass must do, from RunScript::before_frame.
struct ScriptPass {
  std::vector<WindowChange> window;  // make these window changes first, in order
  bool quit = false;  // the soak is over: leave the loop (done() reports it)
  bool skip = false;  // a soak's minimised pass: no frame this pass
  Requests req;       // pressed before the frame's own input: the first frame's flags, the soak's
};

// A line for the window's toast.
struct Toast {
  std::string text;
  bool error = false;
};

class RunScript {
 public:
  // Before App: Soak arms --inject-fault no-gl-compute and checks a soak's --report folder
  // (std::runtime_error naming it).
  RunScript(const Options& o, bool headless);

  // --ui-selftest is on (the window's panels record every control for after_frame's check).
  bool ui_selftest() const { return automation_.ui_selftest(); }
  // Headless only: --primitives before the GL context, and the measured runs (Automation).
  void run_primitives() { automation_.run_primitives(); }
  void run_plan(App& app, const std::function<RunMedians(const std::string&)>& measure,
                ReportInput* report) {
    automation_.run_plan(app, measure, report);
  }

  // Before the first pass: a soak takes the start settings and size as its canonical state.
  void start(App& app);
  // Before each pass: --exercise-resize's window change and the first frame's flags (the
  // window), then the soak's switch, resize or fault for this pass.
  ScriptPass before_frame(App& app);
  // App::frame at the size this pass asks: the window's framebuffer (fb_w x fb_h), or the soak's
  // (headless always; the window for a size past the window system). A size App refuses
  // (FrameSizeRefused) goes to the soak, or is logged, and the frame is drawn at the size App
  // kept; a framebuffer size refused stays refused until it changes. Then P / F12 (req->
  // screenshot) saves the frame. Returns the toast either asks for (the screenshot's last).
  std::optional<Toast> frame(App& app, int fb_w, int fb_h, float dt, Requests* req);
  // After App::carry_out: the soak's checks on the frame; for the window one --ui-selftest step
  // (check: the panels' record, display_h: the display's height) and whether the run ends with
  // this frame (--frames N with --exit, --screenshot or --screenshot-ui; the self-test's end).
  // True: the last frame; leave the loop before the swap (done() shows it).
  bool after_frame(App& app, UiCheck* check = nullptr, float display_h = 0);
  // After the loop. The window's last frame: --screenshot-ui from the back buffer (fb_w x
  // fb_h), then `swap` shows it unless the self-test ended the run. Then, for a run that ended
  // as scripted (headless always; not a window closed or a self-test), the soak's summary
  // (report gets its section; the window writes --report itself) and the outputs.
  void done(App& app, ReportInput* report, int fb_w = 0, int fb_h = 0,
            const std::function<void()>& swap = {});
  // The soak's status and Automation's (which prints the self-test's verdict): called once, last.
  int exit_status() const;

 private:
  enum class End { Running, SoakOver, FramesDone, SelfTestOver };
  Options o_;
  bool headless_;
  Automation automation_;
  Soak soak_;
  SoakStep step_;  // this pass's, from before_frame
  End end_ = End::Running;
  long long loop_no_ = 0, frames_ = 0;  // loop passes and rendered frames so far
  int refused_w_ = -1, refused_h_ = -1;  // a framebuffer size App refused
  int soak_rc_ = 0;
};

}  // namespace demo
