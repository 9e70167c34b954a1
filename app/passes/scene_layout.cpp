#include "passes/scene_layout.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace demo {

namespace {
constexpr float kWallZ = -24.0f;
}  // namespace

const PlaneDef kPlanes[NUM_PLANES] = {
    // PLANE_FLOOR: 120 x 120 m at y = 0, from z = 40 back to z = -80 (behind the wall, hidden).
    {{-60, 0, 40}, {120, 0, 0}, {0, 0, -120}, {0, 1, 0}, {24, 24}, 16.0f, 0.05f},
    // PLANE_WALL: 120 x 40 m at z = kWallZ, from just below the floor up.
    {{-60, -1, kWallZ}, {120, 0, 0}, {0, 40, 0}, {0, 0, 1}, {6, 4}, 16.0f, 0.05f},
};

const TeapotPlace kTeapots[kNumTeapots] = {
    {-3.2f, 5.5f, 0.55f, 0.6f, 0.85f, 0.20f, 0.18f},    // near, red
    {2.6f, 1.0f, 0.65f, -0.4f, 0.95f, 0.75f, 0.25f},    // gold
    {-1.5f, -4.0f, 0.75f, 1.2f, 0.25f, 0.55f, 0.90f},   // blue, around the default focus
    {3.5f, -10.0f, 0.85f, 2.0f, 0.30f, 0.80f, 0.35f},   // green
    {-4.5f, -17.0f, 0.95f, 0.3f, 0.85f, 0.85f, 0.88f},  // far, white porcelain
};
static_assert(kNumTeapots <= MAX_BLOBS, "one shadow blob per teapot");

const float kSky[4] = {0.55f, 0.68f, 0.85f, 1.0f};

const float* sky_color(bool hdr) {
  // kSky decoded from sRGB (IEC 61966-2-1), so the tone-mapped sky is close to the LDR one.
  static const float linear[4] = {0.2633f, 0.4200f, 0.6921f, 1.0f};
  return hdr ? linear : kSky;
}

namespace {
constexpr float kBulbY = 3.2f, kBulbZ = kWallZ + 0.25f;  // a string along the wall, 3.2 m up
constexpr float kWarm[3] = {1.0f, 0.72f, 0.42f};
}  // namespace

const Bulb kBulbs[kNumBulbs] = {
    // The string: 16 bulbs every 1.6 m, far behind every teapot.
    {-12.0f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-10.4f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-8.8f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-7.2f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-5.6f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-4.0f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-2.4f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {-0.8f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {0.8f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {2.4f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {4.0f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {5.6f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {7.2f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {8.8f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {10.4f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    {12.0f, kBulbY, kBulbZ, 0.09f, kWarm[0], kWarm[1], kWarm[2], 6.0f},
    // Glowing spheres between the teapots, near to far.
    {0.6f, 1.3f, 3.0f, 0.08f, 1.0f, 0.45f, 0.35f, 5.0f},
    {5.5f, 1.6f, -6.5f, 0.10f, 0.45f, 0.85f, 1.0f, 5.0f},
    {-7.0f, 2.2f, -11.0f, 0.12f, 0.6f, 1.0f, 0.55f, 5.0f},
    {1.5f, 2.6f, -15.5f, 0.12f, 1.0f, 0.9f, 0.6f, 5.0f},
    // One close to the camera, far in front of the default focus.
    {-2.2f, 4.4f, 9.0f, 0.07f, 1.0f, 0.85f, 0.7f, 5.0f},
};

Mesh sphere_mesh(int slices, int stacks) {
  Mesh m;
  const float pi = 3.14159265358979f;
  for (int j = 0; j <= stacks; ++j) {
    const float v = static_cast<float>(j) / stacks, phi = v * pi;
    for (int i = 0; i <= slices; ++i) {
      const float u = static_cast<float>(i) / slices, th = u * 2.0f * pi;
      const float x = std::sin(phi) * std::cos(th), y = std::cos(phi), z = std::sin(phi) * std::sin(th);
      m.vertices.push_back(MeshVertex{{x, y, z}, {x, y, z}, {u, v}});
    }
  }
  for (int j = 0; j < stacks; ++j)
    for (int i = 0; i < slices; ++i) {
      const uint32_t k = static_cast<uint32_t>(j * (slices + 1) + i),
                     up = static_cast<uint32_t>(slices + 1);
      m.indices.insert(m.indices.end(), {k, k + up, k + 1, k + 1, k + up, k + up + 1});
    }
  return m;
}

Mesh plane_mesh(const PlaneDef& d, int n, int m) {
  Mesh mesh;
  for (int j = 0; j <= m; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float a = static_cast<float>(i) / n, b = static_cast<float>(j) / m;
      const glm::vec3 p = d.origin + a * d.edge_u + b * d.edge_v;
      mesh.vertices.push_back(MeshVertex{{p.x, p.y, p.z}, {d.normal.x, d.normal.y, d.normal.z},
                                         {a, b}});
    }
  }
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i) {
      const uint32_t k = static_cast<uint32_t>(j * (n + 1) + i), up = static_cast<uint32_t>(n + 1);
      mesh.indices.insert(mesh.indices.end(), {k, k + 1, k + up, k + up, k + 1, k + up + 1});
    }
  }
  return mesh;
}

glm::vec3 teapot_position(int i) {
  const TeapotPlace& t = kTeapots[std::clamp(i, 0, kNumTeapots - 1)];
  return glm::vec3(t.x, 0.8f * t.scale, t.z);  // the body's centre (the teapot is ~1.6 high)
}

glm::mat4 model_matrix(float x, float y, float z, float yaw, float scale) {
  const glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(x, y, z));
  return glm::scale(glm::rotate(t, yaw, glm::vec3(0.0f, 1.0f, 0.0f)), glm::vec3(scale));
}

int teapot_blobs(glm::vec3* out) {
  int n = 0;
  for (const auto& t : kTeapots) out[n++] = glm::vec3(t.x, t.z, 2.6f * t.scale);
  return n;
}

}  // namespace demo
