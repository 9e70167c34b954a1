#include "passes/cuda_gl_interop.hpp"

#if SCANDOF_WITH_CUDA
#include <exception>
#include <stdexcept>
#include <utility>

#include "scandof/cuda_check.hpp"

namespace demo {

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
