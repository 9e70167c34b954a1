// The CPU gold of tone mapping (scandof/tonemap.hpp): names, the log-average luminance and whole
// images. The log average sums in double, serially, so it is the same number on every machine;
// one log2 per pixel costs about 10 ms at 1080p. The per-pixel map is split over threads.
#include "scandof/tonemap.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "scandof/util/parallel_for.hpp"

namespace scandof {

const char* to_string(ToneMapper m) {
  switch (m) {
    case ToneMapper::Aces: return "aces";
    case ToneMapper::AgX: return "agx";
    case ToneMapper::Reinhard: return "reinhard";
  }
  return "?";
}

ToneMapper parse_tone_mapper(const std::string& name) {
  for (ToneMapper m : {ToneMapper::Aces, ToneMapper::AgX, ToneMapper::Reinhard})
    if (name == to_string(m)) return m;
  throw std::invalid_argument("unknown tone mapper '" + name + "' (aces, agx, reinhard)");
}

namespace {

void check(const float* radiance, int channels, int w, int h, const void* out, const char* who) {
  if (channels != 3 && channels != 4)
    throw std::invalid_argument(std::string(who) + ": channels must be 3 or 4");
  if (w < 0 || h < 0) throw std::invalid_argument(std::string(who) + ": negative size");
  if (w > 0 && h > 0 && (radiance == nullptr || out == nullptr))
    throw std::invalid_argument(std::string(who) + ": null image");
}

std::size_t npix(int w, int h) { return static_cast<std::size_t>(w) * static_cast<std::size_t>(h); }

}  // namespace

LogAverage log_average_luminance(const float* radiance, int channels, int w, int h) {
  check(radiance, channels, w, h, radiance, "log_average_luminance");
  const std::size_t n = npix(w, h);
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float* p = radiance + i * static_cast<std::size_t>(channels);
    // Float, as the GPU computes it: the same luminance, the same NaN/infinity verdict.
    const float y = bt709_luminance(p[0], p[1], p[2]);
    if (!std::isfinite(y)) continue;
    sum += std::log2(static_cast<double>(y > kAutoExposureMinLuminance ? y
                                                                        : kAutoExposureMinLuminance));
    ++count;
  }
  return {count ? sum / static_cast<double>(count) : 0.0, count};
}

float auto_exposure_ev(const float* radiance, int channels, int w, int h, float compensation_ev) {
  const LogAverage a = log_average_luminance(radiance, channels, w, h);
  if (a.pixels == 0) return compensation_ev;
  return static_cast<float>(std::log2(static_cast<double>(kMiddleGrey)) - a.log2_average +
                            static_cast<double>(compensation_ev));
}

float tone_map(const float* radiance, int channels, int w, int h, const ToneMapSettings& s,
               uint8_t* rgba8_out) {
  check(radiance, channels, w, h, rgba8_out, "tone_map");
  const float ev = s.auto_exposure ? auto_exposure_ev(radiance, channels, w, h, s.exposure_ev)
                                   : s.exposure_ev;
  const float scale = exp2f(ev);
  const std::size_t stride = static_cast<std::size_t>(channels);
  util::parallel_for(
      npix(w, h),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
          const float* p = radiance + i * stride;
          uint8_t* o = rgba8_out + 4 * i;
          tone_map_pixel(p[0], p[1], p[2], scale, s.mapper, s.reinhard_white, o);
          o[3] = 255;
        }
      },
      std::size_t(1) << 16);
  return ev;
}

}  // namespace scandof
