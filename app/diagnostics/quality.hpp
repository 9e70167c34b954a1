// Scoring a DoF method's frame against the lens reference (lens_reference.*): PSNR and SSIM over
// the whole frame and over the edge band, scandof::metrics::compare. What "Compare with
// reference", headless --quality / --reference N and --all-methods report.
#pragma once

#include <string>
#include <vector>

#include "core/measures.hpp"
#include "core/settings.hpp"
#include "scandof/image_metrics.hpp"

namespace demo {

// What the SSIM numbers are (UI and report).
constexpr const char* kSsimNote =
    "SSIM: Gaussian window 11x11, sigma 1.5, on luma (BT.601), K1 0.01, K2 0.03 (Wang et al. "
    "2004); PSNR over R, G, B in [0, 1]; edge band = pixels within the frame's largest CoC radius "
    "of a depth discontinuity (view z jumps > 10 %)";

// "gather/box" etc.: the method and shape of `s`.
std::string dof_label(const Settings& s);

// Scores `image` (RGB float, bottom-up) against `reference` (the same), with the edge band from
// the frame's view z and the CoC of `s`. Fills q, edge_radius and method; the caller adds what it
// knows of the reference and the pass.
QualityResult score(const std::vector<float>& image, const std::vector<float>& reference,
                    const std::vector<float>& viewz, int width, int height, const Settings& s);

}  // namespace demo
