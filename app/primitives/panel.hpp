// The "Primitives" window: pick a primitive, a size and an input distribution, press Run, read the
// library's time next to CUB's. draw() only draws and turns Run into Requests::run_primitives; the
// frame loop (App::carry_out) calls advance(), which does the work: the GPU part runs on the frame
// after the press (that frame shows "running..."), blocking the render loop for the timed calls
// only; the CPU reference check runs on a worker thread (stable_sort of 2^26 keys takes seconds),
// so the window stays responsive.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <utility>

#include "primitives/bench.hpp"
#include "frame/requests.hpp"

namespace demo {

class PrimitivesPanel {
 public:
  // Queries the device and its free memory (CUDA calls: done by App, never from draw()).
  void probe();
  // Draws the window (when *open); edits `req` (the Settings' request); Run sets
  // out->run_primitives. No GPU work.
  void draw(PrimRequest* req, bool* open, Requests* out);
  // Moves a pending run on by one step (may block for the GPU part). Called once per frame.
  void advance(const PrimRequest& req);
  // Starts a run of the request on the next advance() calls.
  void request_run() { state_ = State::Requested; }
  bool busy() const { return state_ != State::Idle; }
  // Shows a result obtained elsewhere (the headless --primitives run, for --screenshot-ui).
  void set_result(PrimResult r) {
    result_ = std::move(r);
    has_result_ = true;
  }

 private:
  enum class State { Idle, Requested, Verifying };
  void results_table() const;
  State state_ = State::Idle;
  bool shown_running_ = false;  // the "running..." frame has been drawn
  bool available_ = false;
  std::string why_not_;
  float placed_w_ = -1, placed_h_ = -1;  // the display size the window was last placed for
  int max_log2_ = 0;
  PrimResult result_;
  bool has_result_ = false;
  std::future<PrimResult> verifying_;
};

}  // namespace demo
