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
#include "scandof/device/sat_fused.cuh"
#include "scandof/dof_cuda.hpp"

namespace scandof {
namespace {

constexpr int kBlockX = 16, kBlockY = 8;

// One table element: every channel of a corner in one 16-byte load.
template <class T>
using Corner = sat_detail::Vec4Of<T>;

// Index -1 in x or y is the table's implicit zero row/column.
template <class T>
__device__ __forceinline__ typename Corner<T>::type corner(
    const typename Corner<T>::type* __restrict__ sat, int w, int x, int y) {
  if (x < 0 || y < 0) return typename Corner<T>::type{};
  return __ldg(sat + static_cast<std::size_t>(y) * w + x);
}

// Sum of the box of half-widths (rx, ry) around (px, py), clamped to the image: rgb and the true
// pixel count. The corner arithmetic runs in T (uint32 wraps and cancels exactly) and becomes float
// once per box.
template <class T>
__device__ __forceinline__ float4 box_sum(const typename Corner<T>::type* __restrict__ sat, int w,
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
    dof_gather_kernel(const typename Corner<T>::type* __restrict__ sat, cudaTextureObject_t depth,
                      cudaSurfaceObject_t out, int w, int h, dof::Params p) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float z = tex2D<float>(depth, x + 0.5f, y + 0.5f);
  const float r = z > 0.f ? dof::coc_radius(z, p) : p.max_radius;
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

void dof_gather(const DofFrame& f, const dof::Params& p, cudaStream_t stream) {
  if (f.width <= 0 || f.height <= 0) throw std::invalid_argument("dof_gather: empty image");
  if (f.sat == nullptr || f.depth == 0 || f.out == 0)
    throw std::invalid_argument("dof_gather: null table, depth texture or output surface");
  if (reinterpret_cast<std::uintptr_t>(f.sat) % 16u != 0)
    throw std::invalid_argument("dof_gather: the table must be 16-byte aligned");
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
  if (f.format == SatFormat::U32)
    dof_gather_kernel<uint32_t><<<grid, block, 0, stream>>>(static_cast<const uint4*>(f.sat),
                                                            f.depth, f.out, f.width, f.height, p);
  else
    dof_gather_kernel<float><<<grid, block, 0, stream>>>(static_cast<const float4*>(f.sat), f.depth,
                                                         f.out, f.width, f.height, p);
  CUDA_CHECK_LAUNCH();
}

}  // namespace scandof

namespace scandof {
namespace {

using dof::kMaxShapeBoxes;
using dof::ShapeBox;

__device__ __forceinline__ unsigned char to_unorm8(float v) {
  v = fminf(fmaxf(v, 0.f), 1.f);
  return static_cast<unsigned char>(v * 255.f + 0.5f);
}

// Gather with any shape: the shape's signed fractional rectangles (the same decomposition as
// dof::shape_boxes), each as its four exact integer boxes, summed straight from the table. Unlike
// the CPU, equal boxes of different rectangles are not merged first: the sums agree to float
// rounding, and no per-pixel box list lives in local memory (a first version that built one with
// dof::shape_boxes ran at 1.06 ms for the octagon at 1080p, 28x the box).
__device__ __forceinline__ void add_rect_sum(const uint4* __restrict__ sat, int w, int h, int x,
                                             int y, float hx, float hy, float sign, float4* acc) {
  const float fx = floorf(hx), fy = floorf(hy), tx = hx - fx, ty = hy - fy;
  const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
  auto add = [&](int rx, int ry, float c) {
    if (c == 0.f) return;
    const float4 s = box_sum<uint32_t>(sat, w, h, x, y, rx, ry);
    c *= sign;
    acc->x += c * s.x;
    acc->y += c * s.y;
    acc->z += c * s.z;
    acc->w += c * s.w;
  };
  add(ix, iy, (1.f - tx) * (1.f - ty));
  if (tx > 0.f) add(ix + 1, iy, tx * (1.f - ty));
  if (ty > 0.f) add(ix, iy + 1, (1.f - tx) * ty);
  if (tx > 0.f && ty > 0.f) add(ix + 1, iy + 1, tx * ty);
}

__global__ void __launch_bounds__(kBlockX* kBlockY)
    dof_gather_shape_kernel(const uint4* __restrict__ sat, cudaTextureObject_t depth,
                            cudaSurfaceObject_t out, int w, int h, dof::Params p) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float r = dof::coc_radius(tex2D<float>(depth, x + 0.5f, y + 0.5f), p);
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  const int k = p.shape == dof::Shape::Octagon ? 2 : p.disc_boxes;
  for (int i = 1; i <= k; ++i)
    add_rect_sum(sat, w, h, x, y, r * dof::disc_stair(k, k + 1 - i), r * dof::disc_stair(k, i), 1.f,
                 &acc);
  for (int i = 1; i < k; ++i)
    add_rect_sum(sat, w, h, x, y, r * dof::disc_stair(k, k - i), r * dof::disc_stair(k, i), -1.f,
                 &acc);
  const float inv = 1.f / (255.f * acc.w);
  surf2Dwrite(
      make_uchar4(to_unorm8(acc.x * inv), to_unorm8(acc.y * inv), to_unorm8(acc.z * inv), 255), out,
      x * static_cast<int>(sizeof(uchar4)), y);
}

// Rectangle spreading, stage 1: every source pixel of `layer` (-1: all) over the frame extended
// by the reflect margin adds its boxes' fixed-point weights at their clipped corners, with
// wrapping 32-bit atomics (order-free, so the result is the CPU's bit for bit). Up to 16 atomics
// per box: the cost of the method, and why in-focus pixels (one box, r = 0) are cheapest.
__global__ void __launch_bounds__(256)
    spread_delta_kernel(cudaTextureObject_t rgba, cudaTextureObject_t depth, int w, int h,
                        int margin, int layer, dof::Params p, uint32_t* __restrict__ delta) {
  const int ew = w + 2 * margin;
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= static_cast<long long>(ew) * (h + 2 * margin)) return;
  const int sx = static_cast<int>(idx % ew) - margin, sy = static_cast<int>(idx / ew) - margin;
  const int rx = dof::reflect_coord(sx, w), ry = dof::reflect_coord(sy, h);
  const float z = tex2D<float>(depth, rx + 0.5f, ry + 0.5f);
  if (layer >= 0 && dof::layer_of(z, p) != layer) return;
  const uchar4 col = tex2D<uchar4>(rgba, rx + 0.5f, ry + 0.5f);
  ShapeBox boxes[kMaxShapeBoxes];
  int32_t wt[kMaxShapeBoxes];
  const int n = dof::shape_boxes(dof::coc_radius(z, p), p.shape, p.disc_boxes, boxes);
  dof::spread_weights(boxes, n, wt);
  for (int j = 0; j < n; ++j) {
    if (wt[j] == 0) continue;
    const int bx0 = max(sx - boxes[j].rx, 0), bx1 = min(sx + boxes[j].rx, w - 1);
    const int by0 = max(sy - boxes[j].ry, 0), by1 = min(sy + boxes[j].ry, h - 1);
    if (bx0 > bx1 || by0 > by1) continue;
    const uint32_t uw = static_cast<uint32_t>(wt[j]);
    const uint32_t v[4] = {col.x * uw, col.y * uw, col.z * uw, uw};
    auto add = [&](int x, int y, bool neg) {
      if (x >= w || y >= h) return;
      uint32_t* o = delta + (static_cast<std::size_t>(y) * w + x) * 4;
#pragma unroll
      for (int c = 0; c < 4; ++c) atomicAdd(o + c, neg ? 0u - v[c] : v[c]);
    };
    add(bx0, by0, false);
    add(bx1 + 1, by0, true);
    add(bx0, by1 + 1, true);
    add(bx1 + 1, by1 + 1, false);
  }
}

// Stage 2a: inclusive scan of each row of 4-word pixels, in place (wrapping). One block per row;
// each thread scans a contiguous run serially, a block scan of the runs' totals adds the offsets.
constexpr int kRowThreads = 256;
__global__ void __launch_bounds__(kRowThreads) rows4_scan_kernel(uint4* data, int w) {
  __shared__ uint4 tot[kRowThreads];
  uint4* row = data + static_cast<std::size_t>(blockIdx.x) * w;
  const int per = (w + kRowThreads - 1) / kRowThreads;
  const int x0 = threadIdx.x * per, x1 = min(x0 + per, w);
  uint4 run = make_uint4(0, 0, 0, 0);
  for (int x = x0; x < x1; ++x) {
    const uint4 v = row[x];
    run = make_uint4(run.x + v.x, run.y + v.y, run.z + v.z, run.w + v.w);
  }
  tot[threadIdx.x] = run;
  __syncthreads();
  // Hillis-Steele over 256 totals (8 steps): the row pass is a small part of the method.
  for (int d = 1; d < kRowThreads; d <<= 1) {
    const uint4 o = threadIdx.x >= d ? tot[threadIdx.x - d] : make_uint4(0, 0, 0, 0);
    __syncthreads();
    uint4& t = tot[threadIdx.x];
    t = make_uint4(t.x + o.x, t.y + o.y, t.z + o.z, t.w + o.w);
    __syncthreads();
  }
  uint4 acc = threadIdx.x > 0 ? tot[threadIdx.x - 1] : make_uint4(0, 0, 0, 0);
  for (int x = x0; x < x1; ++x) {
    const uint4 v = row[x];
    acc = make_uint4(acc.x + v.x, acc.y + v.y, acc.z + v.z, acc.w + v.w);
    row[x] = acc;
  }
}

// Stage 3: colour = sum(c W) / (255 sum(W)), 0 where no weight arrived.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    spread_resolve_kernel(const int4* __restrict__ sums, cudaSurfaceObject_t out, int w, int h) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const int4 s = sums[static_cast<std::size_t>(y) * w + x];
  const float inv = s.w > 0 ? 1.f / (255.f * static_cast<float>(s.w)) : 0.f;
  surf2Dwrite(make_uchar4(to_unorm8(s.x * inv), to_unorm8(s.y * inv), to_unorm8(s.z * inv), 255),
              out, x * static_cast<int>(sizeof(uchar4)), y);
}

// Layered: front to back with coverage a = min(1, W / kSpreadScale), as dof::layered_composite.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    layered_composite_kernel(const int4* __restrict__ sums, std::size_t layer_stride, int layers,
                             cudaSurfaceObject_t out, int w, int h) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc[3] = {0.f, 0.f, 0.f}, trans = 1.f;
  for (int l = 0; l < layers; ++l) {
    const int4 s = sums[l * layer_stride + static_cast<std::size_t>(y) * w + x];
    if (s.w <= 0) continue;
    const float wt = static_cast<float>(s.w);
    const float a = fminf(1.f, wt / static_cast<float>(dof::kSpreadScale));
    const float k = trans * a / (255.f * wt);
    acc[0] += k * s.x;
    acc[1] += k * s.y;
    acc[2] += k * s.z;
    trans *= 1.f - a;
  }
  const float cover = 1.f - trans, inv = cover > 0.f ? 1.f / cover : 0.f;
  surf2Dwrite(
      make_uchar4(to_unorm8(acc[0] * inv), to_unorm8(acc[1] * inv), to_unorm8(acc[2] * inv), 255),
      out, x * static_cast<int>(sizeof(uchar4)), y);
}

}  // namespace

struct DofGpu::Impl {
  void* scratch = nullptr;
  std::size_t bytes = 0;
  ~Impl() {
    if (scratch) cudaFree(scratch);
  }
  uint32_t* reserve(std::size_t b) {
    if (b > bytes) {
      if (scratch) CUDA_CHECK(cudaFree(scratch));
      scratch = nullptr;
      bytes = 0;
      CUDA_CHECK(cudaMalloc(&scratch, b));
      bytes = b;
    }
    return static_cast<uint32_t*>(scratch);
  }
  // Delta image of one layer (-1: all sources) integrated into per-pixel sums, in place.
  void spread_layer(const dof::Params& p, const DofFrame& f, int layer, uint32_t* d,
                    cudaStream_t s) {
    const std::size_t px = static_cast<std::size_t>(f.width) * f.height;
    CUDA_CHECK(cudaMemsetAsync(d, 0, px * 16, s));
    const int m = dof::margin(p);
    const long long sources = static_cast<long long>(f.width + 2 * m) * (f.height + 2 * m);
    spread_delta_kernel<<<static_cast<unsigned>((sources + 255) / 256), 256, 0, s>>>(
        f.rgba, f.depth, f.width, f.height, m, layer, p, d);
    CUDA_CHECK_LAUNCH();
    rows4_scan_kernel<<<f.height, kRowThreads, 0, s>>>(reinterpret_cast<uint4*>(d), f.width);
    CUDA_CHECK_LAUNCH();
    // Columns: the interleaved image is one plane of 4 * width word columns.
    sat_detail::fused_columns<uint32_t, uint32_t>(d, 4 * f.width, f.height, 1, s);
    CUDA_CHECK_LAUNCH();
  }
};

DofGpu::DofGpu() : impl_(new Impl) {}
DofGpu::~DofGpu() {
  delete impl_;
}

void DofGpu::render(dof::Method m, const dof::Params& p, const DofFrame& f, cudaStream_t stream) {
  dof::validate(p, m);
  if (f.width <= 0 || f.height <= 0) throw std::invalid_argument("DofGpu::render: empty image");
  if (f.depth == 0 || f.out == 0 || (m != dof::Method::Gather && f.rgba == 0))
    throw std::invalid_argument("DofGpu::render: null texture or surface");
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
  if (m == dof::Method::Gather) {
    if (f.sat == nullptr) throw std::invalid_argument("DofGpu::render: gather needs the SAT");
    if (p.shape == dof::Shape::Box || f.format == SatFormat::F32) {
      // The box has its own kernel (4 or 16 corner loads); float tables take the box too, since
      // the shapes' inclusion-exclusion needs exact (integer) box sums.
      dof_gather(f, p, stream);
      return;
    }
    dof_gather_shape_kernel<<<grid, block, 0, stream>>>(static_cast<const uint4*>(f.sat), f.depth,
                                                        f.out, f.width, f.height, p);
    CUDA_CHECK_LAUNCH();
    return;
  }
  const std::size_t px = static_cast<std::size_t>(f.width) * f.height;
  const int layers = m == dof::Method::Layered ? p.layers : 1;
  uint32_t* d = impl_->reserve(px * 16 * static_cast<std::size_t>(layers));
  if (m == dof::Method::Spread) {
    impl_->spread_layer(p, f, -1, d, stream);
    spread_resolve_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<const int4*>(d), f.out,
                                                      f.width, f.height);
  } else {
    for (int l = 0; l < layers; ++l) impl_->spread_layer(p, f, l, d + l * px * 4, stream);
    layered_composite_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<const int4*>(d), px,
                                                         layers, f.out, f.width, f.height);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace scandof
