// The gather depth-of-field kernel (see scandof/dof_cuda.hpp).
//
// Cost model at 1920x1080 on an H100: 2.07 M pixels x (4 B depth + up to 16 x 16 B corners + 4 B
// out). The corners mostly hit L2 (the 33 MB table fits the 50 MB L2, and neighbouring pixels
// share lines), so the floor is L2 bandwidth for ~530 MB of corner traffic in the worst case
// (every radius fractional), about 0.05 ms, and DRAM for the 41 MB of depth + table + output,
// about 0.015 ms.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "scandof/cuda_check.hpp"
#include "scandof/dof_cuda.hpp"

namespace scandof {
namespace {

constexpr int kBlockX = 16, kBlockY = 8;

template <class T>
struct Corner;
template <>
struct Corner<uint32_t> {
  using V = uint4;
};
template <>
struct Corner<float> {
  using V = float4;
};

// Index -1 in x or y is the table's implicit zero row/column.
template <class T>
__device__ __forceinline__ typename Corner<T>::V corner(
    const typename Corner<T>::V* __restrict__ sat, int w, int x, int y) {
  if (x < 0 || y < 0) return typename Corner<T>::V{};
  return __ldg(sat + static_cast<std::size_t>(y) * w + x);
}

// Sum of the box of half-widths (rx, ry) around (px, py), clamped to the image: rgb and the true
// pixel count. The corner arithmetic runs in T (uint32 wraps and cancels exactly) and becomes float
// once per box.
template <class T>
__device__ __forceinline__ float4 box_sum(const typename Corner<T>::V* __restrict__ sat, int w,
                                          int h, int px, int py, int rx, int ry) {
  const int x0 = max(px - rx - 1, -1), x1 = min(px + rx, w - 1);
  const int y0 = max(py - ry - 1, -1), y1 = min(py + ry, h - 1);
  const auto a = corner<T>(sat, w, x1, y1), b = corner<T>(sat, w, x0, y1);
  const auto c = corner<T>(sat, w, x1, y0), d = corner<T>(sat, w, x0, y0);
  const T r = a.x - b.x - c.x + d.x, g = a.y - b.y - c.y + d.y, bl = a.z - b.z - c.z + d.z;
  return make_float4(static_cast<float>(r), static_cast<float>(g), static_cast<float>(bl),
                     static_cast<float>((x1 - x0) * (y1 - y0)));
}

__device__ __forceinline__ float4 axpy(float a, float4 x, float4 y) {
  return make_float4(a * x.x + y.x, a * x.y + y.y, a * x.z + y.z, a * x.w + y.w);
}

template <class T>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    dof_gather_kernel(const typename Corner<T>::V* __restrict__ sat, cudaTextureObject_t depth,
                      cudaSurfaceObject_t out, int w, int h, DofParams p) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float z = tex2D<float>(depth, x + 0.5f, y + 0.5f);
  float r = z > 0.f ? p.aperture * fabsf(z - p.focus) / z : p.max_radius;
  r = fminf(r, p.max_radius);
  const int r0 = static_cast<int>(floorf(r));
  const float t = r - static_cast<float>(r0);
  float4 s = box_sum<T>(sat, w, h, x, y, r0, r0);
  if (t > 0.f) {
    // The same weights as shaders/dof.frag: (1-t)^2, t(1-t) twice, t^2.
    const float4 sx = box_sum<T>(sat, w, h, x, y, r0 + 1, r0);
    const float4 sy = box_sum<T>(sat, w, h, x, y, r0, r0 + 1);
    const float4 sxy = box_sum<T>(sat, w, h, x, y, r0 + 1, r0 + 1);
    const float u = 1.f - t;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    acc = axpy(u * u, s, acc);
    acc = axpy(t * u, sx, acc);
    acc = axpy(t * u, sy, acc);
    acc = axpy(t * t, sxy, acc);
    s = acc;
  }
  // s.rgb / s.a is the mean in 0..255; +0.5 rounds as GL's unorm conversion does.
  const float inv = 1.f / s.w;
  const uchar4 o = make_uchar4(static_cast<unsigned char>(fminf(s.x * inv + 0.5f, 255.f)),
                               static_cast<unsigned char>(fminf(s.y * inv + 0.5f, 255.f)),
                               static_cast<unsigned char>(fminf(s.z * inv + 0.5f, 255.f)), 255);
  surf2Dwrite(o, out, x * static_cast<int>(sizeof(uchar4)), y);
}

}  // namespace

void dof_gather(const DofGatherArgs& a, cudaStream_t stream) {
  if (a.width <= 0 || a.height <= 0) throw std::invalid_argument("dof_gather: empty image");
  if (a.sat == nullptr || a.depth == 0 || a.out == 0)
    throw std::invalid_argument("dof_gather: null table, depth texture or output surface");
  if (reinterpret_cast<std::uintptr_t>(a.sat) % 16u != 0)
    throw std::invalid_argument("dof_gather: the table must be 16-byte aligned");
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((a.width + kBlockX - 1) / kBlockX, (a.height + kBlockY - 1) / kBlockY);
  if (a.format == SatFormat::U32)
    dof_gather_kernel<uint32_t><<<grid, block, 0, stream>>>(
        static_cast<const uint4*>(a.sat), a.depth, a.out, a.width, a.height, a.params);
  else
    dof_gather_kernel<float><<<grid, block, 0, stream>>>(static_cast<const float4*>(a.sat), a.depth,
                                                         a.out, a.width, a.height, a.params);
  CUDA_CHECK_LAUNCH();
}

}  // namespace scandof

namespace scandof {

struct DofGpu::Impl {};

DofGpu::DofGpu() : impl_(new Impl) {}
DofGpu::~DofGpu() {
  delete impl_;
}

void DofGpu::render(dof::Method m, const dof::Params& p, const DofFrame& f, cudaStream_t stream) {
  dof::validate(p, m);
  if (m == dof::Method::Gather && p.shape == dof::Shape::Box) {
    DofGatherArgs a;
    a.sat = f.sat;
    a.format = f.format;
    a.depth = f.depth;
    a.out = f.out;
    a.width = f.width;
    a.height = f.height;
    a.params = {p.focus, p.aperture_px, p.max_radius};
    dof_gather(a, stream);
    return;
  }
  throw std::invalid_argument(std::string("DofGpu::render: ") + dof::to_string(m) + " with shape " +
                              dof::to_string(p.shape) + " is not implemented on the GPU yet");
}

}  // namespace scandof
