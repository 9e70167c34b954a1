#version 450 core
// Scene geometry: world-space position and normal for Blinn-Phong in scene.frag.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = SCENE_LOC_MODEL) uniform mat4 u_model;
layout(location = SCENE_LOC_VIEW_PROJ) uniform mat4 u_view_proj;
layout(location = SCENE_LOC_UV_SCALE) uniform vec2 u_uv_scale;

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
}
