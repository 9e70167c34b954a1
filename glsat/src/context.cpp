#include "scandof/gl/context.hpp"

#include <glad/gl.h>
// After glad: GLFW must not pull in the system GL header.
#define GLFW_INCLUDE_NONE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "scandof/gl/util.hpp"

namespace scandof::gl {

namespace {
void glfw_error(int code, const char* msg) {
  std::fprintf(stderr, "[glfw] error %d: %s\n", code, msg);
}

void after_load(const char* how) {
  std::fprintf(stderr, "[gl] %s: %s\n", how, gl_description().c_str());
#ifdef SCANDOF_GL_DEBUG
  install_gl_debug_callback();
#endif
}
}  // namespace

std::string gl_description() {
  auto s = [](GLenum e) {
    const GLubyte* p = glGetString(e);
    return std::string(p ? reinterpret_cast<const char*>(p) : "?");
  };
  return s(GL_VENDOR) + " / " + s(GL_RENDERER) + " / " + s(GL_VERSION);
}

WindowContext::WindowContext(int width, int height, const char* title, bool vsync) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit())
    throw std::runtime_error(
        "GLFW initialisation failed (no display? use --headless, or run under xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#ifdef SCANDOF_GL_DEBUG
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
  window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("could not create an OpenGL 4.5 core window");
  }
  glfwMakeContextCurrent(window_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw std::runtime_error("glad could not load OpenGL 4.5 core functions");
  }
  set_vsync(vsync);
  after_load("window context");
}

WindowContext::~WindowContext() {
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void WindowContext::set_vsync(bool on) {
  glfwSwapInterval(on ? 1 : 0);
}

namespace {
const char* egl_error_name(EGLint e) {
  switch (e) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    default:
      return "EGL error";
  }
}
}  // namespace

HeadlessContext::HeadlessContext() {
  const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay dpy = EGL_NO_DISPLAY;
  std::string platform;  // named in the log line below
  // The surfaceless platform needs neither X nor a DRM node; NVIDIA's and Mesa's EGL both offer it.
  if (get_platform_display && client_ext &&
      std::strstr(client_ext, "EGL_MESA_platform_surfaceless")) {
    dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    platform = "surfaceless";
  }
  if (dpy == EGL_NO_DISPLAY) {
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    platform = "default";
  }
  EGLint major = 0, minor = 0;
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
    throw std::runtime_error(std::string("EGL: no display could be initialised (") +
                             egl_error_name(eglGetError()) + ")");
  display_ = dpy;
  const char* dpy_ext = eglQueryString(dpy, EGL_EXTENSIONS);
  if (!dpy_ext || !std::strstr(dpy_ext, "EGL_KHR_surfaceless_context")) {
    eglTerminate(dpy);
    throw std::runtime_error("EGL: the display lacks EGL_KHR_surfaceless_context");
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    eglTerminate(dpy);
    throw std::runtime_error("EGL: desktop OpenGL is not available (eglBindAPI)");
  }
  const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint ncfg = 0;
  // Surfaceless: any GL-capable config will do (or none, with EGL_KHR_no_config_context).
  eglChooseConfig(dpy, cfg_attr, &cfg, 1, &ncfg);
  const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION,
                             4,
                             EGL_CONTEXT_MINOR_VERSION,
                             5,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK,
                             EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
#ifdef SCANDOF_GL_DEBUG
                             EGL_CONTEXT_OPENGL_DEBUG,
                             EGL_TRUE,
#endif
                             EGL_NONE};
  EGLContext ctx =
      eglCreateContext(dpy, ncfg > 0 ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
  if (ctx == EGL_NO_CONTEXT) {
    EGLint e = eglGetError();
    eglTerminate(dpy);
    throw std::runtime_error(std::string("EGL: cannot create an OpenGL 4.5 core context (") +
                             egl_error_name(e) + ")");
  }
  context_ = ctx;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    EGLint e = eglGetError();
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    throw std::runtime_error(std::string("EGL: eglMakeCurrent failed (") + egl_error_name(e) + ")");
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    throw std::runtime_error("glad could not load OpenGL 4.5 core functions through EGL");
  }
  after_load(
      ("EGL " + std::to_string(major) + "." + std::to_string(minor) + " " + platform).c_str());
}

HeadlessContext::~HeadlessContext() {
  if (display_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
}

}  // namespace scandof::gl
