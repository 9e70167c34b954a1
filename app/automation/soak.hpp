// The soak of both runners (--soak SECONDS / --soak-frames N, core/soak_options.hpp): one
// long run that changes everything a user can change while it draws, provokes the faults asked for
// (--inject-fault), and tells whether memory stayed flat.
//
// Schedule (frame f counts rendered frames; N = --soak-switch, M = --soak-resize):
//   * every N frames a switch k = f / N. Every 4th switch from k = 2 on (k % 4 == 2) is canonical:
//     the start settings at the start size, the state memory is compared at. The others set every
//     dimension at once from a counter j of non-canonical switches: SAT backend (--soak-backends,
//     j mod their count), SAT method (j mod 5), scan variant (j mod 7), DoF method x shape
//     (j mod 9), view (j mod 7), MSAA (1, 2, 4), pipeline (HDR, LDR) and table format (u32, f32
//     every other pair): each value of each comes within 9 switches, in changing combinations.
//   * every M frames (not on a canonical switch) a random size in [W/4, 5W/4] x [H/4, 5H/4] of the
//     start size W x H (splitmix64 of --soak-seed, so a run is repeatable); a pending
//     --inject-fault of a resize kind takes the place of the next one.
//   * the lens reference (k % 20 == 3), a screenshot into --screenshot-dir when given (k % 20 ==
//     7) and a primitives run (k % 20 == 13) now and then; --verify every --soak-verify-th switch
//     and on every canonical one (a failed verify fails the run).
//   * a memory sample (mem_probe.hpp) on the last frame of every switch; the canonical ones decide
//     flat-or-not: after the warm-up (the first minute of a soak that ran two minutes or more, else
//     the first 10% of its frames; at least 4 samples, else UNKNOWN) RSS and GPU memory drift
//     less than 1% (the median of the last third of those samples against the first third), and
//     live GL objects and open descriptors end no higher than they were in the first half.
// A frame whose CPU-gold DoF (a method the backend has no GPU pass for) would run above 640x360
// (1-2 s a 1080p frame) runs gather/box for the rest of its switch instead, counted in the report.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "automation/automation.hpp"
#include "diagnostics/soak_series.hpp"
#include "core/requests.hpp"
#include "core/settings.hpp"
#include "core/run_options.hpp"

namespace demo {

class App;

// What one loop pass asks of the loop.
struct SoakStep {
  int width = 0, height = 0;  // the size to render at (headless), or asked of the window
  bool minimised = false;     // render nothing this pass (a 0x0 frame)
  bool past_window = false;   // the window renders width x height, not its framebuffer's size
  std::optional<WindowChange> window;  // the window: resize, iconify or restore first
  Requests req;                        // pressed this frame (a primitives run)
};

class Soak {
 public:
  // Arms --inject-fault no-gl-compute (before App makes its SAT stage) and, for a soak with
  // --report, checks the report's folder can be written: a soak whose report cannot be written
  // stops before it starts (std::runtime_error naming the path; exit 1).
  Soak(const Options& o, bool headless);
  bool on() const { return o_.soak.on; }

  // Before the first frame: the start settings and size are the canonical state.
  void start(App& app);
  bool done() const;
  // Before each loop pass: this frame's switch, resize or fault.
  SoakStep before_pass(App& app);
  // The frame of this pass ran (the loop renders, carries out step.req, then calls this).
  void after_frame(App& app);
  // A minimised pass went by without a frame.
  void skipped_pass() { ++report_.skipped_passes; }
  // App::frame refused the size (FrameSizeRefused): the run goes on at the size it kept.
  void resize_refused(App& app, int asked_w, int asked_h, const std::string& why);

  // The summary (printed) and verdict; returns the soak's exit status (1: a verify failed, memory
  // was not flat, or a fault did not end as it must). *report gets the soak section.
  int finish(ReportInput* report);
  const SoakReport& report() const { return report_; }

 private:
  void switch_to(App& app, int k);
  void resize_event(App& app, SoakStep* step);
  void sample(App& app, bool canonical);
  void reference(App& app);
  void screenshot(App& app);
  void verify(App& app, const char* when);
  void event(const std::string& what, const std::string& message, bool recovered);
  double elapsed_s() const;
  std::string config_label(const App& app) const;

  Options o_;
  bool headless_;
  Settings base_;
  int base_w_ = 0, base_h_ = 0;
  int target_w_ = 0, target_h_ = 0;  // the size the soak wants now
  int asked_w_ = 0, asked_h_ = 0;    // last size asked of the window
  std::chrono::steady_clock::time_point t0_;
  int switch_no_ = -1;   // the current switch k
  int non_canonical_ = 0;
  bool canonical_ = false;
  bool capped_this_switch_ = false;
  // The next fault in o_.soak.faults is of a kind a reference takes / a resize takes; with
  // --soak-vary leaving out extras or size, those still run for it.
  bool next_fault_is_reference_cancel() const;
  bool next_fault_is_resize_kind() const;
  std::size_t next_fault_ = 0;  // into o_.soak.faults (resize and reference kinds)
  std::optional<Fault> pending_resize_fault_;
  int minimised_left_ = 0;
  long long last_resize_frame_ = -1;
  bool huge_this_pass_ = false;
  std::uint64_t rng_state_ = 0;
  DecimatingSeries samples_{600}, canonical_samples_{600};
  SoakReport report_;
  bool failed_ = false;
};

}  // namespace demo
