// CPU tests of the two-layer depth of field (scandof/dof.hpp, "Two depth layers"): an empty second
// layer gives the one-layer layered() bit for bit (LDR and HDR, every shape, K = 2..4, odd sizes,
// "empty" spelled as depth 0, negative, NaN or infinite, with garbage colours behind it), a second
// layer that repeats the first adds nothing, and on a synthetic partial-occlusion scene (a blurred
// near square in front of a textured far plane in focus) the band behind the square's edge is
// much closer to the lens's truth with the hidden layer than without it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "dof_test_util.hpp"
#include "scandof/dof.hpp"
#include "scandof/hdr.hpp"

namespace dof = scandof::dof;

namespace {

using dof_test::np;
using dof_test::random_depth;
using dof_test::random_radiance;
using dof_test::random_rgba;

dof::Params params(dof::Shape s, int layers) {
  dof::Params p = dof_test::gold_lens(s, 6.5f, layers);
  p.radius_offset = 0.5f;
  return p;
}

const dof::Shape kShapes[] = {dof::Shape::Box, dof::Shape::Octagon, dof::Shape::Disc};
const int kSizes[][2] = {{1, 1}, {33, 17}, {7, 5}, {40, 3}};

// "No fragment" in every spelling the gate must refuse; colours behind it are garbage on purpose.
std::vector<float> empty_depth(int w, int h, int kind) {
  const float v[4] = {0.0f, -3.0f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity()};
  return std::vector<float>(np(w, h), v[kind % 4]);
}

// f(w, h, params, n) for every size x shape x K = 2..4, n numbering the cases (their seeds); stops
// at the first fatal failure, as an ASSERT in the loop itself would.
template <class F>
void for_each_case(F&& f) {
  int n = 0;
  for (const auto& sz : kSizes)
    for (dof::Shape s : kShapes)
      for (int k = 2; k <= 4; ++k) {
        f(sz[0], sz[1], params(s, k), n++);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// One layer's result and the two layers' (each output poisoned apart) bit for bit.
void assert_same_bits(const std::vector<float>& one, const std::vector<float>& two, int w, int h,
                      const dof::Params& p) {
  ASSERT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(float)))
      << w << "x" << h << " " << dof::to_string(p.shape) << " K=" << p.layers;
}

}  // namespace

TEST(DofTwoLayer, EmptySecondLayerEqualsOneLayerExactlyLdr) {
  for_each_case([](int w, int h, const dof::Params& p, int n) {
    const auto rgba = random_rgba(w, h, 11u + n), rgba2 = random_rgba(w, h, 99u + n);
    const auto z = random_depth(w, h, 7u + n), z2 = empty_depth(w, h, n);
    std::vector<float> one(np(w, h) * 3, -7.0f), two(np(w, h) * 3, 123.0f);  // poisoned
    dof::layered(rgba.data(), z.data(), w, h, p, one.data());
    dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h, p, two.data());
    assert_same_bits(one, two, w, h, p);
    if (::testing::Test::HasFatalFailure()) return;
    // Not a trivial image: the blur changed something.
    if (w * h > 1) {
      double diff = 0;
      for (std::size_t i = 0; i < np(w, h); ++i)
        diff += std::abs(one[3 * i] - rgba[4 * i] / 255.0f);
      EXPECT_GT(diff, 0.0);
    }
  });
}

TEST(DofTwoLayer, EmptySecondLayerEqualsOneLayerExactlyHdr) {
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(6.5f, 128.0f);
  for_each_case([&fp](int w, int h, const dof::Params& p, int n) {
    const auto rgba = random_radiance(w, h, 5u + n), rgba2 = random_radiance(w, h, 77u + n);
    const auto z = random_depth(w, h, 3u + n), z2 = empty_depth(w, h, n + 1);
    std::vector<float> one(np(w, h) * 3, -7.0f), two(np(w, h) * 3, 123.0f);
    dof::layered(rgba.data(), z.data(), w, h, p, fp, one.data());
    dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h, p, fp, two.data());
    assert_same_bits(one, two, w, h, p);
  });
}

// The peel's own definition makes a hidden sample lie in a later layer; one in the same layer (the
// far side of an object) or in front is left out, so a second layer repeating the first changes
// nothing.
TEST(DofTwoLayer, SecondLayerInTheSameLayersAddsNothing) {
  const int w = 29, h = 13;
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(6.5f, 128.0f);
  for (int k = 2; k <= 3; ++k) {
    const dof::Params p = params(dof::Shape::Disc, k);
    const auto rgba = random_radiance(w, h, 21u), rgba2 = random_radiance(w, h, 22u);
    const auto z = random_depth(w, h, 23u);
    std::vector<float> one(np(w, h) * 3), two(np(w, h) * 3, 5.0f);
    dof::layered(rgba.data(), z.data(), w, h, p, fp, one.data());
    dof::layered_two(rgba.data(), z.data(), rgba2.data(), z.data(), w, h, p, fp, two.data());
    EXPECT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(float))) << "K=" << k;
    for (std::size_t i = 0; i < z.size(); ++i) EXPECT_FALSE(dof::hidden_source(z[i], z[i], p));
  }
}

// Behind an occluder beyond the focal plane the lens sees nothing the pinhole does not (dof.hpp,
// "Two depth layers"): hidden samples there are refused, whatever their layer.
TEST(DofTwoLayer, OccluderBehindTheFocusHidesNothing) {
  const int w = 31, h = 19;
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(6.5f, 128.0f);
  const dof::Params p = params(dof::Shape::Octagon, 3);
  const auto rgba = random_radiance(w, h, 41u), rgba2 = random_radiance(w, h, 42u);
  auto z = random_depth(w, h, 43u);
  std::vector<float> z2(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    z[i] = p.focus + 0.01f + z[i];  // every first surface behind the focus
    z2[i] = 8.0f * z[i];            // a later layer wherever the first is not the last
  }
  int later = 0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    later += dof::layer_of(z2[i], p) > dof::layer_of(z[i], p) ? 1 : 0;
    EXPECT_FALSE(dof::hidden_source(z[i], z2[i], p));
  }
  EXPECT_GT(later, 0);  // the layer test alone would have let some in
  std::vector<float> one(np(w, h) * 3), two(np(w, h) * 3, 9.0f);
  dof::layered(rgba.data(), z.data(), w, h, p, fp, one.data());
  dof::layered_two(rgba.data(), z.data(), rgba2.data(), z2.data(), w, h, p, fp, two.data());
  EXPECT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(float)));
  // In front of the focus the same pair is a hidden source.
  EXPECT_TRUE(dof::hidden_source(0.5f * p.focus, 8.0f * p.focus, p));
}

TEST(DofTwoLayer, NearFieldEndIsLayerZerosBoundary) {
  for (int k = 2; k <= 5; ++k) {
    dof::Params p = params(dof::Shape::Box, k);
    const float e = dof::near_field_end(p);
    ASSERT_GT(e, 0.0f);
    EXPECT_EQ(0, dof::layer_of(e * 0.999f, p)) << k;
    EXPECT_LT(0, dof::layer_of(e * 1.001f, p)) << k;
  }
  dof::Params p = params(dof::Shape::Box, 3);
  p.aperture_px = 0.0f;
  EXPECT_EQ(0.0f, dof::near_field_end(p));
}

namespace {
// The partial-occlusion scene: a far plane at depth zf in focus, textured (a hash pattern of
// saturated colours, so the hidden part is not guessable from its neighbours), and a square
// [x0, x1) x [y0, y1) of flat colour `nc` at depth zn in front, blurred with radius rn. The lens's
// truth at pixel q: alpha(q) nc + (1 - alpha(q)) far(q), alpha(q) = the fraction of the lens disc
// (offsets d, |d| <= rn, 4096 Fibonacci points over each pixel's 4 x 4 subsamples) for which the
// square covers q + d (the far plane in focus does not move).
struct OcclusionScene {
  int w = 61, h = 45;
  int x0 = 20, x1 = 41, y0 = 14, y1 = 31;
  float zf = 20.0f, zn = 2.0f;
  float nc[3] = {0.9f, 0.8f, 0.1f};
  dof::Params p;
  std::vector<float> far_rgb;  // 3 a pixel
  OcclusionScene() {
    p.aperture_px = 8.0f;
    p.focus = zf;
    p.max_radius = 12.0f;
    p.shape = dof::Shape::Disc;
    p.disc_boxes = 4;
    p.layers = 2;
    p.radius_offset = 0.5f;
    far_rgb.resize(np(w, h) * 3);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint32_t v = static_cast<uint32_t>(x * 73856093) ^ static_cast<uint32_t>(y * 19349663);
        v = (v ^ (v >> 13)) * 0x5bd1e995u;
        for (int c = 0; c < 3; ++c)
          far_rgb[3 * (np(w, y) + x) + c] = static_cast<float>((v >> (8 * c)) & 255u) / 255.0f;
      }
  }
  float rn() const { return dof::coc_radius(zn, p); }
  bool in_square(double x, double y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
  // First layer: the square over the plane; second: the plane under the square, else empty.
  void layers(std::vector<float>* c1, std::vector<float>* z1, std::vector<float>* c2,
              std::vector<float>* z2) const {
    c1->assign(np(w, h) * 4, 1.0f);
    c2->assign(np(w, h) * 4, 0.5f);  // colour where the second layer is empty: must not matter
    z1->assign(np(w, h), zf);
    z2->assign(np(w, h), 0.0f);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = np(w, y) + x;
        const bool sq = in_square(x + 0.5, y + 0.5);
        for (int c = 0; c < 3; ++c) {
          (*c1)[4 * i + c] = sq ? nc[c] : far_rgb[3 * i + c];
          if (sq) (*c2)[4 * i + c] = far_rgb[3 * i + c];
        }
        if (sq) {
          (*z1)[i] = zn;
          (*z2)[i] = zf;
        }
      }
  }
  std::vector<float> truth() const {
    std::vector<float> t(np(w, h) * 3);
    const int n = 4096;
    const float r = rn();
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int hit = 0, all = 0;
        for (int i = 0; i < n; ++i) {
          float lx, ly;
          dof::lens_sample(i, n, &lx, &ly);
          const int sx = i & 3, sy = (i >> 2) & 3;  // subsample of the pixel
          const double qx = x + (sx + 0.5) / 4.0 + r * lx, qy = y + (sy + 0.5) / 4.0 + r * ly;
          hit += in_square(qx, qy) ? 1 : 0;
          ++all;
        }
        const double a = static_cast<double>(hit) / all;
        const std::size_t k = np(w, y) + x;
        for (int c = 0; c < 3; ++c)
          t[3 * k + c] = static_cast<float>(a * nc[c] + (1 - a) * far_rgb[3 * k + c]);
      }
    return t;
  }
  // RMS error over the band inside the square within rn of its edge (the near object's blurred
  // rim, where the lens sees the plane behind it), and over the rest of the frame.
  void errors(const std::vector<float>& img, const std::vector<float>& ref, double* band,
              double* rest) const {
    double sb = 0, sr = 0;
    long nb = 0, nr = 0;
    const double r = rn();
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double cx = x + 0.5, cy = y + 0.5;
        const bool in = in_square(cx, cy);
        const double edge = std::min(std::min(cx - x0, x1 - cx), std::min(cy - y0, y1 - cy));
        const bool b = in && edge < r;
        for (int c = 0; c < 3; ++c) {
          const double e = img[3 * (np(w, y) + x) + c] - ref[3 * (np(w, y) + x) + c];
          (b ? sb : sr) += e * e;
        }
        (b ? nb : nr) += 3;
      }
    *band = std::sqrt(sb / nb);
    *rest = std::sqrt(sr / nr);
  }
};
}  // namespace

TEST(DofTwoLayer, PartialOcclusionBandIsCloserToTheLensHdr) {
  const OcclusionScene s;
  ASSERT_GT(s.rn(), 6.0f);  // a wide blur, so the band is wide
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(s.p.max_radius, 128.0f);
  std::vector<float> c1, z1, c2, z2;
  s.layers(&c1, &z1, &c2, &z2);
  const std::size_t n = np(s.w, s.h);
  std::vector<float> one(n * 3, -1.0f), two(n * 3, -2.0f);
  dof::layered(c1.data(), z1.data(), s.w, s.h, s.p, fp, one.data());
  dof::layered_two(c1.data(), z1.data(), c2.data(), z2.data(), s.w, s.h, s.p, fp, two.data());
  const std::vector<float> ref = s.truth();
  double b1, r1, b2, r2;
  s.errors(one, ref, &b1, &r1);
  s.errors(two, ref, &b2, &r2);
  std::printf("band RMS: one layer %.4f, two layers %.4f; rest: %.4f, %.4f\n", b1, b2, r1, r2);
  // One layer fills the rim with the square's own colour; the hidden plane brings the truth in.
  EXPECT_GT(b1, 0.05);
  EXPECT_LT(b2, 0.5 * b1);
  // Outside the band the second layer does not make things worse.
  EXPECT_LE(r2, r1 + 1e-3);
}

TEST(DofTwoLayer, PartialOcclusionBandIsCloserToTheLensLdr) {
  const OcclusionScene s;
  std::vector<float> c1, z1, c2, z2;
  s.layers(&c1, &z1, &c2, &z2);
  const std::size_t n = np(s.w, s.h);
  auto to8 = [&](const std::vector<float>& c) {
    std::vector<uint8_t> o(n * 4);
    for (std::size_t i = 0; i < o.size(); ++i)
      o[i] = static_cast<uint8_t>(std::lround(std::min(1.0f, std::max(0.0f, c[i])) * 255.0f));
    return o;
  };
  const auto a1 = to8(c1), a2 = to8(c2);
  std::vector<float> one(n * 3, -1.0f), two(n * 3, -2.0f);
  dof::layered(a1.data(), z1.data(), s.w, s.h, s.p, one.data());
  dof::layered_two(a1.data(), z1.data(), a2.data(), z2.data(), s.w, s.h, s.p, two.data());
  const std::vector<float> ref = s.truth();
  double b1, r1, b2, r2;
  s.errors(one, ref, &b1, &r1);
  s.errors(two, ref, &b2, &r2);
  EXPECT_GT(b1, 0.05);
  EXPECT_LT(b2, 0.5 * b1);
  EXPECT_LE(r2, r1 + 2e-3);
}

// The oracle composite: with the truth's own "behind" image (the far plane, in focus) the near
// field over it is the lens's truth up to the kernel's coverage error; and near_over with the
// visible frame behind equals nothing new where the near field is empty.
TEST(DofTwoLayer, NearOverTheTrueBackgroundIsCloseToTheLens) {
  const OcclusionScene s;
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(s.p.max_radius, 128.0f);
  std::vector<float> c1, z1, c2, z2;
  s.layers(&c1, &z1, &c2, &z2);
  const std::size_t n = np(s.w, s.h);
  std::vector<float> two(n * 3), oracle(n * 3, -3.0f);
  dof::layered_two(c1.data(), z1.data(), c2.data(), z2.data(), s.w, s.h, s.p, fp, two.data());
  dof::near_over(c1.data(), z1.data(), s.far_rgb.data(), s.w, s.h, s.p, fp, oracle.data());
  const std::vector<float> ref = s.truth();
  double bt, rt, bo, ro;
  s.errors(two, ref, &bt, &rt);
  s.errors(oracle, ref, &bo, &ro);
  EXPECT_LT(bo, 0.05);
  EXPECT_LT(ro, 0.05);
  // Here the second layer is the whole truth behind, so the two-layer method reaches the oracle.
  EXPECT_NEAR(bt, bo, 0.01);
}

TEST(DofTwoLayer, BadInputsThrow) {
  dof::Params p = params(dof::Shape::Box, 2);
  std::vector<uint8_t> c(16, 1);
  std::vector<float> z(4, 1.0f), out(12);
  EXPECT_THROW(dof::layered_two(c.data(), z.data(), nullptr, z.data(), 2, 2, p, out.data()),
               std::invalid_argument);
  p.layers = 1;
  EXPECT_THROW(dof::layered_two(c.data(), z.data(), c.data(), z.data(), 2, 2, p, out.data()),
               std::invalid_argument);
}
