// Depth of field on the GPU from interleaved summed-area tables (SatLayout::Interleaved): the
// compute twin of shaders/dof.frag's gather, for a frame loop that keeps its tables in CUDA memory.
// Host-only header; the kernels are in kernels/src/dof.cu.
//
// Each pixel reads its linear view depth once, turns it into a circle-of-confusion radius
// r = min(A |z - z_f| / z, r_max) (thin lens, A = radius at infinity in pixels) and averages the
// box of half-width r: an integer radius costs 4 corner loads of 16 bytes (every channel of a
// corner at once); a fractional one the four exact integer boxes of the bilinear-corner scheme
// (weights (1-t)^2, t(1-t), t(1-t), t^2), 16 loads. uint32 box sums are exact (wrap-around
// cancels) and become float only when weighted.
#pragma once

#include <cstdint>

#include "scandof/dof.hpp"
#include "scandof/sat.hpp"

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#else
typedef unsigned long long cudaSurfaceObject_t;
typedef struct CUstream_st* cudaStream_t;
#endif

namespace scandof {

// Every method of scandof/dof_gold.hpp (gather with any shape, spread, layered) on the GPU,
// matching the CPU gold implementations there within 1/255 per channel (RGBA8), or within one half
// step (relative 2^-10, plus 1e-4 absolute) of the gold's radiance (RGBA16F). Owns its scratch: the
// signed delta images of the spreading methods (16 bytes per pixel per layer, 32 for HDR), grown on
// demand.
struct DofFrame {
  cudaTextureObject_t rgba = 0;   // the sharp frame, RGBA8, element reads
  cudaTextureObject_t depth = 0;  // view-axis z, float
  const void* sat = nullptr;      // interleaved SAT of rgba (gather only)
  SatFormat format = SatFormat::U32;
  cudaSurfaceObject_t out = 0;  // RGBA8 result, alpha 255
  int width = 0, height = 0;
  // The HDR frame (SatPixels::Rgba16F): rgba is then a texture over a 16-bit float4 cudaArray
  // (element reads, which give float4), sat the interleaved table SatBuilder builds from it (U32:
  // quantize_radiance(v, fixed), exact box sums; F32: radiance, gather/box only) and out a surface
  // over an RGBA16F cudaArray: radiance as half4, alpha 1, clamped to [0, 65504] (the largest
  // half). The spreading methods quantize the frame with `fixed` as they read it; see docs/dof.md's
  // "HDR radiance" for the sums and their limits.
  SatPixels pixels = SatPixels::Rgba8;
  SatFixedPoint fixed;  // Rgba16F: the tables' encoding (hdr_fixed_point())
  // The second depth layer (dof::layered_two; Method::Layered only; both or neither): its colour
  // (rgba's format) and view z (0 = nothing behind). Its hidden samples spread into their layers
  // beside the visible ones: a second source launch per layer, into the same delta image.
  cudaTextureObject_t rgba2 = 0;
  cudaTextureObject_t depth2 = 0;
};

// The paper's gather with the box shape: f.sat, f.depth, f.out and the lens of p (aperture_px,
// focus, max_radius; a depth <= 0 takes max_radius). Asynchronous on `stream`. Throws
// std::invalid_argument on a null table/texture/surface, a table not 16-byte aligned, a
// non-positive size or (Rgba16F) a fixed point outside 0..24 bits / 1..2^24, and where scandof
// was built without CUDA. DofGpu::render's Gather/Box; HDR per f.pixels.
void dof_gather(const DofFrame& f, const dof::Params& p, cudaStream_t stream = 0);

class DofGpu {
 public:
  DofGpu();
  ~DofGpu();
  DofGpu(const DofGpu&) = delete;
  DofGpu& operator=(const DofGpu&) = delete;
  // Asynchronous on `stream`. Gather with Shape::Box is dof_gather; the other shapes
  // evaluate dof::shape_boxes per pixel on the same table. Spread and layered build their delta
  // images with atomics, integrate them with an int32 SAT and resolve (see dof.hpp).
  void render(dof::Method m, const dof::Params& p, const DofFrame& f, cudaStream_t stream = 0);
  // Frees the scratch memory, which grows to the largest frame rendered and is kept; the next
  // render allocates what its frame needs. Waits for the device (cudaFree).
  void release_scratch();

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace scandof
