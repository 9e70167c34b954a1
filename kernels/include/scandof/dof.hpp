// Depth of field from summed-area tables: the conventions every implementation shares, the
// kernel-shape decomposition and fixed-point weights (host and device inline functions, so a CUDA
// kernel computes exactly the same boxes and integers as the CPU), and the CPU gold implementation
// of every method (kernels/src/dof_gold.cpp). Host-only header; includable from .cu files.
//
// ---- Conventions --------------------------------------------------------------------------------
// Images are width x height, row 0 = the bottom row (GL order) = the first row in memory. The sharp
// colour is RGBA8 (4 bytes per pixel, alpha ignored). Depth is the linear view depth z per pixel
// (scene units along the view axis, > 0), one float per pixel.
//
// Circle of confusion (thin lens, exactly as shaders/dof.frag):
//   r(z) = min(A * |z - z_f| / z, r_max) pixels,
// A = Params::aperture_px (the radius of a point at infinity), z_f = Params::focus, r_max =
// Params::max_radius. physical_aperture_px() turns a photographer's camera into A and
// lens_radius() gives the lens the accumulation-buffer reference must sample (derivations there).
//
// Output of every method: RGB float, 3 per pixel interleaved, each in [0, 1] (clamped), the same
// row order as the input. A GPU implementation matches the CPU one within 1/255 per channel. The
// HDR forms (see "HDR radiance") take and give radiance instead.
//
// Summed-area tables here are interleaved: 4 x 32-bit per pixel (R, G, B, W) in one array of
// width * height groups (a uint4 per pixel on the GPU); element (x, y) = the inclusive sum over
// x' <= x, y' <= y. Arithmetic is modulo 2^32: a box sum S(x1,y1) - S(x0,y1) - S(x1,y0) +
// S(x0,y0) is exact whenever the true box sum fits in 32 bits, whatever the table wrapped to.
//
// ---- Kernel shapes
// ------------------------------------------------------------------------------- Every shape of
// radius r is a signed sum of "fractional rectangles" centred on the pixel, and a fractional
// rectangle of real half-widths (hx, hy) is, as in today's shader, four exact integer boxes: with
// hx = fx + tx (fx integer, 0 <= tx < 1) and likewise hy, the boxes of half-widths (fx|fx+1) x
// (fy|fy+1) with weights (1-tx)(1-ty), tx(1-ty), (1-tx)ty, tx ty. Per pixel offset that is the
// separable weight wx(dx) wy(dy) with w(d) = 1 for |d| <= f, t for |d| = f+1, 0 beyond: 2h + 1
// pixels' worth in each direction, a square of half-side h convolved with one pixel.
//   Box:     one rectangle (r, r): the shader's blurred(), same four boxes and weights.
//   Disc:    k stacked rectangles ("staircase"): rectangle i = (r w_i, r h_i), i = 1..k, with
//            h_1 < ... < h_k and w_i = h_{k+1-i}, united by inclusion-exclusion:
//            sum_i R(r w_i, r h_i) - sum_{i<k} R(r w_{i+1}, r h_i). The first quadrant is k
//            horizontal bands y in [r h_{i-1}, r h_i] of half-width r w_i. The band edges minimise
//            the area of the symmetric difference with the disc of radius r (numerically, see
//            disc_stair(); the optimum puts w_i = sqrt(1 - m_i^2) at each band's midpoint m_i and
//            is symmetric under x <-> y). Area / (pi r^2): 1.019 (k=1), 1.011 (2), 1.005 (4), 1.002
//            (8); symmetric difference / (pi r^2): 18 %, 10 %, 5.4 %, 2.8 %.
//   Octagon: a horizontal rectangle (a r, b r) and a vertical one (b r, a r), their overlap
//            (b r, b r) counted once: R(h) + R(v) - R(overlap). Two axis-aligned rectangles unite
//            into a plus-shaped cross (12 edges) whose convex hull is the octagon through
//            (+-a, +-b), (+-b, +-a); the proportions a = 0.950840, b = 0.619366 minimise the
//            symmetric difference with the disc (10 % of its area), which makes the octagon
//            exactly the disc with k = 2, kept under its own name (the demo's default shape).
// The weight of each pixel offset is in [0, 1] (inclusion-exclusion of nested rectangles), the
// shape is symmetric in x and y, and it shrinks to the single centre pixel at r = 0.
// Area: a fractional rectangle of half-width h weighs 2h + 1 pixels across, where the lens's disc
// of radius r spans 2r: a shape built at r is its continuous shape grown by half a pixel on every
// side (box (2r + 1)^2, disc about pi r^2 + 4r + 1), wider than the lens's blur.
// Params::radius_offset = 0.5 builds it at r - 1/2 instead: the box then has the lens's area
// (2r)^2 exactly and the disc pi r^2 + (4 - pi) r - 0.21 (6 % over at r = 4, 2 % at 12). Against
// the lens reference this is worth several dB over the whole frame for every shape-based method
// (results/dof/engine/README.md). Params' default 0 keeps the paper's convention; the demo's
// default is 0.5 (Settings::dof_radius_offset, DOF_DEFAULT_RADIUS_OFFSET in shaders/shared.h),
// which the GL passes (shaders/dof_gather.glsl) draw too.
//
// ---- Methods ----------------------------------------------------------------------------------
// gather (the paper's): every pixel averages the sharp image over its own shape,
//   sum_j c_j S_j / sum_j c_j n_j, S_j the colour sum and n_j the pixel count of integer box j
//   clamped to the frame (so border pixels divide by their true area and do not darken).
// spread (Kosloff, Tao & Barsky 2009, rectangle spreading): every source pixel s with colour c_s
//   adds, for each integer box j of its own shape, the fixed-point weight W_j (spread_weights())
//   and c_s * W_j at the four corners of the box of a signed 4-channel delta image
//   (R*W, G*W, B*W, W; products in wrapping 32-bit arithmetic): the box [x0, x1] x [y0, y1]
//   clipped to the frame (skipped if empty) adds + at (x0, y0), - at (x1 + 1, y0), - at
//   (x0, y1 + 1), + at (x1 + 1, y1 + 1), a corner at x = width or y = height dropped. The SAT of
//   the delta image is, at every pixel, the sum over all boxes covering it; colour = sum(c W) /
//   (255 sum(W)). Sources outside the frame: with SpreadBorder::Reflect (default) the frame is
//   extended by margin() pixels on each side by mirroring (period 2W, so any size works) and those
//   virtual sources spread too, so a blurred region keeps full weight up to the border (needed for
//   layered coverage); SpreadBorder::None spreads the frame's own pixels only.
// layered: each pixel goes to one of K layers by its signed CoC s = -r in front of the focal
//   plane (z < z_f), +r behind it: K equal bins of [-r_max, r_max], front first (s increases
//   with depth, so this is a split by depth; layer_of()). K = 2 is near field / far field. An odd
//   K has a middle layer around the focal plane (|s| < r_max / K): use K = 3 when the focus is on
//   an object in front of a blurred background, since with K = 2 an object exactly in focus
//   (z >= z_f) shares the far layer with the background and the background spreads over it as in
//   plain spread. Each layer is spread on its own (sources of other layers add nothing), giving
//   per pixel C_L and W_L. Coverage
//   a_L = min(1, W_L / kSpreadScale): a pixel surrounded by sources of the layer receives about
//   one full source's weight, kSpreadScale. Front to back (layer 0 first), with T = 1 the
//   coverage still free, each layer takes what it covers of it (a coverage budget):
//     t = min(a_L, T);  rgb += t C_L / (255 W_L);  T -= t;   finally rgb /= 1 - T.
//   Not the "over" operator (t = T a_L, T *= 1 - a_L): where the layer split cuts one continuous
//   surface (a floor running through the focus), both layers cover about half of a pixel at the
//   seam, and "over" gave the front one 2/3 of it; the budget adds them (1/2 + 1/2), and still
//   hides what lies behind a layer that covers fully. Measured with the disc, K = 3, 1080p, on the
//   H100 against the 256-sample reference (results/dof/engine/README.md), edge band "over" ->
//   budget: LDR focus 30 31.60 -> 32.20 dB (spread 32.24), HDR focus 30 29.21 -> 29.51 (spread
//   29.55), HDR highlights 30.85 -> 31.35 (spread 31.06). On the CPU gold the loss to spread had
//   grown with K (focus 30, LDR: K = 2 -0.04 dB, 3 -0.68, 5 -1.23), one seam per layer boundary;
//   with the budget every K is within 0.05 dB of spread.
//   The final division fills what no layer covers fully (a hole the sharp frame cannot show:
//   the background behind a foreground object) with the layers' coverage-weighted colour; where
//   one layer covers fully the result is that layer's. So a sharp near object (a = 1) hides the
//   blurred background spread over it, and a blurred near object (0 < a < 1 at its rim) lies
//   partly over the far layer.
//
// ---- Fixed point and its limits (spread, layered) ---------------------------------------------
// A source's integer weights sum to about kSpreadScale = 2^19 over its whole shape:
// W_j = round(c_j 2^19 / N), N = sum_j c_j (2 rx_j + 1)(2 ry_j + 1) (the unclipped area). The
// delta image and its SAT are int32 with wrapping (two's complement) arithmetic; the final
// per-pixel sums are read as int32. They are non-negative up to rounding: where inclusion-exclusion
// subtracts boxes, the separately rounded W_j can leave a pixel of true weight ~0 with -1 or so,
// so colour sums may dip just below zero (the output is clamped). The worst case over all depth
// maps of the weight one pixel receives is 2^19 x (sum over offsets of the largest weight / area
// any radius <= r_max gives that offset): 6.5 (box, r_max 24), 8.4 (64), 11.2 (256), slightly
// less for the disc and octagon (tests/dof_reference.py --bounds). The colour
// channels (255 x weight) stay below 2^31 up to kSpreadMaxRadius = 256 for every shape; a larger
// max_radius throws. Precision: a box's weight is exact to 1/2 unit, i.e. 1/2^20 of a pixel at
// r = 0 and about 1.6 % at r = 64 (box), 0.2 % at r = 24; that perturbs how sources of different
// radii mix, never the colour of one source. Because every W_j is an integer, spreading through
// the SAT equals direct spreading bit for bit. (The CUDA path, kernels/src/dof.cu, holds two
// channels per 64-bit word, planar, and gives the same per-pixel int32 sums.)
// HDR (below): colour sums are int64 of q W, q <= SatFixedPoint::max_value <= 2^24 the
// fixed-point colour, so a pixel's colour sum is below 2^24 x 11.2 x 2^19 < 2^48 for every shape
// up to kSpreadMaxRadius = 256: exact, with 2^15 to spare, for any radiance the fixed point holds
// (fp.max_radiance(); above it the colour clamps, as in the tables). The weights, their rounding
// and the coverage are the LDR ones, so spreading through the SAT equals direct spreading bit for
// bit here too. Energy: a source's weights sum to kSpreadScale within 1/2 unit per box times the
// box's area, so a bright pixel on black spreads into its shape with its total radiance kept to
// that rounding (relative sum_j area_j / 2^20 per normalisation, 7.5e-4 for the box at r = 6.3;
// tests/test_dof_hdr_gold.cpp) -- nothing is clamped or renormalised away. The CUDA path holds one channel per 64-bit word (4 planes, 32 bytes a pixel
// a layer, twice the LDR atomics): at 1080p on the H100 spread/box costs 0.49 ms against 0.26
// (results/dof/README.md, "HDR cost").
//
// ---- HDR radiance -------------------------------------------------------------------------------
// The HDR forms take linear radiance, 4 floats per pixel (an RGBA16F frame: every half is a float
// exactly), and write radiance: RGB float >= 0, not clamped above, never NaN (NaN and negative
// input count as 0). Each channel is taken to fixed point q = quantize_radiance(v, fp)
// (scandof/hdr.hpp: round half to even of v 2^F, at most max_value), exactly as SatBuilder and
// sat_gold_hdr do, and the result is computed from the q's: gather divides the exact uint32 box
// sums by the pixel count and 2^F; spread and layered divide sum(q W) by sum(W) 2^F. So with
// aperture 0 every method returns q 2^-F, within half a step (2^-(F+1)) of the input, and an image
// of values k / 255 gives the LDR methods' output within one step. The GPU (DofFrame::pixels =
// Rgba16F) writes half4 clamped to [0, 65504]: within one half step (2^-10 relative) of the gold.
// Float tables of radiance (SatFormat::F32, gather/box only, as for LDR) are the paper's: their
// running sums reach the frame's total radiance (about 2 x 10^6 for a 1080p frame around 1), where
// a float step is 0.25, so a box sum loses its low bits: measured at 1080p with the demo's lens,
// a worst error of 0.23 in radiance (a pixel in focus, whose box is one pixel) and a mean relative
// error of 9e-4, where the fixed-point tables are exact to 2^-(F+1).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scandof/config.hpp"
#include "scandof/hdr.hpp"

namespace scandof {
namespace dof {

// Engine and Hybrid: the engine-style near/far gather of scandof/dof_engine.hpp (Engine), and the
// SAT gather of the shape with that method's near field over it (Hybrid).
enum class Method : int { Gather = 0, Spread = 1, Layered = 2, Engine = 3, Hybrid = 4 };
constexpr int kNumMethods = 5;
enum class Shape : int { Box = 0, Octagon = 1, Disc = 2 };
enum class SpreadBorder : int { Reflect = 0, None = 1 };

// "gather", "spread", "layered", "engine", "hybrid"; "box", "octagon", "disc"; "reflect", "none".
const char* to_string(Method m);
const char* to_string(Shape s);
const char* to_string(SpreadBorder b);
// false (and *out untouched) for an unknown name.
bool parse_method(const std::string& name, Method* out);
bool parse_shape(const std::string& name, Shape* out);

constexpr int kMaxDiscBoxes = 8;  // k of Shape::Disc: 1..8
constexpr int kMaxLayers = 8;     // K of Method::Layered: 2..8
constexpr int kMaxRings = 8;      // Params::rings of Method::Engine / Hybrid: 1..8
// Integer boxes of one shape, before merging equal ones: 4 per fractional rectangle, 2k - 1
// rectangles for the disc.
constexpr int kMaxShapeBoxes = 4 * (2 * kMaxDiscBoxes - 1);
constexpr int kSpreadScaleLog2 = 19;
constexpr int32_t kSpreadScale = int32_t(1) << kSpreadScaleLog2;
constexpr float kSpreadMaxRadius = 256.0f;

struct Params {
  float aperture_px = 12.0f;  // A: CoC radius in pixels of a point at infinity
  float focus = 15.0f;        // z_f: focal distance, same units as depth
  float max_radius = 24.0f;   // r_max: CoC clamp in pixels
  Shape shape = Shape::Box;
  int disc_boxes = 4;  // k for Shape::Disc
  int layers = 2;      // K for Method::Layered
  SpreadBorder border = SpreadBorder::Reflect;
  int rings = 3;  // Engine, Hybrid: sample rings of the half-resolution gathers, 1..kMaxRings
  // Pixels taken off the CoC radius before it becomes a kernel shape (shape_radius()): 0 is the
  // paper's convention, 0.5 matches the shape's area to the lens's disc (see "Kernel shapes").
  float radius_offset = 0.0f;
  // Aperture blades (see "Polygonal aperture"): 0 = the round aperture (the shape above), 5..8 =
  // the regular polygon of that many blades, turned by blade_rotation degrees, instead of the
  // shape. Gather and hybrid only.
  int blades = 0;
  float blade_rotation = 0.0f;
  // Bokeh from highlights (see "Bokeh from highlights"): radiance above this, per channel, is
  // spread over its own shape instead of gathered; 0 = off. HDR gather with a round shape only.
  float bokeh_threshold = 0.0f;
};

// Throws std::invalid_argument naming the bad field (negative radius or aperture, focus <= 0,
// k or K out of range, max_radius > kSpreadMaxRadius for the spreading methods).
void validate(const Params& p, Method m);

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

// Layer of a pixel at depth z among p.layers (0 = frontmost), see "layered" above.
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

// ---- CPU gold implementations
// --------------------------------------------------------------------- All take rgba (4 * w * h
// bytes), depth (w * h floats), and write rgb (3 * w * h floats in [0, 1]) unless said otherwise.
// w, h >= 0; nothing happens for an empty image. Multithreaded by rows.

// Interleaved SATs (4 channels per pixel, see above). From RGBA8: all four bytes are summed (the
// gather ignores the 4th, alpha, channel). From a signed delta image: wrapping 32-bit sums
// (in == out allowed).
void sat_rgbw_gold(const uint8_t* rgba, int w, int h, uint32_t* out);
void sat_rgbw_gold(const int32_t* in, int w, int h, int32_t* out);

// Per-pixel CoC radius (the "CoC" debug view's input).
void coc_map(const float* depth, int w, int h, const Params& p, float* radius);

// gather from a prebuilt table (sat_rgbw_gold of the sharp frame), then the convenience form that
// builds it.
void gather_from_sat(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                     float* rgb);
void gather(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb);

// spread in its three stages. layer = -1: every pixel is a source; 0 <= layer < p.layers: only
// the pixels layer_of() puts there.
// 1. The delta image (4 int32 per pixel, zeroed first): every source's boxes at their corners.
void spread_delta_gold(const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
                       int layer, int32_t* delta);
// 2. sums = sat_rgbw_gold(delta): per pixel (sum cR W, sum cG W, sum cB W, sum W), int32.
// The same sums by brute force (every source adds W_j to every pixel of each clipped box): equals
// stage 2 exactly. O(sum of areas): for tests.
void spread_direct_gold(const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
                        int layer, int32_t* sums);
// 3. colour = sum(c W) / (255 sum W), clamped to [0, 1]; black where sum W <= 0 (cannot happen:
// a pixel's own source always covers it).
void spread_resolve(const int32_t* sums, int w, int h, float* rgb);
void spread(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb);

// layered: per-layer sums (layer_sums[L] = stage-2 sums of layer L, L = 0..layers-1, front first)
// composited as documented above.
void layered_composite(const int32_t* const* layer_sums, int layers, int w, int h, float* rgb);
void layered(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb);

// Engine (m = Method::Engine) and Hybrid (Method::Hybrid): scandof/dof_engine.hpp; the CPU gold
// in kernels/src/dof_engine_gold.cpp.
void engine(Method m, const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
            float* rgb);

// Any method by name (validates p for it).
void render(Method m, const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
            float* rgb);

// ---- HDR forms (see "HDR radiance" above) ---------------------------------------------------
// rgba: 4 floats per pixel of linear radiance (an RGBA16F frame read back; alpha ignored), each
// channel taken through quantize_radiance(v, fp) exactly as sat_gold_hdr / quantize_frame do.
// rgb: 3 floats per pixel of radiance, >= 0, not clamped above, never NaN.

// gather from the exact fixed-point table (sat_gold_hdr(rgba, w, h, fp, sat, 3 or 4,
// SatLayout::Interleaved)): sum_j c_j S_j / (sum_j c_j n_j) * 2^-F.
void gather_from_sat(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                     const SatFixedPoint& fp, float* rgb);
// gather from a float table of radiance (sat_gold_hdr's F32 form, interleaved): the same formula
// without 2^-F, box sums in double from float corners, so it carries the table's float error
// (see "HDR radiance").
void gather_from_sat(const float* sat, const float* depth, int w, int h, const Params& p,
                     float* rgb);
void gather(const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb);

// spread's three stages with 64-bit sums: the delta image and its SAT are 4 x int64 per pixel
// (R q W, G q W, B q W, W; q the fixed-point colour), wrapping 64-bit arithmetic.
void spread_delta_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                       const SatFixedPoint& fp, int layer, int64_t* delta);
void sat_rgbw_gold(const int64_t* in, int w, int h, int64_t* out);
void spread_direct_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                        const SatFixedPoint& fp, int layer, int64_t* sums);
// colour = max(0, sum(q W) / sum W) * 2^-F; black where sum W <= 0.
void spread_resolve(const int64_t* sums, int w, int h, const SatFixedPoint& fp, float* rgb);
void spread(const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb);
// layered: coverage from the weight channel exactly as the LDR form, colours C_L / (W_L 2^F).
void layered_composite(const int64_t* const* layer_sums, int layers, int w, int h,
                       const SatFixedPoint& fp, float* rgb);
void layered(const float* rgba, const float* depth, int w, int h, const Params& p,
             const SatFixedPoint& fp, float* rgb);
void engine(Method m, const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb);
void render(Method m, const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb);

// ---- Bokeh from highlights (HDR gather) --------------------------------------------------------
// A gather cannot carry a bright source's light past its own silhouette: a pixel averages its own
// circle of confusion, so a bulb in front of the focus stays a bulb-sized smudge where the lens
// draws a disc over the sharper pixels around it, and a bulb behind a sharp edge bleeds its light
// into the edge's own blur instead of keeping it in its disc. Spreading does it right and costs
// 10-25x the gather for every pixel; but the pixels whose light matters there are few (about 1 %
// of a 1080p frame of the demo lies above radiance 1). So with bokeh_threshold = T > 0 the frame
// is split per channel, exactly, in the tables' fixed point: q = quantize_radiance(v, fp),
// base = min(q, b) with b = bokeh_base(fp, T).max_value, excess = q - base. The tables are built
// from the base (bokeh_base(fp, T) as their encoding: quantize_radiance clamps at b), the gather
// reads them as always, and every pixel with excess spreads it over its own shape (shape_boxes at
// shape_radius, spread_weights as the spreading methods) additively: not normalised by the weight
// a pixel receives, so a source's light is kept in its disc (but for what leaves the frame) and a
// pixel with no excess nearby is the gather's exactly. Since gather and spread are both linear in
// the colour, base + excess is the frame; the split only changes which of the two carries each
// part. Measured on the H100 at 1080p (results/dof/bokeh/README.md): gather/octagon with T = 1
// keeps the highlights' energy within 1.6 % at the four HDR views (the gather alone: -20 to
// +0.8 %) and lifts the edge band by 7.5-11 dB, for 0.09-0.10 ms (0.113 -> 0.204-0.213 ms).
// Sums: excess (< 2^24) times W (sum 2^19 over a shape) into an int64 delta image (R, G, B, 0),
// its SAT in wrapping 64-bit arithmetic, exact (the spreading methods' bound); the pixel adds
// sum * 2^-F / kSpreadScale. Sources are the frame's own pixels (no reflected margin: light that
// leaves the frame is lost, as with the lens).

// The tables' encoding under the split: fp with max_value = min(fp.max_value, floor(T 2^F)), at
// least 1; fp itself where T <= 0 or T reaches the limit.
inline SatFixedPoint bokeh_base(const SatFixedPoint& fp, float threshold) {
  SatFixedPoint b = fp;
  if (!(threshold > 0.0f)) return b;
  const double m = std::floor(static_cast<double>(threshold) * std::ldexp(1.0, fp.frac_bits));
  if (m < static_cast<double>(fp.max_value)) b.max_value = m < 1.0 ? 1u : static_cast<uint32_t>(m);
  return b;
}
// Stage 1: the excess of every pixel (fp: the frame's full encoding) spread into `delta`, 4 int64
// per pixel (R, G, B, 0), which the caller zeroes. Returns the number of source pixels.
std::size_t bokeh_delta_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                             const SatFixedPoint& fp, int64_t* delta);
// Stage 3 (after sat_rgbw_gold): rgb += sums * 2^-F / kSpreadScale, per channel.
void bokeh_add(const int64_t* sums, int w, int h, const SatFixedPoint& fp, float* rgb);

// ---- Two depth layers (partial occlusion) -----------------------------------------------------
// One rendered layer cannot show what a blurred foreground object hides, yet the lens sees around
// it: within the near field's CoC of its silhouette, part of every pixel is the surface behind it.
// layered above fills that band by renormalising the layers behind with the visible neighbours'
// colours (the final division). The two-layer form (Lee, Eisemann & Seidel 2009; Selgrad et al.
// 2015) takes a second rendered layer: per pixel whose first (visible) surface lies in front of
// the focal plane, the nearest surface lying in a later CoC layer than it; depth 0 where there is
// none (the demo's peel pass, app/passes/peel_pass.*, renders it). A hidden sample at pixel i
// (colour c2, depth z2) is a source of layer layer_of(z2) exactly when hidden_source(z1, z2)
// holds: z2 > 0 and finite, z1 < z_f and layer_of(z2) > layer_of(z1). It spreads into that layer
// with the same shape and fixed-point weights as a visible source, beside the visible sources of
// the layer; the composite (the coverage budget) is unchanged. So where a blurred near object
// covers a pixel in part, the layer behind now holds what is really there (the hidden pixels),
// not only the visible neighbours' colour stretched over the hole, and a bright source hidden
// behind the near object keeps its light in the bokeh around the silhouette.
// Why only in front of the focal plane: a ray from pixel q through lens point l meets a surface at
// depth z at q + s(z) l, with s(z) = A (z - z_f) / z the signed CoC. Behind an occluder in front of
// the focus (s < 0) the background (s > 0) is met on the other side of q, so the rays that pass
// the occluder's rim reach background the pinhole sees hidden, inside the rim and outside it. An
// occluder behind the focus (0 < s_o < s_b) moves the other way with a smaller radius: the rays
// that pass its rim from a pixel inside the silhouette meet background beyond the rim, which the
// first layer holds; spreading the hidden samples there would pour background over the rim of
// every object behind the focus (measured: the edge band at focus 8 lost 0.8 dB on the H100).
// A hidden sample in the same layer as the first (the far side of one object) is left out too: a
// layer has no occlusion inside it, and adding it would count two surfaces of one layer at one
// pixel.
// Empty second layer (every z2 <= 0, or NaN / infinite): no hidden source, so the result is the
// one-layer layered() bit for bit (tests/test_dof_two_layer.cpp). Cost: one more source pass per
// layer over the hidden pixels (the delta image is shared); sources that fail the gate are
// skipped before their boxes are made.
SCANDOF_HD bool hidden_source(float z1, float z2, const Params& p) {
  if (!(z2 > 0.0f) || !(z2 < 3.0e38f)) return false;  // no fragment (0), NaN or infinite
  if (!(z1 < p.focus)) return false;  // occluder behind the focus: nothing hidden is seen
  return layer_of(z2, p) > layer_of(z1, p);
}

// layered with a second depth layer: rgba2 / depth2 the hidden layer (same size and format as
// rgba / depth). LDR (RGBA8) and HDR (radiance, fp as layered()).
void layered_two(const uint8_t* rgba, const float* depth, const uint8_t* rgba2,
                 const float* depth2, int w, int h, const Params& p, float* rgb);
void layered_two(const float* rgba, const float* depth, const float* rgba2, const float* depth2,
                 int w, int h, const Params& p, const SatFixedPoint& fp, float* rgb);
// Stage 1 of one layer with the hidden sources added: the visible sources of `layer` and the
// hidden samples of depth2 that hidden_source(depth, depth2) lets into it (0 <= layer < p.layers).
void spread_delta_two_gold(const float* rgba, const float* depth, const float* rgba2,
                           const float* depth2, int w, int h, const Params& p,
                           const SatFixedPoint& fp, int layer, int64_t* delta);

// The oracle of the two-layer question ("how much of the edge band can a second layer buy?"):
// the near field (layer 0) spread from the frame as layered() does, over a given image of what
// lies behind it: rgb = t C_0 + (1 - t) behind, t = min(1, a_0). With `behind` the lens
// reference of the scene without its near field (every lens sample drawn with the near field's
// fragments discarded), this is layered's composite given the reference's own hidden layer: the
// score no one-view method that blurs the near field as layered does can beat by better
// background. behind: RGB radiance, 3 floats a pixel. HDR only (the demo's pipeline).
void near_over(const float* rgba, const float* depth, const float* behind, int w, int h,
               const Params& p, const SatFixedPoint& fp, float* rgb);
// The view depth where layer 0 (the near field) ends: layer_of(z) == 0 exactly for z below it
// (to float rounding at the boundary); 0 when the near field is empty (max_radius or aperture 0).
float near_field_end(const Params& p);

// ---- References for tests ---------------------------------------------------------------------

// The sharp image convolved with the disc of radius r (pixel units) in the continuum: each pixel
// offset weighs the area of its unit square inside the disc (16 x 16 subsamples per square);
// windows clipped at the frame are renormalised. O(w h r^2).
void disc_blur_gold(const uint8_t* rgba, int w, int h, float r, float* rgb);

// The test scene for the lens model: a plane facing the camera at depth z filled with a periodic
// texture (tex: RGBA8, tw x th, bilinear, wrapping), one texel per pixel, texel centres on pixel
// centres. plane_sharp: the pinhole frame (rgba, texel values exactly). plane_lens_reference: the
// accumulation-buffer image through a lens of radius lens_r (scene units) with `samples` Fibonacci
// points, projection sheared so depth `focus` stays fixed, pinhole focal length focal_px: lens
// point l moves the plane's image by focal_px l (1/focus - 1/z) pixels; the frames are averaged in
// double precision.
void plane_sharp(const uint8_t* tex, int tw, int th, int w, int h, uint8_t* rgba);
void plane_lens_reference(const uint8_t* tex, int tw, int th, int w, int h, double z, double focus,
                          double lens_r, double focal_px, int samples, float* rgb);

}  // namespace dof
}  // namespace scandof
