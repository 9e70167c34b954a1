#include "automation/automation.hpp"
#include "scandof/tonemap.hpp"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "automation/method_sheet.hpp"
#include "automation/screenshot_path.hpp"
#include "diagnostics/sat_analysis.hpp"
#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "passes/image_io.hpp"
#include "passes/scene_layout.hpp"
#include "ui/panels.hpp"

namespace demo {

Automation::Automation(const Options& o, bool headless) : o_(o), headless_(headless) {}

// ---- The window loop ------------------------------------------------------------------------------

void Automation::first_frame_requests(Requests* req) const {
  req->compare_variants = o_.compare;
  req->run_primitives = o_.primitives;
  req->compare_reference = o_.quality;  // --reference N / --quality: "Compare with reference"
}

std::optional<WindowChange> Automation::resize_step(long long loop_no) const {
  if (!o_.exercise_resize) return std::nullopt;
  switch (loop_no) {
    case 4:
      return WindowChange{WindowChange::Resize, 701, 433};
    case 8:
      return WindowChange{WindowChange::Iconify};  // a 0x0 framebuffer on a real desktop
    case 12:
      return WindowChange{WindowChange::Restore};
    case 16:
      return WindowChange{WindowChange::Resize, 517, 389};
    default:
      return std::nullopt;
  }
}

std::string Automation::screenshot_key(const App& app, bool* error) {
  // The window knows the folder and shows the absolute path (or the error) in a toast.
  try {
    const std::string path = next_screenshot_path(o_.screenshot_dir, &shot_no_);
    app.screenshot(path);
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%dx%d, without panels)", app.width(), app.height());
    *error = false;
    return "Screenshot saved: " + path + buf;
  } catch (const std::exception& e) {
    *error = true;
    const std::string msg = std::string("Screenshot failed: ") + e.what();
    std::fprintf(stderr, "[scandof] %s\n", msg.c_str());
    return msg;
  }
}

bool Automation::ui_selftest_step(UiCheck* c, float display_h) {
  if (c->sidebar_scroll >= c->sidebar_scroll_max) {
    // ImGui's scroll range is last frame's content: wait until it holds still at the bottom
    // (at 1280x720 in HDR the sidebar grew 51 px in its last frames, leaving the last control
    // below the window when the check ended).
    if (c->sidebar_scroll_max != c->bottom_max) {
      c->bottom_max = c->sidebar_scroll_max;
      c->frames_at_bottom = 0;
    }
    if (++c->frames_at_bottom < 3) return false;
    int reached = 0;
    for (const auto& [key, it] : c->items) {
      if (it.reached) {
        ++reached;
        std::printf("ui-selftest: ok [%s] %s\n", it.window.c_str(), it.label.c_str());
      } else {
        std::printf("ui-selftest: NOT reachable: [%s] %s\n", it.window.c_str(), it.label.c_str());
      }
    }
    std::printf("ui-selftest: %d of %zu controls reachable (sidebar scrolled 0..%.0f px)\n",
                reached, c->items.size(), c->sidebar_scroll_max);
    ui_selftest_over_ = true;
    if (c->items.empty() || reached != static_cast<int>(c->items.size())) {
      failed_ = true;
      std::printf("UI selftest: FAILED: %zu of %zu controls not reachable\n",
                  c->items.size() - static_cast<std::size_t>(reached), c->items.size());
    } else {
      std::printf("UI selftest: all %d controls reachable\n", reached);
    }
    return true;
  }
  c->sidebar_scroll = std::min(c->sidebar_scroll + display_h * 0.4f, c->sidebar_scroll_max);
  return false;
}

int Automation::exit_status() const {
  if (o_.ui_selftest && !headless_ && !ui_selftest_over_) {
    std::printf(
        "UI selftest: FAILED: not finished: the run ended before the sidebar was scrolled to its "
        "end and every control checked (more --frames?)\n");
    return 1;
  }
  return failed_ ? 1 : 0;
}

bool Automation::window_done(long long frames) const {
  return o_.frames > 0 && frames >= o_.frames &&
         (o_.exit_after || !o_.screenshot.empty() || !o_.screenshot_ui.empty());
}

void Automation::window_ui_screenshot(int fbw, int fbh) const {
  if (o_.screenshot_ui.empty()) return;
  std::vector<uint8_t> px(static_cast<std::size_t>(fbw) * fbh * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, fbw, fbh, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  write_png_bottom_up(o_.screenshot_ui, fbw, fbh, px.data());
}

// ---- The headless runner --------------------------------------------------------------------------

namespace {
// --view-preset wall: square to the back wall (yaw and pitch 0 look down -z), 20 units from it,
// right of the teapots and high above the floor, so the wall fills the frame at one view depth
// (20) for any aspect up to 5:1 and nothing stands in front of it (the green teapot, the nearest
// in front of this eye, is 14 units below the view axis at 6 units: outside the field of view).
// A single plane is the scene whose lens reference has an analytic form (the pinhole frame
// filtered by the aperture disc), which tests/check_dof_report.py --plane checks.
void place_wall_camera(Camera* c) {
  c->yaw = 0.0f;
  c->pitch = 0.0f;
  c->distance = 20.0f;
  c->target = glm::vec3(20.0f, 15.0f, kPlanes[PLANE_WALL].origin.z);
}
}  // namespace

// --primitives: every entry of the headless set once (GPU half, then the CPU check), the table on
// stdout. Needs no GL, so it runs before the context exists.
void Automation::run_primitives() {
  const int log2_n = o_.prim_log2;
  std::vector<PrimResult>& out = prims_;
  std::string why;
  if (!primitives_available(&why)) {
    PrimResult r;
    r.req.log2_n = log2_n;
    r.label = "primitives (scan, compaction, sort)";
    r.error = "needs a CUDA device: " + why;
    out.push_back(r);
  } else {
    const std::vector<PrimRequest> set = headless_primitive_set(log2_n);
    for (std::size_t i = 0; i < set.size(); ++i) {
      PrimResult r = run_primitive_gpu(set[i]);
      verify_primitive(&r);
      std::fprintf(stderr, "[primitives] %zu/%zu %s: %s\n", i + 1, set.size(), r.label.c_str(),
                   !r.ran         ? r.error.c_str()
                   : r.verified() ? "verified"
                                  : "CHECK FAILED");
      out.push_back(std::move(r));
    }
    if (!out.empty() && !out.front().device.empty())
      std::printf("Primitives on %s, n = 2^%d = %zu uint32 elements\n", out.front().device.c_str(),
                  log2_n, std::size_t(1) << log2_n);
  }
  std::printf("%s", primitives_table(out).c_str());
  std::fflush(stdout);
  for (const auto& r : out) prims_failed_ |= r.ran && !r.verified();
}

void Automation::run_plan(App& app,
                          const std::function<RunMedians(const std::string&)>& measure,
                          ReportInput* report) {
  if (o_.view_preset == "wall") place_wall_camera(&app.camera());
  const Settings chosen = app.settings();
  const bool cpu = app.sat().kind() == SatBackend::Cpu;
  if (o_.all_variants) {
    for (int i = 0; i < scandof::kNumScanAlgorithms; ++i) {
      app.settings().variant = static_cast<scandof::ScanAlgorithm>(i);
      app.settings().method = scandof::SatMethod::Paper;
      report->runs.push_back(measure(scandof::to_string(app.settings().variant)));
      if (cpu) break;
    }
    if (!cpu) {
      for (int m = 1; m < scandof::kNumSatMethods; ++m) {
        app.settings().method = static_cast<scandof::SatMethod>(m);
        report->runs.push_back(measure(scandof::to_string(app.settings().method)));
      }
    }
    app.settings() = chosen;
  }
  const std::string label = chosen.method != scandof::SatMethod::Paper
                                ? scandof::to_string(chosen.method)
                                : scandof::to_string(chosen.variant);
  MethodImages images(o_.method_images, o_.method_sheet, o_.width, o_.height, o_.method_gold);
  auto measured = [&]() {
    RunMedians r = measure(label);
    r.dof = dof_label(app.settings());
    r.dof_message = app.dof_message();
    return r;
  };
  if (o_.all_methods) {
    for (int m = 0; m < scandof::dof::kNumMethods; ++m) {
      for (int sh = 0; sh < 3; ++sh) {
        // The engine method has no kernel shape (its gathers sample rings): one run.
        if (m == static_cast<int>(scandof::dof::Method::Engine) && sh > 0) continue;
        app.settings().dof_method = static_cast<scandof::dof::Method>(m);
        app.settings().dof_shape = static_cast<scandof::dof::Shape>(sh);
        RunMedians r = measured();
        score(app, &r, &images);
        report->runs.push_back(std::move(r));
      }
    }
    app.settings() = chosen;
  }
  RunMedians r = measured();  // the chosen configuration last: its frame is the one saved
  if (o_.quality || o_.all_methods) {
    score(app, &r, &images);
    app.frame(o_.width, o_.height, 0.0f);  // the reference / error views show the new reference
  }
  report->runs.push_back(std::move(r));
  images.finish(app);
  for (const auto& run : report->runs) {
    std::fprintf(stderr, "[scandof] %-15s", run.variant.c_str());
    for (const auto& [k, v] : run.stages) std::fprintf(stderr, " %s=%.4f", k.c_str(), v);
    std::fprintf(stderr, "\n");
  }
}

// Scores the frame just run against the lens reference (rendered once per camera, time and lens:
// a still scene renders it once for every method), and keeps its images.
void Automation::score(App& app, RunMedians* r, MethodImages* images) {
  r->quality = compare_with_reference(app);
  const QualityResult& q = r->quality;
  std::fprintf(stderr,
               "[quality] %-15s %-8s PSNR %7.3f dB  SSIM %.4f  edge PSNR %7.3f dB  edge SSIM "
               "%.4f  (DoF %.3f ms, %d lens samples)\n",
               q.method.c_str(), r->dof_pass.c_str(), q.q.psnr_db, q.q.ssim, q.q.edge_psnr_db,
               q.q.edge_ssim, r->dof_ms, q.reference_samples);
  if (q.hdr)
    std::fprintf(stderr,
                 "[quality] %-15s radiance: highlight energy error %.2f %% (%+.2f %%, %zu px), "
                 "log-luminance PSNR %.3f dB, exposure %+.2f EV\n",
                 q.method.c_str(), 100.0 * q.highlight.relative_error,
                 100.0 * q.highlight.signed_error, q.highlight.pixels, q.log_luminance_psnr_db,
                 q.exposure_ev);
  images->add(app, q);
}

// The panels over the last frame, drawn by Dear ImGui's OpenGL3 renderer alone (no window
// backend): shows on a headless GPU what the window would show.
void Automation::headless_ui_screenshot(App& app, const std::string& gl) {
  const Options& o = o_;
  const std::vector<PrimResult>& prims = prims_;
  app.frame(o.width, o.height, 0.0f);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(static_cast<float>(o.width), static_cast<float>(o.height));
  io.DeltaTime = 1.0f / 60.0f;
  ImGui::StyleColorsDark();
  // The OpenGL3 backend loads GL through its own loader, which dlopens libGL.so.1 (glvnd): a
  // headless machine without it gets an error rather than an abort.
  if (!ImGui_ImplOpenGL3_Init("#version 450")) {
    ImGui::DestroyContext();
    throw std::runtime_error(
        "--screenshot-ui: Dear ImGui's OpenGL3 backend could not load OpenGL (needs libGL.so.1)");
  }
  if (o.primitives) {
    // The panel shows the first run of the set (scan) as it would after pressing Run.
    app.settings().show_primitives = true;
    if (!prims.empty() && prims.front().ran) {
      app.settings().primitives = prims.front().req;
      app.primitives().set_result(prims.front());
    }
  }
  Panels panels;
  UiInfo info;
  info.gl_renderer = gl;
  info.fps = app.last().frame_cpu_ms > 0 ? 1000.0f / app.last().frame_cpu_ms : 0.0f;
  Requests ignored;  // nothing is clicked headless
  // A few UI frames: windows settle their layout over the first two.
  for (int i = 0; i < 3; ++i) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    panels.draw(app, info, &ignored);
    ImGui::Render();
  }
  app.targets().bind_output();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  app.screenshot(o.screenshot_ui);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

// ---- The end of the run ---------------------------------------------------------------------------

void Automation::finish(App& app, ReportInput* report) {
  if (!o_.out_reference.empty()) {
    write_reference_png(app, o_.out_reference);
    if (report) report->reference_png = o_.out_reference;
  }
  // --out and --out-frame are headless outputs (the window takes --screenshot).
  if (headless_ && !o_.out.empty()) app.screenshot(o_.out);
  if (!o_.screenshot.empty()) app.screenshot(o_.screenshot);
  if (headless_ && !o_.out_frame.empty()) {
    // The sharp frame as shown: the HDR radiance through the frame's own tone mapping.
    std::vector<uint8_t> px;
    if (app.targets().hdr()) {
      const std::vector<float> r = app.targets().read_rgba_f32(app.targets().color());
      px.resize(r.size());
      scandof::tone_map(r.data(), 4, app.width(), app.height(), app.display_tone(), px.data());
    } else {
      px = app.targets().read_rgba(app.targets().color());
    }
    write_png_bottom_up(o_.out_frame, app.width(), app.height(), px.data());
  }
  if (!o_.dump_sat.empty()) dump_sat(app, o_.dump_sat);
  if (o_.verify) {
    std::string msg;
    const bool ok = verify(app, &msg);
    std::printf("%s\n", msg.c_str());
    failed_ |= !ok;
    if (report) {
      report->verify_ok = ok ? 1 : 0;
      report->verify_message = msg;
    }
  }
  if (!headless_ || !report) return;
  if (app.settings().format == scandof::SatFormat::F32 || o_.verify) {
    measure_float_error(app);
    std::printf("float32 SAT: max box-average error %.6g (%s) over %d random boxes\n",
                app.measured().float_error, hdr(app.settings()) ? "radiance" : "of 255", kFloatErrorBoxes);
  }
  report->primitives = &prims_;
  if (!o_.report.empty()) write_report(o_.report, *report);
  if (o_.compare || !o_.screenshot_ui.empty()) {
    compare_variants(app);
    for (const auto& v : app.measured().comparison)
      std::fprintf(stderr, "[compare] %-15s SAT %.4f ms (rows %.4f, columns %.4f)\n",
                   v.name.c_str(), v.median.build_ms, v.median.row_scan_ms,
                   v.median.column_scan_ms);
  }
  if (!o_.screenshot_ui.empty()) headless_ui_screenshot(app, report->gl);
  if (prims_failed_) {
    std::fprintf(stderr, "[scandof] a primitive's output differs from the CPU reference\n");
    failed_ = true;
  }
}

}  // namespace demo
