// The one automation layer of both loops (run/window_loop.cpp, run/headless_runner.cpp): what a
// scripted run asks of the demo beyond drawing frames. The loops keep only the loop (poll, draw,
// swap; or render N frames) and reach it through RunScript's fixed points (run_script.hpp) for:
// flags that act like a press on the first frame, --exercise-resize, --ui-selftest, when a
// scripted window run ends, screenshots (one naming helper), the headless plan of measured runs
// (--all-variants, --all-methods, scoring against the lens reference, --method-images/
// --method-sheet), and the end-of-run outputs, written once: --out-reference, --out,
// --screenshot, --out-frame, --dump-sat, --verify, then (headless) the float error, --report,
// --compare, --screenshot-ui and the --primitives verdict.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics/report.hpp"
#include "core/requests.hpp"
#include "primitives/bench.hpp"
#include "core/run_options.hpp"

namespace demo {

class App;
struct UiCheck;

// One scripted window change of --exercise-resize.
struct WindowChange {
  enum Kind { Resize, Iconify, Restore } kind = Resize;
  int width = 0, height = 0;  // Resize
};

class Automation {
 public:
  Automation(const Options& o, bool headless);

  // 0, or 1 once a check failed (--verify, --ui-selftest, a primitive against the CPU) or when a
  // window run with --ui-selftest ends before the self-test did (--frames too few, the window
  // closed): a run that never checked every control must not pass for one that did. Called once,
  // at the end of the run: it prints the self-test's verdict line.
  int exit_status() const;

  // ---- The window loop ----
  // --compare, --primitives, --quality / --reference N: pressed on the first frame.
  void first_frame_requests(Requests* req) const;
  // --exercise-resize: the change to make before loop pass `loop_no` (odd sizes, minimize,
  // restore: each size change re-creates targets and registrations).
  std::optional<WindowChange> resize_step(long long loop_no) const;
  // P / F12: the output without panels as the next free scandof-NNN.png in --screenshot-dir;
  // returns the toast text, *error when it failed.
  std::string screenshot_key(const App& app, bool* error);
  // --ui-selftest is on; one step: scroll the sidebar half a screen per frame, and some frames
  // after the bottom print every control with whether it was reachable, then the verdict ("UI
  // selftest: all N controls reachable" or a FAILED line). True when over.
  bool ui_selftest() const { return o_.ui_selftest; }
  bool ui_selftest_step(UiCheck* c, float display_h);
  // A scripted window run (--frames N with --exit, --screenshot or --screenshot-ui) is over.
  bool window_done(long long frames) const;
  // --screenshot-ui of the window: the default framebuffer (frame + panels), before the swap.
  void window_ui_screenshot(int fb_width, int fb_height) const;

  // ---- The headless runner ----
  // --primitives: every entry of the headless set once (no GL needed: before the context), the
  // table on stdout; a failed check fails the run.
  void run_primitives();
  // Every measured run the flags ask for, through `measure` (the loop: warm-up and measured
  // frames of the current settings, named), into report->runs; the chosen configuration last, so
  // its frame is the one the outputs save.
  void run_plan(App& app, const std::function<RunMedians(const std::string&)>& measure,
                ReportInput* report);

  // ---- Both: the end of the run ----
  // The outputs asked for, written once; headless also the report and what follows it.
  void finish(App& app, ReportInput* report);

 private:
  void score(App& app, RunMedians* r, class MethodImages* images);
  void headless_ui_screenshot(App& app, const std::string& gl);
  Options o_;
  bool headless_;
  bool failed_ = false;
  bool ui_selftest_over_ = false;  // ui_selftest_step printed its verdict
  int shot_no_ = 0;
  std::vector<PrimResult> prims_;
  bool prims_failed_ = false;
};

}  // namespace demo
