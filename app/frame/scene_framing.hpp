// A glTF scene loaded for the frame (read, uploaded, its summary) and the camera that frames it:
// the file's camera, or the bounds seen as the teapots are.
#pragma once

#include <memory>
#include <string>

#include "core/camera.hpp"
#include "scene/mesh_scene.hpp"

namespace demo {

// Reads `file` and uploads it; *message: the scene's summary (triangles, draws, ..., read and
// upload times), also logged. Throws SceneLoadError naming the file and what is wrong.
std::unique_ptr<MeshScene> load_scene_model(const std::string& file, std::string* message);

// The orbit camera for `scene` in a width x height frame: through the file's camera
// `scene_camera` (its field of view into *fovy) where the file has it, else the bounds framed from
// a little above and to the right (with a note when the file lacks that camera). Returns the
// distance from the eye to the scene's middle (the focus a --scene-focus run takes).
float place_camera(const MeshScene& scene, int scene_camera, int width, int height, Camera* camera,
                   float* fovy);

}  // namespace demo
