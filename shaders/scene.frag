#version 450 core
// Blinn-Phong: one directional key light, a dim fill light, ambient; optional albedo texture.
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
// Soft contact shadows under the teapots (x, z, radius), so they sit on the floor; a blob per
// teapot costs a few ALU ops on floor pixels only, far cheaper than a shadow map pass.
layout(location = SCENE_LOC_BLOB_COUNT) uniform int u_blob_count;
layout(location = SCENE_LOC_BLOBS) uniform vec3 u_blobs[MAX_BLOBS];

layout(location = SCENE_OUT_COLOR) out vec4 frag;
layout(location = SCENE_OUT_VIEWZ) out float frag_viewz;

void main() {
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  // The teapot is open (lid gap, spout): faces seen from behind are shaded as if facing us.
  if (dot(n, v) < 0.0) n = -n;
  vec3 albedo = u_color;
  if (u_textured) albedo *= texture(u_albedo, v_uv).rgb;
  const vec3 key_dir = normalize(vec3(0.45, 0.8, 0.55));
  const vec3 fill_dir = normalize(vec3(-0.6, 0.35, -0.3));
  float key = max(dot(n, key_dir), 0.0);
  float fill = max(dot(n, fill_dir), 0.0);
  vec3 h = normalize(key_dir + v);
  float spec = key > 0.0 ? pow(max(dot(n, h), 0.0), u_shininess) : 0.0;
  float occl = 1.0;
  for (int i = 0; i < u_blob_count; ++i) {
    float d = length(v_world.xz - u_blobs[i].xy) / u_blobs[i].z;
    occl *= mix(0.45, 1.0, smoothstep(0.55, 1.25, d));
  }
  key *= occl;
  vec3 c = albedo * mix(0.6, 1.0, occl) * (0.18 + 0.85 * key + 0.25 * fill) + u_specular * spec * vec3(1.0);
  frag = vec4(c, 1.0);
  frag_viewz = v_viewz;
}
