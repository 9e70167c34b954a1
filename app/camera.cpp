#include "camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace demo {

void Camera::orbit(float dx, float dy) {
  yaw -= dx * 0.006f;
  pitch = std::clamp(pitch + dy * 0.006f, -0.1f, 1.45f);
}

void Camera::pan(float dx, float dy) {
  // Move the target in the camera's right/up plane, scaled with distance so panning feels even.
  const float k = distance * 0.0015f;
  const glm::vec3 right(std::cos(yaw), 0.0f, -std::sin(yaw));
  target -= dx * k * right;
  target.y += dy * k;
}

void Camera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.9f, steps), 2.0f, 80.0f);
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

}  // namespace demo
