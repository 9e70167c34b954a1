#include "primitives/run.hpp"

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

namespace demo {

void PrimitivesRun::probe() {
  available_ = primitives_available(&why_not_);
  max_log2_ = available_ ? primitives_max_log2() : 0;
}

void PrimitivesRun::advance(const PrimRequest& req) {
  if (state_ == State::Requested) {
    if (!available_) {
      state_ = State::Idle;  // the window already says why
      return;
    }
    if (!shown_running_) {
      shown_running_ = true;  // let one frame show "running..." before the loop blocks
      return;
    }
    shown_running_ = false;
    PrimResult r = run_primitive_gpu(req);
    max_log2_ = primitives_max_log2();  // free memory may have changed (window size, SAT format)
    if (!r.ran) {
      result_ = std::move(r);
      has_result_ = true;
      state_ = State::Idle;
      return;
    }
    // Show the timings now, without the host copies (up to 768 MiB); the worker checks those.
    std::vector<std::uint32_t> in, lo, co;
    in.swap(r.input);
    lo.swap(r.lib_out);
    co.swap(r.cub_out);
    result_ = r;
    has_result_ = true;
    r.input.swap(in);
    r.lib_out.swap(lo);
    r.cub_out.swap(co);
    verifying_ = std::async(std::launch::async, [job = std::move(r)]() mutable {
      verify_primitive(&job);
      return std::move(job);
    });
    state_ = State::Verifying;
  } else if (state_ == State::Verifying &&
             verifying_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    result_ = verifying_.get();
    state_ = State::Idle;
  }
}

}  // namespace demo
