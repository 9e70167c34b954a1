// Depth of field: the shape maths shared by the host and the device (SCANDOF_HD inline functions,
// so a CUDA kernel computes exactly the same boxes and integers as the CPU): the circle of
// confusion and the camera, lens samples, the polygonal aperture, kernel shapes as integer boxes
// and their fixed-point spread weights, layers and the reflected border. docs/dof.md has the
// derivations.
#pragma once

#include <cmath>
#include <cstdint>

#include "scandof/config.hpp"
#include "scandof/dof_types.hpp"

namespace scandof {
namespace dof {

// ---- The camera ---------------------------------------------------------------------------------

SCANDOF_HD float coc_radius(float z, float aperture_px, float focus, float max_radius) {
  return fminf(aperture_px * fabsf(z - focus) / z, max_radius);
}
SCANDOF_HD float coc_radius(float z, const Params& p) {
  return coc_radius(z, p.aperture_px, p.focus, p.max_radius);
}
// The radius a kernel shape is built with for a CoC of radius r: r - p.radius_offset, at least 0.
SCANDOF_HD float shape_radius(float r, const Params& p) {
  return fmaxf(r - p.radius_offset, 0.0f);
}

// A photographer's camera as A (the blur radius of a point at infinity, in pixels). Thin lens of
// focal length f and f-number N (aperture diameter D = f / N) focused at z_f: the sensor sits at
// v_f = f z_f / (z_f - f), a point at z focuses at v = f z / (z - f), and its blur circle on the
// sensor has diameter D |v - v_f| / v = D f |z - z_f| / (z (z_f - f)). Its radius is
// f^2 / (2 N (z_f - f)) * |z - z_f| / z, which is the shader's A |z - z_f| / z with
//   A = f^2 / (2 N (z_f - f)) * width_px / sensor_width
// (the last factor turns sensor length into pixels). focal_length, sensor_width and
// focus_distance in one unit (e.g. mm); focus_distance > focal_length (else 0 is returned: a
// camera focused closer than f cannot form an image). Example: 50 mm, f/2, 36 mm sensor, focus
// 3 m, 1920 px: A = 2500 / (4 * 2950) * 53.33 = 11.3 px.
inline double physical_aperture_px(double focal_length, double f_number, double sensor_width,
                                   double focus_distance, int width_px) {
  if (!(focus_distance > focal_length) || !(f_number > 0) || !(sensor_width > 0)) return 0.0;
  return focal_length * focal_length / (2.0 * f_number * (focus_distance - focal_length)) *
         static_cast<double>(width_px) / sensor_width;
}

// The focal length in pixels of a pinhole camera: f_px = f * width_px / sensor_width, or from a
// vertical field of view: (height_px / 2) / tan(fovy / 2).
inline double focal_length_px(double focal_length, double sensor_width, int width_px) {
  return focal_length * static_cast<double>(width_px) / sensor_width;
}
inline double focal_length_px_from_fovy(double fovy_radians, int height_px) {
  return 0.5 * static_cast<double>(height_px) / std::tan(0.5 * fovy_radians);
}

// The lens radius L (scene units) for the accumulation reference. A pinhole camera moved by l in
// the lens plane, its projection sheared by f_px l / z_f so the focal plane stays put, sees a point
// at depth z moved by f_px l (1/z_f - 1/z) = f_px |l| |z - z_f| / (z z_f) pixels. At |l| = L this
// is the CoC radius A |z - z_f| / z exactly when L = A z_f / f_px. (With the physical A above,
// L = f z_f / (2 N (z_f - f)), the lens's own radius f / 2N magnified by z_f / (z_f - f).)
inline double lens_radius(double aperture_px, double focus, double focal_px) {
  return aperture_px * focus / focal_px;
}

// Point i of n on the unit disc, evenly spread (Fibonacci / Vogel spiral): radius
// sqrt((i + 0.5) / n), angle i * the golden angle pi (3 - sqrt 5).
SCANDOF_HD void lens_sample(int i, int n, float* x, float* y) {
  const float rho = sqrtf((static_cast<float>(i) + 0.5f) / static_cast<float>(n));
  const float theta = static_cast<float>(i) * 2.39996322972865332f;
  *x = rho * cosf(theta);
  *y = rho * sinf(theta);
}

// ---- Polygonal aperture ------------------------------------------------------------------------
// A lens with N straight blades (N = 5..8) has a regular N-gon for its opening, so the blur of a
// point is that N-gon: vertex k at angle 90 deg + rotation + 360 k / N degrees on the unit circle
// (rotation 0 puts a vertex straight up; y up, as the frame's rows). The CoC radius r is the
// polygon's circumradius, as it is the disc's radius: the N-gon lies inside the disc, with
// (N / 2 pi) sin(2 pi / N) of its area (0.83 for the hexagon).
// As a kernel it is a stack of horizontal bands (polygon_bands): the vertices' heights cut the
// polygon into slabs whose width is linear in y, each slab is cut into sub-bands (kPolyBands in
// all, by height; one where both edges are vertical), and each sub-band is the rectangle as wide
// as the polygon at its mid-height.
// The midpoint rule is exact for a width linear in y, so the bands have the polygon's area
// exactly; the stairsteps are at most (slab height / sub-bands) tall. A polygon is not symmetric
// in x or y in general (a turned hexagon, any pentagon), so a band is an off-centre rectangle:
// its pixel weights are the area of each pixel inside it (the rectangle box-filtered), which are
// at most 3 x 3 integer boxes (a run of full pixels and a partial one at each end, in x and in y)
// with corners on a 4 x 4 grid of table points. At shape radius rho the polygon has circumradius
// rho + 1/2: the paper shapes' convention (each grown by half a pixel), so that with
// radius_offset 0.5 (rho = r - 1/2) the kernel is the lens's polygon of radius r.
// Both sides of the focus take the same polygon; a lens turns the near side's bokeh by 180
// degrees, which only odd N show (a known difference for 5 and 7 blades).
constexpr int kMinBlades = 5;
constexpr int kMaxBlades = 8;
constexpr int kPolyBands = 12;                           // sub-bands shared among the slabs
constexpr int kMaxPolyBands = kPolyBands + kMaxBlades;  // each slab rounds its share up by < 1

// A band of the unit polygon: y in [y0, y1], x in [xl, xr].
struct PolyBand {
  float y0, y1, xl, xr;
};

SCANDOF_HD void polygon_vertex(int k, int blades, float rotation_deg, float* x, float* y) {
  const float a = (90.0f + rotation_deg) * 0.0174532925199433f +
                  6.28318530717958648f * static_cast<float>(k) / static_cast<float>(blades);
  *x = cosf(a);
  *y = sinf(a);
}

// The unit polygon's area: (N / 2) sin(2 pi / N).
SCANDOF_HD float polygon_area(int blades) {
  return 0.5f * static_cast<float>(blades) * sinf(6.28318530717958648f / static_cast<float>(blades));
}

// Where the horizontal line at height y crosses the unit polygon: [*xl, *xr] (empty: xl > xr).
SCANDOF_HD void polygon_chord(float y, int blades, float rotation_deg, float* xl, float* xr) {
  float lo = 1e30f, hi = -1e30f;
  float px, py;
  polygon_vertex(blades - 1, blades, rotation_deg, &px, &py);
  for (int k = 0; k < blades; ++k) {
    float qx, qy;
    polygon_vertex(k, blades, rotation_deg, &qx, &qy);
    const float ya = fminf(py, qy), yb = fmaxf(py, qy);
    if (y >= ya && y <= yb && yb > ya) {
      const float x = px + (qx - px) * (y - py) / (qy - py);
      lo = fminf(lo, x);
      hi = fmaxf(hi, x);
    }
    px = qx;
    py = qy;
  }
  *xl = lo;
  *xr = hi;
}

// The bands of the unit polygon, bottom to top; out needs kMaxPolyBands. Returns the count.
SCANDOF_HD int polygon_bands(int blades, float rotation_deg, PolyBand* out) {
  float ys[kMaxBlades];
  for (int k = 0; k < blades; ++k) {
    float x, y;
    polygon_vertex(k, blades, rotation_deg, &x, &y);
    int j = k;  // insertion sort, ascending
    while (j > 0 && ys[j - 1] > y) {
      ys[j] = ys[j - 1];
      --j;
    }
    ys[j] = y;
  }
  const float height = ys[blades - 1] - ys[0];
  int n = 0;
  for (int k = 0; k + 1 < blades; ++k) {
    const float a = ys[k], b = ys[k + 1];
    if (!(b - a > 1e-5f)) continue;  // two vertices at one height: no slab between them
    int m = static_cast<int>(ceilf(static_cast<float>(kPolyBands) * (b - a) / height - 1e-4f));
    if (m < 1) m = 1;
    // A slab between two vertical edges (the hexagon's middle with a vertex up) is a rectangle:
    // one band, no stairsteps (7 bands instead of 12 for that hexagon).
    float la, ra, lb, rb;
    polygon_chord(a + 1e-3f * (b - a), blades, rotation_deg, &la, &ra);
    polygon_chord(b - 1e-3f * (b - a), blades, rotation_deg, &lb, &rb);
    if (fabsf(la - lb) < 1e-5f && fabsf(ra - rb) < 1e-5f) m = 1;
    for (int i = 0; i < m; ++i) {
      const float y0 = a + (b - a) * static_cast<float>(i) / static_cast<float>(m);
      const float y1 = i + 1 == m ? b : a + (b - a) * static_cast<float>(i + 1) / static_cast<float>(m);
      float xl, xr;
      polygon_chord(0.5f * (y0 + y1), blades, rotation_deg, &xl, &xr);
      out[n].y0 = y0;
      out[n].y1 = y1;
      out[n].xl = xl;
      out[n].xr = xr;
      ++n;
    }
  }
  return n;
}

// The pixel weights of the interval [a, b] (pixel units; pixel d spans [d - 1/2, d + 1/2]) as up
// to 3 runs of integer offsets: lo[i]..hi[i] with weight wt[i] (the overlap of each pixel with
// the interval). Returns the count; a zero-length interval gives none.
SCANDOF_HD int interval_runs(float a, float b, int* lo, int* hi, float* wt) {
  if (!(b > a)) return 0;
  const int pa = static_cast<int>(floorf(a + 0.5f)), pb = static_cast<int>(floorf(b + 0.5f));
  if (pa == pb) {
    lo[0] = hi[0] = pa;
    wt[0] = b - a;
    return 1;
  }
  int n = 0;
  lo[n] = hi[n] = pa;
  wt[n++] = static_cast<float>(pa) + 0.5f - a;
  if (pb - pa >= 2) {
    lo[n] = pa + 1;
    hi[n] = pb - 1;
    wt[n++] = 1.0f;
  }
  const float last = b - (static_cast<float>(pb) - 0.5f);
  if (last > 0.0f) {
    lo[n] = hi[n] = pb;
    wt[n++] = last;
  }
  return n;
}

// The polygon's lens sample i of n, uniform in the polygon of circumradius 1 and evenly spread:
// u = (i + 1/2) / n picks one of the N triangles of the fan around the centre (each 1/N of the
// area) and the distance from the centre, sqrt of what is left of u, v = the golden-ratio
// sequence the position along the outer edge. (x, y) in the lens plane, y up.
SCANDOF_HD void polygon_lens_sample(int i, int n, int blades, float rotation_deg, float* x,
                                    float* y) {
  const float u = (static_cast<float>(i) + 0.5f) / static_cast<float>(n) *
                  static_cast<float>(blades);
  int t = static_cast<int>(floorf(u));
  if (t > blades - 1) t = blades - 1;
  const float s = sqrtf(fminf(fmaxf(u - static_cast<float>(t), 0.0f), 1.0f));
  const float g = static_cast<float>(i) * 0.618033988749895f;
  const float v = g - floorf(g);
  float ax, ay, bx, by;
  polygon_vertex(t, blades, rotation_deg, &ax, &ay);
  polygon_vertex(t + 1, blades, rotation_deg, &bx, &by);
  *x = s * (ax + v * (bx - ax));
  *y = s * (ay + v * (by - ay));
}

// ---- Shapes as integer boxes ------------------------------------------------------------------

// One integer box centred on the pixel: half-widths rx, ry (>= 0), real coefficient coef (may be
// negative: inclusion-exclusion).
struct ShapeBox {
  int rx, ry;
  float coef;
};

// Band edges h_1..h_k of the disc staircase for the unit disc (widths w_i = h_{k+1-i}).
// disc_stair(k, i) = h_i. Computed by tests/dof_reference.py (Nelder-Mead on the exact
// symmetric-difference area).
SCANDOF_HD float disc_stair(int k, int i) {
  // clang-format off
  static constexpr float t[kMaxDiscBoxes][kMaxDiscBoxes] = {
      {0.894427f},
      {0.619366f, 0.950840f},
      {0.488916f, 0.775002f, 0.969660f},
      {0.410585f, 0.659124f, 0.844944f, 0.978701f},
      {0.357509f, 0.577747f, 0.748507f, 0.883925f, 0.983894f},
      {0.318780f, 0.517243f, 0.674080f, 0.803235f, 0.908442f, 0.987216f},
      {0.289062f, 0.470285f, 0.615171f, 0.736879f, 0.839908f, 0.925120f, 0.989500f},
      {0.265413f, 0.432633f, 0.567365f, 0.681929f, 0.780907f, 0.866026f, 0.937114f, 0.991155f}};
  // clang-format on
  return t[k - 1][i - 1];
}

namespace detail {
// Adds coef * (box rx, ry), merging with an equal box already listed (fewer boxes at small radii,
// and equal boxes from different rectangles cancel exactly instead of being rounded twice).
SCANDOF_HD void add_box(ShapeBox* out, int* n, int rx, int ry, float coef) {
  for (int j = 0; j < *n; ++j) {
    if (out[j].rx == rx && out[j].ry == ry) {
      out[j].coef += coef;
      return;
    }
  }
  out[*n].rx = rx;
  out[*n].ry = ry;
  out[*n].coef = coef;
  ++*n;
}
// sign * the fractional rectangle (hx, hy) as four integer boxes.
SCANDOF_HD void add_rect(ShapeBox* out, int* n, float hx, float hy, float sign) {
  const float fx = floorf(hx), fy = floorf(hy);
  const float tx = hx - fx, ty = hy - fy;
  const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
  add_box(out, n, ix, iy, sign * ((1.0f - tx) * (1.0f - ty)));
  if (tx > 0.0f) add_box(out, n, ix + 1, iy, sign * (tx * (1.0f - ty)));
  if (ty > 0.0f) add_box(out, n, ix, iy + 1, sign * ((1.0f - tx) * ty));
  if (tx > 0.0f && ty > 0.0f) add_box(out, n, ix + 1, iy + 1, sign * (tx * ty));
}
}  // namespace detail

// The integer boxes of `shape` at radius r >= 0 (disc_boxes = k, used by Shape::Disc), merged by
// half-widths, boxes whose coefficients cancel dropped. out needs kMaxShapeBoxes entries; returns
// the count (>= 1). For Shape::Box this is the shader's four boxes (one when r is an integer).
SCANDOF_HD int shape_boxes(float r, Shape shape, int disc_boxes, ShapeBox* out) {
  int n = 0;
  if (shape == Shape::Box) {
    detail::add_rect(out, &n, r, r, 1.0f);
  } else {
    const int k = shape == Shape::Octagon ? 2 : disc_boxes;
    for (int i = 1; i <= k; ++i)
      detail::add_rect(out, &n, r * disc_stair(k, k + 1 - i), r * disc_stair(k, i), 1.0f);
    for (int i = 1; i < k; ++i)
      detail::add_rect(out, &n, r * disc_stair(k, k - i), r * disc_stair(k, i), -1.0f);
  }
  // Compact away boxes that cancelled (|coef| below float noise of sums of weights <= 1).
  int m = 0;
  for (int j = 0; j < n; ++j)
    if (fabsf(out[j].coef) > 1e-6f) out[m++] = out[j];
  return m;
}

// The unclipped area (sum of pixel weights) of a shape: sum_j coef_j (2 rx_j + 1)(2 ry_j + 1).
SCANDOF_HD float shape_area(const ShapeBox* b, int n) {
  float a = 0.0f;
  for (int j = 0; j < n; ++j)
    a += b[j].coef * static_cast<float>((2 * b[j].rx + 1) * (2 * b[j].ry + 1));
  return a;
}

// Fixed-point spreading weights of one source: W_j = round(coef_j kSpreadScale / area). The
// receiving pixel's weight from this source is the sum of W_j over the boxes that contain it.
SCANDOF_HD void spread_weights(const ShapeBox* b, int n, int32_t* w) {
  const float unit = static_cast<float>(kSpreadScale) / shape_area(b, n);
  for (int j = 0; j < n; ++j) w[j] = static_cast<int32_t>(floorf(b[j].coef * unit + 0.5f));
}

// An integer box at any offset: pixels x0..x1, y0..y1 (inclusive, relative to the pixel) with a
// real coefficient. The polygon's boxes (below) are these.
struct OffsetBox {
  int x0, x1, y0, y1;
  float coef;
};
constexpr int kMaxPolyBoxes = 9 * kMaxPolyBands;

// The polygon kernel (p.blades, p.blade_rotation) at shape radius rho as off-centre integer boxes,
// band by band (see "Polygonal aperture"); out needs kMaxPolyBoxes. Boxes are not merged: their
// weights per pixel add to the pixel's area inside the bands (each in [0, 1]).
SCANDOF_HD int polygon_boxes(float rho, int blades, float rotation_deg, OffsetBox* out) {
  PolyBand band[kMaxPolyBands];
  const int nb = polygon_bands(blades, rotation_deg, band);
  const float R = rho + 0.5f;
  int n = 0;
  for (int b = 0; b < nb; ++b) {
    int xlo[3], xhi[3], ylo[3], yhi[3];
    float xw[3], yw[3];
    const int nx = interval_runs(R * band[b].xl, R * band[b].xr, xlo, xhi, xw);
    const int ny = interval_runs(R * band[b].y0, R * band[b].y1, ylo, yhi, yw);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        out[n].x0 = xlo[i];
        out[n].x1 = xhi[i];
        out[n].y0 = ylo[j];
        out[n].y1 = yhi[j];
        out[n].coef = xw[i] * yw[j];
        ++n;
      }
  }
  return n;
}

// The unclipped area of off-centre boxes: sum_j coef_j (x1 - x0 + 1)(y1 - y0 + 1).
SCANDOF_HD float offset_area(const OffsetBox* b, int n) {
  float a = 0.0f;
  for (int j = 0; j < n; ++j)
    a += b[j].coef * static_cast<float>((b[j].x1 - b[j].x0 + 1) * (b[j].y1 - b[j].y0 + 1));
  return a;
}

// Layer of a pixel at depth z among p.layers (0 = frontmost), see "layered" in docs/dof.md.
SCANDOF_HD int layer_of(float z, const Params& p) {
  if (!(p.max_radius > 0.0f)) return z < p.focus ? 0 : p.layers - 1;
  const float r = coc_radius(z, p);
  const float s = z < p.focus ? -r : r;
  const int b = static_cast<int>(
      floorf((s + p.max_radius) / (2.0f * p.max_radius) * static_cast<float>(p.layers)));
  return b < 0 ? 0 : (b > p.layers - 1 ? p.layers - 1 : b);
}

// Extra source pixels on each side for SpreadBorder::Reflect: no integer box of any shape has a
// half-width above floor(r_max) + 1.
inline int margin(const Params& p) {
  return p.border == SpreadBorder::Reflect ? static_cast<int>(std::floor(p.max_radius)) + 1 : 0;
}

// Mirror coordinate x into [0, n) with period 2n (x = -1 -> 0, x = n -> n - 1).
SCANDOF_HD int reflect_coord(int x, int n) {
  const int period = 2 * n;
  int m = x % period;
  if (m < 0) m += period;
  return m < n ? m : period - 1 - m;
}

}  // namespace dof
}  // namespace scandof
