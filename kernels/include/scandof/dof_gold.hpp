// Depth of field: the CPU gold implementation of every method (kernels/src/dof_gold.cpp and its
// neighbours), the reference the CUDA and GL paths are tested against, and the references of the
// tests themselves. docs/dof.md has the conventions and the methods.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "scandof/config.hpp"
#include "scandof/dof_shapes.hpp"
#include "scandof/dof_types.hpp"
#include "scandof/hdr.hpp"

namespace scandof {
namespace dof {

// ---- CPU gold implementations -----------------------------------------------------------------
// All take rgba (4 * w * h bytes), depth (w * h floats), and write rgb (3 * w * h floats in
// [0, 1]) unless said otherwise. w, h >= 0; nothing happens for an empty image. Multithreaded by
// rows.

// Interleaved SATs (4 channels per pixel, docs/dof.md "Conventions"). From RGBA8: all four bytes
// are summed (the gather ignores the 4th, alpha, channel). From a signed delta image: wrapping
// 32-bit sums (in == out allowed).
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

// ---- HDR forms (docs/dof.md, "HDR radiance") ------------------------------------------------
// rgba: 4 floats per pixel of linear radiance (an RGBA16F frame read back; alpha ignored), each
// channel taken through quantize_radiance(v, fp) exactly as sat_gold_hdr / quantize_frame do.
// rgb: 3 floats per pixel of radiance, >= 0, not clamped above, never NaN.

// gather from the exact fixed-point table (sat_gold_hdr(rgba, w, h, fp, sat, 3 or 4,
// SatLayout::Interleaved)): sum_j c_j S_j / (sum_j c_j n_j) * 2^-F.
void gather_from_sat(const uint32_t* sat, const float* depth, int w, int h, const Params& p,
                     const SatFixedPoint& fp, float* rgb);
// gather from a float table of radiance (sat_gold_hdr's F32 form, interleaved): the same formula
// without 2^-F, box sums in double from float corners, so it carries the table's float error
// (docs/dof.md, "HDR radiance").
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
