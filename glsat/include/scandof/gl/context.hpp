// OpenGL 4.5 core contexts: a GLFW window (interactive) or EGL without any window system
// (--headless; the surfaceless platform, rendering only into FBOs). Both load glad on creation and
// throw std::runtime_error with the reason when no suitable context can be made.
#pragma once

#include <string>

struct GLFWwindow;

namespace scandof::gl {

class WindowContext {
 public:
  WindowContext(int width, int height, const char* title, bool vsync);
  ~WindowContext();
  WindowContext(const WindowContext&) = delete;
  WindowContext& operator=(const WindowContext&) = delete;
  GLFWwindow* window() const { return window_; }
  void set_vsync(bool on);

 private:
  GLFWwindow* window_ = nullptr;
};

class HeadlessContext {
 public:
  HeadlessContext();
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
};

// "vendor / renderer / version" of the current context.
std::string gl_description();

}  // namespace scandof::gl
