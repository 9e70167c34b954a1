// A run of the Primitives window (ui/primitives_window.*: pick a primitive, a size and an input
// distribution, press Run, read the library's time next to CUB's). The window only draws and turns
// Run into Requests::run_primitives; the frame loop (App::carry_out) calls advance(), which does
// the work: the GPU part runs on the frame
// after the press (that frame shows "running..."), blocking the render loop for the timed calls
// only; the CPU reference check runs on a worker thread (stable_sort of 2^26 keys takes seconds),
// so the window stays responsive.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <utility>

#include "primitives/bench.hpp"

namespace demo {

class PrimitivesRun {
 public:
  // Queries the device and its free memory (CUDA calls: done by App, never from the window).
  void probe();
  // Moves a pending run on by one step (may block for the GPU part). Called once per frame.
  void advance(const PrimRequest& req);
  // Starts a run of the request on the next advance() calls.
  void request_run() { state_ = State::Requested; }
  bool busy() const { return state_ != State::Idle; }
  bool running() const { return state_ == State::Requested; }    // the GPU part is due
  bool verifying() const { return state_ == State::Verifying; }  // the CPU check is running
  // Whether this machine can run it (a CUDA device), and why not.
  bool available() const { return available_; }
  const std::string& why_not() const { return why_not_; }
  int max_log2() const { return max_log2_; }  // the largest size the free device memory holds
  bool has_result() const { return has_result_; }
  const PrimResult& result() const { return result_; }
  // Shows a result obtained elsewhere (the headless --primitives run, for --screenshot-ui).
  void set_result(PrimResult r) {
    result_ = std::move(r);
    has_result_ = true;
  }

 private:
  enum class State { Idle, Requested, Verifying };
  State state_ = State::Idle;
  bool shown_running_ = false;  // the "running..." frame has been drawn
  bool available_ = false;
  std::string why_not_;
  int max_log2_ = 0;
  PrimResult result_;
  bool has_result_ = false;
  std::future<PrimResult> verifying_;
};

}  // namespace demo
