// The orbit camera: a target point, yaw/pitch around it and a distance; its view and projection
// matrices (glm, column-major as GL wants them). Mouse handling is in camera_input.*.
#pragma once

#include <glm/glm.hpp>

namespace demo {

struct Camera {
  float yaw = 0.0f;     // radians around +y; 0 looks down -z
  float pitch = 0.21f;  // radians above the horizon
  float distance = 15.0f;
  glm::vec3 target{0.0f, 1.2f, -3.0f};
  static constexpr float kNear = 0.1f, kFar = 200.0f;
  static constexpr float kFovY = 0.75f;  // radians: the default vertical field of view
  float fovy = kFovY;  // the physical camera mode sets it from focal length and sensor

  void orbit(float dx, float dy);  // mouse pixels
  void pan(float dx, float dy);    // mouse pixels
  void zoom(float steps);          // wheel steps
  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 view_proj(float aspect) const;
  // View-axis distance of a world point (what the scene writes as view z).
  float view_depth(const glm::vec3& p) const;
};

}  // namespace demo
