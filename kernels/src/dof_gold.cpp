// CPU gold implementations of the depth-of-field methods (see docs/dof.md for the
// conventions, the shapes and the fixed-point rules). Multithreaded by rows with
// util::parallel_for; every method is O(pixels x boxes of the shape) except the test references.
#include "scandof/dof.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "scandof/sat.hpp"
#include "scandof/util/parallel_for.hpp"

namespace scandof {
namespace dof {

const char* to_string(Method m) {
  switch (m) {
    case Method::Gather:
      return "gather";
    case Method::Spread:
      return "spread";
    case Method::Layered:
      return "layered";
    case Method::Engine:
      return "engine";
    case Method::Hybrid:
      return "hybrid";
  }
  return "?";
}

const char* to_string(Shape s) {
  switch (s) {
    case Shape::Box:
      return "box";
    case Shape::Octagon:
      return "octagon";
    case Shape::Disc:
      return "disc";
  }
  return "?";
}

const char* to_string(SpreadBorder b) {
  switch (b) {
    case SpreadBorder::Reflect:
      return "reflect";
    case SpreadBorder::None:
      return "none";
  }
  return "?";
}

bool parse_method(const std::string& name, Method* out) {
  for (Method m : {Method::Gather, Method::Spread, Method::Layered, Method::Engine, Method::Hybrid})
    if (name == to_string(m)) {
      *out = m;
      return true;
    }
  return false;
}

bool parse_shape(const std::string& name, Shape* out) {
  for (Shape s : {Shape::Box, Shape::Octagon, Shape::Disc})
    if (name == to_string(s)) {
      *out = s;
      return true;
    }
  return false;
}

void validate(const Params& p, Method m) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("dof::Params: " + what); };
  if (!(p.aperture_px >= 0.0f) || !std::isfinite(p.aperture_px)) bad("aperture_px must be >= 0");
  if (!(p.focus > 0.0f) || !std::isfinite(p.focus)) bad("focus must be > 0");
  if (!(p.max_radius >= 0.0f) || !std::isfinite(p.max_radius)) bad("max_radius must be >= 0");
  if (!(p.radius_offset >= 0.0f && p.radius_offset <= 1.0f)) bad("radius_offset must be 0..1");
  if (p.disc_boxes < 1 || p.disc_boxes > kMaxDiscBoxes) bad("disc_boxes must be 1..8");
  if (m == Method::Layered && (p.layers < 2 || p.layers > kMaxLayers)) bad("layers must be 2..8");
  if ((m == Method::Engine || m == Method::Hybrid) && (p.rings < 1 || p.rings > kMaxRings))
    bad("rings must be 1..8");
  if ((m == Method::Spread || m == Method::Layered) && p.max_radius > kSpreadMaxRadius)
    bad("max_radius above 256 would overflow the spreading sums");
  if (p.blades != 0 && (p.blades < kMinBlades || p.blades > kMaxBlades))
    bad("blades must be 0 (round) or 5..8");
  if (!std::isfinite(p.blade_rotation)) bad("blade_rotation must be finite");
  if (p.blades != 0 && m != Method::Gather && m != Method::Hybrid)
    bad("blades: gather and hybrid only (the spreading methods take the round shapes)");
  if (!(p.bokeh_threshold >= 0.0f) || !std::isfinite(p.bokeh_threshold))
    bad("bokeh_threshold must be >= 0");
  if (p.bokeh_threshold > 0.0f && m != Method::Gather)
    bad("bokeh_threshold: gather only");
  if (p.bokeh_threshold > 0.0f && p.blades != 0)
    bad("bokeh_threshold: the round shapes only (no blades)");
  if (p.bokeh_threshold > 0.0f && p.max_radius > kSpreadMaxRadius)
    bad("max_radius above 256 would overflow the bokeh sums");
}

namespace {

std::size_t npix(int w, int h) {
  return static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
}

void check_image(const void* a, const void* b, const void* out, int w, int h, const char* who) {
  if (w < 0 || h < 0) throw std::invalid_argument(std::string(who) + ": negative size");
  if (w > 0 && h > 0 && (a == nullptr || b == nullptr || out == nullptr))
    throw std::invalid_argument(std::string(who) + ": null image");
}

// Rows of an image split across threads; a chunk of 8 rows of 1080p is 15k pixels of work.
template <class F>
void for_rows(int h, F&& f) {
  util::parallel_for(
      static_cast<std::size_t>(h),
      [&](std::size_t b, std::size_t e) { f(static_cast<int>(b), static_cast<int>(e)); }, 8);
}

// The 4-channel interleaved SAT in place (unsigned arithmetic, uint32 or uint64: wraps exactly).
template <class U>
void sat4_inplace(U* t, int w, int h) {
  for_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      U* row = t + npix(w, y) * 4;
      for (int x = 1; x < w; ++x)
        for (int c = 0; c < 4; ++c) row[4 * x + c] += row[4 * (x - 1) + c];
    }
  });
  // Columns: each thread owns a range of x and walks all rows (contiguous segments per row).
  util::parallel_for(
      static_cast<std::size_t>(w),
      [&](std::size_t x0, std::size_t x1) {
        for (int y = 1; y < h; ++y) {
          U* row = t + npix(w, y) * 4;
          const U* above = row - static_cast<std::size_t>(w) * 4;
          for (std::size_t i = 4 * x0; i < 4 * x1; ++i) row[i] += above[i];
        }
      },
      64);
}

// Colour sums (R, G, B) and pixel count of box (rx, ry) around (x, y), clamped to the frame.
struct BoxSum {
  uint32_t c[3];
  int n;
};
inline BoxSum box_sum(const uint32_t* sat, int w, int h, int x, int y, int ax, int bx, int ay,
                      int by) {
  const int x0 = std::min(std::max(x + ax - 1, -1), w - 1), x1 = std::max(std::min(x + bx, w - 1), x0);
  const int y0 = std::min(std::max(y + ay - 1, -1), h - 1), y1 = std::max(std::min(y + by, h - 1), y0);
  auto at = [&](int xx, int yy, int c) -> uint32_t {
    return (xx < 0 || yy < 0) ? 0u : sat[(npix(w, yy) + static_cast<std::size_t>(xx)) * 4 + c];
  };
  BoxSum s;
  for (int c = 0; c < 3; ++c)
    s.c[c] = at(x1, y1, c) - at(x0, y1, c) - at(x1, y0, c) + at(x0, y0, c);
  s.n = (x1 - x0) * (y1 - y0);
  return s;
}

// The same box from a float table: corners in double (the table's own rounding stays).
inline int box_sum_f(const float* sat, int w, int h, int x, int y, int ax, int bx, int ay, int by,
                     double c[3]) {
  const int x0 = std::min(std::max(x + ax - 1, -1), w - 1), x1 = std::max(std::min(x + bx, w - 1), x0);
  const int y0 = std::min(std::max(y + ay - 1, -1), h - 1), y1 = std::max(std::min(y + by, h - 1), y0);
  auto at = [&](int xx, int yy, int k) -> double {
    return (xx < 0 || yy < 0) ? 0.0 : sat[(npix(w, yy) + static_cast<std::size_t>(xx)) * 4 + k];
  };
  for (int k = 0; k < 3; ++k) c[k] = at(x1, y1, k) - at(x0, y1, k) - at(x1, y0, k) + at(x0, y0, k);
  return (x1 - x0) * (y1 - y0);
}

inline float clamp01(double v) {
  return static_cast<float>(v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v));
}
// HDR: radiance is clamped below only (a negative rounding dip); NaN -> 0.
inline float clamp0(double v) {
  return static_cast<float>(v > 0.0 ? v : 0.0);
}
// How a method turns (colour sum / weight) into output: LDR divides by 255 and clamps to [0, 1],
// HDR divides by 2^F and clamps below only.
struct OutScale {
  double scale;
  bool ldr;
  float operator()(double v) const { return ldr ? clamp01(v) : clamp0(v); }
};
constexpr OutScale kLdrOut{255.0, true};
inline OutScale hdr_out(const SatFixedPoint& fp) {
  return OutScale{std::ldexp(1.0, fp.frac_bits), false};
}
void check_fixed(const SatFixedPoint& fp, const char* who) {
  if (fp.frac_bits < 0 || fp.frac_bits > kMaxFracBits || fp.max_value < 1 ||
      fp.max_value > kMaxFixedValue)
    throw std::invalid_argument(std::string(who) + ": frac_bits must be 0..24, max_value 1..2^24");
}

// Source pixels and what they spread. Sources span [-m, w + m) x [-m, h + m) (m = margin()),
// coordinates outside the frame mirrored.
struct SourceBoxes {
  int n = 0;
  ShapeBox box[kMaxShapeBoxes];
  int32_t weight[kMaxShapeBoxes];
};

// Neighbouring pixels often share a radius (a level camera sees the floor at one depth per row,
// a wall facing it at one depth), so the last radius's boxes are kept.
inline void source_boxes(float r, const Params& p, SourceBoxes* s, float* last_r) {
  if (r == *last_r) return;
  *last_r = r;
  s->n = shape_boxes(r, p.shape, p.disc_boxes, s->box);
  spread_weights(s->box, s->n, s->weight);
}

// Calls f(sx, sy, colour pointer, SourceBoxes) for each source of `layer` (-1 = all) whose rows
// lie in [sy0, sy1) (clipped to the source range).
// With `first` (the visible layer's depth), the sources are hidden samples (dof_gold.hpp, "Two
// depth layers"): only those hidden_source(first, depth) lets into `layer`.
template <class Col, class F>
void for_sources(const Col* rgba, const float* depth, int w, int h, const Params& p, int layer,
                 int sy0, int sy1, F&& f, const float* first = nullptr) {
  const int m = margin(p);
  sy0 = std::max(sy0, -m);
  sy1 = std::min(sy1, h + m);
  SourceBoxes sb;
  float last_r = -1.0f;
  for (int sy = sy0; sy < sy1; ++sy) {
    const int ry = reflect_coord(sy, h);
    for (int sx = -m; sx < w + m; ++sx) {
      const std::size_t i = npix(w, ry) + static_cast<std::size_t>(reflect_coord(sx, w));
      const float z = depth[i];
      if (first != nullptr && !hidden_source(first[i], z, p)) continue;
      if (layer >= 0 && layer_of(z, p) != layer) continue;
      source_boxes(shape_radius(coc_radius(z, p), p), p, &sb, &last_r);
      f(sx, sy, rgba + 4 * i, sb);
    }
  }
}

void check_layer(const Params& p, int layer, const char* who) {
  if (layer < -1 || layer >= p.layers)
    throw std::invalid_argument(std::string(who) + ": layer out of range");
}

}  // namespace

void sat_rgbw_gold(const uint8_t* rgba, int w, int h, uint32_t* out) {
  check_image(rgba, out, out, w, h, "sat_rgbw_gold");
  if (w == 0 || h == 0) return;
  const std::size_t n = npix(w, h) * 4;
  util::parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) out[i] = rgba[i];
  });
  sat4_inplace(out, w, h);
}

void sat_rgbw_gold(const int32_t* in, int w, int h, int32_t* out) {
  check_image(in, out, out, w, h, "sat_rgbw_gold");
  if (w == 0 || h == 0) return;
  const std::size_t n = npix(w, h) * 4;
  if (in != out) std::copy(in, in + n, out);
  // int32 and uint32 share their bits; uint32 makes the wrap-around defined behaviour.
  sat4_inplace(reinterpret_cast<uint32_t*>(out), w, h);
}

void sat_rgbw_gold(const int64_t* in, int w, int h, int64_t* out) {
  check_image(in, out, out, w, h, "sat_rgbw_gold");
  if (w == 0 || h == 0) return;
  const std::size_t n = npix(w, h) * 4;
  if (in != out) std::copy(in, in + n, out);
  sat4_inplace(reinterpret_cast<uint64_t*>(out), w, h);
}

void coc_map(const float* depth, int w, int h, const Params& p, float* radius) {
  check_image(depth, radius, radius, w, h, "coc_map");
  const std::size_t n = npix(w, h);
  util::parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) radius[i] = coc_radius(depth[i], p);
  });
}

namespace {
// The gather loop shared by every table: box(x, y, x0, x1, y0, y1, sums[3]) gives the colour sums
// of the box of offsets x0..x1, y0..y1 around (x, y) (exact for integer tables) and returns its
// clipped pixel count (0 for a box wholly outside the frame, which only a polygon's can be).
template <class BoxFn>
void gather_core(const float* depth, int w, int h, const Params& p, OutScale out, float* rgb,
                 BoxFn&& box) {
  for_rows(h, [&](int y0, int y1) {
    OffsetBox boxes[kMaxPolyBoxes];
    int n = 0;
    float last_r = -1.0f;  // boxes of the last radius, as in source_boxes()
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
        const float r = shape_radius(coc_radius(depth[i], p), p);
        if (r != last_r) {
          if (p.blades > 0) {
            n = polygon_boxes(r, p.blades, p.blade_rotation, boxes);
          } else {
            ShapeBox sb[kMaxShapeBoxes];
            n = shape_boxes(r, p.shape, p.disc_boxes, sb);
            for (int j = 0; j < n; ++j)
              boxes[j] = OffsetBox{-sb[j].rx, sb[j].rx, -sb[j].ry, sb[j].ry, sb[j].coef};
          }
          last_r = r;
        }
        double s[3] = {0, 0, 0}, a = 0;
        for (int j = 0; j < n; ++j) {
          double b[3];
          const int cnt =
              box(x, y, boxes[j].x0, boxes[j].x1, boxes[j].y0, boxes[j].y1, b);
          const double c = boxes[j].coef;
          for (int k = 0; k < 3; ++k) s[k] += c * b[k];
          a += c * static_cast<double>(cnt);
        }
        for (int k = 0; k < 3; ++k) rgb[3 * i + k] = out(s[k] / (a * out.scale));
      }
    }
  });
}

void gather_u32(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                OutScale out, float* rgb) {
  gather_core(depth, w, h, p, out, rgb,
              [&](int x, int y, int ax, int bx, int ay, int by, double b[3]) {
    const BoxSum bs = box_sum(sat, w, h, x, y, ax, bx, ay, by);
    for (int k = 0; k < 3; ++k) b[k] = static_cast<double>(bs.c[k]);
    return bs.n;
  });
}
}  // namespace

void gather_from_sat(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                     float* rgb) {
  check_image(sat, depth, rgb, w, h, "gather_from_sat");
  validate(p, Method::Gather);
  gather_u32(sat, depth, w, h, p, kLdrOut, rgb);
}

void gather_from_sat(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                     const SatFixedPoint& fp, float* rgb) {
  check_image(sat, depth, rgb, w, h, "gather_from_sat");
  validate(p, Method::Gather);
  check_fixed(fp, "gather_from_sat");
  gather_u32(sat, depth, w, h, p, hdr_out(fp), rgb);
}

void gather_from_sat(const float* sat, const float* depth, int w, int h, const Params& p,
                     float* rgb) {
  check_image(sat, depth, rgb, w, h, "gather_from_sat");
  validate(p, Method::Gather);
  gather_core(depth, w, h, p, OutScale{1.0, false}, rgb,
              [&](int x, int y, int ax, int bx, int ay, int by, double b[3]) {
                return box_sum_f(sat, w, h, x, y, ax, bx, ay, by, b);
              });
}

void gather(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "gather");
  validate(p, Method::Gather);
  if (w == 0 || h == 0) return;
  std::vector<uint32_t> sat(npix(w, h) * 4);
  sat_rgbw_gold(rgba, w, h, sat.data());
  gather_from_sat(sat.data(), depth, w, h, p, rgb);
}

void gather(const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "gather");
  validate(p, Method::Gather);
  check_fixed(fp, "gather");
  if (w == 0 || h == 0) return;
  std::vector<uint32_t> sat(npix(w, h) * 4);
  sat_gold_hdr(rgba, w, h, bokeh_base(fp, p.bokeh_threshold), sat.data(), 3,
               SatLayout::Interleaved);
  gather_u32(sat.data(), depth, w, h, p, hdr_out(fp), rgb);
  if (p.bokeh_threshold > 0.0f) {
    std::vector<int64_t> sums(npix(w, h) * 4, 0);
    if (bokeh_delta_gold(rgba, depth, w, h, p, fp, sums.data()) == 0) return;
    sat_rgbw_gold(sums.data(), w, h, sums.data());
    bokeh_add(sums.data(), w, h, fp, rgb);
  }
}

namespace {
// A source's weight in the sums' unsigned type: sign-extended, so products and sums wrap exactly.
template <class U>
inline U as_word(int32_t wt) {
  return static_cast<U>(static_cast<std::make_signed_t<U>>(wt));
}

// Stage 1 for either form: LDR sums 8-bit colours in uint32 words, HDR the fixed-point colours
// (quantize_frame) in uint64 words. d has 4 words per pixel.
// first != nullptr: rgba / depth are the hidden layer, gated by it, and their corners are added to
// d as it is (the visible layer's delta already there); else d is cleared first.
template <class U, class Col>
void spread_delta_impl(const Col* rgba, const float* depth, int w, int h, const Params& p,
                       int layer, U* d, const float* first = nullptr) {
  if (first == nullptr) std::fill(d, d + npix(w, h) * 4, U(0));
  // Each thread owns the delta rows [y0, y1) and visits every source whose box can put a corner
  // there: box rows span sy - ry .. sy + ry + 1 with ry <= floor(r_max) + 1. No atomics, and the
  // sources in the overlap (2 r_max + 4 rows per thread) are visited twice; cheap beside the rows.
  const int reach = static_cast<int>(std::floor(p.max_radius)) + 2;
  for_rows(h, [&](int y0, int y1) {
    auto add = [&](int x, int y, const U v[4], bool negate) {
      if (y < y0 || y >= y1 || x >= w) return;
      U* o = d + (npix(w, y) + static_cast<std::size_t>(x)) * 4;
      for (int c = 0; c < 4; ++c) o[c] += negate ? U(0) - v[c] : v[c];
    };
    for_sources(rgba, depth, w, h, p, layer, y0 - reach, y1 + reach,
                [&](int sx, int sy, const Col* col, const SourceBoxes& sb) {
                  for (int j = 0; j < sb.n; ++j) {
                    const int32_t wt = sb.weight[j];
                    if (wt == 0) continue;
                    const int bx0 = std::max(sx - sb.box[j].rx, 0);
                    const int bx1 = std::min(sx + sb.box[j].rx, w - 1);
                    const int by0 = std::max(sy - sb.box[j].ry, 0);
                    const int by1 = std::min(sy + sb.box[j].ry, h - 1);
                    if (bx0 > bx1 || by0 > by1) continue;
                    const U uw = as_word<U>(wt);
                    const U v[4] = {U(col[0]) * uw, U(col[1]) * uw, U(col[2]) * uw, uw};
                    add(bx0, by0, v, false);
                    add(bx1 + 1, by0, v, true);
                    if (by1 + 1 < h) {
                      add(bx0, by1 + 1, v, true);
                      add(bx1 + 1, by1 + 1, v, false);
                    }
                  }
                },
                first);
  });
}

template <class U, class Col>
void spread_direct_impl(const Col* rgba, const float* depth, int w, int h, const Params& p,
                        int layer, U* s) {
  std::fill(s, s + npix(w, h) * 4, U(0));
  for_sources(rgba, depth, w, h, p, layer, std::numeric_limits<int>::min() / 2,
              std::numeric_limits<int>::max() / 2,
              [&](int sx, int sy, const Col* col, const SourceBoxes& sb) {
                for (int j = 0; j < sb.n; ++j) {
                  const U uw = as_word<U>(sb.weight[j]);
                  const int bx0 = std::max(sx - sb.box[j].rx, 0);
                  const int bx1 = std::min(sx + sb.box[j].rx, w - 1);
                  const int by0 = std::max(sy - sb.box[j].ry, 0);
                  const int by1 = std::min(sy + sb.box[j].ry, h - 1);
                  for (int y = by0; y <= by1; ++y)
                    for (int x = bx0; x <= bx1; ++x) {
                      U* o = s + (npix(w, y) + static_cast<std::size_t>(x)) * 4;
                      for (int c = 0; c < 3; ++c) o[c] += U(col[c]) * uw;
                      o[3] += uw;
                    }
                }
              });
}

// The fixed-point colours spreading sums (3 used of 4 per pixel), checked.
std::vector<uint32_t> quantized(const float* rgba, int w, int h, const SatFixedPoint& fp) {
  std::vector<uint32_t> q(npix(w, h) * 4);
  quantize_frame(rgba, w, h, fp, q.data(), 3);
  return q;
}

template <class S>
void resolve_impl(const S* sums, int w, int h, OutScale out, float* rgb) {
  util::parallel_for(npix(w, h), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const S wt = sums[4 * i + 3];
      for (int c = 0; c < 3; ++c)
        rgb[3 * i + c] =
            wt > 0 ? out(static_cast<double>(sums[4 * i + c]) / (out.scale * wt)) : 0.0f;
    }
  });
}

template <class S>
void composite_impl(const S* const* layer_sums, int layers, int w, int h, OutScale out,
                    float* rgb) {
  util::parallel_for(npix(w, h), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      double acc[3] = {0, 0, 0}, trans = 1.0;
      for (int l = 0; l < layers; ++l) {
        const S* s = layer_sums[l] + 4 * i;
        if (s[3] <= 0) continue;
        const double wt = static_cast<double>(s[3]);
        const double a = std::min(1.0, wt / static_cast<double>(kSpreadScale));
        // The coverage budget (docs/dof.md, "layered"): a layer takes what it covers of what is
        // left.
        const double k = std::min(a, trans);
        for (int c = 0; c < 3; ++c)
          acc[c] += k * static_cast<double>(s[c]) / (out.scale * wt);
        trans -= k;
      }
      const double cover = 1.0 - trans;
      for (int c = 0; c < 3; ++c) rgb[3 * i + c] = cover > 0.0 ? out(acc[c] / cover) : 0.0f;
    }
  });
}
}  // namespace

void spread_delta_gold(const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
                       int layer, int32_t* delta) {
  check_image(rgba, depth, delta, w, h, "spread_delta_gold");
  validate(p, Method::Spread);
  check_layer(p, layer, "spread_delta_gold");
  if (w == 0 || h == 0) return;
  spread_delta_impl(rgba, depth, w, h, p, layer, reinterpret_cast<uint32_t*>(delta));
}

void spread_delta_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                       const SatFixedPoint& fp, int layer, int64_t* delta) {
  check_image(rgba, depth, delta, w, h, "spread_delta_gold");
  validate(p, Method::Spread);
  check_layer(p, layer, "spread_delta_gold");
  check_fixed(fp, "spread_delta_gold");
  if (w == 0 || h == 0) return;
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp);
  spread_delta_impl(q.data(), depth, w, h, p, layer, reinterpret_cast<uint64_t*>(delta));
}

void spread_direct_gold(const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
                        int layer, int32_t* sums) {
  check_image(rgba, depth, sums, w, h, "spread_direct_gold");
  validate(p, Method::Spread);
  check_layer(p, layer, "spread_direct_gold");
  if (w == 0 || h == 0) return;
  spread_direct_impl(rgba, depth, w, h, p, layer, reinterpret_cast<uint32_t*>(sums));
}

void spread_direct_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                        const SatFixedPoint& fp, int layer, int64_t* sums) {
  check_image(rgba, depth, sums, w, h, "spread_direct_gold");
  validate(p, Method::Spread);
  check_layer(p, layer, "spread_direct_gold");
  check_fixed(fp, "spread_direct_gold");
  if (w == 0 || h == 0) return;
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp);
  spread_direct_impl(q.data(), depth, w, h, p, layer, reinterpret_cast<uint64_t*>(sums));
}

void spread_resolve(const int32_t* sums, int w, int h, float* rgb) {
  check_image(sums, rgb, rgb, w, h, "spread_resolve");
  resolve_impl(sums, w, h, kLdrOut, rgb);
}

void spread_resolve(const int64_t* sums, int w, int h, const SatFixedPoint& fp, float* rgb) {
  check_image(sums, rgb, rgb, w, h, "spread_resolve");
  check_fixed(fp, "spread_resolve");
  resolve_impl(sums, w, h, hdr_out(fp), rgb);
}

std::size_t bokeh_delta_gold(const float* rgba, const float* depth, int w, int h, const Params& p,
                             const SatFixedPoint& fp, int64_t* delta) {
  check_image(rgba, depth, delta, w, h, "bokeh_delta_gold");
  validate(p, Method::Gather);
  check_fixed(fp, "bokeh_delta_gold");
  const uint32_t b = bokeh_base(fp, p.bokeh_threshold).max_value;
  if (w == 0 || h == 0 || b >= fp.max_value) return 0;
  auto* d = reinterpret_cast<uint64_t*>(delta);
  std::size_t sources = 0;
  // Serial: the sources are few, and one writer keeps the sums' order (they are exact anyway).
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
      uint64_t e[3];
      bool any = false;
      for (int c = 0; c < 3; ++c) {
        bool clamped = false;
        const uint32_t q = quantize_radiance(rgba[4 * i + c], fp, &clamped);
        e[c] = q > b ? q - b : 0u;
        any = any || e[c] != 0;
      }
      if (!any) continue;
      ++sources;
      ShapeBox box[kMaxShapeBoxes];
      int32_t wt[kMaxShapeBoxes];
      const int n = shape_boxes(shape_radius(coc_radius(depth[i], p), p), p.shape, p.disc_boxes, box);
      spread_weights(box, n, wt);
      for (int j = 0; j < n; ++j) {
        const int x0 = std::max(x - box[j].rx, 0), x1 = std::min(x + box[j].rx, w - 1);
        const int y0 = std::max(y - box[j].ry, 0), y1 = std::min(y + box[j].ry, h - 1);
        if (wt[j] == 0 || x0 > x1 || y0 > y1) continue;
        const uint64_t uw = as_word<uint64_t>(wt[j]);
        auto add = [&](int cx, int cy, bool neg) {
          if (cx >= w || cy >= h) return;
          uint64_t* o = d + (npix(w, cy) + static_cast<std::size_t>(cx)) * 4;
          for (int c = 0; c < 3; ++c) o[c] += neg ? 0u - e[c] * uw : e[c] * uw;
        };
        add(x0, y0, false);
        add(x1 + 1, y0, true);
        add(x0, y1 + 1, true);
        add(x1 + 1, y1 + 1, false);
      }
    }
  return sources;
}

void bokeh_add(const int64_t* sums, int w, int h, const SatFixedPoint& fp, float* rgb) {
  check_image(sums, rgb, rgb, w, h, "bokeh_add");
  check_fixed(fp, "bokeh_add");
  const double unit = std::ldexp(1.0, -(fp.frac_bits + kSpreadScaleLog2));
  util::parallel_for(npix(w, h), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      for (int c = 0; c < 3; ++c)
        rgb[3 * i + c] = clamp0(static_cast<double>(rgb[3 * i + c]) +
                                static_cast<double>(sums[4 * i + c]) * unit);
  });
}

void spread(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "spread");
  validate(p, Method::Spread);
  if (w == 0 || h == 0) return;
  std::vector<int32_t> sums(npix(w, h) * 4);
  spread_delta_gold(rgba, depth, w, h, p, -1, sums.data());
  sat_rgbw_gold(sums.data(), w, h, sums.data());
  spread_resolve(sums.data(), w, h, rgb);
}

void spread(const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "spread");
  validate(p, Method::Spread);
  check_fixed(fp, "spread");
  if (w == 0 || h == 0) return;
  std::vector<int64_t> sums(npix(w, h) * 4);
  spread_delta_gold(rgba, depth, w, h, p, fp, -1, sums.data());
  sat_rgbw_gold(sums.data(), w, h, sums.data());
  spread_resolve(sums.data(), w, h, fp, rgb);
}

void layered_composite(const int32_t* const* layer_sums, int layers, int w, int h, float* rgb) {
  check_image(layer_sums, rgb, rgb, w, h, "layered_composite");
  if (layers < 1 || layers > kMaxLayers)
    throw std::invalid_argument("layered_composite: layers must be 1..8");
  composite_impl(layer_sums, layers, w, h, kLdrOut, rgb);
}

void layered_composite(const int64_t* const* layer_sums, int layers, int w, int h,
                       const SatFixedPoint& fp, float* rgb) {
  check_image(layer_sums, rgb, rgb, w, h, "layered_composite");
  if (layers < 1 || layers > kMaxLayers)
    throw std::invalid_argument("layered_composite: layers must be 1..8");
  check_fixed(fp, "layered_composite");
  composite_impl(layer_sums, layers, w, h, hdr_out(fp), rgb);
}

namespace {
// Every layer's spread sums (stage 1 and 2 of layered): the visible sources of c1 / z1 and, with a
// second layer (c2 != nullptr), the hidden samples of c2 / z2 that hidden_source lets into it.
template <class U, class Col>
void layered_sums(const Col* c1, const float* z1, const Col* c2, const float* z2, int w, int h,
                  const Params& p, std::vector<std::vector<U>>* sums) {
  sums->assign(static_cast<std::size_t>(p.layers), {});
  for (int l = 0; l < p.layers; ++l) {
    auto& s = (*sums)[static_cast<std::size_t>(l)];
    s.resize(npix(w, h) * 4);
    spread_delta_impl(c1, z1, w, h, p, l, s.data());
    if (c2 != nullptr) spread_delta_impl(c2, z2, w, h, p, l, s.data(), z1);  // hidden sources
    sat4_inplace(s.data(), w, h);
  }
}

// layered's composite of the sums (LDR: uint32 words read as int32; HDR: uint64 as int64).
void composite_sums(const std::vector<std::vector<uint32_t>>& sums, const Params& p, int w, int h,
                    float* rgb) {
  std::vector<const int32_t*> ptr;
  for (const auto& s : sums) ptr.push_back(reinterpret_cast<const int32_t*>(s.data()));
  layered_composite(ptr.data(), p.layers, w, h, rgb);
}
void composite_sums(const std::vector<std::vector<uint64_t>>& sums, const Params& p, int w, int h,
                    const SatFixedPoint& fp, float* rgb) {
  std::vector<const int64_t*> ptr;
  for (const auto& s : sums) ptr.push_back(reinterpret_cast<const int64_t*>(s.data()));
  layered_composite(ptr.data(), p.layers, w, h, fp, rgb);
}
}  // namespace

void layered(const uint8_t* rgba, const float* depth, int w, int h, const Params& p, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "layered");
  validate(p, Method::Layered);
  if (w == 0 || h == 0) return;
  std::vector<std::vector<uint32_t>> sums;
  layered_sums<uint32_t, uint8_t>(rgba, depth, nullptr, nullptr, w, h, p, &sums);
  composite_sums(sums, p, w, h, rgb);
}

void layered(const float* rgba, const float* depth, int w, int h, const Params& p,
             const SatFixedPoint& fp, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "layered");
  validate(p, Method::Layered);
  check_fixed(fp, "layered");
  if (w == 0 || h == 0) return;
  // Quantized once for all layers.
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp);
  std::vector<std::vector<uint64_t>> sums;
  layered_sums<uint64_t, uint32_t>(q.data(), depth, nullptr, nullptr, w, h, p, &sums);
  composite_sums(sums, p, w, h, fp, rgb);
}

// ---- Two depth layers ----------------------------------------------------------------------------

float near_field_end(const Params& p) {
  if (!(p.max_radius > 0.0f) || !(p.aperture_px > 0.0f)) return 0.0f;
  // layer_of(z) == 0 <=> the signed CoC s < -r_max + 2 r_max / K <=> z < z_f and
  // A (z_f - z) / z > c with c = r_max (1 - 2 / K) <=> z < A z_f / (A + c).
  const float c = p.max_radius * (1.0f - 2.0f / static_cast<float>(p.layers));
  return p.aperture_px * p.focus / (p.aperture_px + c);
}

void layered_two(const uint8_t* rgba, const float* depth, const uint8_t* rgba2,
                 const float* depth2, int w, int h, const Params& p, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "layered_two");
  check_image(rgba2, depth2, rgb, w, h, "layered_two");
  validate(p, Method::Layered);
  if (w == 0 || h == 0) return;
  std::vector<std::vector<uint32_t>> sums;
  layered_sums(rgba, depth, rgba2, depth2, w, h, p, &sums);
  composite_sums(sums, p, w, h, rgb);
}

void layered_two(const float* rgba, const float* depth, const float* rgba2, const float* depth2,
                 int w, int h, const Params& p, const SatFixedPoint& fp, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "layered_two");
  check_image(rgba2, depth2, rgb, w, h, "layered_two");
  validate(p, Method::Layered);
  check_fixed(fp, "layered_two");
  if (w == 0 || h == 0) return;
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp), q2 = quantized(rgba2, w, h, fp);
  std::vector<std::vector<uint64_t>> sums;
  layered_sums(q.data(), depth, q2.data(), depth2, w, h, p, &sums);
  composite_sums(sums, p, w, h, fp, rgb);
}

void spread_delta_two_gold(const float* rgba, const float* depth, const float* rgba2,
                           const float* depth2, int w, int h, const Params& p,
                           const SatFixedPoint& fp, int layer, int64_t* delta) {
  check_image(rgba, depth, delta, w, h, "spread_delta_two_gold");
  check_image(rgba2, depth2, delta, w, h, "spread_delta_two_gold");
  validate(p, Method::Layered);
  check_fixed(fp, "spread_delta_two_gold");
  if (layer < 0 || layer >= p.layers)
    throw std::invalid_argument("spread_delta_two_gold: layer out of range");
  if (w == 0 || h == 0) return;
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp), q2 = quantized(rgba2, w, h, fp);
  uint64_t* d = reinterpret_cast<uint64_t*>(delta);
  spread_delta_impl(q.data(), depth, w, h, p, layer, d);
  spread_delta_impl(q2.data(), depth2, w, h, p, layer, d, depth);
}

void near_over(const float* rgba, const float* depth, const float* behind, int w, int h,
               const Params& p, const SatFixedPoint& fp, float* rgb) {
  check_image(rgba, depth, rgb, w, h, "near_over");
  check_image(behind, behind, rgb, w, h, "near_over");
  validate(p, Method::Layered);
  check_fixed(fp, "near_over");
  if (w == 0 || h == 0) return;
  const std::vector<uint32_t> q = quantized(rgba, w, h, fp);
  std::vector<int64_t> s(npix(w, h) * 4);
  spread_delta_impl(q.data(), depth, w, h, p, 0, reinterpret_cast<uint64_t*>(s.data()));
  sat_rgbw_gold(s.data(), w, h, s.data());
  const double scale = std::ldexp(1.0, fp.frac_bits);
  util::parallel_for(npix(w, h), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const int64_t* v = s.data() + 4 * i;
      const double wt = static_cast<double>(v[3]);
      const double t = wt > 0 ? std::min(1.0, wt / static_cast<double>(kSpreadScale)) : 0.0;
      for (int c = 0; c < 3; ++c) {
        const double near = wt > 0 ? static_cast<double>(v[c]) / (scale * wt) : 0.0;
        rgb[3 * i + c] = clamp0(t * near + (1.0 - t) * static_cast<double>(behind[3 * i + c]));
      }
    }
  });
}

void render(Method m, const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
            float* rgb) {
  switch (m) {
    case Method::Gather:
      return gather(rgba, depth, w, h, p, rgb);
    case Method::Spread:
      return spread(rgba, depth, w, h, p, rgb);
    case Method::Layered:
      return layered(rgba, depth, w, h, p, rgb);
    case Method::Engine:
    case Method::Hybrid:
      return engine(m, rgba, depth, w, h, p, rgb);
  }
  throw std::invalid_argument("dof::render: unknown method");
}

void render(Method m, const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb) {
  switch (m) {
    case Method::Gather:
      return gather(rgba, depth, w, h, p, fp, rgb);
    case Method::Spread:
      return spread(rgba, depth, w, h, p, fp, rgb);
    case Method::Layered:
      return layered(rgba, depth, w, h, p, fp, rgb);
    case Method::Engine:
    case Method::Hybrid:
      return engine(m, rgba, depth, w, h, p, fp, rgb);
  }
  throw std::invalid_argument("dof::render: unknown method");
}

void disc_blur_gold(const uint8_t* rgba, int w, int h, float r, float* rgb) {
  check_image(rgba, rgb, rgb, w, h, "disc_blur_gold");
  if (!(r >= 0.0f)) throw std::invalid_argument("disc_blur_gold: radius must be >= 0");
  const int R = static_cast<int>(std::ceil(r)) + 1, side = 2 * R + 1;
  // Area of the unit square at each offset inside the disc (16 x 16 subsamples); at r = 0 the
  // centre pixel alone.
  std::vector<double> k(static_cast<std::size_t>(side) * side, 0.0);
  const int ss = 16;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      int in = 0;
      for (int j = 0; j < ss; ++j)
        for (int i = 0; i < ss; ++i) {
          const double px = dx - 0.5 + (i + 0.5) / ss, py = dy - 0.5 + (j + 0.5) / ss;
          if (px * px + py * py <= static_cast<double>(r) * r) ++in;
        }
      k[static_cast<std::size_t>(dy + R) * side + (dx + R)] = static_cast<double>(in) / (ss * ss);
    }
  if (r == 0.0f) k[static_cast<std::size_t>(R) * side + R] = 1.0;
  for_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x) {
        double s[3] = {0, 0, 0}, a = 0;
        for (int dy = -R; dy <= R; ++dy) {
          const int yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (int dx = -R; dx <= R; ++dx) {
            const int xx = x + dx;
            const double wt = k[static_cast<std::size_t>(dy + R) * side + (dx + R)];
            if (xx < 0 || xx >= w || wt == 0.0) continue;
            const uint8_t* px = rgba + (npix(w, yy) + static_cast<std::size_t>(xx)) * 4;
            for (int c = 0; c < 3; ++c) s[c] += wt * px[c];
            a += wt;
          }
        }
        const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
        for (int c = 0; c < 3; ++c) rgb[3 * i + c] = clamp01(s[c] / (a * 255.0));
      }
  });
}

namespace {
// Bilinear, wrapping, texel centres at integer + 0.5; returns channel values 0..255.
void sample_wrap(const uint8_t* tex, int tw, int th, double u, double v, double out[3]) {
  const double fu = u - 0.5, fv = v - 0.5;
  const double iu = std::floor(fu), iv = std::floor(fv);
  const double tu = fu - iu, tv = fv - iv;
  const long long u0 = static_cast<long long>(iu), v0 = static_cast<long long>(iv);
  auto wrap = [](long long a, int n) { return static_cast<int>(((a % n) + n) % n); };
  const int x0 = wrap(u0, tw), x1 = wrap(u0 + 1, tw), y0 = wrap(v0, th), y1 = wrap(v0 + 1, th);
  auto at = [&](int x, int y, int c) {
    return static_cast<double>(tex[(npix(tw, y) + static_cast<std::size_t>(x)) * 4 + c]);
  };
  for (int c = 0; c < 3; ++c)
    out[c] = (1 - tv) * ((1 - tu) * at(x0, y0, c) + tu * at(x1, y0, c)) +
             tv * ((1 - tu) * at(x0, y1, c) + tu * at(x1, y1, c));
}
}  // namespace

void plane_sharp(const uint8_t* tex, int tw, int th, int w, int h, uint8_t* rgba) {
  check_image(tex, rgba, rgba, w, h, "plane_sharp");
  if (tw <= 0 || th <= 0) throw std::invalid_argument("plane_sharp: empty texture");
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint8_t* t = tex + (npix(tw, y % th) + static_cast<std::size_t>(x % tw)) * 4;
      uint8_t* o = rgba + (npix(w, y) + static_cast<std::size_t>(x)) * 4;
      o[0] = t[0];
      o[1] = t[1];
      o[2] = t[2];
      o[3] = 255;
    }
}

void plane_lens_reference(const uint8_t* tex, int tw, int th, int w, int h, double z, double focus,
                          double lens_r, double focal_px, int samples, float* rgb) {
  check_image(tex, rgb, rgb, w, h, "plane_lens_reference");
  if (tw <= 0 || th <= 0 || samples < 1 || !(z > 0) || !(focus > 0))
    throw std::invalid_argument("plane_lens_reference: bad texture, samples, depth or focus");
  // Image shift per unit of lens offset: focal_px (1/focus - 1/z) pixels.
  const double k = focal_px * (1.0 / focus - 1.0 / z);
  std::vector<double> ox(static_cast<std::size_t>(samples)), oy(ox.size());
  for (int i = 0; i < samples; ++i) {
    float lx, ly;
    lens_sample(i, samples, &lx, &ly);
    ox[static_cast<std::size_t>(i)] = k * lens_r * lx;
    oy[static_cast<std::size_t>(i)] = k * lens_r * ly;
  }
  for_rows(h, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < w; ++x) {
        double acc[3] = {0, 0, 0}, v[3];
        for (std::size_t i = 0; i < ox.size(); ++i) {
          // The frame from lens point i shows at pixel p the plane point that projects to p - o_i.
          sample_wrap(tex, tw, th, x + 0.5 - ox[i], y + 0.5 - oy[i], v);
          for (int c = 0; c < 3; ++c) acc[c] += v[c];
        }
        const std::size_t idx = npix(w, y) + static_cast<std::size_t>(x);
        for (int c = 0; c < 3; ++c) rgb[3 * idx + c] = clamp01(acc[c] / (255.0 * samples));
      }
  });
}

}  // namespace dof
}  // namespace scandof
