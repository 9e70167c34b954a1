#include "scene/teapot.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace demo {

namespace {

// Reads non-comment lines with their line numbers, so errors can point at the culprit.
struct LineReader {
  std::ifstream f;
  std::string path;
  int line_no = 0;
  bool next(std::istringstream& out) {
    std::string line;
    while (std::getline(f, line)) {
      ++line_no;
      std::size_t p = line.find_first_not_of(" \t\r");
      if (p == std::string::npos || line[p] == '#') continue;
      out = std::istringstream(line);
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + what);
  }
};

Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float length(Vec3 a) {
  return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}

void bernstein(float t, float b[4], float d[4]) {
  float s = 1.0f - t;
  b[0] = s * s * s;
  b[1] = 3 * s * s * t;
  b[2] = 3 * s * t * t;
  b[3] = t * t * t;
  d[0] = -3 * s * s;
  d[1] = 3 * s * s - 6 * s * t;
  d[2] = 6 * s * t - 3 * t * t;
  d[3] = 3 * t * t;
}

// Position and the two partial derivatives of one patch at (u, v).
void eval_patch(const BezierPatchSet& set, const std::array<int, 16>& p, float u, float v,
                Vec3& pos, Vec3& du, Vec3& dv) {
  float bu[4], du_[4], bv[4], dv_[4];
  bernstein(u, bu, du_);
  bernstein(v, bv, dv_);
  pos = du = dv = Vec3{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const Vec3& c = set.points[static_cast<std::size_t>(p[i * 4 + j])];
      float w = bu[i] * bv[j], wu = du_[i] * bv[j], wv = bu[i] * dv_[j];
      pos.x += w * c.x, pos.y += w * c.y, pos.z += w * c.z;
      du.x += wu * c.x, du.y += wu * c.y, du.z += wu * c.z;
      dv.x += wv * c.x, dv.y += wv * c.y, dv.z += wv * c.z;
    }
  }
}

}  // namespace

BezierPatchSet load_bezier_patches(const std::string& path) {
  LineReader r;
  r.path = path;
  r.f.open(path);
  if (!r.f) throw std::runtime_error("cannot open teapot data: " + path);
  BezierPatchSet set;
  std::istringstream ls;
  int npatch = 0, npoint = 0;
  if (!r.next(ls) || !(ls >> npatch) || npatch <= 0 || npatch > 10000)
    r.fail("expected a patch count");
  set.patches.resize(static_cast<std::size_t>(npatch));
  for (auto& p : set.patches) {
    if (!r.next(ls)) r.fail("unexpected end of file in the patch list");
    for (int& idx : p) {
      if (!(ls >> idx)) r.fail("expected 16 control point indices");
      --idx;  // the data set is one-based
    }
  }
  if (!r.next(ls) || !(ls >> npoint) || npoint <= 0 || npoint > 1000000)
    r.fail("expected a control point count");
  set.points.resize(static_cast<std::size_t>(npoint));
  for (auto& pt : set.points) {
    if (!r.next(ls) || !(ls >> pt.x >> pt.y >> pt.z)) r.fail("expected a point \"x y z\"");
  }
  for (const auto& p : set.patches)
    for (int idx : p)
      if (idx < 0 || idx >= npoint)
        throw std::runtime_error(path + ": control point index " + std::to_string(idx + 1) +
                                 " out of range 1.." + std::to_string(npoint));
  return set;
}

Mesh tessellate(const BezierPatchSet& set, int level) {
  if (level < 1) throw std::invalid_argument("tessellation level must be >= 1");
  Mesh m;
  const int n = level;
  for (const auto& patch : set.patches) {
    uint32_t base = static_cast<uint32_t>(m.vertices.size());
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        float u = static_cast<float>(i) / n, v = static_cast<float>(j) / n;
        Vec3 pos, du, dv;
        eval_patch(set, patch, u, v, pos, du, dv);
        Vec3 nrm = cross(du, dv);
        if (length(nrm) < 1e-6f) {
          // Pole: one tangent vanishes. Nudge towards the patch centre and take that normal.
          Vec3 p2, du2, dv2;
          eval_patch(set, patch, 0.5f + (u - 0.5f) * 0.98f, 0.5f + (v - 0.5f) * 0.98f, p2, du2,
                     dv2);
          nrm = cross(du2, dv2);
        }
        float len = length(nrm);
        if (len > 0) nrm = {nrm.x / len, nrm.y / len, nrm.z / len};
        // The data set's patches face inward under this (u, v) order: flip. z-up -> y-up.
        MeshVertex vx{{pos.x, pos.z, -pos.y}, {-nrm.x, -nrm.z, nrm.y}, {u, v}};
        m.vertices.push_back(vx);
      }
    }
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        uint32_t a = base + static_cast<uint32_t>(i * (n + 1) + j);
        uint32_t b = a + 1, c = a + static_cast<uint32_t>(n + 1), d = c + 1;
        m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
      }
    }
  }
  return m;
}

}  // namespace demo
