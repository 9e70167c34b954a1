// Summary statistics of repeated timings. Every program in the project reports medians (robust to
// the odd preempted run) and min/max beside them; this is the one place that computes them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace scandof {
namespace util {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  int reps = 0;
};

// Linear interpolation between the two nearest ranks (numpy's default); q in [0, 1].
// Empty input gives 0, so a report with no samples shows zeros rather than garbage.
inline double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  q = std::min(1.0, std::max(0.0, q));
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(v.size() - 1, lo + 1);
  const double t = pos - static_cast<double>(lo);
  return v[lo] + t * (v[hi] - v[lo]);
}

inline double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

template <class T>
double median_of(const std::vector<T>& v) {
  return median(std::vector<double>(v.begin(), v.end()));
}

inline Stats summarize(std::vector<double> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.median_ms = percentile(ms, 0.5);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  double sum = 0;
  for (double v : ms) sum += v;
  s.mean_ms = sum / static_cast<double>(ms.size());
  s.reps = static_cast<int>(ms.size());
  return s;
}

}  // namespace util
}  // namespace scandof
