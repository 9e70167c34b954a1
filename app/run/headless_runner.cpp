#include "run/headless_runner.hpp"

#include <chrono>

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "frame/app.hpp"
#include "scandof/gl/context.hpp"
#include "passes/image_io.hpp"
#include "primitives/bench.hpp"
#include "diagnostics/report.hpp"
#include "scandof/image_metrics.hpp"
#include "ui/panels.hpp"

namespace demo {
namespace gl = scandof::gl;

namespace {

constexpr int kWarmupFrames = 5;

// --method-sheet: every image of a --all-methods run on one PNG, small enough to come back from a
// GPU machine (the tiles: sharp, reference, then each method beside its error map, two per row,
// each the frame box-filtered down by the integer factor that makes it at most kSheetTileW wide).
constexpr int kSheetTileW = 480;
struct SheetTiles {
  int w = 0, h = 0, factor = 1;             // the frame size and the reduction
  std::vector<std::vector<uint8_t>> tiles;  // RGBA8, (w / factor) x (h / factor), bottom-up

  void add(const uint8_t* rgba) {
    factor = (w + kSheetTileW - 1) / kSheetTileW;
    const int tw = w / factor, th = h / factor, n = factor * factor;
    std::vector<uint8_t> t(static_cast<std::size_t>(tw) * th * 4);
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tw; ++x)
        for (int c = 0; c < 4; ++c) {
          int sum = 0;
          for (int dy = 0; dy < factor; ++dy)
            for (int dx = 0; dx < factor; ++dx)
              sum +=
                  rgba[((static_cast<std::size_t>(y) * factor + dy) * w + x * factor + dx) * 4 + c];
          t[(static_cast<std::size_t>(y) * tw + x) * 4 + c] =
              static_cast<uint8_t>((sum + n / 2) / n);
        }
    tiles.push_back(std::move(t));
  }
  // Two tiles per row, top row first in the picture.
  void write(const std::string& path) const {
    const int tw = w / factor, th = h / factor, rows = (static_cast<int>(tiles.size()) + 1) / 2;
    const int sw = 2 * tw, sh = rows * th;
    std::vector<uint8_t> sheet(static_cast<std::size_t>(sw) * sh * 4, 0);
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      const int col = static_cast<int>(i % 2), row = static_cast<int>(i / 2);
      // Bottom-up sheet: tile row 0 of the picture's top tile row sits at sheet row sh - th.
      const int y0 = sh - (row + 1) * th;
      for (int y = 0; y < th; ++y)
        std::copy_n(&tiles[i][static_cast<std::size_t>(y) * tw * 4], tw * 4,
                    &sheet[(static_cast<std::size_t>(y0 + y) * sw + col * tw) * 4]);
    }
    write_png_bottom_up(path, sw, sh, sheet.data());
    std::fprintf(stderr, "[scandof] method sheet written: %s (%zu tiles of %dx%d)\n", path.c_str(),
                 tiles.size(), tw, th);
  }
};

// --primitives: every entry of the headless set once (GPU half, then the CPU check), the table on
// stdout. Needs no GL, so it runs before the context exists.
std::vector<PrimResult> run_primitives_headless(int log2_n) {
  std::vector<PrimResult> out;
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
  return out;
}

// The panels over the last frame, drawn by Dear ImGui's OpenGL3 renderer alone (no window
// backend): shows on a headless GPU what the window would show.
void screenshot_with_ui(App& app, const Options& o, const std::string& gl,
                        const std::vector<PrimResult>& prims) {
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
    app.settings.show_primitives = true;
    if (!prims.empty() && prims.front().ran) {
      app.settings.primitives = prims.front().req;
      app.primitives.set_result(prims.front());
    }
  }
  UiInfo info;
  info.gl_renderer = gl;
  info.fps = app.last().frame_cpu_ms > 0 ? 1000.0f / app.last().frame_cpu_ms : 0.0f;
  Requests ignored;  // nothing is clicked headless
  // A few UI frames: windows settle their layout over the first two.
  for (int i = 0; i < 3; ++i) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    draw_ui(app, info, &ignored);
    ImGui::Render();
  }
  app.renderer.bind_output();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  app.screenshot(o.screenshot_ui);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace

int run_headless(const Options& o, const std::string& res) {
  std::vector<PrimResult> prims;
  if (o.primitives) prims = run_primitives_headless(o.prim_log2);
  bool prims_failed = false;
  for (const auto& r : prims) prims_failed |= r.ran && !r.verified();
  gl::HeadlessContext ctx;
  ReportInput report;
  report.gl = gl::gl_description();
  report.frames = o.frames;
  report.primitives = &prims;
  App app(res, o.settings, o.width, o.height);
  report.app = &app;
  std::fprintf(stderr, "[scandof] headless %dx%d, SAT backend: %s\n", o.width, o.height,
               app.sat->backend().c_str());
  const float dt = 1.0f / 60.0f;

  // One measured run: warm-up frames, then o.frames frames whose stage times are kept.
  auto run = [&](const std::string& name) {
    std::vector<FrameTimes> kept;
    // At most kFramesInFlight frames queued, as a swap chain allows a window: without it the host
    // runs arbitrarily far ahead of the GPU (nothing else blocks it on the GL backend), the timer
    // rings are overwritten before their results arrive, and the CPU frame time means nothing.
    constexpr int kFramesInFlight = 2;
    GLsync fences[kFramesInFlight] = {};
    auto last_start = std::chrono::steady_clock::now();
    for (long long i = 0; i < kWarmupFrames + o.frames; ++i) {
      GLsync& f = fences[i % kFramesInFlight];
      if (f) {
        glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
        glDeleteSync(f);
      }
      const auto start = std::chrono::steady_clock::now();
      if (i > kWarmupFrames)
        kept.back().frame_interval_ms =
            std::chrono::duration<float, std::milli>(start - last_start).count();
      last_start = start;
      app.frame(o.width, o.height, dt);
      f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      if (i >= kWarmupFrames) kept.push_back(app.last());
    }
    if (!kept.empty()) kept.pop_back();  // the last frame has no successor to time it by
    for (GLsync f : fences)
      if (f) glDeleteSync(f);
    // GL and CUDA timer results arrive a few frames late (no stalls); over many frames the
    // median is the same.
    glFinish();
    return run_medians(name, kept, app.sat->kind() != SatBackend::Cpu);
  };

  const Settings chosen = app.settings;
  if (o.all_variants) {
    for (int i = 0; i < scandof::kNumScanAlgorithms; ++i) {
      app.settings.variant = static_cast<scandof::ScanAlgorithm>(i);
      app.settings.method = scandof::SatMethod::Paper;
      report.runs.push_back(run(scandof::to_string(app.settings.variant)));
      if (app.sat->kind() == SatBackend::Cpu) break;
    }
    if (app.sat->kind() != SatBackend::Cpu) {
      for (int m = 1; m < scandof::kNumSatMethods; ++m) {
        app.settings.method = static_cast<scandof::SatMethod>(m);
        report.runs.push_back(run(scandof::to_string(app.settings.method)));
      }
    }
    app.settings = chosen;
  }
  const std::string label = chosen.method != scandof::SatMethod::Paper
                                ? scandof::to_string(chosen.method)
                                : scandof::to_string(chosen.variant);
  auto dof_label = [](const Settings& s) {
    return std::string(scandof::dof::to_string(s.dof_method)) + "/" +
           scandof::dof::to_string(s.dof_shape);
  };
  SheetTiles sheet;
  sheet.w = o.width;
  sheet.h = o.height;
  std::vector<std::string> sheet_methods;  // in sheet order
  // Scores the frame just run against the lens reference (rendered once per camera, time and
  // lens: a still scene renders it once for every method), and writes its images.
  auto score = [&](RunMedians* r) {
    r->quality = app.compare_with_reference();
    const QualityResult& q = r->quality;
    std::fprintf(stderr,
                 "[quality] %-15s %-8s PSNR %7.3f dB  SSIM %.4f  edge PSNR %7.3f dB  edge SSIM "
                 "%.4f  (DoF %.3f ms, %d lens samples)\n",
                 q.method.c_str(), r->dof_pass.c_str(), q.q.psnr_db, q.q.ssim, q.q.edge_psnr_db,
                 q.q.edge_ssim, r->dof_ms, q.reference_samples);
    if (o.method_images.empty() && o.method_sheet.empty()) return;
    if (std::find(sheet_methods.begin(), sheet_methods.end(), q.method) != sheet_methods.end())
      return;  // the chosen run repeats one of --all-methods
    sheet_methods.push_back(q.method);
    const int w = app.renderer.width(), h = app.renderer.height();
    const std::vector<uint8_t> px = app.renderer.read_rgba(app.renderer.output_texture());
    std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
    scandof::metrics::rgba8_to_rgb(px.data(), w, h, rgb.data());
    const std::vector<uint8_t> err = app.error_map(rgb);
    if (!o.method_sheet.empty()) {
      sheet.add(px.data());
      sheet.add(err.data());
    }
    if (o.method_images.empty()) return;
    std::string base = o.method_images + "/" + q.method;
    for (char& c : base)
      if (c == '/' && &c > &base[o.method_images.size()]) c = '_';
    write_png_bottom_up(base + ".png", w, h, px.data());
    write_png_bottom_up(base + "_error.png", w, h, err.data());
  };
  if (!o.method_images.empty()) std::filesystem::create_directories(o.method_images);
  if (o.all_methods) {
    for (int m = 0; m < 3; ++m) {
      for (int sh = 0; sh < 3; ++sh) {
        app.settings.dof_method = static_cast<scandof::dof::Method>(m);
        app.settings.dof_shape = static_cast<scandof::dof::Shape>(sh);
        RunMedians r = run(label);
        r.dof = dof_label(app.settings);
        r.dof_message = app.dof_message();
        score(&r);
        report.runs.push_back(std::move(r));
      }
    }
    app.settings = chosen;
  }
  {
    RunMedians r = run(label);  // the chosen configuration last: its frame is the one saved
    r.dof = dof_label(app.settings);
    r.dof_message = app.dof_message();
    if (o.quality || o.all_methods) {
      score(&r);
      app.frame(o.width, o.height, 0.0f);  // the reference / error views show the new reference
    }
    report.runs.push_back(std::move(r));
  }
  if (!o.method_sheet.empty() && app.quality().valid) {
    // Sharp frame and reference first: they head the sheet.
    SheetTiles head = sheet;
    head.tiles.clear();
    head.add(app.renderer.read_rgba(app.renderer.color_texture()).data());
    std::vector<uint8_t> ref(app.reference().size() / 3 * 4);
    scandof::metrics::rgb_to_rgba8(app.reference().data(), o.width, o.height, ref.data());
    head.add(ref.data());
    for (auto& t : sheet.tiles) head.tiles.push_back(std::move(t));
    head.write(o.method_sheet);
  }
  if (!o.method_images.empty() && app.quality().valid) {
    const std::vector<uint8_t> px = app.renderer.read_rgba(app.renderer.color_texture());
    write_png_bottom_up(o.method_images + "/sharp.png", app.renderer.width(), app.renderer.height(),
                        px.data());
    app.write_reference_png(o.method_images + "/reference.png");
  }
  if (!o.out_reference.empty()) {
    app.write_reference_png(o.out_reference);
    report.reference_png = o.out_reference;
  }
  for (const auto& r : report.runs) {
    std::fprintf(stderr, "[scandof] %-15s", r.variant.c_str());
    for (const auto& [k, v] : r.stages) std::fprintf(stderr, " %s=%.4f", k.c_str(), v);
    std::fprintf(stderr, "\n");
  }

  if (!o.out.empty()) app.screenshot(o.out);
  if (!o.screenshot.empty()) app.screenshot(o.screenshot);
  if (!o.out_frame.empty()) {
    const std::vector<uint8_t> px = app.renderer.read_rgba(app.renderer.color_texture());
    write_png_bottom_up(o.out_frame, app.renderer.width(), app.renderer.height(), px.data());
  }
  if (!o.dump_sat.empty()) app.dump_sat(o.dump_sat);
  if (o.verify) {
    report.verify_ok = app.verify(&report.verify_message) ? 1 : 0;
    std::printf("%s\n", report.verify_message.c_str());
  }
  if (app.settings.format == scandof::SatFormat::F32 || o.verify) {
    app.measure_float_error();
    std::printf("float32 SAT: max box-average error %.6g (of 255) over %d random boxes\n",
                app.float_error(), kFloatErrorBoxes);
  }
  if (!o.report.empty()) write_report(o.report, report);
  if (o.compare || !o.screenshot_ui.empty()) {
    app.compare_variants();
    for (const auto& v : app.comparison())
      std::fprintf(stderr, "[compare] %-15s SAT %.4f ms (rows %.4f, columns %.4f)\n",
                   v.name.c_str(), v.median.build_ms, v.median.row_scan_ms,
                   v.median.column_scan_ms);
  }
  if (!o.screenshot_ui.empty()) screenshot_with_ui(app, o, report.gl, prims);
  if (prims_failed)
    std::fprintf(stderr, "[scandof] a primitive's output differs from the CPU reference\n");
  return report.verify_ok == 0 || prims_failed ? 1 : 0;
}

}  // namespace demo
