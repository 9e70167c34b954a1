#include "run/window_loop.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "frame/app.hpp"
#include "frame/camera_input.hpp"
#include "scandof/gl/context.hpp"
#include "passes/image_io.hpp"
#include "ui/panels.hpp"

namespace demo {
namespace gl = scandof::gl;

namespace {

// --exercise-resize: scripted window changes at fixed loop counts: odd sizes, minimize (0x0
// framebuffer on a real desktop), restore. Each size change re-creates targets and registrations.
void exercise_resize(GLFWwindow* win, long long loop_no) {
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

// The default framebuffer (frame + panels) as PNG: --screenshot-ui in window mode.
void screenshot_window(const std::string& path, int fbw, int fbh) {
  std::vector<uint8_t> px(static_cast<std::size_t>(fbw) * fbh * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, fbw, fbh, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  write_png_bottom_up(path, fbw, fbh, px.data());
}

// Key presses as events (the GLFW key callback, which Dear ImGui's backend chains to): a tap
// shorter than a frame still arrives, where polled key state would miss it at low frame rates.
std::vector<int> g_pressed;
void key_callback(GLFWwindow*, int key, int, int action, int) {
  if (action == GLFW_PRESS) g_pressed.push_back(key);
}

// The next free scandof-NNN.png in `dir`, as an absolute path (shown in the window's toast).
std::string next_screenshot_path(const std::string& dir, int* counter) {
  namespace fs = std::filesystem;
  const fs::path base = fs::absolute(dir.empty() ? fs::current_path() : fs::path(dir));
  for (;; ++*counter) {
    char name[32];
    std::snprintf(name, sizeof name, "scandof-%03d.png", *counter);
    const fs::path p = base / name;
    if (!fs::exists(p)) {
      ++*counter;
      return p.lexically_normal().string();
    }
  }
}

// The overlay's live bars: every kLiveEvery-th frame one configuration (naive, work-efficient,
// the current variant if another, fused) is built once more on the current frame with a waited
// timing, then the current configuration is built again so the tables (f32 differ per variant)
// and the next frame's stage times are the current configuration's. Cost per timed frame: two
// SAT builds and one wait for the stream (the map also waits for GL's DoF pass): on a GPU where a
// build takes 0.03..0.3 ms this is well under a millisecond; the overlay shows the measured cost.
constexpr int kLiveEvery = 2;
void live_compare_step(App& app, LiveCompare* lc, long long frame_no) {
  if (app.sat->kind() == SatBackend::Cpu) {
    lc->entries.clear();
    return;
  }
  using scandof::SatMethod;
  using scandof::ScanAlgorithm;
  const Settings& s = app.settings;
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
  app.sat->build(cfg, SatTiming::Wait);
  e.build_ms.push_back(app.sat->times().build_ms);
  app.sat->build(s);
  const float cost =
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  lc->cost_ms = lc->cost_ms > 0 ? 0.9f * lc->cost_ms + 0.1f * cost : cost;
  if (e.build_ms.size() > LiveCompare::kSamples) e.build_ms.pop_front();
  std::vector<float> v(e.build_ms.begin(), e.build_ms.end());
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  e.median_ms = v[v.size() / 2];
}

// --ui-selftest: scroll the sidebar half a screen per frame; done some frames after the bottom.
// Prints every control that never showed and returns true when the test is over.
bool ui_selftest_step(UiCheck* c, int* rc) {
  if (c->sidebar_scroll >= c->sidebar_scroll_max) {
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
    if (c->items.empty() || reached != static_cast<int>(c->items.size())) *rc = 1;
    return true;
  }
  c->sidebar_scroll =
      std::min(c->sidebar_scroll + ImGui::GetIO().DisplaySize.y * 0.4f, c->sidebar_scroll_max);
  return false;
}

}  // namespace

int run_window(const Options& o, const std::string& res) {
  gl::WindowContext ctx(o.width, o.height, "scandof: SAT depth of field", o.settings.vsync);
  GLFWwindow* win = ctx.window();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  glfwSetKeyCallback(win, key_callback);  // before the backend, which chains to it
  if (!ImGui_ImplGlfw_InitForOpenGL(win, true) || !ImGui_ImplOpenGL3_Init("#version 450")) {
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui's GLFW/OpenGL3 backends failed to initialise");
  }
  int rc = 0;
  {
    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(win, &fbw, &fbh);
    App app(res, o.settings, std::max(fbw, 1), std::max(fbh, 1));
    if (o.primitives) app.settings.show_primitives = true;
    UiInfo info;
    info.gl_renderer = gl::gl_description();
    LiveCompare live;
    info.live = &live;
    UiCheck check;
    check.enabled = o.ui_selftest;
    info.check = &check;
    int shot_no = 0;
    std::deque<float> intervals;  // seconds between the last frames
    float interval_sum = 0;
    std::fprintf(stderr, "[scandof] window %dx%d, SAT backend: %s\n", fbw, fbh,
                 app.sat->backend().c_str());
    bool vsync = o.settings.vsync;
    long long frame_no = 0, loop_no = 0;
    auto last = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(win)) {
      if (o.exercise_resize) exercise_resize(win, loop_no);
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
      const auto now = std::chrono::steady_clock::now();
      const float dt = std::chrono::duration<float>(now - last).count();
      last = now;
      // fps and the frame interval from the same window of recent frames (up to 60 frames or
      // one second), so the two always agree: fps = 1000 / interval.
      intervals.push_back(dt);
      interval_sum += dt;
      while (intervals.size() > 1 && (intervals.size() > 60 || interval_sum > 1.0f)) {
        interval_sum -= intervals.front();
        intervals.pop_front();
      }
      info.frame_interval_ms = 1000.0f * interval_sum / intervals.size();
      info.fps = info.frame_interval_ms > 0 ? 1000.0f / info.frame_interval_ms : 0.0f;
      // At least 4 s and 8 frames: at low frame rates (the CPU fallback) a toast still shows.
      info.toast_left_s -= std::min(dt, 0.5f);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      Requests req;
      // Flags that act like a press on the first frame.
      if (frame_no == 0) {
        req.compare_variants = o.compare;
        req.run_primitives = o.primitives;
        req.compare_reference = o.quality;  // --reference N / --quality: "Compare with reference"
      }
      int ww = 1, wh = 1;
      glfwGetWindowSize(win, &ww, &wh);
      std::vector<int> keys;
      keys.swap(g_pressed);
      handle_camera_input(&app.camera, &app.settings, &req, keys, fbw, fbh, ww, wh);
      if (req.quit) glfwSetWindowShouldClose(win, GLFW_TRUE);
      const auto ui0 = std::chrono::steady_clock::now();
      draw_ui(app, info, &req);  // with the panels hidden it still draws the hint, overlay, toast
      float ui_ms =
          std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - ui0).count();
      if (app.settings.vsync != vsync) {
        vsync = app.settings.vsync;
        ctx.set_vsync(vsync);
      }

      app.frame(fbw, fbh, std::min(dt, 0.1f));
      if (req.screenshot) {
        // Written here rather than in App::carry_out: the window knows the folder and shows the
        // absolute path (or the error) in a toast.
        req.screenshot = false;
        try {
          const std::string path = next_screenshot_path(o.screenshot_dir, &shot_no);
          app.screenshot(path);
          char buf[64];
          std::snprintf(buf, sizeof buf, " (%dx%d, without panels)", fbw, fbh);
          info.toast = "Screenshot saved: " + path + buf;
          info.toast_error = false;
        } catch (const std::exception& e) {
          info.toast = std::string("Screenshot failed: ") + e.what();
          info.toast_error = true;
          std::fprintf(stderr, "[scandof] %s\n", info.toast.c_str());
        }
        info.toast_left_s = 4.0f;
      }
      app.carry_out(req);
      if (app.settings.show_overlay) live_compare_step(app, &live, frame_no);
      app.renderer.present(fbw, fbh);
      const auto ui1 = std::chrono::steady_clock::now();
      ImGui::Render();
      glViewport(0, 0, fbw, fbh);
      app.ui_timer.begin();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      app.ui_timer.end();
      ui_ms +=
          std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - ui1).count();
      info.ui_cpu_ms = ui_ms;
      ++frame_no;
      if (check.enabled && ui_selftest_step(&check, &rc)) {
        if (!o.screenshot_ui.empty()) screenshot_window(o.screenshot_ui, fbw, fbh);
        break;
      }
      const bool done = o.frames > 0 && frame_no >= o.frames &&
                        (o.exit_after || !o.screenshot.empty() || !o.screenshot_ui.empty());
      if (done && !o.screenshot_ui.empty()) screenshot_window(o.screenshot_ui, fbw, fbh);
      glfwSwapBuffers(win);
      if (done) {
        if (!o.screenshot.empty()) app.screenshot(o.screenshot);
        if (!o.out_reference.empty()) app.write_reference_png(o.out_reference);
        if (!o.dump_sat.empty()) app.dump_sat(o.dump_sat);
        if (o.verify) {
          std::string msg;
          const bool ok = app.verify(&msg);
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

}  // namespace demo
