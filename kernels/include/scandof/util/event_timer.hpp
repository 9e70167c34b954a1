// GPU timing with CUDA events, two ways:
//  - EventTimer::measure: the benchmarks' rule (warm-up, many back-to-back repetitions bracketed by
//    event pairs, one synchronize, median). For benchmarks, tests and "time this now" buttons.
//  - EventRing: per-frame timers for a loop that must never wait on the GPU. Each frame records its
//    marks into one slot of a ring; a slot is read only once cudaEventQuery says its last mark has
//    passed, normally a frame or two later, as GL timer queries are read. Costs one event record
//    per mark and never a synchronize.
// CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/util/stats.hpp"
#include "scandof/util/stream.hpp"

namespace scandof {
namespace util {

struct TimingOptions {
  int warmup = 5;            // untimed calls first: module loading, clocks, lazy allocations
  int min_reps = 50;         // never fewer timed calls than this
  int max_reps = 5000;       // bounds run time and the event pool at tiny sizes
  double min_total_ms = 20;  // short calls repeat until their sum reaches this
};

// All repetitions are enqueued before one synchronize, so the GPU runs them back to back and each
// pair brackets only the GPU's time for that call (plus the launch cost when the GPU outruns the
// host, which is the honest cost of a call at tiny sizes). Events are created once and reused.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {}

  // fn(rep) enqueues one call on the timer's stream; rep counts up from 0 across warm-up and timed
  // calls so the caller can rotate buffer sets with it.
  template <class Fn>
  Stats measure(Fn&& fn, const TimingOptions& opt = TimingOptions()) {
    int rep = 0;
    for (int i = 0; i < opt.warmup; ++i) fn(rep++);
    ensure_events(2);
    events_[0].record(stream_);
    fn(rep++);
    events_[1].record(stream_);
    const float probe = events_[1].since(events_[0]);
    int reps = opt.min_reps;
    if (probe > 0) {
      const double want = std::ceil(opt.min_total_ms / probe);
      if (want > reps) reps = static_cast<int>(std::min<double>(want, opt.max_reps));
    }
    reps = std::max(1, std::min(reps, std::max(opt.max_reps, opt.min_reps)));
    ensure_events(2 * static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
      events_[2 * i].record(stream_);
      fn(rep++);
      events_[2 * i + 1].record(stream_);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> ms(reps);
    for (int i = 0; i < reps; ++i) ms[i] = events_[2 * i + 1].since(events_[2 * i]);
    return summarize(std::move(ms));
  }

  // The same calls without their launch costs: fn(0) .. fn(calls - 1) are captured once into a
  // CUDA graph, the graph is replayed by measure() (so with opt's warm-up and repetitions), and
  // each statistic is divided by `calls`. A stream launch costs the GPU about a microsecond per
  // kernel on top of the kernel; a replayed graph submits its kernels together, so this is the
  // time of the work itself, what a caller that replays the calls from a graph pays. fn must be
  // capturable (no allocation, no synchronization): run it once before, so lazy setup is done.
  template <class Fn>
  Stats measure_graph(Fn&& fn, int calls, const TimingOptions& opt = TimingOptions()) {
    calls = std::max(calls, 1);
    cudaGraph_t graph = nullptr;
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      for (int k = 0; k < calls; ++k) fn(k);
    } catch (...) {
      cudaStreamEndCapture(stream_, &graph);  // leaves the stream usable; the error is fn's
      if (graph) cudaGraphDestroy(graph);
      throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(made);
    struct ExecGuard {
      cudaGraphExec_t e;
      ~ExecGuard() { cudaGraphExecDestroy(e); }
    } guard{exec};
    Stats st = measure([&](int) { CUDA_CHECK(cudaGraphLaunch(exec, stream_)); }, opt);
    st.median_ms /= calls;
    st.min_ms /= calls;
    st.max_ms /= calls;
    st.mean_ms /= calls;
    return st;
  }

  // A fixed count of timed calls after `warmup`, each timed alone: for callers that report every
  // sample (scantool --reps) rather than a summary.
  template <class Fn>
  std::vector<double> samples(Fn&& fn, int reps, int warmup = 1) {
    int rep = 0;
    for (int i = 0; i < warmup; ++i) fn(rep++);
    ensure_events(2 * static_cast<std::size_t>(std::max(reps, 1)));
    for (int i = 0; i < reps; ++i) {
      events_[2 * i].record(stream_);
      fn(rep++);
      events_[2 * i + 1].record(stream_);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> ms(std::max(reps, 0));
    for (int i = 0; i < reps; ++i) ms[i] = events_[2 * i + 1].since(events_[2 * i]);
    return ms;
  }

 private:
  void ensure_events(std::size_t count) {
    while (events_.size() < count) events_.emplace_back();
  }
  cudaStream_t stream_;
  std::vector<Event> events_;
};

// marks per frame, `depth` frames in flight. Usage per frame:
//   ring.record(0, s); ...stage A...; ring.record(1, s); ...stage B...; ring.record(2, s);
//   ring.next_frame();
//   if (ring.poll(ms)) { ms[0] = A, ms[1] = B }     // from the newest completed frame
class EventRing {
 public:
  explicit EventRing(int marks, int depth = 4)
      : marks_(std::max(2, marks)),
        depth_(std::max(2, depth)),
        events_(marks_ * depth_),
        recorded_(depth_, 0) {}

  int marks() const { return marks_; }

  // Records mark `m` of the current frame. A mark left unrecorded in a frame makes that frame's
  // intervals touching it read as 0.
  void record(int m, cudaStream_t s) {
    if (m < 0 || m >= marks_) return;
    events_[slot_ * marks_ + m].record(s);
    recorded_[slot_] |= 1u << m;
  }

  // Seals the current frame. If the ring is full, the frame about to be overwritten is harvested
  // first; it is depth-1 frames old and, on any GPU that keeps up, long finished.
  void next_frame() {
    pending_.push_back(slot_);
    slot_ = (slot_ + 1) % depth_;
    if (static_cast<int>(pending_.size()) >= depth_) harvest(/*wait=*/true);
    recorded_[slot_] = 0;
  }

  // Reads every sealed frame whose last mark has passed, without waiting; on true `ms` holds the
  // marks-1 intervals of the newest such frame.
  bool poll(std::vector<float>& ms) {
    harvest(/*wait=*/false);
    if (!have_) return false;
    ms = latest_;
    have_ = false;
    return true;
  }

 private:
  void harvest(bool wait_oldest) {
    while (!pending_.empty()) {
      const int s = pending_.front();
      const int last = last_mark(s);
      if (last >= 0) {
        Event& e = events_[s * marks_ + last];
        if (wait_oldest && static_cast<int>(pending_.size()) >= depth_)
          e.sync();
        else if (!e.done())
          break;
        latest_.assign(marks_ - 1, 0.0f);
        for (int m = 0; m + 1 < marks_; ++m) {
          const unsigned both = (1u << m) | (1u << (m + 1));
          if ((recorded_[s] & both) != both) continue;
          latest_[m] = events_[s * marks_ + m + 1].since(events_[s * marks_ + m]);
        }
        have_ = true;
      }
      recorded_[s] = 0;
      pending_.erase(pending_.begin());
    }
  }
  int last_mark(int s) const {
    for (int m = marks_ - 1; m >= 0; --m)
      if (recorded_[s] & (1u << m)) return m;
    return -1;
  }

  int marks_, depth_;
  std::vector<Event> events_;
  std::vector<unsigned> recorded_;
  std::vector<int> pending_;
  std::vector<float> latest_;
  int slot_ = 0;
  bool have_ = false;
};

}  // namespace util
}  // namespace scandof
