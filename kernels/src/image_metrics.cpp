// PSNR, SSIM, edge band and heat map (see scandof/image_metrics.hpp). Sums in double; SSIM by
// separable normalised Gaussian filters (5 maps, two passes each), so 1080p costs tens of ms.
#include "scandof/image_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/util/parallel_for.hpp"

namespace scandof {
namespace metrics {

namespace {

std::size_t npix(int w, int h) {
  return static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
}

void check(const void* a, const void* b, const void* out, int w, int h, const char* who) {
  if (w < 0 || h < 0) throw std::invalid_argument(std::string(who) + ": negative size");
  if (w > 0 && h > 0 && (a == nullptr || b == nullptr || out == nullptr))
    throw std::invalid_argument(std::string(who) + ": null image");
}

uint8_t to_byte(float v) {
  const float c = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  return static_cast<uint8_t>(std::floor(c * 255.0f + 0.5f));
}

// Normalised 1D Gaussian filter along rows (dir 0) or columns (dir 1) of a w x h double plane,
// the window cut at the border and renormalised.
void gauss_pass(const std::vector<double>& in, std::vector<double>& out, int w, int h, int dir,
                const double* g) {
  const int R = kSsimRadius;
  const int len = dir == 0 ? w : h;  // length of the filtered direction
  const std::size_t step = dir == 0 ? 1 : static_cast<std::size_t>(w);
  double full = 0;
  for (int d = -R; d <= R; ++d) full += g[d + R];
  util::parallel_for(
      static_cast<std::size_t>(h),
      [&](std::size_t yb, std::size_t ye) {
        for (int y = static_cast<int>(yb); y < static_cast<int>(ye); ++y)
          for (int x = 0; x < w; ++x) {
            const int pos = dir == 0 ? x : y;
            const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
            double s = 0, n = 0;
            if (pos >= R && pos < len - R) {  // the whole window inside: no checks
              const double* p = in.data() + i - R * step;
              for (int d = 0; d <= 2 * R; ++d) s += g[d] * p[static_cast<std::size_t>(d) * step];
              n = full;
            } else {
              for (int d = -R; d <= R; ++d) {
                if (pos + d < 0 || pos + d >= len) continue;
                s += g[d + R] * in[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) +
                                                            static_cast<std::ptrdiff_t>(d) *
                                                                static_cast<std::ptrdiff_t>(step))];
                n += g[d + R];
              }
            }
            out[i] = s / n;
          }
      },
      8);
}

// SSIM map of one plane pair (values in [0, 1]); adds weight * SSIM into acc.
void ssim_plane(const std::vector<double>& a, const std::vector<double>& b, int w, int h,
                double weight, std::vector<double>& acc) {
  double g[2 * kSsimRadius + 1];
  for (int d = -kSsimRadius; d <= kSsimRadius; ++d)
    g[d + kSsimRadius] = std::exp(-(d * d) / (2.0 * kSsimSigma * kSsimSigma));
  const std::size_t n = npix(w, h);
  std::vector<double> src(n), tmp(n);
  std::vector<double> mom[5];  // E[a], E[b], E[a^2], E[b^2], E[ab]
  for (int m = 0; m < 5; ++m) {
    for (std::size_t i = 0; i < n; ++i) {
      const double x = a[i], y = b[i];
      src[i] = m == 0 ? x : m == 1 ? y : m == 2 ? x * x : m == 3 ? y * y : x * y;
    }
    gauss_pass(src, tmp, w, h, 0, g);
    mom[m].resize(n);
    gauss_pass(tmp, mom[m], w, h, 1, g);
  }
  const double c1 = (kSsimK1 * 1.0) * (kSsimK1 * 1.0), c2 = (kSsimK2 * 1.0) * (kSsimK2 * 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double ma = mom[0][i], mb = mom[1][i];
    const double va = mom[2][i] - ma * ma, vb = mom[3][i] - mb * mb, cab = mom[4][i] - ma * mb;
    acc[i] += weight * ((2 * ma * mb + c1) * (2 * cab + c2)) /
              ((ma * ma + mb * mb + c1) * (va + vb + c2));
  }
}

double masked_mean(const float* v, std::size_t n, const uint8_t* mask) {
  double s = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (mask == nullptr || mask[i]) {
      s += v[i];
      ++k;
    }
  return k ? s / static_cast<double>(k) : std::numeric_limits<double>::quiet_NaN();
}

// Squared distance transform of one line (Felzenszwalb & Huttenlocher 2012): f sampled at n
// points with stride, result in d. v, z scratch of n and n + 1.
void edt_1d(const double* f, double* d, int n, std::vector<int>& v, std::vector<double>& z) {
  const double inf = std::numeric_limits<double>::infinity();
  // Lower envelope of the parabolas (x - q)^2 + f(q) of the finite samples; z[0] = -inf keeps the
  // pop loop from emptying it.
  int k = -1;
  for (int q = 0; q < n; ++q) {
    if (f[q] == inf) continue;
    double s = -inf;
    while (k >= 0) {
      const int p = v[static_cast<std::size_t>(k)];
      s = ((f[q] + double(q) * q) - (f[p] + double(p) * p)) / (2.0 * (q - p));
      if (s > z[static_cast<std::size_t>(k)]) break;
      --k;
    }
    ++k;
    v[static_cast<std::size_t>(k)] = q;
    z[static_cast<std::size_t>(k)] = k == 0 ? -inf : s;
    z[static_cast<std::size_t>(k) + 1] = inf;
  }
  if (k < 0) {
    for (int q = 0; q < n; ++q) d[q] = inf;
    return;
  }
  int j = 0;
  for (int q = 0; q < n; ++q) {
    while (z[static_cast<std::size_t>(j) + 1] < q) ++j;
    const int p = v[static_cast<std::size_t>(j)];
    d[q] = double(q - p) * (q - p) + f[p];
  }
}

}  // namespace

void rgba8_to_rgb(const uint8_t* rgba, int w, int h, float* rgb) {
  check(rgba, rgb, rgb, w, h, "rgba8_to_rgb");
  const std::size_t n = npix(w, h);
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) rgb[3 * i + c] = static_cast<float>(rgba[4 * i + c]) / 255.0f;
}

void rgb_to_rgba8(const float* rgb, int w, int h, uint8_t* rgba) {
  check(rgb, rgba, rgba, w, h, "rgb_to_rgba8");
  const std::size_t n = npix(w, h);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) rgba[4 * i + c] = to_byte(rgb[3 * i + c]);
    rgba[4 * i + 3] = 255;
  }
}

double mse(const float* a, const float* b, int w, int h, const uint8_t* mask) {
  check(a, b, b, w, h, "mse");
  const std::size_t n = npix(w, h);
  double s = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (mask != nullptr && !mask[i]) continue;
    for (int c = 0; c < 3; ++c) {
      const double d = static_cast<double>(a[3 * i + c]) - static_cast<double>(b[3 * i + c]);
      s += d * d;
    }
    ++k;
  }
  return k ? s / (3.0 * static_cast<double>(k)) : std::numeric_limits<double>::quiet_NaN();
}

double psnr_from_mse(double m, double peak) {
  if (std::isnan(m)) return m;
  if (m == 0.0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(peak * peak / m);
}

double psnr(const float* a, const float* b, int w, int h, const uint8_t* mask, double peak) {
  return psnr_from_mse(mse(a, b, w, h, mask), peak);
}

void ssim_map(const float* a, const float* b, int w, int h, float* map, SsimChannels channels) {
  check(a, b, map, w, h, "ssim_map");
  const std::size_t n = npix(w, h);
  if (n == 0) return;
  std::vector<double> acc(n, 0.0), pa(n), pb(n);
  if (channels == SsimChannels::Luma) {
    for (std::size_t i = 0; i < n; ++i) {
      pa[i] = 0.299 * a[3 * i] + 0.587 * a[3 * i + 1] + 0.114 * a[3 * i + 2];
      pb[i] = 0.299 * b[3 * i] + 0.587 * b[3 * i + 1] + 0.114 * b[3 * i + 2];
    }
    ssim_plane(pa, pb, w, h, 1.0, acc);
  } else {
    for (int c = 0; c < 3; ++c) {
      for (std::size_t i = 0; i < n; ++i) {
        pa[i] = a[3 * i + c];
        pb[i] = b[3 * i + c];
      }
      ssim_plane(pa, pb, w, h, 1.0 / 3.0, acc);
    }
  }
  for (std::size_t i = 0; i < n; ++i) map[i] = static_cast<float>(acc[i]);
}

double ssim(const float* a, const float* b, int w, int h, const uint8_t* mask,
            SsimChannels channels) {
  check(a, b, b, w, h, "ssim");
  std::vector<float> map(npix(w, h));
  ssim_map(a, b, w, h, map.data(), channels);
  return masked_mean(map.data(), map.size(), mask);
}

std::size_t depth_edges(const float* depth, int w, int h, float rel_jump, uint8_t* edges) {
  check(depth, edges, edges, w, h, "depth_edges");
  const std::size_t n = npix(w, h);
  std::fill(edges, edges + n, uint8_t(0));
  auto jump = [&](float za, float zb) { return std::fabs(za - zb) > rel_jump * std::min(za, zb); };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
      if (x + 1 < w && jump(depth[i], depth[i + 1])) edges[i] = edges[i + 1] = 1;
      if (y + 1 < h && jump(depth[i], depth[i + static_cast<std::size_t>(w)]))
        edges[i] = edges[i + static_cast<std::size_t>(w)] = 1;
    }
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) k += edges[i];
  return k;
}

std::size_t edge_band_mask(const float* depth, int w, int h, float radius, uint8_t* mask,
                           float rel_jump) {
  check(depth, mask, mask, w, h, "edge_band_mask");
  const std::size_t n = npix(w, h);
  if (n == 0) return 0;
  if (depth_edges(depth, w, h, rel_jump, mask) == 0) return 0;
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t wn = static_cast<unsigned>(w), hn = static_cast<unsigned>(h);
  std::vector<double> f(n), d(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = mask[i] ? 0.0 : inf;
  // Columns, then rows: the squared Euclidean distance to the nearest edge pixel.
  util::parallel_for(
      static_cast<std::size_t>(w),
      [&](std::size_t xb, std::size_t xe) {
        std::vector<double> col(hn), out(hn), z(hn + 1);
        std::vector<int> v(hn);
        for (std::size_t x = xb; x < xe; ++x) {
          for (int y = 0; y < h; ++y) col[static_cast<std::size_t>(y)] = f[npix(w, y) + x];
          edt_1d(col.data(), out.data(), h, v, z);
          for (int y = 0; y < h; ++y) d[npix(w, y) + x] = out[static_cast<std::size_t>(y)];
        }
      },
      16);
  util::parallel_for(
      static_cast<std::size_t>(h),
      [&](std::size_t yb, std::size_t ye) {
        std::vector<double> out(wn), z(wn + 1);
        std::vector<int> v(wn);
        for (std::size_t y = yb; y < ye; ++y) {
          edt_1d(d.data() + y * static_cast<std::size_t>(w), out.data(), w, v, z);
          std::copy(out.begin(), out.end(), f.begin() + static_cast<std::ptrdiff_t>(y * w));
        }
      },
      16);
  const double r2 = static_cast<double>(radius) * radius;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mask[i] = f[i] <= r2 ? 1 : 0;
    k += mask[i];
  }
  return k;
}

Quality compare(const float* image, const float* reference, int w, int h,
                const uint8_t* edge_mask) {
  check(image, reference, reference, w, h, "compare");
  Quality q{};
  std::vector<float> map(npix(w, h));
  ssim_map(image, reference, w, h, map.data());
  q.psnr_db = psnr(image, reference, w, h);
  q.ssim = masked_mean(map.data(), map.size(), nullptr);
  std::size_t k = 0;
  if (edge_mask != nullptr)
    for (std::size_t i = 0; i < map.size(); ++i) k += edge_mask[i] ? 1 : 0;
  q.edge_pixels = k;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  q.edge_psnr_db = k ? psnr(image, reference, w, h, edge_mask) : nan;
  q.edge_ssim = k ? masked_mean(map.data(), map.size(), edge_mask) : nan;
  return q;
}

namespace {

double luminance709(const float* p) {
  return 0.2126 * static_cast<double>(p[0]) + 0.7152 * static_cast<double>(p[1]) +
         0.0722 * static_cast<double>(p[2]);
}

}  // namespace

HighlightEnergy highlight_energy_error(const float* image, const float* reference, int w, int h,
                                       double threshold) {
  check(image, reference, image, w, h, "highlight_energy_error");
  const std::size_t n = npix(w, h);
  double si = 0, sr = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double yr = luminance709(reference + 3 * i);
    if (!std::isfinite(yr) || !(yr > threshold)) continue;
    si += luminance709(image + 3 * i);
    sr += yr;
    ++k;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (k == 0) return {nan, nan, 0};
  const double e = (si - sr) / sr;
  return {std::fabs(e), e, k};
}

double log_luminance_psnr(const float* image, const float* reference, int w, int h, double eps) {
  check(image, reference, image, w, h, "log_luminance_psnr");
  const std::size_t n = npix(w, h);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (n == 0) return nan;
  auto l = [eps](const float* p) { return std::log2(eps + std::max(luminance709(p), 0.0)); };
  double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < n; ++i) {
    const double lr = l(reference + 3 * i), d = l(image + 3 * i) - lr;
    sum += d * d;
    lo = std::min(lo, lr);
    hi = std::max(hi, lr);
  }
  const double m = sum / static_cast<double>(n);
  if (std::isnan(m) || std::isnan(lo) || std::isnan(hi)) return nan;
  if (m == 0.0) return std::numeric_limits<double>::infinity();
  if (!(hi > lo)) return nan;  // a flat reference has no range to compare errors with
  return psnr_from_mse(m, hi - lo);
}

void error_heatmap(const float* a, const float* b, int w, int h, float full_scale, uint8_t* rgba) {
  check(a, b, rgba, w, h, "error_heatmap");
  if (!(full_scale > 0.0f)) throw std::invalid_argument("error_heatmap: full_scale must be > 0");
  const std::size_t n = npix(w, h);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (int c = 0; c < 3; ++c) {
      const double d = static_cast<double>(a[3 * i + c]) - b[3 * i + c];
      s += d * d;
    }
    float r, g, bl;
    heat_color(static_cast<float>(std::sqrt(s / 3.0) / full_scale), &r, &g, &bl);
    rgba[4 * i] = to_byte(r);
    rgba[4 * i + 1] = to_byte(g);
    rgba[4 * i + 2] = to_byte(bl);
    rgba[4 * i + 3] = 255;
  }
}

void heatmap_legend(int w, int h, uint8_t* rgba) {
  check(rgba, rgba, rgba, w, h, "heatmap_legend");
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float r, g, b;
      heat_color(w > 1 ? static_cast<float>(x) / static_cast<float>(w - 1) : 0.0f, &r, &g, &b);
      uint8_t* o = rgba + (npix(w, y) + static_cast<std::size_t>(x)) * 4;
      o[0] = to_byte(r);
      o[1] = to_byte(g);
      o[2] = to_byte(b);
      o[3] = 255;
    }
}

}  // namespace metrics
}  // namespace scandof
