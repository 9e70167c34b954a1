#include "passes/cpu_dof_pass.hpp"

#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "core/frame_times.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"

namespace demo {

std::vector<float> gold_dof_rgb(const FrameTargets& t, const PeelPass& peel, const Settings& s) {
  const int w = t.width(), h = t.height();
  const std::vector<float> z = t.read_viewz();
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  if (peel.active() && two_layer(s)) {
    // The two-layer method: the second depth layer read back beside the frame.
    const std::vector<float> z2 = peel.read_viewz();
    if (t.hdr()) {
      const std::vector<float> rgba = t.read_rgba_f32(t.color());
      const std::vector<float> rgba2 = peel.read_rgba_f32();
      scandof::dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h,
                                dof_params(s), fixed_point(s), rgb.data());
    } else {
      const std::vector<uint8_t> rgba = t.read_rgba(t.color());
      const std::vector<uint8_t> rgba2 = peel.read_rgba();
      scandof::dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h,
                                dof_params(s), rgb.data());
    }
  } else if (t.hdr()) {
    const std::vector<float> rgba = t.read_rgba_f32(t.color());
    scandof::dof::render(s.dof_method, rgba.data(), z.data(), w, h, dof_params(s),
                         fixed_point(s), rgb.data());
  } else {
    const std::vector<uint8_t> rgba = t.read_rgba(t.color());
    scandof::dof::render(s.dof_method, rgba.data(), z.data(), w, h, dof_params(s),
                         rgb.data());
  }
  return rgb;
}

bool CpuDofPass::render(FrameTargets& t, const PeelPass& peel, const Settings& s,
                        std::string* message) {
  const auto t0 = std::chrono::steady_clock::now();
  const int w = t.width(), h = t.height();
  std::vector<float> rgb;
  try {
    rgb = gold_dof_rgb(t, peel, s);
  } catch (const std::invalid_argument& e) {
    *message = e.what();
    ms_ = ms_since(t0);
    return false;
  }
  if (t.hdr()) {
    std::vector<float> out(static_cast<std::size_t>(w) * h * 4, 1.0f);
    for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h; ++i)
      for (int c = 0; c < 3; ++c) out[4 * i + c] = rgb[3 * i + c];
    t.upload_output(out.data());
    ms_ = ms_since(t0);
    return true;
  }
  std::vector<uint8_t> out(static_cast<std::size_t>(w) * h * 4);
  scandof::metrics::rgb_to_rgba8(rgb.data(), w, h, out.data());
  t.upload_output(out.data());
  ms_ = ms_since(t0);
  return true;
}

}  // namespace demo
