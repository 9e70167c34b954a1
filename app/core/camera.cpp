#include "core/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace demo {

void Camera::orbit(float dx, float dy) {
  // Same factor on both axes; dragging down raises the eye (looks down on the scene).
  yaw -= dx * kOrbitRadPerPx;
  pitch += dy * kOrbitRadPerPx;
  keep_above_floor();
}

void Camera::pan(float dx, float dy) {
  // Move the target in the camera's right/up plane, scaled with distance so panning feels even.
  const float k = distance * 0.0015f;
  const glm::vec3 right(std::cos(yaw), 0.0f, -std::sin(yaw));
  target -= dx * k * right;
  target.y += dy * k;
  keep_above_floor();
}

float Camera::zoom(float steps, const glm::vec3& ray_dir) {
  const float d0 = distance;
  const float d1 = std::clamp(d0 * std::pow(0.88f, steps), kMinDistance, kMaxDistance);
  const float f = d1 / d0;
  // Scale the camera about P, the point on the cursor ray at the orbit distance: P stays under the
  // cursor, the orbit angles stay, target and eye move towards P by the same factor.
  const glm::vec3 e = eye();
  const glm::vec3 p = e + ray_dir * d0;
  target = p + (target - p) * f;
  distance = d1;
  keep_above_floor();
  return f;
}

void Camera::keep_above_floor() {
  // The target stays on or above the floor, and the pitch low enough to see the horizon but high
  // enough that the eye stays kMinEyeHeight above the floor: the camera never looks from below.
  target.y = std::max(target.y, 0.0f);
  const float lo = std::asin(std::clamp((kMinEyeHeight - target.y) / distance, -1.0f, 1.0f));
  pitch = std::clamp(pitch, std::max(lo, -0.4f), 1.45f);
}

glm::vec3 Camera::eye() const {
  return target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                       std::cos(pitch) * std::cos(yaw));
}

glm::mat4 Camera::view() const {
  return glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 Camera::view_proj(float aspect) const {
  return glm::perspective(fovy, aspect, kNear, kFar) * view();
}

float Camera::view_depth(const glm::vec3& p) const {
  return -(view() * glm::vec4(p, 1.0f)).z;
}

glm::vec3 Camera::ray_through(float x, float y, float w, float h) const {
  const glm::vec3 fwd = glm::normalize(target - eye());
  const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, fwd);
  const float t = std::tan(fovy * 0.5f);  // the physical camera narrows it
  const float nx = (2.0f * x / std::max(w, 1.0f) - 1.0f) * t * (w / std::max(h, 1.0f));
  const float ny = (1.0f - 2.0f * y / std::max(h, 1.0f)) * t;
  return glm::normalize(fwd + nx * right + ny * up);
}

}  // namespace demo
