// Constants shared by the C++ demo and its GLSL shaders: binding points, uniform locations, debug
// view ids and array sizes. C++ includes this file; the shader loader (glsat/src/util.cpp) pastes it
// after each shader's #version line, so a number changed here changes on both sides at once.
// Plain #defines only: the one syntax both languages' preprocessors share.
#ifndef SCANDOF_SHADERS_SHARED_H
#define SCANDOF_SHADERS_SHARED_H

// Debug views (the DoF pass's u_view; demo::View mirrors them by value).
#define VIEW_DOF 0
#define VIEW_SHARP 1
#define VIEW_COC 2
#define VIEW_SAT 3
#define VIEW_SPLIT 4
#define VIEW_REFERENCE 5  // dof.frag blurs as VIEW_DOF; App then shows the lens reference
#define VIEW_ERROR 6      // likewise, then the heat map of |blurred - reference|
#define NUM_VIEWS 7

// The frame's colour: linear radiance in RGBA16F with HDR (the default pipeline: the DoF pass
// blurs radiance, the tone-map pass makes the 8-bit image), the paper's RGBA8 without (the "LDR
// (paper)" pipeline). Image units that hold the frame's colour name COLOR_FORMAT.
#ifdef HDR
#define COLOR_FORMAT rgba16f
#else
#define COLOR_FORMAT rgba8
#endif

// Soft contact shadows under the teapots: at most this many (x, z, radius) blobs.
#define MAX_BLOBS 8

// scene.vert / scene.frag: explicit uniform locations (no glGetUniformLocation at run time).
#define SCENE_LOC_MODEL 0
#define SCENE_LOC_VIEW_PROJ 1
#define SCENE_LOC_UV_SCALE 2
#define SCENE_LOC_EYE 3
#define SCENE_LOC_COLOR 4
#define SCENE_LOC_SHININESS 5
#define SCENE_LOC_SPECULAR 6
#define SCENE_LOC_TEXTURED 7
#define SCENE_LOC_BLOB_COUNT 8
#define SCENE_LOC_BLOBS 9         // MAX_BLOBS consecutive locations
#define SCENE_LOC_LENS_SAMPLE 17  // vec2: lens point on the unit disc (reference)
#define SCENE_LOC_LENS 18         // vec4: aperture px, focus, max radius (< 0: no clamp), 0
#define SCENE_LOC_VIEWPORT 19     // vec2: frame size in pixels
#define SCENE_LOC_PLANE 20        // int: which plane (DEFER_PLANES builds only)
#define SCENE_LOC_EMISSIVE 21     // vec3: radiance of an emitter (bulb); 0 = a lit surface
#define SCENE_LOC_SPEC_GAIN 22    // float: highlight intensity (HDR); 1 in LDR
#define SCENE_UNIT_ALBEDO 0
// The textured planes, shaded after rasterisation by shade_planes.comp (DEFER_PLANES).
#define PLANE_FLOOR 0
#define PLANE_WALL 1
#define NUM_PLANES 2
#define PLANES_GROUP_X 16
#define PLANES_GROUP_Y 8
#define PLANES_IMAGE_COLOR 0
#define PLANES_IMAGE_VIEWZ 1
// A deferred plane's pixel carries its mark in the view-z target, colour untouched: view z =
// PLANE_MARK_Z(plane), negative, which no real distance is.
#define PLANE_MARK_Z(k) (-1.0 - float(k))
#define PLANES_UNIT_FLOOR 0
#define PLANES_UNIT_WALL 1
#define PLANES_LOC_INV_VIEW_PROJ 0
#define PLANES_LOC_EYE 1
#define PLANES_LOC_BLOB_COUNT 2
#define PLANES_LOC_BLOBS 3         // MAX_BLOBS consecutive locations
#define PLANES_LOC_ORIGIN 11       // NUM_PLANES each from here on
#define PLANES_LOC_AXIS_U 13       // the plane's texture axes: uv = dot(p - origin, axis) * scale
#define PLANES_LOC_AXIS_V 15       //   (axis = edge / |edge|^2)
#define PLANES_LOC_NORMAL 17
#define PLANES_LOC_UV_SCALE 19
#define PLANES_LOC_MATERIAL 21     // vec2: shininess, specular
#define PLANES_LOC_SPEC_GAIN 23    // float: as SCENE_LOC_SPEC_GAIN
#define PLANES_LOC_VIEW_DIR 24     // vec3: the unit view axis, for the view z it writes

// accum.comp (the lens reference): adds one lens sample's frame into the float accumulator.
#define ACCUM_UNIT_SAMPLE 0
#define ACCUM_LOC_SAMPLES 0
#define ACCUM_IMAGE_SUM 0
#define ACCUM_GROUP_X 16
#define ACCUM_GROUP_Y 16
// clear_scene.comp: the sharp frame's colour and view-z cleared by a compute pass.
#define CLEAR_IMAGE_COLOR 0
#define CLEAR_IMAGE_VIEWZ 1
#define CLEAR_LOC_SKY 0
#define CLEAR_LOC_FAR 1
#define CLEAR_GROUP_X 16
#define CLEAR_GROUP_Y 16
// resolve.frag (MSAA): averages colour, takes the nearest view z of the samples.
#define RESOLVE_UNIT_COLOR 0
#define RESOLVE_UNIT_VIEWZ 1
#define RESOLVE_LOC_SAMPLES 0

// dof.frag: uniform locations, texture units and the SAT buffer's binding.
#define DOF_LOC_SIZE 0
#define DOF_LOC_FOCUS 3
#define DOF_LOC_APERTURE 4
#define DOF_LOC_MAX_RADIUS 5
#define DOF_LOC_VIEW 6
#define DOF_LOC_SPLIT 7
#define DOF_LOC_VALUE_SCALE 8  // table units -> colour: 1/255 (RGBA8), 2^-F (HDR fixed point), 1
// The kernel shape (dof_gather.glsl): pixels off the CoC radius, and the shape's signed fractional
// rectangles for the unit radius (x: half-width, y: half-height, z: +1 or -1; count 0 = the box).
#define DOF_LOC_RADIUS_OFFSET 9
#define DOF_LOC_RECT_COUNT 10
#define DOF_LOC_RECTS 16  // DOF_MAX_RECTS consecutive locations
#define DOF_MAX_RECTS 15  // 2k - 1 for the disc's k = 8 (scandof::dof::kMaxDiscBoxes)
// The demo's default radius offset (Settings::dof_radius_offset): 0.5 builds every shape at
// r - 1/2, the lens disc's area (scandof/dof.hpp, "Kernel shapes"); 0 is the paper's.
#define DOF_DEFAULT_RADIUS_OFFSET 0.5f
#define DOF_UNIT_COLOR 0
#define DOF_UNIT_VIEWZ 1
#define DOF_SAT_BINDING 0

// dof.comp: workgroup shape and the output image unit.
#define DOF_COMPUTE_GROUP_X 16
#define DOF_COMPUTE_GROUP_Y 8
#define DOF_IMAGE_OUT 0

// Bokeh from highlights (bokeh_spread.comp, bokeh_resolve.comp; scandof/dof.hpp): the excess's
// 64-bit sums as (low, high) word pairs, 3 planes, in one buffer; the tiles some shape reaches;
// the frame's fixed point (F, its max_value, the base's max_value), the unit shape (the DoF
// pass's rectangles above) and the tile size. The locations follow the DoF pass's.
#define BOKEH_BINDING_SUMS 1
#define BOKEH_BINDING_TOUCHED 2
#define BOKEH_LOC_FIXED_BITS 40
#define BOKEH_LOC_FIXED_MAX 41
#define BOKEH_LOC_BASE_MAX 42
#define BOKEH_LOC_SHAPE_KIND 43  // 0 box, 1 octagon or disc (the rectangles)
#define BOKEH_LOC_UNIT 44         // 2^-(F + 19): a sum in radiance
#define BOKEH_TILE 32

// scene.frag's outputs: colour, and the view-axis distance z of each pixel (R32F). The DoF passes
// (fragment and CUDA compute) read z directly, so the circle of confusion is one formula of one
// value per pixel, and CUDA can read it (depth formats cannot be registered with CUDA).
#define SCENE_OUT_COLOR 0
#define SCENE_OUT_VIEWZ 1

// Tone mapping of the HDR frame (app/passes/tonemap_pass.*; the CPU gold is scandof/tonemap.hpp).
// tonemap_reduce.comp: log2 luminance summed per workgroup into the partials buffer;
// tonemap_exposure.comp (one workgroup): the partials -> this frame's EV, smoothed over time, into
// the 4-word exposure buffer {ev applied, ev measured, log2 average, pixels counted};
// tonemap.comp: exposure, curve and sRGB encode from the radiance texture into an RGBA8 image.
#define TONEMAP_OP_ACES 0      // scandof::ToneMapper's values
#define TONEMAP_OP_AGX 1
#define TONEMAP_OP_REINHARD 2
#define TONEMAP_GROUP_X 16
#define TONEMAP_GROUP_Y 16
#define TONEMAP_EXPOSURE_THREADS 256
#define TONEMAP_UNIT_RADIANCE 0
#define TONEMAP_IMAGE_OUT 0
#define TONEMAP_PARTIALS_BINDING 1
#define TONEMAP_EXPOSURE_BINDING 2
#define TONEMAP_LOC_OP 0
#define TONEMAP_LOC_EV 1           // float: manual EV, or the compensation with auto exposure
#define TONEMAP_LOC_AUTO 2         // int: 1 = the EV from the exposure buffer
#define TONEMAP_LOC_WHITE 3        // float: Reinhard's white point
#define TONEMAP_LOC_SIZE 4         // ivec2: frame size
#define TONEMAP_LOC_GROUPS 5       // int: partials to sum (tonemap_exposure.comp)
#define TONEMAP_LOC_DT 6           // float: seconds since the last frame
#define TONEMAP_LOC_TAU 7          // float: adaptation time constant, seconds (0: none)
#define TONEMAP_LOC_RESET 8        // int: 1 = take this frame's EV, no history

// scene_gltf.frag (a loaded glTF scene, app/scene/mesh_scene.*): metallic-roughness materials and
// up to GLTF_MAX_LIGHTS punctual lights. scene.vert's locations (SCENE_LOC_*) are shared with it;
// these follow them.
#define GLTF_MAX_LIGHTS 8
#define GLTF_LOC_BASE_COLOR 23     // vec4: baseColorFactor (linear)
#define GLTF_LOC_METAL_ROUGH 24    // vec2: metallicFactor, roughnessFactor
#define GLTF_LOC_EMISSIVE 25       // vec3: emissiveFactor x strength x highlight (HDR)
#define GLTF_LOC_NORMAL_SCALE 26   // float
#define GLTF_LOC_ALPHA_CUTOFF 27   // float: < 0 opaque, else MASK
#define GLTF_LOC_TEXTURES 28       // ivec4: base colour, metallic-roughness, normal, emissive bound
#define GLTF_LOC_LIGHT_COUNT 29    // int
#define GLTF_LOC_AMBIENT 30        // vec3: sky-like fill, radiance units
#define GLTF_LOC_LIGHT_POS 31      // vec4[GLTF_MAX_LIGHTS]: position, type (0 dir, 1 point, 2 spot)
#define GLTF_LOC_LIGHT_DIR 39      // vec4[GLTF_MAX_LIGHTS]: direction of travel, range (0: none)
#define GLTF_LOC_LIGHT_COLOR 47    // vec4[GLTF_MAX_LIGHTS]: colour x intensity
#define GLTF_LOC_LIGHT_CONE 55     // vec4[GLTF_MAX_LIGHTS]: cos outer, 1 / (cos inner - cos outer)
#define GLTF_UNIT_BASE 0
#define GLTF_UNIT_METAL_ROUGH 1
#define GLTF_UNIT_NORMAL 2
#define GLTF_UNIT_EMISSIVE 3

// The second depth layer (shaders/peel.glsl, app/passes/peel_pass.*): scene.frag and
// scene_gltf.frag built with PEEL read the first layer's view z and the lens (after the glTF
// locations, so both programs can take them).
#define SCENE_LOC_PEEL 63          // vec4: aperture px, focus, max radius, layers K
#define SCENE_UNIT_PEEL_FIRST 4    // the first layer's view z (R32F)
#define SCENE_LOC_NEAR_CUT 64      // float: scene.frag NEAR_CUT, the view z below which to discard

#endif  // SCANDOF_SHADERS_SHARED_H
