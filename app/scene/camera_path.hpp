// A camera-and-focus path: keyframes of eye, target, focal distance and aperture at times, in a
// small JSON file (nlohmann-json), sampled at a fixed time step for playback (--camera-path) and
// recorded from the window (K adds the current view as the next keyframe, --record-path FILE).
// No GL: loaded, sampled and written in the unit tests.
//   {"fps": 30, "keys": [{"t": 0, "eye": [x, y, z], "target": [x, y, z], "focus": 14.2,
//                         "aperture": 12}, ...]}
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace demo {

struct CameraKey {
  double t = 0;  // seconds, strictly increasing along the path
  glm::vec3 eye{0.0f, 2.0f, 10.0f}, target{0.0f};
  float focus = 10.0f;    // focal distance, scene units (> 0)
  float aperture = 12.0f;  // CoC radius in pixels at infinity (>= 0)
};

struct CameraPath {
  double fps = 30;  // playback and recording step: frame n shows time n / fps
  std::vector<CameraKey> keys;

  double duration() const { return keys.empty() ? 0.0 : keys.back().t; }
  // Frames that cover the path: time 0 .. duration() at 1 / fps.
  long long frames() const;
  // The view at time t (clamped to the path): eye and target on Catmull-Rom curves through the
  // keys (uniform parameter per segment, the ends' tangents one-sided), focus interpolated
  // linearly in dioptres (1 / distance: what a focus pull does evenly), aperture linearly.
  CameraKey at(double t) const;
};

// Reads and checks a path file; throws std::runtime_error("FILE: what is wrong") on a file that
// does not parse, wrong types, times not increasing, non-finite values, focus <= 0, aperture < 0,
// eye == target, fps outside (0, 1000], no keys or more than 100000.
CameraPath load_camera_path(const std::string& path);
// Writes the path (a temporary file renamed over FILE, so a failed write leaves the old file);
// throws std::runtime_error naming the file on failure.
void save_camera_path(const CameraPath& p, const std::string& path);
// The same JSON as text (tests; save_camera_path writes this).
std::string camera_path_json(const CameraPath& p);
CameraPath parse_camera_path(const std::string& json, const std::string& name);

}  // namespace demo
