#version 450 core
// Scene geometry: world-space position and normal for Blinn-Phong in scene.frag.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = SCENE_LOC_MODEL) uniform mat4 u_model;
layout(location = SCENE_LOC_VIEW_PROJ) uniform mat4 u_view_proj;
layout(location = SCENE_LOC_UV_SCALE) uniform vec2 u_uv_scale;
// The lens reference (diagnostics/lens_reference.cpp): a pinhole moved to lens point l with its
// projection sheared so the plane z = z_f stays put sees a point at view depth z shifted by
// f_px l (1/z_f - 1/z) pixels = s A (z - z_f) / z with s = l / L on the unit disc (dof.hpp,
// lens_radius). Added in clip space (times w = z) this is exactly the sheared projection, a linear
// map, so triangles stay triangles and the depth test sees the same z. With a clamp (u_lens.z >= 0)
// the shift stops at the methods' largest radius, as their circle of confusion does; then it is
// no longer linear in the vertex, and is exact only at vertices (the floor and wall are grids of
// small quads for this). u_lens.x = 0: no shift.
layout(location = SCENE_LOC_LENS_SAMPLE) uniform vec2 u_lens_sample;
layout(location = SCENE_LOC_LENS) uniform vec4 u_lens;  // A (px), z_f, r_max (< 0: none), 0
layout(location = SCENE_LOC_VIEWPORT) uniform vec2 u_viewport;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out float v_viewz;  // distance along the view axis (clip w of a perspective projection)

void main() {
  vec4 w = u_model * vec4(a_pos, 1.0);
  v_world = w.xyz;
  // Models use rotation + uniform scale only, so mat3(model) transforms normals correctly.
  v_normal = mat3(u_model) * a_normal;
  v_uv = a_uv * u_uv_scale;
  gl_Position = u_view_proj * w;
  v_viewz = gl_Position.w;
  if (u_lens.x > 0.0) {
    float z = gl_Position.w;
    // Unclamped: shift (px) times z = s A (z - z_f), linear in the vertex, valid behind the eye too.
    float rz = u_lens.x * (z - u_lens.y);
    if (u_lens.z >= 0.0) rz = z > 0.0 ? clamp(rz / z, -u_lens.z, u_lens.z) * z : -u_lens.z * z;
    gl_Position.xy += u_lens_sample * rz * (2.0 / u_viewport);
  }
}
