// The gather depth-of-field kernel (see scandof/dof_cuda.hpp).
//
// Cost model at 1920x1080 on an H100: 2.07 M pixels x (4 B depth + up to 16 x 16 B corners + 4 B
// out). The corners mostly hit L2 (the 33 MB table fits the 50 MB L2, and neighbouring pixels
// share lines), so the floor is L2 bandwidth for ~530 MB of corner traffic in the worst case
// (every radius fractional), about 0.05 ms, and DRAM for the 41 MB of depth + table + output,
// about 0.015 ms.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "scandof/cuda_check.hpp"
#include "scandof/device/sat_fused.cuh"
#include "scandof/device/sat_row_scan.cuh"
#include "scandof/dof_cuda.hpp"
#include "scandof/dof_engine.hpp"
#include "scandof/ops.hpp"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace {

constexpr int kBlockX = 16, kBlockY = 8;

// HDR output: radiance as half4, alpha 1. fmaxf turns NaN and a negative rounding dip into 0;
// values past the largest half (65504) stay there instead of becoming inf.
__device__ __forceinline__ unsigned short to_half_bits(float v) {
  return __half_as_ushort(__float2half_rn(fminf(fmaxf(v, 0.f), 65504.f)));
}
__device__ __forceinline__ void write_hdr(cudaSurfaceObject_t out, int x, int y, float r, float g,
                                          float b) {
  surf2Dwrite(make_ushort4(to_half_bits(r), to_half_bits(g), to_half_bits(b), 0x3C00u), out,
              x * static_cast<int>(sizeof(ushort4)), y);
}

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

// Hdr: the mean box sum times `scale` (2^-F for fixed-point tables, 1 for float radiance) as half4.
template <class T, bool Hdr>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    dof_gather_kernel(const typename Corner<T>::type* __restrict__ sat, cudaTextureObject_t depth,
                      cudaSurfaceObject_t out, int w, int h, dof::Params p, float scale) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float z = tex2D<float>(depth, x + 0.5f, y + 0.5f);
  const float r = dof::shape_radius(z > 0.f ? dof::coc_radius(z, p) : p.max_radius, p);
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
  if constexpr (Hdr) {
    const float k = scale / s.w;
    write_hdr(out, x, y, s.x * k, s.y * k, s.z * k);
    return;
  }
  // s.rgb / s.a is the mean in 0..255; +0.5 rounds as GL's unorm conversion does.
  const float inv = 1.f / s.w;
  const uchar4 o = make_uchar4(static_cast<unsigned char>(fminf(s.x * inv + 0.5f, 255.f)),
                               static_cast<unsigned char>(fminf(s.y * inv + 0.5f, 255.f)),
                               static_cast<unsigned char>(fminf(s.z * inv + 0.5f, 255.f)), 255);
  surf2Dwrite(o, out, x * static_cast<int>(sizeof(uchar4)), y);
}

// Throws unless the frame's fixed point is one hdr.hpp can make.
void check_fixed(const DofFrame& f, const char* who) {
  if (f.pixels != SatPixels::Rgba16F) return;
  if (f.fixed.frac_bits < 0 || f.fixed.frac_bits > kMaxFracBits || f.fixed.max_value < 1 ||
      f.fixed.max_value > kMaxFixedValue)
    throw std::invalid_argument(std::string(who) +
                                ": the fixed point needs frac_bits 0..24, max_value 1..2^24");
}

// 2^-F for a fixed-point table, 1 for float radiance (and unused for RGBA8).
float hdr_scale(const DofFrame& f) {
  return f.format == SatFormat::U32 ? std::ldexp(1.0f, -f.fixed.frac_bits) : 1.0f;
}

}  // namespace

namespace {
void launch_gather(const DofFrame& f, const dof::Params& p, cudaStream_t stream);
}  // namespace

void dof_gather(const DofFrame& f, const dof::Params& p, cudaStream_t stream) {
  if (p.bokeh_threshold > 0.f && f.pixels == SatPixels::Rgba16F)
    throw std::invalid_argument("dof_gather: the bokeh split needs DofGpu::render (its scratch)");
  launch_gather(f, p, stream);
}

namespace {
void launch_gather(const DofFrame& f, const dof::Params& p, cudaStream_t stream) {
  if (f.width <= 0 || f.height <= 0) throw std::invalid_argument("dof_gather: empty image");
  if (f.sat == nullptr || f.depth == 0 || f.out == 0)
    throw std::invalid_argument("dof_gather: null table, depth texture or output surface");
  if (reinterpret_cast<std::uintptr_t>(f.sat) % 16u != 0)
    throw std::invalid_argument("dof_gather: the table must be 16-byte aligned");
  check_fixed(f, "dof_gather");
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
  const bool hdr = f.pixels == SatPixels::Rgba16F;
  const float scale = hdr ? hdr_scale(f) : 1.f;
  const auto* u = static_cast<const uint4*>(f.sat);
  const auto* fl = static_cast<const float4*>(f.sat);
  if (f.format == SatFormat::U32) {
    if (hdr)
      dof_gather_kernel<uint32_t, true>
          <<<grid, block, 0, stream>>>(u, f.depth, f.out, f.width, f.height, p, scale);
    else
      dof_gather_kernel<uint32_t, false>
          <<<grid, block, 0, stream>>>(u, f.depth, f.out, f.width, f.height, p, scale);
  } else {
    if (hdr)
      dof_gather_kernel<float, true>
          <<<grid, block, 0, stream>>>(fl, f.depth, f.out, f.width, f.height, p, scale);
    else
      dof_gather_kernel<float, false>
          <<<grid, block, 0, stream>>>(fl, f.depth, f.out, f.width, f.height, p, scale);
  }
  CUDA_CHECK_LAUNCH();
}
}  // namespace

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

// The polygon's unit bands (dof::polygon_bands), made once on the host and passed by value (336
// bytes of kernel parameters): per pixel they cost a multiply each, where building them costs
// N sines and cosines per band.
struct PolyBandsArg {
  int n;
  dof::PolyBand b[dof::kMaxPolyBands];
};
inline PolyBandsArg poly_bands_arg(const dof::Params& p) {
  PolyBandsArg a{};
  a.n = p.blades > 0 ? dof::polygon_bands(p.blades, p.blade_rotation, a.b) : 0;
  return a;
}

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// One band of the polygon at circumradius R (pixel units) around (x, y): its pixel weights are up
// to 3 x 3 integer boxes (dof::interval_runs in x and in y) whose corners lie on a 4 x 4 grid of
// table points, so the band reads at most 16 corners. Corners clamped to the table (the zero row
// and column at -1) give every box its clipped sum and pixel count, as the CPU's per-box clamp.
__device__ __forceinline__ void add_band_sum(const uint4* __restrict__ sat, int w, int h, int x,
                                             int y, const dof::PolyBand& bd, float R,
                                             float4* acc) {
  int xlo[3], xhi[3], ylo[3], yhi[3];
  float xw[3], yw[3];
  const int nx = dof::interval_runs(R * bd.xl, R * bd.xr, xlo, xhi, xw);
  const int ny = dof::interval_runs(R * bd.y0, R * bd.y1, ylo, yhi, yw);
  if (nx == 0 || ny == 0) return;
  int cx[4], cy[4];
  cx[0] = clampi(x + xlo[0] - 1, -1, w - 1);
  cy[0] = clampi(y + ylo[0] - 1, -1, h - 1);
#pragma unroll
  for (int i = 0; i < 3; ++i) {
    cx[i + 1] = i < nx ? clampi(x + xhi[i], -1, w - 1) : cx[i];
    cy[i + 1] = i < ny ? clampi(y + yhi[i], -1, h - 1) : cy[i];
  }
  uint4 lo[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) lo[i] = i <= nx ? corner<uint32_t>(sat, w, cx[i], cy[0]) : uint4{};
#pragma unroll
  for (int j = 0; j < 3; ++j) {
    if (j >= ny) break;
    uint4 hi[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
      hi[i] = i <= nx ? corner<uint32_t>(sat, w, cx[i], cy[j + 1]) : uint4{};
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      if (i >= nx) break;
      const float c = xw[i] * yw[j];
      const uint32_t r = hi[i + 1].x - hi[i].x - lo[i + 1].x + lo[i].x;
      const uint32_t g = hi[i + 1].y - hi[i].y - lo[i + 1].y + lo[i].y;
      const uint32_t b = hi[i + 1].z - hi[i].z - lo[i + 1].z + lo[i].z;
      acc->x += c * static_cast<float>(r);
      acc->y += c * static_cast<float>(g);
      acc->z += c * static_cast<float>(b);
      acc->w += c * static_cast<float>((cx[i + 1] - cx[i]) * (cy[j + 1] - cy[j]));
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) lo[i] = hi[i];
  }
}

// The sums of the pixel's kernel: the polygon's bands where pb.n > 0, else the shape's signed
// fractional rectangles (box, octagon, disc).
__device__ __forceinline__ float4 shape_sum(const uint4* __restrict__ sat, int w, int h, int x,
                                            int y, float r, const dof::Params& p,
                                            const PolyBandsArg& pb) {
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  if (pb.n > 0) {
    const float R = r + 0.5f;
    for (int b = 0; b < pb.n; ++b) add_band_sum(sat, w, h, x, y, pb.b[b], R, &acc);
    return acc;
  }
  if (p.shape == dof::Shape::Box) {
    add_rect_sum(sat, w, h, x, y, r, r, 1.f, &acc);
    return acc;
  }
  const int k = p.shape == dof::Shape::Octagon ? 2 : p.disc_boxes;
  for (int i = 1; i <= k; ++i)
    add_rect_sum(sat, w, h, x, y, r * dof::disc_stair(k, k + 1 - i), r * dof::disc_stair(k, i), 1.f,
                 &acc);
  for (int i = 1; i < k; ++i)
    add_rect_sum(sat, w, h, x, y, r * dof::disc_stair(k, k - i), r * dof::disc_stair(k, i), -1.f,
                 &acc);
  return acc;
}

template <bool Hdr>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    dof_gather_shape_kernel(const uint4* __restrict__ sat, cudaTextureObject_t depth,
                            cudaSurfaceObject_t out, int w, int h, dof::Params p, float scale,
                            PolyBandsArg pb) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float r =
      dof::shape_radius(dof::coc_radius(tex2D<float>(depth, x + 0.5f, y + 0.5f), p), p);
  const float4 acc = shape_sum(sat, w, h, x, y, r, p, pb);
  if constexpr (Hdr) {
    const float k = scale / acc.w;
    write_hdr(out, x, y, acc.x * k, acc.y * k, acc.z * k);
    return;
  }
  const float inv = 1.f / (255.f * acc.w);
  surf2Dwrite(
      make_uchar4(to_unorm8(acc.x * inv), to_unorm8(acc.y * inv), to_unorm8(acc.z * inv), 255), out,
      x * static_cast<int>(sizeof(uchar4)), y);
}

// Rectangle spreading, stage 1: every source pixel of `layer` (-1: all) over the frame extended
// by the reflect margin adds its boxes' fixed-point weights at their clipped corners, with
// wrapping 32-bit atomics (order-free, so the result is the CPU's bit for bit). Up to 16 atomics
// per box: the cost of the method, and why in-focus pixels (one box, r = 0) are cheapest. What
// cut it (spread/box at 1080p on the H100, whole method: 0.89 -> 0.37 -> 0.32 -> 0.25 ms): the
// delta image is planar, so a warp's 32 neighbouring sources hit consecutive words of a plane per
// atomic instruction (the interleaved layout spread them 16 B apart over 4x the L2 sectors); two
// channels share one 64-bit atomic (pack2); neighbours with the same radius merge the corners
// they share before the atomics (the grid below).

// Two channels in one 64-bit word: hi 2^32 + lo, lo sign-extended. Every later step (atomics,
// the SAT in wrapping 64-bit arithmetic) is linear, so a summed word is hi_sum 2^32 + lo_sum
// (mod 2^64) with lo_sum the true integer; the limits of docs/dof.md keep every final per-pixel sum
// inside int32, so the low half gives lo_sum back exactly and the rest is hi_sum mod 2^32: bit for
// bit the two wrapping 32-bit channels of the CPU gold. (Only final sums are decoded: intermediate
// row sums may carry across the halves, which the column pass then undoes.)
__device__ __forceinline__ uint64_t pack2(uint32_t lo, uint32_t hi) {
  return (static_cast<uint64_t>(hi) << 32) +
         static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(lo)));
}
__device__ __forceinline__ int2 unpack2(uint64_t v) {
  const int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(v));
  const uint64_t hi = (v - static_cast<uint64_t>(static_cast<int64_t>(lo))) >> 32;
  return make_int2(lo, static_cast<int32_t>(static_cast<uint32_t>(hi)));
}

// What one corner adds, in 64-bit words: LDR packs (R,G | B,W) into 2 words (pack2); HDR keeps
// one channel per word (R q W, G q W, B q W, W), since a fixed-point colour times a weight needs
// up to 48 bits (docs/dof.md, "HDR radiance"). Word k lives in plane k of the delta image.
template <bool Hdr>
struct Packet {
  static constexpr int kWords = Hdr ? 4 : 2;
  uint64_t v[kWords];
};

__device__ __forceinline__ Packet<false> make_packet(uchar4 col, int32_t wt) {
  const uint32_t uw = static_cast<uint32_t>(wt);
  return Packet<false>{{pack2(col.x * uw, col.y * uw), pack2(col.z * uw, uw)}};
}
__device__ __forceinline__ Packet<true> make_packet(uint4 q, int32_t wt) {
  const uint64_t uw = static_cast<uint64_t>(static_cast<int64_t>(wt));  // sign-extended: wraps
  return Packet<true>{{q.x * uw, q.y * uw, q.z * uw, uw}};
}

// The source colour: 8-bit, or the radiance in the tables' fixed point (the same
// quantize_radiance as SatBuilder and the CPU gold, so every backend spreads the same integers).
template <bool Hdr>
struct SourceColour;
template <>
struct SourceColour<false> {
  using type = uchar4;
  __device__ static uchar4 read(cudaTextureObject_t t, int x, int y, const SatFixedPoint&) {
    return tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
  }
};
template <>
struct SourceColour<true> {
  using type = uint4;
  __device__ static uint4 read(cudaTextureObject_t t, int x, int y, const SatFixedPoint& fp) {
    const float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
    bool clamped = false;  // counted by the SAT build, not here
    return make_uint4(quantize_radiance(v.x, fp, &clamped), quantize_radiance(v.y, fp, &clamped),
                      quantize_radiance(v.z, fp, &clamped), 0u);
  }
};

// Adds one packet at (x, y) of the delta planes.
template <bool Hdr>
__device__ __forceinline__ void add_point(uint64_t* delta, std::size_t plane, int w, int x, int y,
                                          const Packet<Hdr>& pk) {
  // (CUDA's 64-bit atomicAdd is declared for unsigned long long, uint64_t's twin.)
  auto* o = reinterpret_cast<unsigned long long*>(delta + static_cast<std::size_t>(y) * w + x);
#pragma unroll
  for (int k = 0; k < Packet<Hdr>::kWords; ++k) atomicAdd(o + k * plane, pk.v[k]);
}

// The box shape's four integer boxes (half-widths r0 or r0 + 1 in x and in y) have their corners
// on a 4 x 4 grid of points: x in {sx - r0 - 1, sx - r0, sx + r0 + 1, sx + r0 + 2} (starts of the
// r0 + 1 and r0 boxes, ends of the r0 and r0 + 1 boxes), y likewise. The right-hand neighbour
// (sx + 1, same row, same r0) has its grid columns 0 and 2 exactly on this source's columns 1 and
// 3, so it hands those 8 values over through shuffles and this lane adds them in registers (exact:
// integers) before one atomic per plane: 16 atomics per source where the neighbours agree,
// instead of 32. The last source of a run, clipped sources and other shapes keep every corner.
// (HDR: the same with 4 words a point; the grid is 128 registers.)
constexpr unsigned kFullWarp = 0xFFFFFFFFu;

template <bool Hdr>
__global__ void __launch_bounds__(256)
    spread_delta_kernel(cudaTextureObject_t rgba, cudaTextureObject_t depth, int w, int h,
                        int margin, int layer, dof::Params p, SatFixedPoint fp,
                        uint64_t* __restrict__ delta, cudaTextureObject_t first = 0) {
  constexpr int kWords = Packet<Hdr>::kWords;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const int ew = w + 2 * margin;
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // No early return: every lane of the warp takes part in the neighbour shuffles below.
  bool active = idx < static_cast<long long>(ew) * (h + 2 * margin);
  const int sx = active ? static_cast<int>(idx % ew) - margin : 0;
  const int sy = active ? static_cast<int>(idx / ew) - margin : 0;
  const int rx = dof::reflect_coord(sx, w), ry = dof::reflect_coord(sy, h);
  const float z = active ? tex2D<float>(depth, rx + 0.5f, ry + 0.5f) : 0.f;
  if (active && layer >= 0 && dof::layer_of(z, p) != layer) active = false;
  // The hidden layer's pass (first = the visible layer's depth): dof::hidden_source's gate.
  if (active && first != 0 && !dof::hidden_source(tex2D<float>(first, rx + 0.5f, ry + 0.5f), z, p))
    active = false;
  using Col = typename SourceColour<Hdr>::type;
  const Col col = active ? SourceColour<Hdr>::read(rgba, rx, ry, fp) : Col{};
  ShapeBox boxes[kMaxShapeBoxes];
  int32_t wt[kMaxShapeBoxes];
  const float r = active ? dof::shape_radius(dof::coc_radius(z, p), p) : 0.f;
  const int n = active ? dof::shape_boxes(r, p.shape, p.disc_boxes, boxes) : 0;
  if (n > 0) dof::spread_weights(boxes, n, wt);
  const int r0 = static_cast<int>(floorf(r));
  const bool grid = active && p.shape == dof::Shape::Box && sx - r0 - 1 >= 0 && sx + r0 + 2 < w &&
                    sy - r0 - 1 >= 0 && sy + r0 + 2 < h;

  // g[i][k]: the packet at (x_i, y_k), signs included.
  Packet<Hdr> g[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int c = 0; c < kWords; ++c) g[i][k].v[c] = 0;
  if (grid) {
    for (int j = 0; j < n; ++j) {
      const Packet<Hdr> pk = make_packet(col, wt[j]);
      const int xs = boxes[j].rx == r0 ? 1 : 0, ys = boxes[j].ry == r0 ? 1 : 0;
      // Its start column is xs, its end column 3 - xs (likewise in y); + where both are starts or
      // both ends, - otherwise.
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const bool on_x = i == xs || i == 3 - xs, on_y = k == ys || k == 3 - ys;
          if (on_x && on_y) {
            const bool neg = (i < 2) != (k < 2);
#pragma unroll
            for (int c = 0; c < kWords; ++c) g[i][k].v[c] += neg ? 0ull - pk.v[c] : pk.v[c];
          }
        }
    }
  }
  const int lane = threadIdx.x & 31;
  const int right_sy = __shfl_down_sync(kFullWarp, sy, 1);
  const int right_r0 = __shfl_down_sync(kFullWarp, r0, 1);
  const bool right_grid = __shfl_down_sync(kFullWarp, grid, 1);
  const bool take = grid && lane < 31 && right_grid && right_sy == sy && right_r0 == r0;
  const bool give = __shfl_up_sync(kFullWarp, take, 1) && lane > 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
#pragma unroll
    for (int c = 0; c < 2; ++c) {  // the right neighbour's columns 0, 2 onto this lane's 1, 3
#pragma unroll
      for (int q = 0; q < kWords; ++q) {
        const uint64_t v = __shfl_down_sync(kFullWarp, g[2 * c][k].v[q], 1);
        if (take) g[2 * c + 1][k].v[q] += v;
      }
    }
  }
  if (grid) {
    const int xs[4] = {sx - r0 - 1, sx - r0, sx + r0 + 1, sx + r0 + 2};
    const int ys[4] = {sy - r0 - 1, sy - r0, sy + r0 + 1, sy + r0 + 2};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (give && (i == 0 || i == 2)) continue;  // handed to the left neighbour
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        bool any = false;
#pragma unroll
        for (int c = 0; c < kWords; ++c) any = any || g[i][k].v[c] != 0;
        if (any) add_point<Hdr>(delta, plane, w, xs[i], ys[k], g[i][k]);
      }
    }
    return;
  }
  for (int j = 0; j < n; ++j) {
    if (wt[j] == 0) continue;
    const int bx0 = max(sx - boxes[j].rx, 0), bx1 = min(sx + boxes[j].rx, w - 1);
    const int by0 = max(sy - boxes[j].ry, 0), by1 = min(sy + boxes[j].ry, h - 1);
    if (bx0 > bx1 || by0 > by1) continue;
    const Packet<Hdr> pk = make_packet(col, wt[j]);
    Packet<Hdr> neg;
#pragma unroll
    for (int c = 0; c < kWords; ++c) neg.v[c] = 0ull - pk.v[c];
    auto add = [&](int x, int y, const Packet<Hdr>& v) {
      if (x < w && y < h) add_point<Hdr>(delta, plane, w, x, y, v);
    };
    add(bx0, by0, pk);
    add(bx1 + 1, by0, neg);
    add(bx0, by1 + 1, neg);
    add(bx1 + 1, by1 + 1, pk);
  }
}

// Bokeh from highlights (dof_gold.hpp): the excess sums live in 3 planes of int64 (R, G, B), kept
// only in the 32 x 32 tiles some source's shape reaches (`touched`); bokeh_resolve_kernel
// integrates them, adds them to the gather's output there and zeroes them, so the planes are all zero again for the next
// frame without a clear.
constexpr int kBokehTile = 32;

// Bokeh from highlights, stage 1 (dof::bokeh_delta_gold): a pixel whose fixed-point colour
// passes `base` in any channel spreads the excess over its own shape, e W_j per box, into 3
// planes of wrapping 64-bit sums. Sparse: each box is cut at the 32 x 32 tile borders and each
// piece adds its own four corners inside its tile (a corner past the tile's last row or column
// dropped), so a tile's sums need only its own deltas (bokeh_resolve_kernel) and the
// tiles no shape reaches stay zero and unvisited. The sums are the same integers as the gold's
// whole-frame SAT of the whole boxes' corners: each piece's corners integrate to the piece, the
// pieces tile the box. The sources are few (about 1 % of the demo's frames), so a lane without
// excess leaves at once and the others run the plain per-box loop.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    bokeh_delta_kernel(cudaTextureObject_t rgba, cudaTextureObject_t depth, int w, int h,
                       dof::Params p, SatFixedPoint fp, uint32_t base, uint64_t* __restrict__ delta,
                       unsigned* __restrict__ touched, int tiles_x) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const uint4 q = SourceColour<true>::read(rgba, x, y, fp);
  const uint64_t e[3] = {q.x > base ? q.x - base : 0u, q.y > base ? q.y - base : 0u,
                         q.z > base ? q.z - base : 0u};
  if ((e[0] | e[1] | e[2]) == 0) return;
  ShapeBox boxes[kMaxShapeBoxes];
  int32_t wt[kMaxShapeBoxes];
  const float r = dof::shape_radius(dof::coc_radius(tex2D<float>(depth, x + 0.5f, y + 0.5f), p), p);
  const int n = dof::shape_boxes(r, p.shape, p.disc_boxes, boxes);
  dof::spread_weights(boxes, n, wt);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  auto* d = reinterpret_cast<unsigned long long*>(delta);
  for (int j = 0; j < n; ++j) {
    const int x0 = max(x - boxes[j].rx, 0), x1 = min(x + boxes[j].rx, w - 1);
    const int y0 = max(y - boxes[j].ry, 0), y1 = min(y + boxes[j].ry, h - 1);
    if (wt[j] == 0 || x0 > x1 || y0 > y1) continue;
    const uint64_t uw = static_cast<uint64_t>(static_cast<int64_t>(wt[j]));  // wraps if negative
    uint64_t v[3];
#pragma unroll
    for (int k = 0; k < 3; ++k) v[k] = e[k] * uw;
    auto add = [&](int cx, int cy, bool neg) {
      const std::size_t i = static_cast<std::size_t>(cy) * w + cx;
#pragma unroll
      for (int k = 0; k < 3; ++k) atomicAdd(d + k * plane + i, neg ? 0ull - v[k] : v[k]);
    };
    for (int ty = y0 / kBokehTile; ty <= y1 / kBokehTile; ++ty)
      for (int tx = x0 / kBokehTile; tx <= x1 / kBokehTile; ++tx) {
        const int ex = min((tx + 1) * kBokehTile, w), ey = min((ty + 1) * kBokehTile, h);
        const int cx0 = max(x0, tx * kBokehTile), cx1 = min(x1, ex - 1);
        const int cy0 = max(y0, ty * kBokehTile), cy1 = min(y1, ey - 1);
        touched[ty * tiles_x + tx] = 1u;
        add(cx0, cy0, false);
        if (cx1 + 1 < ex) add(cx1 + 1, cy0, true);
        if (cy1 + 1 < ey) add(cx0, cy1 + 1, true);
        if (cx1 + 1 < ex && cy1 + 1 < ey) add(cx1 + 1, cy1 + 1, false);
      }
  }
}

// Stages 2 and 3, once the gather has written `out`: a block of 32 x 32 threads per touched tile
// (untouched tiles leave at once) loads the tile's deltas into shared memory and zeroes them in
// the planes, integrates them (a warp scan per row, then per column, in wrapping 64-bit
// arithmetic) and adds sum * unit (2^-(F + 19)) to its pixel of the gather's half4 output: rounded
// to half twice (gather, then sum), within 2^-10 of the gold's radiance. Why not in the gather:
// there every pixel paid a flag load behind its last corner load (ncu, near-blur at 1080p: the
// gather 0.13 -> 0.19 ms). As two passes of 32 x 8 threads (the tiles' scans written back, then
// a pass adding them, four rows a thread) they took 13 + 38 us of ncu time.
__global__ void __launch_bounds__(kBokehTile* kBokehTile)
    bokeh_resolve_kernel(uint64_t* __restrict__ sums, int w, int h,
                         const unsigned* __restrict__ touched, int tiles_x, float unit,
                         cudaSurfaceObject_t out) {
  static_assert(kBokehTile == 32, "a warp per row and per column of a tile");
  if (!touched[blockIdx.y * tiles_x + blockIdx.x]) return;
  __shared__ uint64_t t[3][kBokehTile][kBokehTile + 1];
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const int lane = threadIdx.x, row = threadIdx.y;
  const int x = blockIdx.x * kBokehTile + lane, y = blockIdx.y * kBokehTile + row;
  const bool in = x < w && y < h;
  const std::size_t i = static_cast<std::size_t>(y) * w + x;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    uint64_t v = 0;
    if (in) {
      v = sums[k * plane + i];
      sums[k * plane + i] = 0;  // all zero again for the next frame
    }
    t[k][row][lane] = warp::inclusive_scan(v, Sum{}, lane);
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 3; ++k) t[k][lane][row] = warp::inclusive_scan(t[k][lane][row], Sum{}, lane);
  __syncthreads();
  if (!in) return;
  const ushort4 o = surf2Dread<ushort4>(out, x * static_cast<int>(sizeof(ushort4)), y);
  float v[3];
#pragma unroll
  for (int k = 0; k < 3; ++k) v[k] = static_cast<float>(static_cast<long long>(t[k][row][lane])) * unit;
  write_hdr(out, x, y, __half2float(__ushort_as_half(o.x)) + v[0],
            __half2float(__ushort_as_half(o.y)) + v[1], __half2float(__ushort_as_half(o.z)) + v[2]);
}

// One pixel of a layer's integrated planes (R, G, B, W sums): LDR int32 from the packed words,
// HDR int64 one per plane.
__device__ __forceinline__ int4 load_planes(const uint64_t* __restrict__ sums, std::size_t plane,
                                            std::size_t i) {
  const int2 rg = unpack2(sums[i]), bw = unpack2(sums[plane + i]);
  return make_int4(rg.x, rg.y, bw.x, bw.y);
}
struct Sums64 {
  long long c[3], w;
};
__device__ __forceinline__ Sums64 load_planes64(const uint64_t* __restrict__ sums,
                                                std::size_t plane, std::size_t i) {
  Sums64 s;
#pragma unroll
  for (int k = 0; k < 3; ++k) s.c[k] = static_cast<long long>(sums[k * plane + i]);
  s.w = static_cast<long long>(sums[3 * plane + i]);
  return s;
}

// Stage 3: colour = sum(c W) / (255 sum(W)), 0 where no weight arrived. HDR: sum(q W) / sum(W)
// times scale = 2^-F, as half4.
template <bool Hdr>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    spread_resolve_kernel(const uint64_t* __restrict__ sums, cudaSurfaceObject_t out, int w, int h,
                          float scale) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t i = static_cast<std::size_t>(y) * w + x;
  if constexpr (Hdr) {
    const Sums64 s = load_planes64(sums, plane, i);
    const float k = s.w > 0 ? scale / static_cast<float>(s.w) : 0.f;
    write_hdr(out, x, y, static_cast<float>(s.c[0]) * k, static_cast<float>(s.c[1]) * k,
              static_cast<float>(s.c[2]) * k);
    return;
  }
  const int4 s = load_planes(sums, plane, i);
  const float inv = s.w > 0 ? 1.f / (255.f * static_cast<float>(s.w)) : 0.f;
  surf2Dwrite(make_uchar4(to_unorm8(s.x * inv), to_unorm8(s.y * inv), to_unorm8(s.z * inv), 255),
              out, x * static_cast<int>(sizeof(uchar4)), y);
}

// Layered: front to back with coverage a = min(1, W / kSpreadScale) and the coverage budget, as
// dof::layered_composite.
template <bool Hdr>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    layered_composite_kernel(const uint64_t* __restrict__ sums, int layers, cudaSurfaceObject_t out,
                             int w, int h, float scale) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t i = static_cast<std::size_t>(y) * w + x;
  float acc[3] = {0.f, 0.f, 0.f}, trans = 1.f;
  for (int l = 0; l < layers; ++l) {
    float c[3], wt;
    if constexpr (Hdr) {
      const Sums64 s = load_planes64(sums + l * 4 * plane, plane, i);
      if (s.w <= 0) continue;
      c[0] = static_cast<float>(s.c[0]);
      c[1] = static_cast<float>(s.c[1]);
      c[2] = static_cast<float>(s.c[2]);
      wt = static_cast<float>(s.w);
    } else {
      const int4 s = load_planes(sums + l * 2 * plane, plane, i);
      if (s.w <= 0) continue;
      c[0] = s.x;
      c[1] = s.y;
      c[2] = s.z;
      wt = static_cast<float>(s.w);
    }
    const float a = fminf(1.f, wt / static_cast<float>(dof::kSpreadScale));
    const float take = fminf(a, trans);  // the coverage budget, as dof::layered_composite
    const float k = Hdr ? take * scale / wt : take / (255.f * wt);
    acc[0] += k * c[0];
    acc[1] += k * c[1];
    acc[2] += k * c[2];
    trans -= take;
  }
  const float cover = 1.f - trans, inv = cover > 0.f ? 1.f / cover : 0.f;
  if constexpr (Hdr) {
    write_hdr(out, x, y, acc[0] * inv, acc[1] * inv, acc[2] * inv);
    return;
  }
  surf2Dwrite(
      make_uchar4(to_unorm8(acc[0] * inv), to_unorm8(acc[1] * inv), to_unorm8(acc[2] * inv), 255),
      out, x * static_cast<int>(sizeof(uchar4)), y);
}


// ---- Engine and Hybrid (scandof/dof_engine.hpp): the same per-pixel functions as the CPU gold,
// one kernel per pass. The ring pattern lives in constant memory (every thread of a warp reads the
// same sample offset at once: a broadcast).
namespace eng = dof::fields;
__constant__ eng::RingTable c_ring;

template <bool Hdr>
__device__ __forceinline__ eng::F4 engine_colour(cudaTextureObject_t rgba, int x, int y,
                                                 const SatFixedPoint& fp, float step) {
  if constexpr (Hdr) {
    const uint4 q = SourceColour<true>::read(rgba, x, y, fp);
    return eng::F4{static_cast<float>(q.x) * step, static_cast<float>(q.y) * step,
                   static_cast<float>(q.z) * step, 1.f};
  } else {
    const uchar4 c = tex2D<uchar4>(rgba, x + 0.5f, y + 0.5f);
    return eng::F4{static_cast<float>(c.x) / 255.f, static_cast<float>(c.y) / 255.f,
                   static_cast<float>(c.z) / 255.f, 1.f};
  }
}

// Pass 1 and 2: half pixel (x, y) from its four full pixels; its near radius into its tile's
// maximum (float bits compare as int for values >= 0; tiles zeroed first).
template <bool Hdr>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    engine_downsample_kernel(cudaTextureObject_t rgba, cudaTextureObject_t depth, int w, int h,
                             int w2, int h2, int tw, dof::Params p, SatFixedPoint fp, float step,
                             eng::F4* __restrict__ nearf, eng::F4* __restrict__ farf,
                             int* __restrict__ tile) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w2 || y >= h2) return;
  eng::F4 c[4];
  float s[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int fx = min(2 * x + (k & 1), w - 1), fy = min(2 * y + (k >> 1), h - 1);
    c[k] = engine_colour<Hdr>(rgba, fx, fy, fp, step);
    s[k] = eng::signed_coc(tex2D<float>(depth, fx + 0.5f, fy + 0.5f), p);
  }
  const std::size_t o = static_cast<std::size_t>(y) * w2 + x;
  eng::F4 nr, fr;
  eng::downsample(c, s, &nr, &fr);
  nearf[o] = nr;
  farf[o] = fr;
  if (nr.w > 0.f) atomicMax(tile + (y / eng::kTile) * tw + x / eng::kTile, __float_as_int(nr.w));
}

// Pass 3.
__global__ void engine_dilate_kernel(const int* __restrict__ tile, float* __restrict__ dil, int tw,
                                     int th, int reach) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= tw || y >= th) return;
  float m = 0.f;
  for (int dy = -reach; dy <= reach; ++dy)
    for (int dx = -reach; dx <= reach; ++dx) {
      const int xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < tw && yy < th) m = fmaxf(m, __int_as_float(tile[yy * tw + xx]));
    }
  dil[y * tw + x] = m;
}

// Pass 4: both gathers of half pixel (x, y).
__global__ void __launch_bounds__(kBlockX* kBlockY)
    engine_gather_kernel(const eng::F4* __restrict__ nearf, const eng::F4* __restrict__ farf,
                         const float* __restrict__ dil, int w2, int h2, int tw,
                         eng::F4* __restrict__ nearg, eng::F4* __restrict__ farg,
                         float* __restrict__ nearr, bool need_far) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w2 || y >= h2) return;
  const std::size_t o = static_cast<std::size_t>(y) * w2 + x;
  const float R = dil[(y / eng::kTile) * tw + x / eng::kTile];
  float rbar;
  nearg[o] = eng::near_gather(nearf, w2, h2, x, y, R, c_ring, &rbar);
  nearr[o] = rbar;
  if (need_far) farg[o] = eng::far_gather(farf, w2, h2, x, y, c_ring);
}

// Pass 5. Hybrid: the base is the SAT gather of the shape (dof_gather_shape_kernel's sums,
// clamped as the gather's output is); Engine: the sharp pixel blended into the far field.
template <bool Hdr, bool Hybrid>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    engine_composite_kernel(cudaTextureObject_t rgba, cudaTextureObject_t depth,
                            const uint4* __restrict__ sat, int w, int h, int w2, int h2,
                            dof::Params p, SatFixedPoint fp, float step,
                            const eng::F4* __restrict__ nearg, const eng::F4* __restrict__ farg,
                            const float* __restrict__ nearr, cudaSurfaceObject_t out,
                            PolyBandsArg pb) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= w || y >= h) return;
  const float s = eng::signed_coc(tex2D<float>(depth, x + 0.5f, y + 0.5f), p);
  eng::F4 base;
  if constexpr (Hybrid) {
    const float r = dof::shape_radius(fabsf(s), p);
    const float4 acc = shape_sum(sat, w, h, x, y, r, p, pb);
    const float inv = Hdr ? step / acc.w : 1.f / (255.f * acc.w);
    base = eng::F4{acc.x * inv, acc.y * inv, acc.z * inv, 1.f};
    if (!Hdr) {
      base.x = eng::saturate(base.x);
      base.y = eng::saturate(base.y);
      base.z = eng::saturate(base.z);
    } else {
      base.x = fmaxf(base.x, 0.f);
      base.y = fmaxf(base.y, 0.f);
      base.z = fmaxf(base.z, 0.f);
    }
  } else {
    base = eng::engine_base(engine_colour<Hdr>(rgba, x, y, fp, step), fabsf(s),
                            eng::upsample(farg, w2, h2, x, y));
  }
  eng::F4 nf = eng::upsample(nearg, w2, h2, x, y);
  if constexpr (Hybrid)
    nf = eng::scaled(nf, eng::hybrid_near_share(s, 2.f * eng::upsample1(nearr, w2, h2, x, y)));
  const eng::F4 o = eng::composite(base, nf);
  if constexpr (Hdr) {
    write_hdr(out, x, y, o.x, o.y, o.z);
  } else {
    surf2Dwrite(make_uchar4(to_unorm8(o.x), to_unorm8(o.y), to_unorm8(o.z), 255), out,
                x * static_cast<int>(sizeof(uchar4)), y);
  }
}

}  // namespace

struct DofGpu::Impl {
  // Engine / Hybrid scratch: four half-resolution F4 fields, two tile grids, the near radii.
  void* eng_scratch = nullptr;
  std::size_t eng_bytes = 0;
  int ring_rings = 0;  // the ring table in constant memory (0: none yet)
  template <bool Hdr>
  void engine_pass(dof::Method m, const dof::Params& p, const DofFrame& f, cudaStream_t s) {
    const int w = f.width, h = f.height, w2 = eng::half_size(w), h2 = eng::half_size(h);
    const int tw = (w2 + eng::kTile - 1) / eng::kTile, th = (h2 + eng::kTile - 1) / eng::kTile;
    const std::size_t n2 = static_cast<std::size_t>(w2) * h2, nt = static_cast<std::size_t>(tw) * th;
    const std::size_t need = 4 * n2 * sizeof(eng::F4) + (n2 + 2 * nt) * sizeof(float);
    if (need > eng_bytes) {
      if (eng_scratch) CUDA_CHECK(cudaFree(eng_scratch));
      eng_scratch = nullptr;
      eng_bytes = 0;
      CUDA_CHECK(cudaMalloc(&eng_scratch, need));
      eng_bytes = need;
    }
    auto* nearf = static_cast<eng::F4*>(eng_scratch);
    eng::F4* farf = nearf + n2;
    eng::F4* nearg = farf + n2;
    eng::F4* farg = nearg + n2;
    int* tile = reinterpret_cast<int*>(farg + n2);
    float* dil = reinterpret_cast<float*>(tile + nt);
    float* nearr = dil + nt;
    if (ring_rings != p.rings) {
      // Pageable source: the copy is staged before the call returns, so `t` may go.
      const eng::RingTable t = eng::RingTable::make(p.rings);
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_ring, &t, sizeof(t), 0, cudaMemcpyHostToDevice, s));
      ring_rings = p.rings;
    }
    const float step = Hdr ? std::ldexp(1.0f, -f.fixed.frac_bits) : 1.f;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid2((w2 + kBlockX - 1) / kBlockX, (h2 + kBlockY - 1) / kBlockY);
    const dim3 grid((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY);
    CUDA_CHECK(cudaMemsetAsync(tile, 0, nt * sizeof(int), s));
    engine_downsample_kernel<Hdr><<<grid2, block, 0, s>>>(f.rgba, f.depth, w, h, w2, h2, tw, p,
                                                          f.fixed, step, nearf, farf, tile);
    CUDA_CHECK_LAUNCH();
    const dim3 tb(16, 16), tg((tw + 15) / 16, (th + 15) / 16);
    engine_dilate_kernel<<<tg, tb, 0, s>>>(tile, dil, tw, th, eng::tile_reach(p.max_radius));
    CUDA_CHECK_LAUNCH();
    const bool hybrid = m == dof::Method::Hybrid;
    engine_gather_kernel<<<grid2, block, 0, s>>>(nearf, farf, dil, w2, h2, tw, nearg, farg, nearr,
                                                 !hybrid);
    CUDA_CHECK_LAUNCH();
    const auto* sat = static_cast<const uint4*>(f.sat);
    if (hybrid)
      engine_composite_kernel<Hdr, true><<<grid, block, 0, s>>>(
          f.rgba, f.depth, sat, w, h, w2, h2, p, f.fixed, step, nearg, farg, nearr, f.out,
          poly_bands_arg(p));
    else
      engine_composite_kernel<Hdr, false><<<grid, block, 0, s>>>(
          f.rgba, f.depth, sat, w, h, w2, h2, p, f.fixed, step, nearg, farg, nearr, f.out,
          PolyBandsArg{});
    CUDA_CHECK_LAUNCH();
  }
  void* scratch = nullptr;
  std::size_t bytes = 0;
  ~Impl() {
    if (scratch) cudaFree(scratch);
    if (eng_scratch) cudaFree(eng_scratch);
    free_bokeh();
  }
  uint64_t* reserve(std::size_t b) {
    if (b > bytes) {
      if (scratch) CUDA_CHECK(cudaFree(scratch));
      scratch = nullptr;
      bytes = 0;
      CUDA_CHECK(cudaMalloc(&scratch, b));
      bytes = b;
    }
    return static_cast<uint64_t*>(scratch);
  }
  // Delta image of one layer (-1: all sources) integrated into per-pixel sums, in place: `words`
  // planes of uint64 (2 LDR, 4 HDR).
  template <bool Hdr>
  void spread_layer(const dof::Params& p, const DofFrame& f, int layer, uint64_t* d,
                    cudaStream_t s) {
    constexpr int words = Packet<Hdr>::kWords;
    const std::size_t px = static_cast<std::size_t>(f.width) * f.height;
    CUDA_CHECK(cudaMemsetAsync(d, 0, px * 8 * words, s));
    const int m = dof::margin(p);
    const long long sources = static_cast<long long>(f.width + 2 * m) * (f.height + 2 * m);
    spread_delta_kernel<Hdr><<<static_cast<unsigned>((sources + 255) / 256), 256, 0, s>>>(
        f.rgba, f.depth, f.width, f.height, m, layer, p, f.fixed, d);
    CUDA_CHECK_LAUNCH();
    if (layer >= 0 && f.rgba2 != 0 && f.depth2 != 0) {
      // The second depth layer's hidden samples into the same delta image (dof::layered_two):
      // a second launch over every source, most of which the gate turns away at once.
      spread_delta_kernel<Hdr><<<static_cast<unsigned>((sources + 255) / 256), 256, 0, s>>>(
          f.rgba2, f.depth2, f.width, f.height, m, layer, p, f.fixed, d, f.depth);
      CUDA_CHECK_LAUNCH();
    }
    // Its SAT with the library's stages (planes of wrapping uint64): rows, then columns.
    sat_detail::batched_row_scan<uint64_t>(ScanAlgorithm::WarpShuffle, d, f.height, f.width, words,
                                           s);
    CUDA_CHECK_LAUNCH();
    sat_detail::fused_columns<uint64_t, uint64_t>(d, f.width, f.height, words, s);
    CUDA_CHECK_LAUNCH();
  }
  // Bokeh from highlights: the excess of f's frame over bokeh_base(f.fixed, T) spread and
  // integrated tile by tile and added to the gather's output (dof_gold.hpp's "Bokeh
  // from highlights"). Its own scratch, all zero between renders: cleared once when allocated, then by
  // bokeh_resolve_kernel.
  uint64_t* bokeh = nullptr;
  unsigned* bokeh_touched = nullptr;
  std::size_t bokeh_px = 0, bokeh_tiles = 0;
  void free_bokeh() {  // unchecked: for the destructor and before a reallocation
    if (bokeh) cudaFree(bokeh);
    if (bokeh_touched) cudaFree(bokeh_touched);
    bokeh = nullptr;
    bokeh_touched = nullptr;
    bokeh_px = bokeh_tiles = 0;
  }
  // Stage 1 now; bokeh_resolve once the gather has written f.out.
  void bokeh_spread(const dof::Params& p, const DofFrame& f, cudaStream_t s) {
    const std::size_t px = static_cast<std::size_t>(f.width) * f.height;
    const int tx = (f.width + kBokehTile - 1) / kBokehTile, ty = (f.height + kBokehTile - 1) / kBokehTile;
    const std::size_t tiles = static_cast<std::size_t>(tx) * ty;
    if (px > bokeh_px || tiles > bokeh_tiles) {
      free_bokeh();
      CUDA_CHECK(cudaMalloc(&bokeh, px * 8 * 3));
      CUDA_CHECK(cudaMalloc(&bokeh_touched, tiles * sizeof(unsigned)));
      bokeh_px = px;
      bokeh_tiles = tiles;
      CUDA_CHECK(cudaMemsetAsync(bokeh, 0, px * 8 * 3, s));
    }
    CUDA_CHECK(cudaMemsetAsync(bokeh_touched, 0, tiles * sizeof(unsigned), s));
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
    bokeh_delta_kernel<<<grid, block, 0, s>>>(f.rgba, f.depth, f.width, f.height, p, f.fixed,
                                              dof::bokeh_base(f.fixed, p.bokeh_threshold).max_value,
                                              bokeh, bokeh_touched, tx);
    CUDA_CHECK_LAUNCH();
  }
  void bokeh_resolve(const DofFrame& f, cudaStream_t s) {
    const int tx = (f.width + kBokehTile - 1) / kBokehTile, ty = (f.height + kBokehTile - 1) / kBokehTile;
    bokeh_resolve_kernel<<<dim3(tx, ty), dim3(kBokehTile, kBokehTile), 0, s>>>(
        bokeh, f.width, f.height, bokeh_touched, tx,
        std::ldexp(1.0f, -(f.fixed.frac_bits + dof::kSpreadScaleLog2)), f.out);
    CUDA_CHECK_LAUNCH();
  }
  template <bool Hdr>
  void spreading(dof::Method m, const dof::Params& p, const DofFrame& f, float scale,
                 cudaStream_t stream) {
    constexpr int words = Packet<Hdr>::kWords;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
    const std::size_t px = static_cast<std::size_t>(f.width) * f.height;
    const int layers = m == dof::Method::Layered ? p.layers : 1;
    uint64_t* d = reserve(px * 8 * words * static_cast<std::size_t>(layers));
    if (m == dof::Method::Spread) {
      spread_layer<Hdr>(p, f, -1, d, stream);
      spread_resolve_kernel<Hdr><<<grid, block, 0, stream>>>(d, f.out, f.width, f.height, scale);
    } else {
      for (int l = 0; l < layers; ++l) spread_layer<Hdr>(p, f, l, d + l * px * words, stream);
      layered_composite_kernel<Hdr>
          <<<grid, block, 0, stream>>>(d, layers, f.out, f.width, f.height, scale);
    }
    CUDA_CHECK_LAUNCH();
  }
};

DofGpu::DofGpu() : impl_(new Impl) {}
DofGpu::~DofGpu() {
  delete impl_;
}

void DofGpu::release_scratch() {
  if (impl_->scratch) CUDA_CHECK(cudaFree(impl_->scratch));
  impl_->scratch = nullptr;
  impl_->bytes = 0;
  if (impl_->eng_scratch) CUDA_CHECK(cudaFree(impl_->eng_scratch));
  impl_->eng_scratch = nullptr;
  impl_->eng_bytes = 0;
  if (impl_->bokeh) CUDA_CHECK(cudaFree(impl_->bokeh));
  if (impl_->bokeh_touched) CUDA_CHECK(cudaFree(impl_->bokeh_touched));
  impl_->bokeh = nullptr;
  impl_->bokeh_touched = nullptr;
  impl_->bokeh_px = impl_->bokeh_tiles = 0;
}

void DofGpu::render(dof::Method m, const dof::Params& p, const DofFrame& f, cudaStream_t stream) {
  dof::validate(p, m);
  if (f.width <= 0 || f.height <= 0) throw std::invalid_argument("DofGpu::render: empty image");
  if (f.depth == 0 || f.out == 0 || (m != dof::Method::Gather && f.rgba == 0))
    throw std::invalid_argument("DofGpu::render: null texture or surface");
  check_fixed(f, "DofGpu::render");
  if ((f.rgba2 != 0) != (f.depth2 != 0))
    throw std::invalid_argument("DofGpu::render: the second layer needs its colour and depth");
  if (f.rgba2 != 0 && m != dof::Method::Layered)
    throw std::invalid_argument("DofGpu::render: a second depth layer is for layered only");
  const bool hdr = f.pixels == SatPixels::Rgba16F;
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((f.width + kBlockX - 1) / kBlockX, (f.height + kBlockY - 1) / kBlockY);
  if (m == dof::Method::Engine || m == dof::Method::Hybrid) {
    if (f.rgba == 0) throw std::invalid_argument("DofGpu::render: engine/hybrid need the frame");
    if (m == dof::Method::Hybrid && (f.sat == nullptr || f.format != SatFormat::U32))
      throw std::invalid_argument("DofGpu::render: hybrid needs the fixed-point (U32) SAT");
    if (hdr)
      impl_->engine_pass<true>(m, p, f, stream);
    else
      impl_->engine_pass<false>(m, p, f, stream);
    return;
  }
  if (m == dof::Method::Gather) {
    if (f.sat == nullptr) throw std::invalid_argument("DofGpu::render: gather needs the SAT");
    // The bokeh split (HDR only: an RGBA8 frame has nothing above white): the excess spread
    // and integrated, the gather, then the excess added where it arrived.
    const bool bokeh = hdr && p.bokeh_threshold > 0.f;
    if (bokeh) {
      if (f.format != SatFormat::U32 || f.rgba == 0)
        throw std::invalid_argument("DofGpu::render: the bokeh split needs the frame and U32 tables");
      impl_->bokeh_spread(p, f, stream);
    }
    if ((p.shape == dof::Shape::Box && p.blades == 0) || f.format == SatFormat::F32) {
      // The box has its own kernel (4 or 16 corner loads); float tables take the box too, since
      // the shapes' inclusion-exclusion needs exact (integer) box sums.
      launch_gather(f, p, stream);
    } else {
      const auto* sat = static_cast<const uint4*>(f.sat);
      const PolyBandsArg pb = poly_bands_arg(p);
      if (hdr)
        dof_gather_shape_kernel<true><<<grid, block, 0, stream>>>(sat, f.depth, f.out, f.width,
                                                                  f.height, p, hdr_scale(f), pb);
      else
        dof_gather_shape_kernel<false>
            <<<grid, block, 0, stream>>>(sat, f.depth, f.out, f.width, f.height, p, 1.f, pb);
      CUDA_CHECK_LAUNCH();
    }
    if (bokeh) impl_->bokeh_resolve(f, stream);
    return;
  }
  // The spreading methods never read a table: the colour scale is always the fixed point's.
  if (hdr)
    impl_->spreading<true>(m, p, f, std::ldexp(1.0f, -f.fixed.frac_bits), stream);
  else
    impl_->spreading<false>(m, p, f, 1.f, stream);
}

}  // namespace scandof
