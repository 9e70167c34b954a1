// The device side of the depth-of-field GPU tests (test_dof_cuda.cu, test_dof_hdr.cu,
// test_dof_two_layer_cuda.cu): a frame's colour (RGBA8 or RGBA16F) and depth uploaded into
// cudaArrays read through texture objects, a poisoned output surface of the colour's format, the
// DofFrame over them, one render read back; and the two comparisons with a gold image, one 8-bit
// step (RGBA8) and relative + absolute after rounding the gold to half (RGBA16F).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/dof.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/hdr.hpp"
#include "scandof/util/texture_object.hpp"

namespace dof_test {

// w x h texels of `texel_bytes` each from tightly packed host rows into `a`.
inline void upload(const scandof::util::CudaArray& a, int w, int h, int texel_bytes,
                   const void* host) {
  const std::size_t row = static_cast<std::size_t>(w) * texel_bytes;
  CUDA_CHECK(cudaMemcpy2DToArray(a.get(), 0, 0, host, row, row, h, cudaMemcpyHostToDevice));
}

// A frame on the device for DofGpu::render. Colour and output are RGBA16F with `hdr` (8 bytes a
// texel; DofFrame::pixels = Rgba16F), else RGBA8; depth is float. frame() holds the textures, the
// surface and the size; the table (sat, format) and the fixed point are the caller's to set.
class DeviceFrame {
 public:
  // The output is filled with the 16-bit pattern `poison` first, so a pixel the kernel misses
  // shows (0xA5A5: bytes of 165; 0x7E55 or 0x7E7E: NaN halves).
  DeviceFrame(int w, int h, bool hdr, const void* rgba, const float* depth, uint16_t poison)
      : w_(w),
        h_(h),
        texel_(hdr ? 8 : 4),
        desc_(hdr ? cudaCreateChannelDescHalf4() : cudaCreateChannelDesc<uchar4>()),
        color_(desc_, w, h),
        depth_(cudaCreateChannelDesc<float>(), w, h),
        out_(desc_, w, h, cudaArraySurfaceLoadStore),
        ctex_(color_.get()),
        dtex_(depth_.get()),
        surf_(out_.get()) {
    upload(color_, w, h, texel_, rgba);
    upload(depth_, w, h, 4, depth);
    const std::vector<uint16_t> fill(bytes() / 2, poison);
    upload(out_, w, h, texel_, fill.data());
    f_.rgba = ctex_.get();
    f_.depth = dtex_.get();
    f_.out = surf_.get();
    f_.width = w;
    f_.height = h;
    if (hdr) f_.pixels = scandof::SatPixels::Rgba16F;
  }

  // The second depth layer (DofFrame::rgba2 / depth2), its colour in the first's format.
  void set_second_layer(const void* rgba2, const float* depth2) {
    color2_ = std::make_unique<scandof::util::CudaArray>(desc_, w_, h_);
    depth2_ = std::make_unique<scandof::util::CudaArray>(cudaCreateChannelDesc<float>(), w_, h_);
    upload(*color2_, w_, h_, texel_, rgba2);
    upload(*depth2_, w_, h_, 4, depth2);
    ctex2_ = scandof::util::TextureObject(color2_->get());
    dtex2_ = scandof::util::TextureObject(depth2_->get());
    f_.rgba2 = ctex2_.get();
    f_.depth2 = dtex2_.get();
  }

  scandof::DofFrame& frame() { return f_; }

  // Renders with `reuse` (its scratch kept from earlier calls) or else a fresh DofGpu, waits for
  // the device and returns the output's texels.
  std::vector<uint8_t> render(scandof::dof::Method m, const scandof::dof::Params& p,
                              scandof::DofGpu* reuse = nullptr) {
    scandof::DofGpu own;
    (reuse ? *reuse : own).render(m, p, f_, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint8_t> got(bytes());
    const std::size_t row = static_cast<std::size_t>(w_) * texel_;
    CUDA_CHECK(
        cudaMemcpy2DFromArray(got.data(), row, out_.get(), 0, 0, row, h_, cudaMemcpyDeviceToHost));
    return got;
  }

 private:
  std::size_t bytes() const { return static_cast<std::size_t>(w_) * h_ * texel_; }

  int w_, h_, texel_;
  cudaChannelFormatDesc desc_;
  scandof::util::CudaArray color_, depth_, out_;
  std::unique_ptr<scandof::util::CudaArray> color2_, depth2_;
  scandof::util::TextureObject ctex_, dtex_, ctex2_, dtex2_;
  scandof::util::SurfaceObject surf_;
  scandof::DofFrame f_;
};

// RGBA16F texels (as DeviceFrame::render returns them) as floats, 4 a pixel.
inline std::vector<float> halves_to_floats(const std::vector<uint8_t>& texels) {
  std::vector<float> v(texels.size() / 2);
  for (std::size_t i = 0; i < v.size(); ++i) {
    uint16_t h;
    std::memcpy(&h, texels.data() + 2 * i, 2);
    v[i] = scandof::half_to_float(h);
  }
  return v;
}

// RGBA8: each colour channel of `got` (4 a pixel, 0..255) within one 8-bit step of 255 x `want`
// (3 a pixel, 0..1).
template <class T>
void expect_within_one_step(int w, int h, const std::vector<T>& got, const std::vector<float>& want,
                            const std::string& what) {
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h; ++i)
    for (int c = 0; c < 3; ++c) {
      const double d = std::fabs(got[4 * i + c] - 255.0 * want[3 * i + c]);
      worst = std::max(worst, d);
      if (d > 1.0 && bad++ == 0) first = i;
    }
  EXPECT_EQ(bad, 0u) << what << " " << w << "x" << h << ": worst " << worst << "/255, first at x "
                     << first % w << " y " << first / w;
}

// RGBA16F: each colour channel of `got` (4 a pixel) against `want` (3 a pixel) rounded to half,
// |d| <= rel |want| + abs (a NaN, a missed pixel, fails); with alpha_one, alpha must be 1.
inline void expect_close_to_half(int w, int h, const std::vector<float>& got,
                                 const std::vector<float>& want, double rel, double abs,
                                 bool alpha_one, const std::string& what) {
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h; ++i) {
    if (alpha_one && got[4 * i + 3] != 1.0f && bad++ == 0) first = i;
    for (int c = 0; c < 3; ++c) {
      const double wv = scandof::half_to_float(scandof::float_to_half(want[3 * i + c]));
      const double d = std::fabs(got[4 * i + c] - wv);
      worst = std::max(worst, d / (std::fabs(wv) + abs / rel));
      if (!(d <= rel * std::fabs(wv) + abs) && bad++ == 0) first = i;
    }
  }
  EXPECT_EQ(bad, 0u) << what << " " << w << "x" << h << ": worst relative error " << worst
                     << ", first at x " << first % w << " y " << first / w;
}

}  // namespace dof_test
