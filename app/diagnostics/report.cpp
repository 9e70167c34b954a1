#include "diagnostics/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "diagnostics/quality.hpp"
#include "scandof/provenance.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/stats.hpp"

namespace demo {

RunMedians run_medians(const std::string& variant, const std::vector<FrameTimes>& frames,
                       bool cuda) {
  RunMedians m;
  m.variant = variant;
  m.frames = static_cast<int>(frames.size());
  auto add = [&](const char* key, const std::function<float(const FrameTimes&)>& get) {
    std::vector<float> v;
    for (const auto& f : frames) v.push_back(get(f));
    m.stages.emplace_back(key, static_cast<float>(scandof::util::median_of(v)));
  };
  add("scene_gl_ms", [](const FrameTimes& f) { return f.scene_ms; });
  add("tonemap_gl_ms", [](const FrameTimes& f) { return f.tonemap_ms; });
  // The second depth layer's pass (passes/peel_pass.*), in runs that render it.
  if (std::any_of(frames.begin(), frames.end(), [](const FrameTimes& f) { return f.peel_ms > 0; }))
    add("peel_gl_ms", [](const FrameTimes& f) { return f.peel_ms; });
  if (cuda) {
    add("interop_map_host_ms", [](const FrameTimes& f) { return f.sat.map_ms; });
    add("interop_unmap_host_ms", [](const FrameTimes& f) { return f.sat.unmap_ms; });
    add("interop_map_unmap_host_ms",
        [](const FrameTimes& f) { return f.sat.map_ms + f.sat.unmap_ms; });
    add("interop_map_stream_ms", [](const FrameTimes& f) { return f.sat.map_gpu_ms; });
    add("interop_unmap_stream_ms", [](const FrameTimes& f) { return f.sat.unmap_gpu_ms; });
    add("deinterleave_ms", [](const FrameTimes& f) { return f.sat.deinterleave_ms; });
    add("row_scan_ms", [](const FrameTimes& f) { return f.sat.row_scan_ms; });
    add("transpose_ms", [](const FrameTimes& f) { return f.sat.transpose_ms; });
    add("column_scan_ms", [](const FrameTimes& f) { return f.sat.column_scan_ms; });
    add("transpose_back_ms", [](const FrameTimes& f) { return f.sat.transpose_back_ms; });
    add("sat_total_ms", [](const FrameTimes& f) { return f.sat.build_ms; });
  } else {
    add("readback_ms", [](const FrameTimes& f) { return f.sat.readback_ms; });
    add("cpu_sat_ms", [](const FrameTimes& f) { return f.sat.cpu_build_ms; });
    add("upload_ms", [](const FrameTimes& f) { return f.sat.upload_ms; });
    add("sat_total_ms", [](const FrameTimes& f) { return f.sat.build_ms; });
  }
  // The frame budget, one key per stage; the DoF key names the pass that ran (the last frame's).
  add("interop_ms", [](const FrameTimes& f) { return f.interop_ms; });
  add("sat_ms", [](const FrameTimes& f) { return f.sat_ms; });
  const DofRoute route = frames.empty() ? DofRoute::FragmentGl : frames.back().dof_route;
  m.dof_pass = to_string(route);
  const bool cpu = route == DofRoute::CpuGold;
  const bool compute = route == DofRoute::ComputeGl || route == DofRoute::ComputeCuda;
  add(cpu       ? "dof_cpu_ms"
      : compute ? "dof_compute_ms"
                : "dof_fragment_ms",
      [](const FrameTimes& f) { return f.dof_ms; });
  m.dof_ms = m.stages.back().second;
  add("frame_gpu_ms", [](const FrameTimes& f) { return f.frame_gpu_ms; });
  add("frame_gpu_all_ms", [](const FrameTimes& f) { return f.frame_gpu_all_ms; });
  add("frame_cpu_ms", [](const FrameTimes& f) { return f.frame_cpu_ms; });
  add("frame_interval_ms", [](const FrameTimes& f) { return f.frame_interval_ms; });
  return m;
}

namespace {
// The soak's section: counts, fault outcomes, the verdict and both bounded series (one sample per
// switch; the canonical ones the verdict is taken over). -1 marks a quantity this machine cannot
// measure (no CUDA device, no GL_NVX_gpu_memory_info).
nlohmann::ordered_json soak_json(const SoakReport& r) {
  nlohmann::ordered_json j;
  j["frames"] = r.frames;
  j["seconds"] = r.seconds;
  j["passes_minimised"] = r.skipped_passes;
  j["switch_every"] = r.switch_every;
  j["resize_every"] = r.resize_every;
  j["vary"] = r.vary;
  j["seed"] = r.seed;
  j["switches"] = r.switches;
  j["resizes"] = r.resizes;
  j["refused_resizes"] = r.refused_resizes;
  j["verifies"] = r.verifies;
  j["verify_failures"] = r.verify_failures;
  j["references"] = r.references;
  j["primitive_runs"] = r.primitive_runs;
  j["screenshots"] = r.screenshots;
  j["screenshot_failures"] = r.screenshot_failures;
  j["cpu_dof_capped_switches"] = r.cpu_dof_capped;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const SoakFaultEvent& e : r.events)
    events.push_back({{"fault", e.fault},
                      {"frame", e.frame},
                      {"recovered", e.recovered},
                      {"message", e.message}});
  j["faults"] = std::move(events);
  const SoakVerdict& v = r.verdict;
  j["verdict"] = {{"flat", v.flat()},
                  {"enough_samples", v.enough},
                  {"warmup", v.warmup},
                  {"samples_after_warmup", v.samples},
                  {"rss_drift", v.rss_dev},
                  {"cuda_drift", v.cuda_dev},
                  {"nvx_drift", v.nvx_dev},
                  {"heap_drift", v.heap_dev},
                  {"rss_max_deviation", v.rss_worst},
                  {"cuda_max_deviation", v.cuda_worst},
                  {"nvx_max_deviation", v.nvx_worst},
                  {"heap_max_deviation", v.heap_worst},
                  {"drift", "median of the last third of the samples after the warm-up vs the "
                            "median of the first third, relative"},
                  {"limit", v.limit},
                  {"rss_flat", v.rss_flat},
                  {"gpu_flat", v.gpu_flat},
                  {"gl_objects_flat", v.gl_flat},
                  {"fds_flat", v.fds_flat},
                  {"line", v.line}};
  auto series = [](const std::vector<SoakSample>& v) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const SoakSample& s : v) {
      const GlObjectCounts& g = s.mem.gl;
      a.push_back({{"frame", s.frame},
                   {"t_s", s.t_s},
                   {"width", s.width},
                   {"height", s.height},
                   {"canonical", s.canonical},
                   {"config", s.config},
                   {"rss_bytes", s.mem.rss_bytes},
                   {"rss_anon_bytes", s.mem.rss_anon_bytes},
                   {"rss_file_bytes", s.mem.rss_file_bytes},
                   {"heap_bytes", s.mem.heap_bytes},
                   {"cuda_used_bytes", s.mem.cuda_used_bytes},
                   {"cuda_total_bytes", s.mem.cuda_total_bytes},
                   {"nvx_used_kib", s.mem.nvx_used_kib},
                   {"fds", s.mem.fds},
                   {"gl_objects",
                    {{"textures", g.textures},
                     {"buffers", g.buffers},
                     {"framebuffers", g.framebuffers},
                     {"programs", g.programs},
                     {"queries", g.queries},
                     {"vertex_arrays", g.vertex_arrays}}}});
    }
    return a;
  };
  j["sample_stride_switches"] = r.sample_stride;
  j["samples"] = series(r.samples);
  j["canonical_stride"] = r.canonical_stride;
  j["canonical_samples"] = series(r.canonical);
  return j;
}
}  // namespace

void write_report(const std::string& path, const ReportInput& in) {
  const App& app = *in.app;
  const Settings& s = app.settings();
  nlohmann::ordered_json j;
  j["tool"] = "scandof --headless";
  j["device"] = app.sat().device_name();
  j["record"] = scandof::provenance::record(app.sat().device_name());
  j["sat_backend"] = app.sat().backend();
  if (!app.sat().hint().empty()) j["sat_backend_hint"] = app.sat().hint();
  j["gl"] = in.gl;
  j["width"] = app.width();
  j["height"] = app.height();
  j["frames"] = in.frames;
  j["focus"] = s.focus_distance;
  j["aperture"] = s.aperture;
  j["max_radius"] = s.max_radius;
  j["pipeline"] = to_string(s.pipeline);
  if (hdr(s)) {
    const scandof::SatFixedPoint fp = fixed_point(s);
    j["hdr"] = {{"tone_mapper", scandof::to_string(s.tone_mapper)},
                {"auto_exposure", s.auto_exposure},
                {"exposure_ev", s.exposure_ev},
                {"highlight", s.highlight},
                {"fraction_bits", fp.frac_bits},
                {"limit_radiance", fp.max_radiance()},
                // With the bokeh split on, the tables clamp at its threshold: the count is then
                // the pixels above it (the bokeh's sources), not those above the limit.
                {"clamped_pixels", app.sat().clamped()},
                {"bokeh_threshold", bokeh_threshold(s)}};
  }
  j["format"] = scandof::to_string(s.format);
  j["method"] = scandof::to_string(s.method);
  j["dof"] = std::string(scandof::dof::to_string(s.dof_method)) + "/" +
             scandof::dof::to_string(s.dof_shape);
  j["disc_boxes"] = s.disc_boxes;
  j["layers"] = s.layers;
  j["physical"] = s.physical;
  if (s.physical)
    j["lens"] = {{"focal_length_mm", s.lens.focal_length_mm},
                 {"f_number", s.lens.f_number},
                 {"sensor_width_mm", s.lens.sensor_width_mm},
                 {"scene_unit", "1 m"}};
  j["msaa"] = app.targets().msaa();
  j["anisotropy"] = s.anisotropy;
  j["scene_shading"] = app.deferred_planes_active() ? "deferred planes" : "forward";
  j["scene_shading_asked"] = to_string(s.scene_shading);
  j["reference_samples"] = s.reference_samples;
  j["reference_clamped"] = s.reference_clamp;
  j["quality_note"] = std::string(kSsimNote) +
                      "; reference = mean of reference_samples renders through a thin lens of "
                      "radius lens_radius = A z_f / f_px (Fibonacci points), lens shift " +
                      (s.reference_clamp ? "clamped at max_radius as the methods' CoC"
                                         : "not clamped (a real lens)") +
                      "; psnr 999 = identical images";
  if (!in.reference_png.empty()) j["reference_png"] = in.reference_png;
  if (app.measured().float_error >= 0) j["float32_max_box_error"] = app.measured().float_error;
  if (in.verify_ok >= 0) j["verify"] = {{"ok", in.verify_ok == 1}, {"message", in.verify_message}};
  j["note"] =
      "medians over frames after 5 warm-up frames (over a uniform sample of 8192 of them where a "
      "run measures more); GL stages from GL timestamp queries, SAT and "
      "compute-DoF stages from CUDA events (both read a few frames late, never waiting), interop "
      "map/unmap as host wall time (one map call per frame for colour, SAT buffer, view z and "
      "output) and as stream time (interop_ms); frame_gpu_ms = GPU time from scene start to DoF "
      "end; frame_gpu_all_ms = GPU time of all the frame's work (its clears included) to DoF end; "
      "frame_cpu_ms = host wall time of one frame; frame_interval_ms = host time from one frame's "
      "start to the next (two frames in flight)";
  if (in.primitives && !in.primitives->empty()) {
    j["primitives_note"] =
        "library vs CUB on the same uint32 input: medians of the timed runs "
        "after " +
        std::to_string(kPrimWarmups) +
        " warm-ups (CUDA events), bytes = reads + writes once, cub_over_lib > "
        "1: library faster, both outputs checked against the CPU reference";
    j["primitives"] = primitives_json(*in.primitives);
  }
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const RunMedians& r : in.runs) {
    nlohmann::ordered_json o;
    o["variant"] = r.variant;
    o["frames"] = r.frames;
    o["dof_pass"] = r.dof_pass;
    if (!r.dof.empty()) o["dof"] = r.dof;
    o["dof_ms"] = r.dof_ms;
    if (!r.dof_message.empty()) o["dof_message"] = r.dof_message;
    for (const auto& [k, v] : r.stages) o[k] = v;
    if (r.quality.valid) {
      // NaN (an empty edge band) and +inf (identical images) are not JSON numbers: null / 999.
      auto num = [](double v) -> nlohmann::ordered_json {
        if (std::isnan(v)) return nullptr;
        return std::isinf(v) ? 999.0 : v;
      };
      const QualityResult& q = r.quality;
      o["quality"] = {{"psnr_db", num(q.q.psnr_db)},
                      {"ssim", num(q.q.ssim)},
                      {"edge_psnr_db", num(q.q.edge_psnr_db)},
                      {"edge_ssim", num(q.q.edge_ssim)},
                      {"reference_samples", q.reference_samples},
                      {"dof_pass", q.dof_path},
                      {"reference_ms", q.reference_ms},
                      {"reference_render_ms", q.reference_render_ms},
                      {"edge_pixels", q.q.edge_pixels},
                      {"edge_radius_px", q.edge_radius},
                      {"lens_radius", q.lens_radius}};
      if (q.hdr) {
        // Scores above are of the tone-mapped images; these of the radiance.
        o["quality"]["exposure_ev"] = q.exposure_ev;
        o["quality"]["highlight_energy_error"] = num(q.highlight.relative_error);
        o["quality"]["highlight_energy_signed"] = num(q.highlight.signed_error);
        o["quality"]["highlight_pixels"] = q.highlight.pixels;
        o["quality"]["log_luminance_psnr_db"] = num(q.log_luminance_psnr_db);
      }
    }
    runs.push_back(std::move(o));
  }
  j["runs"] = std::move(runs);
  if (in.soak) j["soak"] = soak_json(*in.soak);
  scandof::util::write_text_file(path, j.dump(2) + "\n");
  std::fprintf(stderr, "[scandof] report written: %s\n", path.c_str());
}

}  // namespace demo
