// What a soak (automation/soak.*) keeps for the report: memory samples as a bounded time series,
// the faults it provoked with their outcome, and the flat-or-not verdict. diagnostics/report.cpp
// writes it as the report's "soak" object.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "passes/mem_probe.hpp"

namespace demo {

struct SoakSample {
  long long frame = 0;
  double t_s = 0;  // since the soak started
  int width = 0, height = 0;
  bool canonical = false;  // taken at the canonical state (the start settings and size)
  std::string config;      // backend/method/variant/dof/view/msaa/pipeline/format of the frame
  MemSample mem;
};

// At most `capacity` samples however long the run: when full, every other sample is dropped and
// from then on only every second one offered is kept (the stride doubles again at the next fill),
// so the series stays evenly spaced over the whole run. capacity >= 2.
class DecimatingSeries {
 public:
  explicit DecimatingSeries(std::size_t capacity) : capacity_(capacity) {}
  void add(const SoakSample& s) {
    const std::size_t index = offered_++;
    if (index % stride_ != 0) return;
    if (items_.size() == capacity_) {
      // Items kept are those whose index is a multiple of the stride: the even positions are the
      // multiples of twice it.
      std::size_t k = 0;
      for (std::size_t i = 0; i < items_.size(); i += 2) items_[k++] = items_[i];
      items_.resize(k);
      stride_ *= 2;
      if (index % stride_ != 0) return;
    }
    items_.push_back(s);
  }
  const std::vector<SoakSample>& items() const { return items_; }
  std::size_t stride() const { return stride_; }

 private:
  std::size_t capacity_;
  std::size_t stride_ = 1;
  std::size_t offered_ = 0;
  std::vector<SoakSample> items_;
};

struct SoakFaultEvent {
  std::string fault;  // the --inject-fault name, or what happened (e.g. "screenshot")
  long long frame = 0;
  std::string message;
  bool recovered = false;
};

// The flat-or-not verdict over the canonical samples after the warm-up.
struct SoakVerdict {
  std::string warmup;  // "first 60 s" or "first 10% of frames"
  int samples = 0;     // canonical samples after the warm-up
  // Drift: |median of the last third - median of the first third| / the first; -1: not measured.
  double rss_dev = -1, cuda_dev = -1, nvx_dev = -1;
  double heap_dev = -1;  // the heap in use (told, not judged: RSS covers it)
  // Largest |sample - median of the first third| / that median.
  double rss_worst = -1, cuda_worst = -1, nvx_worst = -1, heap_worst = -1;
  double limit = 0.01;  // of the drift (--soak-flat-limit)
  bool rss_flat = true, gpu_flat = true, gl_flat = true, fds_flat = true;
  bool enough = false;  // at least four samples after the warm-up
  bool flat() const { return enough && rss_flat && gpu_flat && gl_flat && fds_flat; }
  std::string line;  // the summary line
};

struct SoakReport {
  long long frames = 0;  // rendered
  long long skipped_passes = 0;  // loop passes without a frame (minimised)
  double seconds = 0;
  int switch_every = 0, resize_every = 0;
  std::string vary;  // what the switches change (--soak-vary)
  unsigned long long seed = 0;
  int switches = 0, resizes = 0, refused_resizes = 0;
  int verifies = 0, verify_failures = 0;
  int references = 0, primitive_runs = 0, screenshots = 0, screenshot_failures = 0;
  int cpu_dof_capped = 0;  // switches whose CPU-gold DoF was replaced by gather/box (large frames)
  std::vector<SoakFaultEvent> events;
  std::vector<SoakSample> samples;    // one per switch (bounded)
  std::vector<SoakSample> canonical;  // the canonical ones (bounded)
  std::size_t sample_stride = 1, canonical_stride = 1;
  SoakVerdict verdict;
};

}  // namespace demo
