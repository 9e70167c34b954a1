// RAII texture and surface objects over cudaArrays. TextureObject: over a cudaArray of RGBA8 pixels
// (or any element type), read the way SatInput::texture expects (element type, unnormalized integer
// coordinates, point sampling, clamped). The demo makes one per frame over the mapped GL colour
// texture; tests make one over their own array. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "scandof/cuda_check.hpp"

namespace scandof {
namespace util {

inline cudaResourceDesc array_resource(cudaArray_t array) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  return rd;
}

// An owned 2D cudaArray, for tests and benchmarks (the demo's arrays belong to GL, mapped).
class CudaArray {
 public:
  CudaArray(cudaChannelFormatDesc d, int w, int h, unsigned flags = 0) {
    CUDA_CHECK(cudaMallocArray(&a_, &d, w, h, flags));
  }
  ~CudaArray() {
    if (a_) cudaFreeArray(a_);  // no throw from a destructor
  }
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;
  cudaArray_t get() const { return a_; }

 private:
  cudaArray_t a_ = nullptr;
};

class TextureObject {
 public:
  TextureObject() = default;
  explicit TextureObject(cudaArray_t array) {
    const cudaResourceDesc rd = array_resource(array);
    cudaTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex_, &rd, &td, nullptr));
  }
  ~TextureObject() {
    if (tex_) cudaDestroyTextureObject(tex_);  // no throw from a destructor
  }
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;
  TextureObject(TextureObject&& o) noexcept : tex_(std::exchange(o.tex_, 0)) {}
  TextureObject& operator=(TextureObject&& o) noexcept {
    if (this != &o) {
      if (tex_) cudaDestroyTextureObject(tex_);
      tex_ = std::exchange(o.tex_, 0);
    }
    return *this;
  }
  cudaTextureObject_t get() const { return tex_; }

 private:
  cudaTextureObject_t tex_ = 0;
};

// RAII surface object over a cudaArray (e.g. a mapped GL texture registered with
// cudaGraphicsRegisterFlagsSurfaceLoadStore): what a kernel writes an image through.
class SurfaceObject {
 public:
  SurfaceObject() = default;
  explicit SurfaceObject(cudaArray_t array) {
    const cudaResourceDesc rd = array_resource(array);
    CUDA_CHECK(cudaCreateSurfaceObject(&surf_, &rd));
  }
  ~SurfaceObject() {
    if (surf_) cudaDestroySurfaceObject(surf_);
  }
  SurfaceObject(const SurfaceObject&) = delete;
  SurfaceObject& operator=(const SurfaceObject&) = delete;
  SurfaceObject(SurfaceObject&& o) noexcept : surf_(std::exchange(o.surf_, 0)) {}
  cudaSurfaceObject_t get() const { return surf_; }

 private:
  cudaSurfaceObject_t surf_ = 0;
};

}  // namespace util
}  // namespace scandof
