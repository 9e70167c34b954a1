#include "diagnostics/live_compare.hpp"

#include <algorithm>
#include <chrono>

#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"

namespace demo {

// The overlay's live bars: every kLiveEvery-th frame one configuration (naive, work-efficient,
// the current variant if another, fused) is built once more on the current frame with a waited
// timing, then the current configuration is built again so the tables (f32 differ per variant)
// and the next frame's stage times are the current configuration's. Cost per timed frame: two
// SAT builds and one wait for the stream (the map also waits for GL's DoF pass): on a GPU where a
// build takes 0.03..0.3 ms this is well under a millisecond; the overlay shows the measured cost.
namespace {
constexpr int kLiveEvery = 2;
}  // namespace

void live_compare_step(App& app, LiveCompare* lc, long long frame_no) {
  if (app.sat().kind() == SatBackend::Cpu) {
    lc->entries.clear();
    return;
  }
  using scandof::SatMethod;
  using scandof::ScanAlgorithm;
  const Settings& s = app.settings();
  struct Want {
    std::string name;
    ScanAlgorithm v;
    SatMethod m;
  };
  std::vector<Want> want = {{"naive", ScanAlgorithm::Naive, SatMethod::Paper},
                            {"work-efficient", ScanAlgorithm::WorkEfficient, SatMethod::Paper}};
  if (s.method == SatMethod::Paper && s.variant != ScanAlgorithm::Naive &&
      s.variant != ScanAlgorithm::WorkEfficient)
    want.push_back({scandof::to_string(s.variant), s.variant, SatMethod::Paper});
  want.push_back({"fused (fastest)", ScanAlgorithm::Cub, SatMethod::Fused});
  bool same = want.size() == lc->entries.size();
  for (std::size_t i = 0; same && i < want.size(); ++i) same = want[i].name == lc->entries[i].name;
  if (!same) {
    std::vector<LiveCompare::Entry> e;
    for (const Want& w : want) {
      LiveCompare::Entry x{w.name, w.v, w.m, {}, 0};
      for (const auto& old : lc->entries)
        if (old.name == w.name) x = old;
      e.push_back(x);
    }
    lc->entries = std::move(e);
    lc->next = 0;
  }
  if (frame_no % kLiveEvery != 0) return;
  LiveCompare::Entry& e = lc->entries[lc->next++ % lc->entries.size()];
  Settings cfg = s;
  cfg.variant = e.variant;
  cfg.method = e.method;
  const auto t0 = std::chrono::steady_clock::now();
  e.build_ms.push_back(retime_sat(app, cfg));
  const float cost = ms_since(t0);
  lc->cost_ms = lc->cost_ms > 0 ? 0.9f * lc->cost_ms + 0.1f * cost : cost;
  if (e.build_ms.size() > LiveCompare::kSamples) e.build_ms.pop_front();
  std::vector<float> v(e.build_ms.begin(), e.build_ms.end());
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  e.median_ms = v[v.size() / 2];
}

}  // namespace demo
