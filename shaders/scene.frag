#version 450 core
// The scene's surfaces (scene_shading.glsl); optional albedo texture. With DEFER_PLANES (the
// sharp frame without MSAA) the textured floor and wall are only marked here, view z =
// PLANE_MARK_Z(plane) (shared.h), and shaded by shade_planes.comp: on GPUs whose graphics units
// are few (the H100) their anisotropic texture fetches were a third of the scene pass.
#include "scene_shading.glsl"
#ifdef PEEL
#include "peel.glsl"
#endif
#ifdef NEAR_CUT
// The two-layer oracle's reference (oracle_score, diagnostics/frame_checks.hpp): the lens sees the scene without its near
// field, every fragment nearer than the near field's end discarded.
layout(location = SCENE_LOC_NEAR_CUT) uniform float u_near_cut;
#endif
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in float v_viewz;

layout(location = SCENE_LOC_EYE) uniform vec3 u_eye;
layout(location = SCENE_LOC_COLOR) uniform vec3 u_color;
layout(location = SCENE_LOC_SHININESS) uniform float u_shininess;
layout(location = SCENE_LOC_SPECULAR) uniform float u_specular;
layout(location = SCENE_LOC_TEXTURED) uniform bool u_textured;
layout(binding = SCENE_UNIT_ALBEDO) uniform sampler2D u_albedo;
layout(location = SCENE_LOC_BLOB_COUNT) uniform int u_blob_count;
layout(location = SCENE_LOC_BLOBS) uniform vec3 u_blobs[MAX_BLOBS];
layout(location = SCENE_LOC_EMISSIVE) uniform vec3 u_emissive;
layout(location = SCENE_LOC_SPEC_GAIN) uniform float u_spec_gain;
#ifdef DEFER_PLANES
layout(location = SCENE_LOC_PLANE) uniform int u_plane;  // PLANE_FLOOR / PLANE_WALL
#endif

layout(location = SCENE_OUT_COLOR) out vec4 frag;
layout(location = SCENE_OUT_VIEWZ) out float frag_viewz;

void main() {
  frag_viewz = v_viewz;
#ifdef PEEL
  // The second depth layer (peel.glsl). Texture gradients first: after the discard the quad's
  // implicit derivatives are undefined.
  vec2 uv_dx = dFdx(v_uv), uv_dy = dFdy(v_uv);
  if (!peel_keep(v_viewz)) discard;
#endif
#ifdef NEAR_CUT
  if (v_viewz < u_near_cut) discard;
#endif
#ifdef DEFER_PLANES
  if (u_textured) {
    // The mark goes into view z; the plane is drawn with colour writes masked off (ScenePass), so
    // the frame's colour is written once, by the planes pass: in an RGBA16F frame those raster
    // writes were most of the scene pass's extra cost on the H100.
    frag_viewz = PLANE_MARK_Z(u_plane);
    frag = vec4(0.0);
    return;
  }
#endif
  if (any(greaterThan(u_emissive, vec3(0.0)))) {  // a bulb: its radiance, unlit
    frag = vec4(u_emissive, 1.0);
    return;
  }
  vec3 albedo = u_color;
#ifdef PEEL
  if (u_textured) albedo *= textureGrad(u_albedo, v_uv, uv_dx, uv_dy).rgb;
#else
  if (u_textured) albedo *= texture(u_albedo, v_uv).rgb;
#endif
  frag = vec4(shade_surface(normalize(v_normal), v_world, u_eye, albedo, u_shininess, u_specular,
                            u_blob_count, u_blobs, u_spec_gain),
              1.0);
}
