// Depth of field from summed-area tables: the methods, kernel shapes and parameters every
// implementation (CPU gold, CUDA, GL) shares. docs/dof.md describes the conventions and methods.
#pragma once

#include <cstdint>
#include <string>

namespace scandof {
namespace dof {


// Engine and Hybrid: the engine-style near/far gather of scandof/dof_engine.hpp (Engine), and the
// SAT gather of the shape with that method's near field over it (Hybrid).
enum class Method : int { Gather = 0, Spread = 1, Layered = 2, Engine = 3, Hybrid = 4 };
constexpr int kNumMethods = 5;
enum class Shape : int { Box = 0, Octagon = 1, Disc = 2 };
enum class SpreadBorder : int { Reflect = 0, None = 1 };

// "gather", "spread", "layered", "engine", "hybrid"; "box", "octagon", "disc"; "reflect", "none".
const char* to_string(Method m);
const char* to_string(Shape s);
const char* to_string(SpreadBorder b);
// false (and *out untouched) for an unknown name.
bool parse_method(const std::string& name, Method* out);
bool parse_shape(const std::string& name, Shape* out);

constexpr int kMaxDiscBoxes = 8;  // k of Shape::Disc: 1..8
constexpr int kMaxLayers = 8;     // K of Method::Layered: 2..8
constexpr int kMaxRings = 8;      // Params::rings of Method::Engine / Hybrid: 1..8
// Integer boxes of one shape, before merging equal ones: 4 per fractional rectangle, 2k - 1
// rectangles for the disc.
constexpr int kMaxShapeBoxes = 4 * (2 * kMaxDiscBoxes - 1);
constexpr int kSpreadScaleLog2 = 19;
constexpr int32_t kSpreadScale = int32_t(1) << kSpreadScaleLog2;
constexpr float kSpreadMaxRadius = 256.0f;

struct Params {
  float aperture_px = 12.0f;  // A: CoC radius in pixels of a point at infinity
  float focus = 15.0f;        // z_f: focal distance, same units as depth
  float max_radius = 24.0f;   // r_max: CoC clamp in pixels
  Shape shape = Shape::Box;
  int disc_boxes = 4;  // k for Shape::Disc
  int layers = 2;      // K for Method::Layered
  SpreadBorder border = SpreadBorder::Reflect;
  int rings = 3;  // Engine, Hybrid: sample rings of the half-resolution gathers, 1..kMaxRings
  // Pixels taken off the CoC radius before it becomes a kernel shape (shape_radius()): 0 is the
  // paper's convention, 0.5 matches the shape's area to the lens's disc (docs/dof.md, "Kernel
  // shapes").
  float radius_offset = 0.0f;
  // Aperture blades (dof_shapes.hpp, "Polygonal aperture"): 0 = the round aperture (the shape
  // above), 5..8 = the regular polygon of that many blades, turned by blade_rotation degrees,
  // instead of the shape. Gather and hybrid only.
  int blades = 0;
  float blade_rotation = 0.0f;
  // Bokeh from highlights (dof_gold.hpp, "Bokeh from highlights"): radiance above this, per
  // channel, is spread over its own shape instead of gathered; 0 = off. HDR gather with a round
  // shape only.
  float bokeh_threshold = 0.0f;
};

// Throws std::invalid_argument naming the bad field (negative radius or aperture, focus <= 0,
// k or K out of range, max_radius > kSpreadMaxRadius for the spreading methods).
void validate(const Params& p, Method m);

}  // namespace dof
}  // namespace scandof
