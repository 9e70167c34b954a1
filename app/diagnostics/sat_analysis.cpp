#include "diagnostics/sat_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <utility>

#include "scandof/sat.hpp"
#include "scandof/util/stats.hpp"

namespace demo {

std::vector<VariantTiming> compare_variants(SatStage& sat, const Settings& s, int reps) {
  std::vector<std::pair<scandof::ScanAlgorithm, scandof::SatMethod>> runs;
  for (int i = 0; i < scandof::kNumScanAlgorithms; ++i)
    runs.emplace_back(static_cast<scandof::ScanAlgorithm>(i), scandof::SatMethod::Paper);
  for (int m = 1; m < scandof::kNumSatMethods; ++m)
    runs.emplace_back(scandof::ScanAlgorithm::Cub, static_cast<scandof::SatMethod>(m));
  std::vector<VariantTiming> out;
  std::vector<std::string> seen;  // GL: several library variants share one GL variant
  for (auto [variant, method] : runs) {
    Settings cfg = s;
    cfg.variant = variant;
    cfg.method = method;
    VariantTiming vt;
    if (sat.using_gl()) {
      vt.name = std::string("GL ") + to_string(gl_variant_of(cfg));
      if (std::find(seen.begin(), seen.end(), vt.name) != seen.end()) continue;
      seen.push_back(vt.name);
    } else {
      vt.name = sat.kind() == SatBackend::Cpu         ? std::string("CPU fallback")
                : method != scandof::SatMethod::Paper ? std::string(scandof::to_string(method))
                                                      : std::string(scandof::to_string(variant));
    }
    vt.variant = variant;
    vt.method = method;
    std::vector<SatTimes> all;
    try {
      sat.build(cfg, SatTiming::Wait);  // warm-up (first launch, scratch allocation)
      for (int r = 0; r < reps; ++r) {
        sat.build(cfg, SatTiming::Wait);
        all.push_back(sat.times());
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "[compare] %s failed: %s\n", vt.name.c_str(), e.what());
      continue;
    }
    for (float SatTimes::*f :
         {&SatTimes::map_ms, &SatTimes::unmap_ms, &SatTimes::map_gpu_ms, &SatTimes::unmap_gpu_ms,
          &SatTimes::deinterleave_ms, &SatTimes::row_scan_ms, &SatTimes::transpose_ms,
          &SatTimes::column_scan_ms, &SatTimes::transpose_back_ms, &SatTimes::build_ms,
          &SatTimes::readback_ms, &SatTimes::cpu_build_ms, &SatTimes::upload_ms}) {
      std::vector<float> v;
      for (const SatTimes& t : all) v.push_back(t.*f);
      vt.median.*f = static_cast<float>(scandof::util::median_of(v));
    }
    out.push_back(vt);
    if (sat.kind() == SatBackend::Cpu) break;  // the CPU ignores the variant: one row says it all
  }
  // Leave the current settings' tables in the buffer, and their times in sat.times(): a plain build
  // would report the stage times of the last compared variant (GL reads its timers a few builds
  // late), which the overlay showed under the current method's name.
  sat.build(s, SatTiming::Wait);
  return out;
}

bool verify_sat(SatStage& sat, const Settings& s, const FrameTargets& t, std::string* message) {
  Settings exact = s;
  exact.format = scandof::SatFormat::U32;
  sat.build(exact);
  const std::vector<uint32_t> got = sat.read_u32();
  sat.build(s);
  const int w = sat.width(), h = sat.height();
  std::vector<uint32_t> want(got.size());
  std::string what = "8-bit frame";
  if (t.hdr()) {
    // The HDR frame: the same fixed point as the build, the gold's own clamp count beside it.
    const std::vector<float> radiance = t.read_rgba_f32(t.color());
    // The tables compared are `exact`'s: a U32 gather clamps at the bokeh's threshold where the
    // F32 settings would not, so the gold takes its fixed point from them, not from `s`.
    const scandof::SatFixedPoint fp = table_fixed_point(exact);
    const uint64_t clamped = scandof::sat_gold_hdr(radiance.data(), w, h, fp, want.data());
    what = "HDR frame, " + std::to_string(fp.frac_bits) + " fraction bits, limit " +
           std::to_string(fp.max_radiance()) + ", " + std::to_string(clamped) + " pixels clamped";
    if (bokeh_threshold(exact) > 0.0f)  // the tables clamp at the bokeh's threshold
      what += " (the bokeh's threshold: the rest of their light is spread)";
  } else {
    const std::vector<uint8_t> rgba = t.read_rgba(t.color());
    scandof::sat_gold(rgba.data(), w, h, want.data());
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  char buf[512];
  if (bad == 0) {
    std::snprintf(
        buf, sizeof buf,
        "SAT verify OK: %dx%d x 3 channels, %zu uint32 elements equal the CPU SAT exactly "
        "(%s, variant %s, method %s; %s)",
        w, h, got.size(), sat.backend().c_str(), scandof::to_string(s.variant),
        scandof::to_string(s.method), what.c_str());
  } else {
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    std::snprintf(
        buf, sizeof buf,
        "SAT verify FAILED: %zu of %zu elements differ; first at channel %zu x %zu y %zu: "
        "got %u, want %u (%s, variant %s)",
        bad, got.size(), first / plane, first % plane % w, first % plane / w, got[first],
        want[first], sat.backend().c_str(), scandof::to_string(s.variant));
  }
  *message = buf;
  return bad == 0;
}

double float_box_error(SatStage& sat, const Settings& s, int max_radius, int boxes) {
  Settings cfg = s;
  cfg.format = scandof::SatFormat::U32;
  cfg.dof_bokeh = 0.0f;  // the whole radiance in both tables (the bokeh's split clamps the U32 one)
  sat.build(cfg);
  const std::vector<uint32_t> exact = sat.read_u32();
  cfg.format = scandof::SatFormat::F32;
  sat.build(cfg);
  const std::vector<float> approx = sat.read_f32();
  sat.build(s);
  const int w = sat.width(), h = sat.height();
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  // The exact table's unit: a level of 255 (RGBA8 frame), 2^-F radiance (HDR frame), which is
  // what the float table holds.
  const double unit = hdr(s) ? std::ldexp(1.0, -fixed_point(s).frac_bits) : 1.0;
  auto at_u = [&](int c, int x, int y) -> uint32_t {
    return (x < 0 || y < 0) ? 0u : exact[c * plane + static_cast<std::size_t>(y) * w + x];
  };
  auto at_f = [&](int c, int x, int y) -> float {
    return (x < 0 || y < 0) ? 0.0f : approx[c * plane + static_cast<std::size_t>(y) * w + x];
  };
  // std::mt19937 with the seed the published numbers were measured with (same boxes, same value).
  std::mt19937 rng(12345);
  double worst = 0;
  for (int i = 0; i < boxes; ++i) {
    int r = 1 + static_cast<int>(rng() % static_cast<unsigned>(std::max(1, max_radius)));
    int px = static_cast<int>(rng() % static_cast<unsigned>(w));
    int py = static_cast<int>(rng() % static_cast<unsigned>(h));
    int x0 = std::max(px - r - 1, -1), x1 = std::min(px + r, w - 1);
    int y0 = std::max(py - r - 1, -1), y1 = std::min(py + r, h - 1);
    double area = static_cast<double>(x1 - x0) * (y1 - y0);
    for (int c = 0; c < 3; ++c) {
      uint32_t su = at_u(c, x1, y1) - at_u(c, x0, y1) - at_u(c, x1, y0) + at_u(c, x0, y0);
      // The shader's float arithmetic: corner differences in float.
      float sf = at_f(c, x1, y1) - at_f(c, x0, y1) - at_f(c, x1, y0) + at_f(c, x0, y0);
      worst = std::max(worst, std::abs(static_cast<double>(sf) - su * unit) / area);
    }
  }
  return worst;
}

}  // namespace demo
