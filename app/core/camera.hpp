// The orbit camera: a target point, yaw/pitch around it and a distance; its view and projection
// matrices (glm, column-major as GL wants them). Mouse handling is in ui/camera_input.*.
#pragma once

#include <glm/glm.hpp>

namespace demo {

struct Camera {
  // The start view (R returns to it) frames all five teapots, the red one in front included, and
  // leaves the left quarter of a 16:9 window to the panels.
  float yaw = -0.10f;   // radians around +y; 0 looks down -z
  float pitch = 0.35f;  // radians above the horizon
  float distance = 17.0f;
  glm::vec3 target{-2.0f, 0.5f, -1.0f};
  static constexpr float kNear = 0.1f, kFar = 200.0f;
  static constexpr float kFovY = 0.75f;  // radians: the default vertical field of view
  float fovy = kFovY;  // the physical camera mode sets it from focal length and sensor
  // Orbit speed, the same for both axes: a drag across the window's height turns ~2.4 rad.
  static constexpr float kOrbitRadPerPx = 0.005f;
  static constexpr float kMinEyeHeight = 0.35f;  // scene units above the floor (y = 0)
  static constexpr float kMinDistance = 2.0f, kMaxDistance = 80.0f;

  void orbit(float dx, float dy);  // mouse pixels
  void pan(float dx, float dy);    // mouse pixels
  // Wheel steps; ray_dir (unit, world space) points through the cursor: the point on that ray at
  // the current orbit distance stays under the cursor. Returns the factor the distance changed by.
  float zoom(float steps, const glm::vec3& ray_dir);
  float zoom(float steps) { return zoom(steps, glm::normalize(target - eye())); }
  void reset() { *this = Camera{}; }
  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 view_proj(float aspect) const;
  // View-axis distance of a world point (what the scene writes as view z).
  float view_depth(const glm::vec3& p) const;
  // World-space direction through window point (x, y) (top-left origin) of a w x h window.
  glm::vec3 ray_through(float x, float y, float w, float h) const;

 private:
  void keep_above_floor();
};

}  // namespace demo
