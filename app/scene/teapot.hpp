// The Utah teapot from its Bezier patch data (assets/teapot.txt) and a tessellator for it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace demo {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

struct BezierPatchSet {
  std::vector<std::array<int, 16>> patches;  // zero-based control point indices, row-major 4x4
  std::vector<Vec3> points;
};

// Parses the text format described at the top of assets/teapot.txt. Throws std::runtime_error
// naming the file and the line on anything malformed (missing file, bad counts, index range).
BezierPatchSet load_bezier_patches(const std::string& path);

struct MeshVertex {
  float pos[3];
  float normal[3];
  float uv[2];
};

struct Mesh {
  std::vector<MeshVertex> vertices;
  std::vector<uint32_t> indices;  // triangles
};

// Evaluates every patch on a (level+1)^2 grid (level >= 1), converts z-up to y-up, and emits
// triangles. Degenerate patch edges (the lid's and bottom's poles) get their normal from a point a
// little inside the patch, so the poles shade smoothly instead of going black.
Mesh tessellate(const BezierPatchSet& set, int level);

}  // namespace demo
