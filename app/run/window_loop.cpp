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

#include "automation/run_script.hpp"
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

void show(UiInfo* info, const std::string& text, bool error) {
  info->toast = text;
  info->toast_error = error;
  info->toast_left_s = 4.0f;
}

// Dear ImGui on the window: the key and drop callbacks first (the GLFW backend chains to them).
void init_imgui(GLFWwindow* win, KeyQueue* keys) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  glfwSetWindowUserPointer(win, keys);
  glfwSetKeyCallback(win, key_callback);  // before the backend, which chains to it
  glfwSetDropCallback(win, drop_callback);
  if (!ImGui_ImplGlfw_InitForOpenGL(win, true) || !ImGui_ImplOpenGL3_Init("#version 450")) {
    ImGui::DestroyContext();
    throw std::runtime_error("Dear ImGui's GLFW/OpenGL3 backends failed to initialise");
  }
}

void shutdown_imgui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

// The framebuffer's size after the poll; --exercise-resize logs each change App has not seen.
// False when it is 0x0 (minimised): nothing to render into.
bool framebuffer_size(GLFWwindow* win, const Options& o, const App& app, int* w, int* h) {
  glfwGetFramebufferSize(win, w, h);
  if (o.exercise_resize && (*w != app.width() || *h != app.height()))
    std::fprintf(stderr, "[scandof] framebuffer now %dx%d\n", *w, *h);
  return *w != 0 && *h != 0;
}

void new_ui_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

// The frame's input: camera and keys (frame/camera_input.*), Esc, K and a dropped file (set as
// the scene, loaded by this frame's App::frame); returns that file's path, or "".
std::string window_input(GLFWwindow* win, KeyQueue* keys, App& app, Requests* req, UiInfo* info,
                         int fbw, int fbh) {
  int ww = 1, wh = 1;
  glfwGetWindowSize(win, &ww, &wh);
  std::vector<int> pressed;
  pressed.swap(keys->pressed);
  handle_camera_input(&app.camera(), &app.settings(), req, pressed, fbw, fbh, ww, wh);
  if (req->quit) glfwSetWindowShouldClose(win, GLFW_TRUE);
  // K (--record-path FILE): the current view as the camera path's next key; not while a
  // text field has the keyboard.
  if (!ImGui::GetIO().WantTextInput &&
      std::find(pressed.begin(), pressed.end(), GLFW_KEY_K) != pressed.end()) {
    const std::string said = app.add_path_key();
    show(info, said, said.rfind("Camera key", 0) != 0);
  }
  std::string dropped;
  if (!keys->dropped.empty()) {
    dropped = keys->dropped.back();
    keys->dropped.clear();
    app.settings().scene_file = dropped;
  }
  return dropped;
}

// The panels over the presented frame, into the back buffer; returns the CPU time it took.
float render_ui(App& app, int fbw, int fbh) {
  const auto t0 = std::chrono::steady_clock::now();
  ImGui::Render();
  glViewport(0, 0, fbw, fbh);
  app.ui_timer().begin();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  app.ui_timer().end();
  return ms_since(t0);
}

}  // namespace

int run_window(const Options& o, const std::string& res) {
  gl::WindowContext ctx(o.width, o.height, "scandof: SAT depth of field", o.settings.vsync);
  GLFWwindow* win = ctx.window();
  KeyQueue keys;
  init_imgui(win, &keys);
  RunScript script(o, /*headless=*/false);  // before App: --inject-fault no-gl-compute
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
    check.enabled = script.ui_selftest();
    info.check = &check;
    ReportInput report;  // --report of a window soak: the soak's section and the settings
    report.app = &app;
    report.gl = info.gl_renderer;
    FrameRate rate;
    std::fprintf(stderr, "[scandof] window %dx%d, SAT backend: %s\n", fbw, fbh,
                 app.sat().backend().c_str());
    if (!app.sat().hint().empty())
      std::fprintf(stderr, "[scandof] hint: %s\n", app.sat().hint().c_str());
    bool vsync = o.settings.vsync;
    long long frame_no = 0;
    script.start(app);
    auto last = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(win)) {
      const ScriptPass pass = script.before_frame(app);
      for (const WindowChange& c : pass.window) apply(win, c);
      if (pass.quit) break;
      if (pass.skip) {
        glfwPollEvents();
        glfwWaitEventsTimeout(0.02);
        continue;
      }
      glfwPollEvents();
      if (!framebuffer_size(win, o, app, &fbw, &fbh)) {
        glfwWaitEventsTimeout(0.1);  // minimised: sleep until something happens
        continue;
      }
      const auto now = std::chrono::steady_clock::now();
      const float dt = std::chrono::duration<float>(now - last).count();
      last = now;
      rate.add(dt, &info);
      // At least 4 s and 8 frames: at low frame rates (the CPU fallback) a toast still shows.
      info.toast_left_s -= std::min(dt, 0.5f);

      new_ui_frame();
      Requests req = pass.req;
      const std::string dropped = window_input(win, &keys, app, &req, &info, fbw, fbh);
      const auto ui0 = std::chrono::steady_clock::now();
      panels.draw(app, info, &req);  // with the panels hidden it still draws hint, overlay, toast
      const float ui_ms = ms_since(ui0);
      if (app.settings().vsync != vsync) {
        vsync = app.settings().vsync;
        ctx.set_vsync(vsync);
      }
      if (const auto toast = script.frame(app, fbw, fbh, std::min(dt, 0.1f), &req))
        show(&info, toast->text, toast->error);
      if (!dropped.empty())
        show(&info, app.scene_error() ? app.scene_message() : "Scene loaded: " + dropped,
             app.scene_error());
      app.carry_out(req);
      carry_out_checks(app, req);
      const bool last_frame = script.after_frame(app, &check, ImGui::GetIO().DisplaySize.y);
      if (app.settings().show_overlay) live_compare_step(app, &live, frame_no);
      app.present(fbw, fbh);
      info.ui_cpu_ms = ui_ms + render_ui(app, fbw, fbh);
      ++frame_no;
      if (last_frame) break;
      glfwSwapBuffers(win);
    }
    script.done(app, &report, fbw, fbh, [win] { glfwSwapBuffers(win); });
  }  // App (and its GL/CUDA objects) go before the ImGui backends and the context
  shutdown_imgui();
  return script.exit_status();
}

}  // namespace demo
