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
#include <stdexcept>
#include <string>
#include <vector>

#include "automation/automation.hpp"
#include "automation/soak.hpp"
#include "diagnostics/report.hpp"
#include "diagnostics/live_compare.hpp"
#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "ui/camera_input.hpp"
#include "scandof/gl/context.hpp"
#include "ui/panels.hpp"

namespace demo {
namespace gl = scandof::gl;

namespace {

// Key presses as events (the GLFW key callback, which Dear ImGui's backend chains to): a tap
// shorter than a frame still arrives, where polled key state would miss it at low frame rates.
// The queue hangs off the window's user pointer.
struct KeyQueue {
  std::vector<int> pressed;
  std::vector<std::string> dropped;  // files dropped on the window (the last one is loaded)
};
void key_callback(GLFWwindow* win, int key, int, int action, int) {
  if (action == GLFW_PRESS)
    static_cast<KeyQueue*>(glfwGetWindowUserPointer(win))->pressed.push_back(key);
}
// A file dropped on the window: loaded as the scene on the next frame (App keeps the previous
// scene if it cannot be read, and the panel and a toast say why).
void drop_callback(GLFWwindow* win, int count, const char** paths) {
  auto* q = static_cast<KeyQueue*>(glfwGetWindowUserPointer(win));
  for (int i = 0; i < count; ++i) q->dropped.emplace_back(paths[i]);
}

// fps and the frame interval from the same window of recent frames (up to 60 frames or one
// second), so the two always agree: fps = 1000 / interval.
struct FrameRate {
  std::deque<float> intervals;  // seconds between the last frames
  float sum = 0;
  void add(float dt, UiInfo* info) {
    intervals.push_back(dt);
    sum += dt;
    while (intervals.size() > 1 && (intervals.size() > 60 || sum > 1.0f)) {
      sum -= intervals.front();
      intervals.pop_front();
    }
    info->frame_interval_ms = 1000.0f * sum / intervals.size();
    info->fps = info->frame_interval_ms > 0 ? 1000.0f / info->frame_interval_ms : 0.0f;
  }
};

void apply(GLFWwindow* win, const WindowChange& c) {
  switch (c.kind) {
    case WindowChange::Resize:
      glfwSetWindowSize(win, c.width, c.height);
      break;
    case WindowChange::Iconify:
      glfwIconifyWindow(win);
      break;
    case WindowChange::Restore:
      glfwRestoreWindow(win);
      break;
  }
}

}  // namespace

int run_window(const Options& o, const std::string& res) {
  gl::WindowContext ctx(o.width, o.height, "scandof: SAT depth of field", o.settings.vsync);
  GLFWwindow* win = ctx.window();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  KeyQueue keys;
  glfwSetWindowUserPointer(win, &keys);
  glfwSetKeyCallback(win, key_callback);  // before the backend, which chains to it
  glfwSetDropCallback(win, drop_callback);
  if (!ImGui_ImplGlfw_InitForOpenGL(win, true) || !ImGui_ImplOpenGL3_Init("#version 450")) {
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui's GLFW/OpenGL3 backends failed to initialise");
  }
  Automation automation(o, /*headless=*/false);
  Soak soak(o, /*headless=*/false);  // before App: --inject-fault no-gl-compute
  int soak_rc = 0;
  {
    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(win, &fbw, &fbh);
    App app(res, o.settings, std::max(fbw, 1), std::max(fbh, 1));
    if (o.primitives) app.settings().show_primitives = true;
    Panels panels;
    UiInfo info;
    info.gl_renderer = gl::gl_description();
    LiveCompare live;
    info.live = &live;
    UiCheck check;
    check.enabled = automation.ui_selftest();
    info.check = &check;
    FrameRate rate;
    std::fprintf(stderr, "[scandof] window %dx%d, SAT backend: %s\n", fbw, fbh,
                 app.sat().backend().c_str());
    if (!app.sat().hint().empty())
      std::fprintf(stderr, "[scandof] hint: %s\n", app.sat().hint().c_str());
    bool vsync = o.settings.vsync;
    long long frame_no = 0, loop_no = 0;
    int refused_w = -1, refused_h = -1;  // a framebuffer size App refused: drawn at its old size
    if (soak.on()) soak.start(app);
    auto last = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(win)) {
      if (const auto change = automation.resize_step(loop_no)) apply(win, *change);
      ++loop_no;
      SoakStep step;
      if (soak.on()) {
        if (soak.done()) {
          ReportInput report;  // --report of a window soak: the soak's section and the settings
          report.app = &app;
          report.gl = info.gl_renderer;
          soak_rc = soak.finish(&report);
          automation.finish(app, nullptr);
          if (!o.report.empty()) write_report(o.report, report);
          break;
        }
        step = soak.before_pass(app);
        if (step.window) apply(win, *step.window);
        if (step.minimised) {
          soak.skipped_pass();
          glfwPollEvents();
          glfwWaitEventsTimeout(0.02);
          continue;
        }
      }
      glfwPollEvents();
      glfwGetFramebufferSize(win, &fbw, &fbh);
      if (automation.exercise_resize() && (fbw != app.width() || fbh != app.height()))
        std::fprintf(stderr, "[scandof] framebuffer now %dx%d\n", fbw, fbh);
      if (fbw == 0 || fbh == 0) {
        // Minimized: nothing to render into; sleep until something happens.
        glfwWaitEventsTimeout(0.1);
        continue;
      }
      const auto now = std::chrono::steady_clock::now();
      const float dt = std::chrono::duration<float>(now - last).count();
      last = now;
      rate.add(dt, &info);
      // At least 4 s and 8 frames: at low frame rates (the CPU fallback) a toast still shows.
      info.toast_left_s -= std::min(dt, 0.5f);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      Requests req;
      if (frame_no == 0) automation.first_frame_requests(&req);
      int ww = 1, wh = 1;
      glfwGetWindowSize(win, &ww, &wh);
      std::vector<int> pressed;
      pressed.swap(keys.pressed);
      handle_camera_input(&app.camera(), &app.settings(), &req, pressed, fbw, fbh, ww, wh);
      if (req.quit) glfwSetWindowShouldClose(win, GLFW_TRUE);
      // K (--record-path FILE): the current view as the camera path's next key; not while a
      // text field has the keyboard.
      if (!ImGui::GetIO().WantTextInput &&
          std::find(pressed.begin(), pressed.end(), GLFW_KEY_K) != pressed.end()) {
        info.toast = app.add_path_key();
        info.toast_error = info.toast.rfind("Camera key", 0) != 0;
        info.toast_left_s = 4.0f;
      }
      std::string dropped;  // loaded by this frame's App::frame (its settings change)
      if (!keys.dropped.empty()) {
        dropped = keys.dropped.back();
        keys.dropped.clear();
        app.settings().scene_file = dropped;
      }
      const auto ui0 = std::chrono::steady_clock::now();
      panels.draw(app, info, &req);  // with the panels hidden it still draws hint, overlay, toast
      float ui_ms = ms_since(ui0);
      if (app.settings().vsync != vsync) {
        vsync = app.settings().vsync;
        ctx.set_vsync(vsync);
      }

      // The frame's size: the framebuffer's, or what the soak asks past the window system (a
      // huge-resize fault); one App refused is drawn at the size App kept, scaled by present().
      int rw = fbw, rh = fbh;
      if (step.past_window) {
        rw = step.width;
        rh = step.height;
      }
      if (rw == refused_w && rh == refused_h) {
        rw = app.width();
        rh = app.height();
      }
      try {
        app.frame(rw, rh, std::min(dt, 0.1f));
      } catch (const FrameSizeRefused& e) {
        if (soak.on()) {
          soak.resize_refused(app, rw, rh, e.what());
        } else {
          std::fprintf(stderr, "[scandof] %s; drawing at %dx%d\n", e.what(), app.width(),
                       app.height());
        }
        // The window system's size stays refused until it changes; a soak's fault only once.
        if (rw == fbw && rh == fbh && !soak.on()) {
          refused_w = rw;
          refused_h = rh;
        }
        info.toast = std::string("Resize refused: ") + e.what();
        info.toast_error = true;
        info.toast_left_s = 4.0f;
        app.frame(app.width(), app.height(), std::min(dt, 0.1f));
      }
      req.run_primitives |= step.req.run_primitives;
      if (req.screenshot) {
        req.screenshot = false;
        info.toast = automation.screenshot_key(app, &info.toast_error);
        info.toast_left_s = 4.0f;
      }
      if (!dropped.empty()) {
        info.toast = app.scene_error() ? app.scene_message() : "Scene loaded: " + dropped;
        info.toast_error = app.scene_error();
        info.toast_left_s = 4.0f;
      }
      app.carry_out(req);
      carry_out_checks(app, req);
      if (soak.on()) soak.after_frame(app);
      if (app.settings().show_overlay) live_compare_step(app, &live, frame_no);
      app.present(fbw, fbh);
      const auto ui1 = std::chrono::steady_clock::now();
      ImGui::Render();
      glViewport(0, 0, fbw, fbh);
      app.ui_timer().begin();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      app.ui_timer().end();
      info.ui_cpu_ms = ui_ms + ms_since(ui1);
      ++frame_no;
      if (check.enabled && automation.ui_selftest_step(&check, ImGui::GetIO().DisplaySize.y)) {
        automation.window_ui_screenshot(fbw, fbh);
        break;
      }
      const bool done = !soak.on() && automation.window_done(frame_no);
      if (done) automation.window_ui_screenshot(fbw, fbh);  // the back buffer, before the swap
      glfwSwapBuffers(win);
      if (done) {
        automation.finish(app, nullptr);
        break;
      }
    }
  }  // App (and its GL/CUDA objects) go before the ImGui backends and the context
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return std::max(soak_rc, automation.exit_status());
}

}  // namespace demo
