// The "Primitives" window: pick a primitive, a size and an input distribution, press Run, read the
// library's time next to CUB's. The GPU part runs on the frame after the press (that frame shows
// "running..."), blocking the render loop for the timed calls only; the CPU reference check runs on
// a worker thread (stable_sort of 2^26 keys takes seconds), so the window stays responsive.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <utility>

#include "primitives_bench.hpp"

namespace demo {

class PrimitivesPanel {
 public:
  // Draws the window (when *open) and advances a pending run. `req` is the Settings' request.
  void draw(PrimRequest* req, bool* open);
  // Starts a run of `req` (the window's Run button, or --primitives in window mode).
  void request_run() { state_ = State::Requested; }
  bool busy() const { return state_ != State::Idle; }
  const PrimResult* result() const { return has_result_ ? &result_ : nullptr; }
  // Shows a result obtained elsewhere (the headless --primitives run, for --screenshot-ui).
  void set_result(PrimResult r) {
    result_ = std::move(r);
    has_result_ = true;
  }

 private:
  enum class State { Idle, Requested, Verifying };
  void advance(const PrimRequest& req);
  void results_table() const;
  State state_ = State::Idle;
  bool shown_running_ = false;  // the "running..." frame has been drawn
  bool probed_ = false;         // device and free memory queried (once, lazily)
  bool available_ = false;
  std::string why_not_;
  int max_log2_ = 0;
  PrimResult result_;
  bool has_result_ = false;
  std::future<PrimResult> verifying_;
};

}  // namespace demo
