#include "frame/scene_framing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/frame_times.hpp"
#include "scene/gltf_loader.hpp"

namespace demo {

std::unique_ptr<MeshScene> load_scene_model(const std::string& file, std::string* message) {
  const auto t0 = std::chrono::steady_clock::now();
  const LoadedScene s = load_gltf(file);
  const float read_ms = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  auto model = std::make_unique<MeshScene>(s);
  glFinish();  // the upload's time, not the next frame's
  const float upload_ms = ms_since(t1);
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%zu triangles, %zu draws, %zu materials, %zu lights%s, %zu cameras; "
                "read %.1f ms, upload %.1f ms",
                s.triangles(), s.primitives.size(), s.materials.size(), s.lights.size(),
                s.lights.empty() ? " (a key light added)" : "", s.cameras.size(), read_ms,
                upload_ms);
  *message = buf;
  std::fprintf(stderr, "[scandof] scene %s: %s\n", s.path.c_str(), buf);
  for (const std::string& n : s.notes) std::fprintf(stderr, "[scandof] scene note: %s\n", n.c_str());
  return model;
}

float place_camera(const MeshScene& scene, int scene_camera, int width, int height, Camera* camera,
                   float* fovy) {
  const MeshScene* m = &scene;
  const glm::vec3 centre = 0.5f * (m->lo() + m->hi());
  float d = 0;
  const std::vector<LoadedCamera>& cams = m->cameras();
  const int k = scene_camera;
  if (k >= 0 && k < static_cast<int>(cams.size())) {
    // The orbit camera through the file camera's eye along its view: the target is the point of
    // the view axis nearest the scene's centre (the orbit and the focus have a middle to hold).
    const LoadedCamera& c = cams[k];
    d = std::clamp(glm::dot(centre - c.eye, c.forward), Camera::kMinDistance, Camera::kMaxDistance);
    camera->target = c.eye + c.forward * d;
    camera->distance = d;
    camera->pitch = std::asin(std::clamp(-c.forward.y, -1.0f, 1.0f));
    camera->yaw = std::atan2(-c.forward.x, -c.forward.z);
    *fovy = c.yfov;
  } else {
    if (k >= 0)
      std::fprintf(stderr, "[scandof] scene camera %d: the file has %zu; the bounds are framed\n", k,
                   cams.size());
    // Seen from a little above and to the right, as the teapots are, from the nearest distance
    // at which all eight corners of the bounds are inside the view (a corner c at depth d - f
    // needs |right| <= (d - f) tan(fov_x / 2), and likewise up), with a 6% margin.
    camera->target = centre;
    camera->yaw = -0.45f;
    camera->pitch = 0.35f;
    camera->distance = 1.0f;
    const glm::vec3 fwd = glm::normalize(centre - camera->eye());
    const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
    const glm::vec3 up = glm::cross(right, fwd);
    const float ty = std::tan(0.5f * Camera::kFovY);
    const float tx = ty * static_cast<float>(width) / std::max(1, height);
    d = Camera::kMinDistance;
    for (int i = 0; i < 8; ++i) {
      const glm::vec3 c((i & 1) ? m->hi().x : m->lo().x, (i & 2) ? m->hi().y : m->lo().y,
                        (i & 4) ? m->hi().z : m->lo().z);
      const glm::vec3 r = c - centre;
      const float towards = -glm::dot(r, fwd);
      d = std::max(d, towards + std::max(std::abs(glm::dot(r, right)) / tx,
                                         std::abs(glm::dot(r, up)) / ty));
    }
    d = std::min(Camera::kMaxDistance, 1.06f * d);
    camera->distance = d;
  }
  return d;
}

}  // namespace demo
