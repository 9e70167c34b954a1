#include "window_loop.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "app.hpp"
#include "camera_input.hpp"
#include "context.hpp"
#include "image_io.hpp"
#include "ui.hpp"

namespace demo {

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

}  // namespace

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
    if (o.primitives) app.settings.show_primitives = true;
    UiInfo info;
    info.gl_renderer = gl_description();
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
      info.fps = dt > 0 ? 0.9f * info.fps + 0.1f / dt : info.fps;

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
      handle_camera_input(&app.camera, &app.settings, &req, fbw, fbh, ww, wh);
      if (req.quit) glfwSetWindowShouldClose(win, GLFW_TRUE);
      if (app.settings.show_ui) draw_ui(app, info, &req);
      if (app.settings.vsync != vsync) {
        vsync = app.settings.vsync;
        ctx.set_vsync(vsync);
      }

      app.frame(fbw, fbh, std::min(dt, 0.1f));
      app.carry_out(req);
      app.renderer.present(fbw, fbh);
      ImGui::Render();
      glViewport(0, 0, fbw, fbh);
      app.ui_timer.begin();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      app.ui_timer.end();
      ++frame_no;
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
