#include "passes/cuda_gl_interop.hpp"

#if SCANDOF_WITH_CUDA
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <utility>

#include "scandof/cuda_check.hpp"

namespace demo {

namespace {
// The CUDA device of the current EGL context's display (EGL_EXT_device_query, EGL_NV_device_cuda);
// -1 where there is no EGL context or the display's device is not a CUDA one.
int egl_cuda_device(std::string* why) {
  const EGLDisplay dpy = eglGetCurrentDisplay();
  if (dpy == EGL_NO_DISPLAY) return -1;  // a GLX context: cudaGLGetDevices has spoken
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto query_display = reinterpret_cast<PFNEGLQUERYDISPLAYATTRIBEXTPROC>(
      eglGetProcAddress("eglQueryDisplayAttribEXT"));
  auto query_device = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(
      eglGetProcAddress("eglQueryDeviceAttribEXT"));
  auto device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
      eglGetProcAddress("eglQueryDeviceStringEXT"));
  if (!client || !std::strstr(client, "EGL_EXT_device_query") || !query_display ||
      !query_device || !device_string) {
    *why += "; EGL: no EGL_EXT_device_query";
    return -1;
  }
  EGLAttrib device = 0, cuda = -1;
  if (!query_display(dpy, EGL_DEVICE_EXT, &device) || device == 0) {
    *why += "; EGL: the display names no device";
    return -1;
  }
  const auto dev = reinterpret_cast<EGLDeviceEXT>(device);
  const char* dev_ext = device_string(dev, EGL_EXTENSIONS);
  if (!dev_ext || !std::strstr(dev_ext, "EGL_NV_device_cuda") ||
      !query_device(dev, EGL_CUDA_DEVICE_NV, &cuda)) {
    *why += "; EGL: the display's device is not a CUDA device";
    return -1;
  }
  return static_cast<int>(cuda);
}
}  // namespace

std::vector<int> gl_context_cuda_devices(std::string* why) {
  why->clear();
  unsigned count = 0;
  int devices[8] = {};
  const cudaError_t e = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
  if (e == cudaSuccess && count > 0)
    return std::vector<int>(devices, devices + std::min(count, 8u));
  cudaGetLastError();  // not sticky: leave nothing for the next check
  *why = std::string("cudaGLGetDevices: ") +
         (e == cudaSuccess ? "no device" : cudaGetErrorString(e));
  const int egl = egl_cuda_device(why);
  if (egl >= 0) {
    why->clear();
    return {egl};
  }
  return {};
}

CudaGlRegistration CudaGlRegistration::image(GLuint texture, unsigned flags) {
  CudaGlRegistration r;
  CUDA_CHECK(cudaGraphicsGLRegisterImage(&r.res_, texture, GL_TEXTURE_2D, flags));
  return r;
}

CudaGlRegistration CudaGlRegistration::buffer(GLuint buffer, unsigned flags) {
  CudaGlRegistration r;
  CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r.res_, buffer, flags));
  return r;
}

CudaGlRegistration::CudaGlRegistration(CudaGlRegistration&& o) noexcept
    : res_(std::exchange(o.res_, nullptr)) {}

CudaGlRegistration& CudaGlRegistration::operator=(CudaGlRegistration&& o) noexcept {
  if (this != &o) {
    reset();
    res_ = std::exchange(o.res_, nullptr);
  }
  return *this;
}

void CudaGlRegistration::reset() noexcept {
  if (res_) cudaGraphicsUnregisterResource(res_);
  res_ = nullptr;
}

ScopedMap::ScopedMap(const std::array<cudaGraphicsResource_t, kMax>& res, int count,
                     cudaStream_t stream)
    : res_(res), count_(count), stream_(stream) {
  if (count < 1 || count > kMax) throw std::invalid_argument("ScopedMap: 1..6 resources");
  CUDA_CHECK(cudaGraphicsMapResources(count_, res_.data(), stream_));
  mapped_ = true;
}

ScopedMap::~ScopedMap() noexcept(false) {
  if (!mapped_) return;
  mapped_ = false;
  const cudaError_t e = cudaGraphicsUnmapResources(count_, res_.data(), stream_);
  if (e != cudaSuccess && !std::uncaught_exceptions())
    ::scandof::throw_cuda_error(e, "cudaGraphicsUnmapResources", __FILE__, __LINE__);
}

void ScopedMap::unmap() {
  if (!mapped_) return;
  mapped_ = false;
  CUDA_CHECK(cudaGraphicsUnmapResources(count_, res_.data(), stream_));
}

cudaArray_t ScopedMap::array(int i) const {
  cudaArray_t a = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&a, res_[i], 0, 0));
  return a;
}

void* ScopedMap::pointer(int i, std::size_t* bytes) const {
  void* p = nullptr;
  std::size_t b = 0;
  CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&p, &b, res_[i]));
  if (bytes) *bytes = b;
  return p;
}

}  // namespace demo
#endif  // SCANDOF_WITH_CUDA
