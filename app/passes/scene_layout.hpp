// Where things stand in the scene: the five teapots, the floor and the wall, the sky colour. One
// table each for the scene pass (scene_pass.*: their meshes and uniforms), the deferred planes
// pass (planes_pass.*: shade_planes.comp recomputes the planes' points and texture coordinates
// from the same numbers) and autofocus on a teapot (frame/app.cpp).
#pragma once

#include <glm/glm.hpp>

#include "scene/teapot.hpp"
#include "shared.h"

namespace demo {

// The floor and the back wall as parallelograms from `origin` along two edges.
struct PlaneDef {
  glm::vec3 origin, edge_u, edge_v, normal;
  glm::vec2 uv_scale;
  float shininess, specular;
};
extern const PlaneDef kPlanes[NUM_PLANES];  // indexed by PLANE_FLOOR, PLANE_WALL

// A plane as an n x m grid of quads (uv 0..1 across it). A grid, not two triangles: the lens
// reference's clamped shift (scene.vert) is exact at vertices only, so big triangles would bend
// it; the sharp frame is the same either way.
Mesh plane_mesh(const PlaneDef& d, int n = 1, int m = 1);

// Placement of the teapots: clearly separated depths from near the camera to the back wall.
struct TeapotPlace {
  float x, z, scale, spin, r, g, b;
};
constexpr int kNumTeapots = 5;
extern const TeapotPlace kTeapots[kNumTeapots];  // near red .. far white porcelain

// World position of teapot i (0 = the near red one .. kNumTeapots - 1 = the far white one), at
// half its height: what autofocus on a teapot focuses on.
glm::vec3 teapot_position(int i);
// Rotation about +y, uniform scale, then translation (teapots stand on the floor).
glm::mat4 model_matrix(float x, float y, float z, float yaw, float scale);
// The soft contact shadows (x, z, radius) under the teapots, whose footprint radius is about 2
// (x 1.3); returns how many (at most MAX_BLOBS).
int teapot_blobs(glm::vec3* out);

extern const float kSky[4];  // the clear colour: RGBA (display colour, the LDR frame's)
// The clear colour of a frame: kSky, or its linear radiance in the HDR frame.
const float* sky_color(bool hdr);

// Emitters of the HDR scene, the lights that become bokeh: a string of small bulbs along the back
// wall, glowing spheres at several depths between the teapots, one close to the camera. Radiance
// = colour x intensity x the highlight intensity setting (Settings::highlight, default 4): a bulb
// is about 3 px across at 1080p and far brighter than white, so a blur keeps its energy as a disc.
// The LDR (paper) frame draws none of them.
struct Bulb {
  float x, y, z, radius, r, g, b, intensity;
};
constexpr int kNumBulbs = 21;
extern const Bulb kBulbs[kNumBulbs];
// A unit sphere (radius 1 at the origin).
Mesh sphere_mesh(int slices, int stacks);

}  // namespace demo
