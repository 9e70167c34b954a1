#version 450 core
// The floor and wall of the sharp frame, shaded after rasterisation. scene.frag (DEFER_PLANES)
// writes only a mark into their view z (PLANE_MARK_Z, negative) and no colour; this pass finds
// each marked
// pixel's point on its plane by casting the pixel's ray (exact for a plane: what the rasteriser
// interpolates), takes its texture coordinates and their screen derivatives from the rays of the
// neighbouring pixels, and shades it with the same scene_shading.glsl as the forward path.
// Why: the floor and wall cover most of the frame at grazing angles, where 16x anisotropic
// filtering takes up to 16 trilinear fetches a pixel. On the H100 only a few units do graphics:
// those fetches were 0.25 of the 0.87 ms scene pass at 1080p; here every SM's texture units share
// them (a few microseconds). Elsewhere it costs one extra full-frame pass, a few microseconds too.
// The result equals the forward path up to the derivatives' rounding (the rasteriser takes them
// from 2x2 quads): --verify (diagnostics/frame_checks.cpp) compares the two.
#include "scene_shading.glsl"
layout(local_size_x = PLANES_GROUP_X, local_size_y = PLANES_GROUP_Y) in;
layout(binding = PLANES_IMAGE_COLOR, COLOR_FORMAT) uniform writeonly image2D u_color;
layout(binding = PLANES_IMAGE_VIEWZ, r32f) uniform image2D u_viewz;
layout(location = PLANES_LOC_VIEW_DIR) uniform vec3 u_view_dir;  // unit view axis (world)
layout(binding = PLANES_UNIT_FLOOR) uniform sampler2D u_floor;
layout(binding = PLANES_UNIT_WALL) uniform sampler2D u_wall;
layout(location = PLANES_LOC_INV_VIEW_PROJ) uniform mat4 u_inv_view_proj;
layout(location = PLANES_LOC_EYE) uniform vec3 u_eye;
layout(location = PLANES_LOC_BLOB_COUNT) uniform int u_blob_count;  // the floor's; the wall has none
layout(location = PLANES_LOC_BLOBS) uniform vec3 u_blobs[MAX_BLOBS];
layout(location = PLANES_LOC_ORIGIN) uniform vec3 u_origin[NUM_PLANES];
layout(location = PLANES_LOC_AXIS_U) uniform vec3 u_axis_u[NUM_PLANES];
layout(location = PLANES_LOC_AXIS_V) uniform vec3 u_axis_v[NUM_PLANES];
layout(location = PLANES_LOC_NORMAL) uniform vec3 u_normal[NUM_PLANES];
layout(location = PLANES_LOC_UV_SCALE) uniform vec2 u_uv_scale[NUM_PLANES];
layout(location = PLANES_LOC_MATERIAL) uniform vec2 u_material[NUM_PLANES];
layout(location = PLANES_LOC_SPEC_GAIN) uniform float u_spec_gain;

// Where the ray through window position q (pixel centres at +0.5) meets plane k (a ray parallel to
// the plane, seen only in unmarked pixels, is kept finite).
vec3 on_plane(vec2 q, int k) {
  vec2 ndc = 2.0 * q / vec2(imageSize(u_color)) - 1.0;
  vec4 a = u_inv_view_proj * vec4(ndc, -1.0, 1.0), b = u_inv_view_proj * vec4(ndc, 1.0, 1.0);
  vec3 o = a.xyz / a.w, d = b.xyz / b.w - o;
  float dn = dot(d, u_normal[k]);
  return o + d * (dot(u_origin[k] - o, u_normal[k]) / (abs(dn) > 1e-20 ? dn : 1e-20));
}

vec2 uv_of(vec3 p, int k) {
  vec3 r = p - u_origin[k];
  return vec2(dot(r, u_axis_u[k]), dot(r, u_axis_v[k])) * u_uv_scale[k];
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_color)))) return;
  float z = imageLoad(u_viewz, p).r;
  int mark = int(-1.0 - z + 0.5);
  bool marked = z < 0.0 && mark < NUM_PLANES;  // else sky or teapot: already final
  int k = marked ? mark : PLANE_FLOOR;
  vec2 q = vec2(p) + 0.5;
  vec3 world = on_plane(q, k);
  vec2 uv = uv_of(world, k);
  // The screen derivatives as the rasteriser takes them for implicit level of detail: "coarse",
  // one pair per 2x2 quad, from its first pixel to the next in x and in y. (Per-pixel differences
  // instead move the level of detail where the floor recedes fast: on the H100 at 33x17, 7.7 % of
  // the values then differed by more than 2/255 from the forward path, none this way.)
  ivec2 q0 = p & ~1;
  vec2 uv0 = uv_of(on_plane(vec2(q0) + 0.5, k), k);
  vec2 ddx = uv_of(on_plane(vec2(q0) + vec2(1.5, 0.5), k), k) - uv0;
  vec2 ddy = uv_of(on_plane(vec2(q0) + vec2(0.5, 1.5), k), k) - uv0;
  // Both textures fetched in uniform control flow and the right one kept: implementations that
  // pick the level of detail per 2x2 quad (Mesa's llvmpipe) then see only sane derivatives.
  vec3 floor_albedo = textureGrad(u_floor, uv, ddx, ddy).rgb;
  vec3 wall_albedo = textureGrad(u_wall, uv, ddx, ddy).rgb;
  if (!marked) return;
  vec3 albedo = k == PLANE_FLOOR ? floor_albedo : wall_albedo;
  vec3 rgb = shade_surface(u_normal[k], world, u_eye, albedo, u_material[k].x, u_material[k].y,
                           k == PLANE_FLOOR ? u_blob_count : 0, u_blobs, u_spec_gain);
  imageStore(u_color, p, vec4(rgb, 1.0));
  // The distance along the view axis the rasteriser would have interpolated (clip w): exact for
  // a point of the plane, within float rounding of it.
  imageStore(u_viewz, p, vec4(dot(world - u_eye, u_view_dir), 0.0, 0.0, 0.0));
}
