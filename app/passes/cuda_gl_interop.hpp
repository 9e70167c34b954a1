// CUDA-GL interop, RAII: a GL object registered with CUDA (unregistered before the GL object dies)
// and a scoped map of several registrations (one map call, one unmap call). The texture object
// over a mapped array is scandof::util::TextureObject (tests/test_sat.cu makes the same one).
// CUDA builds only.
#pragma once

#if SCANDOF_WITH_CUDA
#include <glad/gl.h>
// glad has already defined the GL API, so cuda_gl_interop.h must not pull in the system GL header.
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace demo {

// The CUDA devices the current GL context renders on, the only ones that can register its objects:
// cudaGLGetDevices, and where that names none and the context is EGL's (headless), the EGL
// device's EGL_CUDA_DEVICE_NV. Empty on a context elsewhere (Mesa, another vendor's GPU), with
// what the queries said in *why. Leaves no CUDA error behind.
std::vector<int> gl_context_cuda_devices(std::string* why);

class CudaGlRegistration {
 public:
  CudaGlRegistration() = default;
  // A 2D texture (flags: cudaGraphicsRegisterFlags*, e.g. ReadOnly).
  static CudaGlRegistration image(GLuint texture, unsigned flags);
  // A buffer object (e.g. WriteDiscard for a buffer CUDA fills completely).
  static CudaGlRegistration buffer(GLuint buffer, unsigned flags);
  ~CudaGlRegistration() { reset(); }
  CudaGlRegistration(CudaGlRegistration&& o) noexcept;
  CudaGlRegistration& operator=(CudaGlRegistration&& o) noexcept;
  CudaGlRegistration(const CudaGlRegistration&) = delete;
  CudaGlRegistration& operator=(const CudaGlRegistration&) = delete;
  cudaGraphicsResource_t get() const { return res_; }
  void reset() noexcept;  // unregisters now (no throw: also runs from destructors)

 private:
  cudaGraphicsResource_t res_ = nullptr;
};

// Maps kCount registrations on `stream` for the scope (one map call, where the driver waits for
// GL). unmap() ends the mapping early so the caller can time it and put an event after it;
// otherwise the destructor unmaps (and throws on failure unless already unwinding).
class ScopedMap {
 public:
  static constexpr int kMax = 6;  // colour, SAT, view z, output; the second depth layer's two
  // Maps the first `count` (1..kMax) of `res` with one call.
  ScopedMap(const std::array<cudaGraphicsResource_t, kMax>& res, int count, cudaStream_t stream);
  ~ScopedMap() noexcept(false);
  ScopedMap(const ScopedMap&) = delete;
  ScopedMap& operator=(const ScopedMap&) = delete;

  cudaArray_t array(int i) const;                            // level 0 of a mapped texture
  void* pointer(int i, std::size_t* bytes = nullptr) const;  // a mapped buffer
  void unmap();

 private:
  std::array<cudaGraphicsResource_t, kMax> res_;
  int count_;
  cudaStream_t stream_;
  bool mapped_ = false;
};

}  // namespace demo
#endif  // SCANDOF_WITH_CUDA
