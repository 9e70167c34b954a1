// Image quality against a reference: PSNR, SSIM, the depth-discontinuity "edge band" where
// depth-of-field artefacts live, and the heat map of the "error" debug view. CPU only
// (kernels/src/image_metrics.cpp); the heat colour map is an inline host/device function so a
// shader or the UI legend can reproduce it.
//
// Images are RGB float, 3 per pixel interleaved, values in [0, 1], w x h, row 0 first in memory
// (the dof:: methods' output; rgba8_to_rgb converts an RGBA8 frame). A mask is one byte per pixel,
// nonzero = counted; a null mask counts every pixel.
//
// PSNR = 10 log10(peak^2 / MSE), MSE the mean over the counted pixels and the three channels;
// +infinity for identical images, NaN when the mask counts no pixel.
//
// SSIM (Wang, Bovik, Sheikh & Simoncelli 2004) with their constants: Gaussian window 11 x 11,
// sigma 1.5, K1 = 0.01, K2 = 0.03, dynamic range L = 1, population (not sample) statistics:
//   SSIM(p) = (2 mu_a mu_b + C1)(2 s_ab + C2) / ((mu_a^2 + mu_b^2 + C1)(s_a^2 + s_b^2 + C2)),
//   C1 = (K1 L)^2, C2 = (K2 L)^2,
// computed on luma (BT.601: Y = 0.299 R + 0.587 G + 0.114 B; the default) or per channel and
// averaged (SsimChannels::RgbMean). Near the frame the window is cut at the border and its weights
// renormalised, so every pixel (even of a 1 x 1 image) has a value; Wang's MATLAB code instead
// drops a 5-pixel border ('valid'); away from the border the two agree exactly. The score is the
// mean of the per-pixel map over the counted pixels (the window itself always reads the whole
// frame).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scandof/config.hpp"

namespace scandof {
namespace metrics {

enum class SsimChannels : int { Luma = 0, RgbMean = 1 };

constexpr int kSsimRadius = 5;  // 11 x 11 window
constexpr double kSsimSigma = 1.5, kSsimK1 = 0.01, kSsimK2 = 0.03;
// Default depth jump that makes a discontinuity: 10 % of the nearer depth between 4-neighbours.
// A floor seen at a grazing angle changes by about 1 % per pixel at 100 times the camera height.
constexpr float kEdgeRelativeJump = 0.1f;

// RGBA8 -> RGB float (v / 255, alpha dropped) and back (round(255 v) after clamping to [0, 1],
// alpha 255).
void rgba8_to_rgb(const uint8_t* rgba, int w, int h, float* rgb);
void rgb_to_rgba8(const float* rgb, int w, int h, uint8_t* rgba);

double mse(const float* a, const float* b, int w, int h, const uint8_t* mask = nullptr);
double psnr_from_mse(double mse, double peak = 1.0);
double psnr(const float* a, const float* b, int w, int h, const uint8_t* mask = nullptr,
            double peak = 1.0);

// The per-pixel SSIM map (w * h floats) and its masked mean (NaN when the mask counts no pixel).
void ssim_map(const float* a, const float* b, int w, int h, float* map,
              SsimChannels channels = SsimChannels::Luma);
double ssim(const float* a, const float* b, int w, int h, const uint8_t* mask = nullptr,
            SsimChannels channels = SsimChannels::Luma);

// Depth discontinuities: both pixels of every 4-neighbour pair whose linear depths differ by more
// than rel_jump x the nearer one. Writes 1/0 per pixel; returns how many are marked.
std::size_t depth_edges(const float* depth, int w, int h, float rel_jump, uint8_t* edges);
// The edge band: pixels within Euclidean distance `radius` (pixels; pass the largest blur radius
// r_max) of a depth discontinuity, by an exact distance transform (Felzenszwalb & Huttenlocher).
// Writes 1/0 per pixel; returns the count (0 when the depth has no discontinuity).
std::size_t edge_band_mask(const float* depth, int w, int h, float radius, uint8_t* mask,
                           float rel_jump = kEdgeRelativeJump);

// Everything the JSON report and the UI show for one method: PSNR (peak 1) and luma SSIM over the
// whole frame and over the edge band (NaN for an empty band).
struct Quality {
  double psnr_db, ssim, edge_psnr_db, edge_ssim;
  std::size_t edge_pixels;
};
Quality compare(const float* image, const float* reference, int w, int h, const uint8_t* edge_mask);

// ---- HDR radiance (linear RGB float, 3 per pixel, any range) against a reference radiance ----
// Luminance Y = 0.2126 R + 0.7152 G + 0.0722 B (BT.709), per pixel, in double.
//
// Highlight energy: the mask is the pixels whose reference luminance is finite and > threshold
// (default 1: brighter than the tone curves' white at EV 0, what a blur of radiance must not lose
// by clipping or gain by leaking). Over the mask,
//   signed_error   = (sum Y(image) - sum Y(reference)) / sum Y(reference),
//   relative_error = |signed_error|,
// so an image scaled by 1.1 gives 0.1, one that lost 10 % of its highlight energy -0.1 (signed).
// An empty mask gives NaN for both (and pixels = 0); a NaN in the image's masked pixels gives NaN.
struct HighlightEnergy {
  double relative_error, signed_error;
  std::size_t pixels;  // the mask's count
};
HighlightEnergy highlight_energy_error(const float* image, const float* reference, int w, int h,
                                       double threshold = 1.0);

// Log-luminance PSNR: with l(p) = log2(kLogLuminanceEps + max(Y(p), 0)) for each image,
//   MSE  = mean over all pixels of (l_image - l_reference)^2,
//   peak = max - min of l_reference over the frame (its dynamic range in stops),
//   PSNR = 10 log10(peak^2 / MSE) dB;
// +infinity for identical luminances (MSE 0), NaN for an empty image, for a flat reference (peak
// 0) unless MSE is 0, and when a luminance is not finite. The eps keeps black pixels finite (-13.3) and
// tells differences far below it (invisible after any exposure the tone map would choose) from
// differences between bright pixels; negatives (a blur's rounding) count as 0.
constexpr double kLogLuminanceEps = 1e-4;
double log_luminance_psnr(const float* image, const float* reference, int w, int h,
                          double eps = kLogLuminanceEps);

// The heat colour map: t in [0, 1] (clamped) -> RGB in [0, 1], black -> purple -> red -> orange
// -> pale yellow (an inferno-like ramp: monotone in brightness, readable in grey).
SCANDOF_HD void heat_color(float t, float* r, float* g, float* b) {
  constexpr int kStops = 5;
  const float stop[kStops][3] = {{0.0f, 0.0f, 0.0f},
                                 {0.26f, 0.04f, 0.41f},
                                 {0.73f, 0.21f, 0.33f},
                                 {0.98f, 0.55f, 0.04f},
                                 {0.99f, 1.0f, 0.64f}};
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  const float x = t * static_cast<float>(kStops - 1);
  int i = static_cast<int>(x);
  if (i > kStops - 2) i = kStops - 2;
  const float f = x - static_cast<float>(i);
  *r = stop[i][0] + f * (stop[i + 1][0] - stop[i][0]);
  *g = stop[i][1] + f * (stop[i + 1][1] - stop[i][1]);
  *b = stop[i][2] + f * (stop[i + 1][2] - stop[i][2]);
}

// The "error" view: per pixel e = sqrt(mean over R, G, B of (a - b)^2), coloured heat_color(e /
// full_scale) (so the legend runs from 0 to full_scale, in the images' [0, 1] units; e.g. 0.1 =
// 25.5 / 255); RGBA8 out, alpha 255, rounding as rgb_to_rgba8.
void error_heatmap(const float* a, const float* b, int w, int h, float full_scale, uint8_t* rgba);
// The legend bar: w x h RGBA8, heat_color(x / (w - 1)) in column x (0 at the left).
void heatmap_legend(int w, int h, uint8_t* rgba);

}  // namespace metrics
}  // namespace scandof
