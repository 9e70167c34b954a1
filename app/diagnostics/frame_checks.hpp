// What diagnostics measure of the frame App has just drawn (the lens reference and the score
// against it, the two-layer oracle, variant timings, the float32 error, --verify, --dump-sat):
// each reads the frame through App::targets() and App::parts(), may draw it again, and keeps its
// result in App::measured() where the panels and the report read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/requests.hpp"
#include "diagnostics/quality.hpp"
#include "diagnostics/sat_analysis.hpp"
#include "frame/app.hpp"

namespace demo {

// The requests that are diagnostics (compare with the reference, time every variant, measure the
// float32 error), after App::carry_out ran the frame's own.
void carry_out_checks(App& app, const Requests& req);

// Renders the lens reference if the one kept is not of this camera, time and lens, then scores
// this frame's method against it (re-rendering the frame as the DepthOfField view, dt = 0).
const QualityResult& compare_with_reference(App& app);
// --dof-oracle: how much a second layer could give, two scores printed on stderr beside the
// frame's (HDR, layered, the teapot scene; else says why not; call after compare_with_reference).
// Both put the method's own near field (dof::near_over) over an image of what lies behind it:
// "lens", the lens reference of the scene without its near field (every fragment nearer than
// dof::near_field_end discarded in every lens sample), the best any background could do;
// "complete", the method (dof::layered) run on the pinhole frame of the scene without its near
// field (the peel pass's cut), i.e. a second layer that holds every hidden surface, the best this
// method could do with more layers. Returns the lens one.
const QualityResult& oracle_score(App& app);
// Renders the lens reference of the frame if it is not current, and its display image into
// App::measured().reference_display.
void ensure_reference(App& app);
bool reference_current(App& app);  // the kept reference is of this camera, time and lens
void write_reference_png(App& app, const std::string& path);  // renders it first if not current
// The image a method makes of this frame (DepthOfField view), RGB float bottom-up, as shown (the
// display image); its radiance (HDR: the DoF output; LDR: the same as the image) from the same
// render.
std::vector<float> method_image(App& app, std::vector<float>* radiance = nullptr);
// The image's error against the kept reference, RGBA8 with legend.
std::vector<uint8_t> error_map(const App& app, const std::vector<float>& image);
float lens_radius(App& app);  // L for the current camera and lens (scene units)

void compare_variants(App& app, int reps = kCompareReps);
void measure_float_error(App& app);
// Builds `cfg`'s SAT of the current frame once with a waited timing, then the current settings'
// again (so the tables and the next frame's stage times stay theirs); returns the build's ms.
float retime_sat(App& app, const Settings& cfg);
// --verify: the tables (built as u32) against sat_gold of the frame, the DoF passes against
// each other, the deferred planes against forward shading. Appends the verdicts to *message.
bool verify(App& app, std::string* message);
void dump_sat(const App& app, const std::string& path);

}  // namespace demo
