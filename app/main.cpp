// scandof: teapots, CUDA-GL interop and summed-area-table depth of field (GPU Gems 3, ch. 39).
// Window mode follows Dear ImGui's GLFW + OpenGL3 example loop; --headless renders through EGL.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "app.hpp"
#include "cli.hpp"
#include "context.hpp"
#include "image_io.hpp"
#include "primitives_bench.hpp"
#include "ui.hpp"

#if SCANDOF_WITH_CUDA
#include "scandof/cuda_check.hpp"
#endif

namespace demo {
namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// shaders/ and assets/ next to the executable (copied there at build time), else the source tree.
std::string find_resources(const std::string& flag) {
  if (!flag.empty()) {
    if (!is_dir(flag + "/shaders") || !is_dir(flag + "/assets"))
      throw std::runtime_error("--resources " + flag + ": no shaders/ and assets/ there");
    return flag;
  }
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    std::string exe(buf, static_cast<std::size_t>(n));
    std::string dir = exe.substr(0, exe.rfind('/'));
    if (is_dir(dir + "/shaders") && is_dir(dir + "/assets")) return dir;
  }
  std::string src = SCANDOF_SOURCE_DIR;
  if (is_dir(src + "/shaders") && is_dir(src + "/assets")) return src;
  throw std::runtime_error("cannot find shaders/ and assets/ next to the executable or in " + src +
                           " (pass --resources DIR)");
}

// ---------------------------------------------------------------------------------------------
// JSON report: medians of every stage over the measured frames.

float median_of(std::vector<float> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct StageMedians {
  std::string name;
  std::vector<std::pair<std::string, float>> stages;
  int frames = 0;
};

StageMedians medians(const std::string& name, const std::vector<FrameTimes>& frames, bool cuda) {
  StageMedians m;
  m.name = name;
  m.frames = static_cast<int>(frames.size());
  auto add = [&](const char* key, const std::function<float(const FrameTimes&)>& get) {
    std::vector<float> v;
    for (const auto& f : frames) v.push_back(get(f));
    m.stages.emplace_back(key, median_of(v));
  };
  add("scene_gl_ms", [](const FrameTimes& f) { return f.scene_ms; });
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
  add("dof_gl_ms", [](const FrameTimes& f) { return f.dof_ms; });
  add("frame_cpu_ms", [](const FrameTimes& f) { return f.frame_ms; });
  return m;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o;
}

void write_report(const std::string& path, const App& app, const Options& o, const std::string& gl,
                  const std::vector<StageMedians>& runs, const std::string& verify_msg,
                  int verify_ok, const std::vector<PrimResult>& prims) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write report " + path);
  const Settings& s = app.settings;
  f << "{\n";
  f << "  \"tool\": \"scandof --headless\",\n";
  f << "  \"device\": \"" << json_escape(app.sat->device_name()) << "\",\n";
  f << "  \"sat_backend\": \"" << json_escape(app.sat->backend()) << "\",\n";
  f << "  \"gl\": \"" << json_escape(gl) << "\",\n";
  f << "  \"width\": " << app.renderer.width() << ", \"height\": " << app.renderer.height()
    << ",\n";
  f << "  \"frames\": " << o.frames << ",\n";
  f << "  \"focus\": " << s.focus_distance << ", \"aperture\": " << s.aperture
    << ", \"max_radius\": " << s.max_radius << ",\n";
  f << "  \"format\": \"" << (s.format == scandof::SatFormat::U32 ? "u32" : "f32")
    << "\", \"method\": \"" << method_name(s.method) << "\",\n";
  if (app.float_error >= 0) f << "  \"float32_max_box_error\": " << app.float_error << ",\n";
  if (verify_ok >= 0)
    f << "  \"verify\": {\"ok\": " << (verify_ok ? "true" : "false") << ", \"message\": \""
      << json_escape(verify_msg) << "\"},\n";
  f << "  \"note\": \"medians over frames after 5 warm-up frames; GL stages from GL_TIME_ELAPSED "
       "queries, SAT stages from CUDA events, interop map/unmap as host wall time (one map call "
       "for colour texture + SAT buffer per frame) and as stream time\",\n";
  if (!prims.empty())
    f << "  \"primitives_note\": \"library vs CUB on the same uint32 input: medians of the timed "
         "runs after 3 warm-ups (CUDA events), bytes = reads + writes once, cub_over_lib > 1: "
         "library faster, both outputs checked against the CPU reference\",\n"
      << "  \"primitives\": " << primitives_json(prims, "  ") << ",\n";
  f << "  \"runs\": [\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    f << "    {\"variant\": \"" << runs[i].name << "\", \"frames\": " << runs[i].frames;
    for (const auto& [k, v] : runs[i].stages) f << ", \"" << k << "\": " << v;
    f << "}" << (i + 1 < runs.size() ? "," : "") << "\n";
  }
  f << "  ]\n}\n";
  std::fprintf(stderr, "[scandof] report written: %s\n", path.c_str());
}

// ---------------------------------------------------------------------------------------------

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

int run_headless(const Options& o, const std::string& res) {
  std::vector<PrimResult> prims;
  if (o.primitives) prims = run_primitives_headless(o.prim_log2);
  bool prims_failed = false;
  for (const auto& r : prims) prims_failed |= r.ran && !r.verified();
  HeadlessContext ctx;
  const std::string gl = gl_description();
  App app(res, o.settings, o.width, o.height);
  std::fprintf(stderr, "[scandof] headless %dx%d, SAT backend: %s\n", o.width, o.height,
               app.sat->backend().c_str());
  constexpr int kWarmup = 5;
  const float dt = 1.0f / 60.0f;

  // One measured run: warm-up frames, then o.frames frames whose stage times are kept.
  auto run = [&](const std::string& name) {
    std::vector<FrameTimes> kept;
    for (int i = 0; i < kWarmup + o.frames; ++i) {
      app.frame(o.width, o.height, dt);
      if (i >= kWarmup) kept.push_back(app.last());
    }
    // GL timer results arrive a few frames late (no stalls); over many frames the median is the
    // same.
    glFinish();
    return medians(name, kept, app.sat->using_cuda());
  };

  std::vector<StageMedians> runs;
  const Settings chosen = app.settings;
  if (o.all_variants) {
    for (int i = 0; i < scandof::kNumScanAlgorithms; ++i) {
      app.settings.variant = static_cast<scandof::ScanAlgorithm>(i);
      app.settings.method = scandof::SatMethod::Paper;
      runs.push_back(run(variant_name(app.settings.variant)));
      if (!app.sat->using_cuda()) break;
    }
    if (app.sat->using_cuda()) {
      for (int m = 1; m < num_sat_methods(); ++m) {
        app.settings.method = static_cast<scandof::SatMethod>(m);
        runs.push_back(run(method_name(app.settings.method)));
      }
    }
    app.settings = chosen;
  }
  std::string label = chosen.method != scandof::SatMethod::Paper ? method_name(chosen.method)
                                                                 : variant_name(chosen.variant);
  runs.push_back(run(label));  // the chosen configuration last: its frame is the one saved
  for (const auto& r : runs) {
    std::fprintf(stderr, "[scandof] %-15s", r.name.c_str());
    for (const auto& [k, v] : r.stages) std::fprintf(stderr, " %s=%.4f", k.c_str(), v);
    std::fprintf(stderr, "\n");
  }

  if (!o.out.empty()) app.screenshot(o.out);
  if (!o.screenshot.empty()) app.screenshot(o.screenshot);
  if (!o.out_frame.empty()) {
    std::vector<uint8_t> px = app.renderer.read_rgba(app.renderer.color_texture());
    write_png_bottom_up(o.out_frame, app.renderer.width(), app.renderer.height(), px.data());
  }
  if (!o.dump_sat.empty()) app.dump_sat(o.dump_sat);
  int verify_ok = -1;
  std::string verify_msg;
  if (o.verify) {
    verify_ok = app.verify(&verify_msg) ? 1 : 0;
    std::printf("%s\n", verify_msg.c_str());
  }
  if (app.settings.format == scandof::SatFormat::F32 || o.verify) {
    app.measure_float_error();
    std::printf("float32 SAT: max box-average error %.6g (of 255) over 200000 random boxes\n",
                app.float_error);
  }
  if (!o.report.empty()) write_report(o.report, app, o, gl, runs, verify_msg, verify_ok, prims);
  if (o.compare || !o.screenshot_ui.empty()) {
    app.compare(30);
    for (const auto& v : app.comparison)
      std::fprintf(stderr, "[compare] %-15s SAT %.4f ms (rows %.4f, columns %.4f)\n",
                   v.name.c_str(), v.median.build_ms, v.median.row_scan_ms,
                   v.median.column_scan_ms);
  }
  if (!o.screenshot_ui.empty()) {
    // The panels drawn over the last frame with Dear ImGui's OpenGL3 renderer alone (no window
    // backend): shows on a headless GPU what the window would show.
    app.frame(o.width, o.height, 0.0f);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(o.width), static_cast<float>(o.height));
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::StyleColorsDark();
    // The OpenGL3 backend loads GL through its own loader, which dlopens libGL.so.1 (glvnd): a
    // headless machine without it gets the frame without panels rather than an abort.
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
    info.fps = app.last().frame_ms > 0 ? 1000.0f / app.last().frame_ms : 0.0f;
    UiRequests req;
    // A few UI frames: windows settle their layout over the first two.
    for (int i = 0; i < 3; ++i) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui::NewFrame();
      draw_ui(app, info, &req);
      ImGui::Render();
    }
    app.renderer.bind_output();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    app.screenshot(o.screenshot_ui);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  if (prims_failed)
    std::fprintf(stderr, "[scandof] a primitive's output differs from the CPU reference\n");
  return verify_ok == 0 || prims_failed ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------

int run_window(const Options& o, const std::string& res) {
  WindowContext ctx(o.width, o.height, "scandof: SAT depth of field", o.settings.vsync);
  GLFWwindow* win = ctx.window();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  if (!ImGui_ImplGlfw_InitForOpenGL(win, true) || !ImGui_ImplOpenGL3_Init("#version 450")) {
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui's GLFW/OpenGL3 backends failed to initialise");
  }
  int rc = 0;
  {
    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(win, &fbw, &fbh);
    App app(res, o.settings, std::max(fbw, 1), std::max(fbh, 1));
    if (o.primitives) {
      app.settings.show_primitives = true;
      app.primitives.request_run();
    }
    UiInfo info;
    info.gl_renderer = gl_description();
    std::fprintf(stderr, "[scandof] window %dx%d, SAT backend: %s\n", fbw, fbh,
                 app.sat->backend().c_str());
    bool vsync = o.settings.vsync;
    int frame_no = 0, shot_no = 0;
    auto last = std::chrono::steady_clock::now();
    int loop_no = 0;
    while (!glfwWindowShouldClose(win)) {
      if (o.exercise_resize) {
        // Scripted window changes at fixed loop counts: odd sizes, minimize (0x0 framebuffer on a
        // real desktop), restore. Each size change re-creates targets and CUDA registrations.
        switch (loop_no) {
          case 4:
            glfwSetWindowSize(win, 701, 433);
            break;
          case 8:
            glfwIconifyWindow(win);
            break;
          case 12:
            glfwRestoreWindow(win);
            break;
          case 16:
            glfwSetWindowSize(win, 517, 389);
            break;
          default:
            break;
        }
      }
      ++loop_no;
      glfwPollEvents();
      glfwGetFramebufferSize(win, &fbw, &fbh);
      if (o.exercise_resize && (fbw != app.renderer.width() || fbh != app.renderer.height()))
        std::fprintf(stderr, "[scandof] framebuffer now %dx%d\n", fbw, fbh);
      if (fbw == 0 || fbh == 0) {
        // Minimized: nothing to render into; sleep until something happens.
        glfwWaitEventsTimeout(0.1);
        continue;
      }
      auto now = std::chrono::steady_clock::now();
      float dt = std::chrono::duration<float>(now - last).count();
      last = now;
      info.fps = dt > 0 ? 0.9f * info.fps + 0.1f / dt : info.fps;

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      ImGuiIO& io = ImGui::GetIO();
      UiRequests req;
      if (!io.WantCaptureMouse) {
        int ww = 1, wh = 1;
        glfwGetWindowSize(win, &ww, &wh);
        float sx = static_cast<float>(fbw) / std::max(ww, 1),
              sy = static_cast<float>(fbh) / std::max(wh, 1);
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
          app.camera.orbit(io.MouseDelta.x, io.MouseDelta.y);
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
            ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
          app.camera.pan(io.MouseDelta.x, io.MouseDelta.y);
        if (io.MouseWheel != 0) app.camera.zoom(io.MouseWheel);
        // A click (press and release without dragging) focuses on the clicked point.
        if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 9.0f)
          app.focus_at_pixel(static_cast<int>(io.MousePos.x * sx),
                             fbh - 1 - static_cast<int>(io.MousePos.y * sy));
      }
      if (!io.WantCaptureKeyboard) {
        if (ImGui::IsKeyPressed(GLFW_KEY_F12) || ImGui::IsKeyPressed(GLFW_KEY_P))
          req.screenshot = true;
        if (ImGui::IsKeyPressed(GLFW_KEY_H)) app.settings.show_ui = !app.settings.show_ui;
        if (ImGui::IsKeyPressed(GLFW_KEY_SPACE)) app.settings.animate = !app.settings.animate;
        if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) glfwSetWindowShouldClose(win, GLFW_TRUE);
      }
      if (app.settings.show_ui) draw_ui(app, info, &req);
      if (app.settings.vsync != vsync) {
        vsync = app.settings.vsync;
        ctx.set_vsync(vsync);
      }

      app.frame(fbw, fbh, std::min(dt, 0.1f));
      if (o.compare && frame_no == 0) app.compare(30);
      if (req.screenshot) {
        char name[64];
        std::snprintf(name, sizeof name, "scandof-%03d.png", shot_no++);
        app.screenshot(name);
      }
      app.renderer.present(fbw, fbh);
      ImGui::Render();
      glViewport(0, 0, fbw, fbh);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      ++frame_no;
      const bool done = o.frames > 0 && frame_no >= o.frames &&
                        (o.exit_after || !o.screenshot.empty() || !o.screenshot_ui.empty());
      if (done && !o.screenshot_ui.empty()) {
        std::vector<uint8_t> px(static_cast<std::size_t>(fbw) * fbh * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, fbw, fbh, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        write_png_bottom_up(o.screenshot_ui, fbw, fbh, px.data());
      }
      glfwSwapBuffers(win);
      if (done) {
        if (!o.screenshot.empty()) app.screenshot(o.screenshot);
        if (!o.dump_sat.empty()) app.dump_sat(o.dump_sat);
        if (o.verify) {
          std::string msg;
          bool ok = app.verify(&msg);
          std::printf("%s\n", msg.c_str());
          if (!ok) rc = 1;
        }
        break;
      }
    }
  }  // App (and its GL/CUDA objects) go before the ImGui backends and the context
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return rc;
}

}  // namespace
}  // namespace demo

int main(int argc, char** argv) {
  try {
    demo::Options o = demo::parse_cli(argc, argv);
    if (o.help) {
      demo::print_help(argv[0]);
      return 0;
    }
    std::string res = demo::find_resources(o.resources);
    return o.headless ? demo::run_headless(o, res) : demo::run_window(o, res);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "scandof: %s\n", e.what());
    return 2;
#if SCANDOF_WITH_CUDA
  } catch (const scandof::CudaError& e) {
    std::fprintf(stderr, "scandof: CUDA error: %s\n", e.what());
    return 1;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scandof: error: %s\n", e.what());
    return 1;
  }
}
