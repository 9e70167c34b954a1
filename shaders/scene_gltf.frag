#version 450 core
// A loaded glTF scene's surfaces (app/scene/mesh_scene.*), drawn through scene.vert like the
// teapots, into the same targets: linear radiance (HDR) or display colour (LDR) and view z.
// glTF's metallic-roughness model: GGX distribution, Smith-Schlick visibility, Schlick Fresnel,
// Lambert diffuse; up to GLTF_MAX_LIGHTS punctual lights (KHR_lights_punctual, or one key light
// when the file has none) and a constant ambient fill. Normal maps use a tangent frame from screen
// derivatives of position and uv (no TANGENT attribute needed; the Khronos sample viewer's
// fallback), which costs a few ALU operations per pixel.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in float v_viewz;
#ifdef PEEL
#include "peel.glsl"
#endif

layout(location = SCENE_LOC_EYE) uniform vec3 u_eye;
layout(location = GLTF_LOC_BASE_COLOR) uniform vec4 u_base_color;
layout(location = GLTF_LOC_METAL_ROUGH) uniform vec2 u_metal_rough;
layout(location = GLTF_LOC_EMISSIVE) uniform vec3 u_emissive;
layout(location = GLTF_LOC_NORMAL_SCALE) uniform float u_normal_scale;
layout(location = GLTF_LOC_ALPHA_CUTOFF) uniform float u_alpha_cutoff;
layout(location = GLTF_LOC_TEXTURES) uniform ivec4 u_textures;
layout(location = GLTF_LOC_LIGHT_COUNT) uniform int u_light_count;
layout(location = GLTF_LOC_AMBIENT) uniform vec3 u_ambient;
layout(location = GLTF_LOC_LIGHT_POS) uniform vec4 u_light_pos[GLTF_MAX_LIGHTS];
layout(location = GLTF_LOC_LIGHT_DIR) uniform vec4 u_light_dir[GLTF_MAX_LIGHTS];
layout(location = GLTF_LOC_LIGHT_COLOR) uniform vec4 u_light_color[GLTF_MAX_LIGHTS];
layout(location = GLTF_LOC_LIGHT_CONE) uniform vec4 u_light_cone[GLTF_MAX_LIGHTS];
// sRGB textures are GL_SRGB8_ALPHA8: the sampler returns linear values.
layout(binding = GLTF_UNIT_BASE) uniform sampler2D u_base_tex;
layout(binding = GLTF_UNIT_METAL_ROUGH) uniform sampler2D u_mr_tex;
layout(binding = GLTF_UNIT_NORMAL) uniform sampler2D u_normal_tex;
layout(binding = GLTF_UNIT_EMISSIVE) uniform sampler2D u_emissive_tex;

layout(location = SCENE_OUT_COLOR) out vec4 frag;
layout(location = SCENE_OUT_VIEWZ) out float frag_viewz;

const float kPi = 3.14159265;

vec3 linear_to_srgb(vec3 c) {
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, greaterThan(c, vec3(0.0031308)));
}

void main() {
  vec4 base = u_base_color;
  if (u_textures.x != 0) base *= texture(u_base_tex, v_uv);
  if (u_alpha_cutoff >= 0.0 && base.a < u_alpha_cutoff) discard;
  frag_viewz = v_viewz;
  float metallic = u_metal_rough.x, rough = u_metal_rough.y;
  if (u_textures.y != 0) {
    vec4 mr = texture(u_mr_tex, v_uv);  // glTF: roughness in G, metallic in B
    rough *= mr.g;
    metallic *= mr.b;
  }
  rough = clamp(rough, 0.04, 1.0);
  vec3 v = normalize(u_eye - v_world);
  vec3 ng = normalize(v_normal);
  // Surfaces seen from behind (open or single-sided meshes) are shaded as if facing us.
  if (dot(ng, v) < 0.0) ng = -ng;
  vec3 n = ng;
  if (u_textures.z != 0) {
    vec3 dpx = dFdx(v_world), dpy = dFdy(v_world);
    vec2 dux = dFdx(v_uv), duy = dFdy(v_uv);
    float det = dux.x * duy.y - duy.x * dux.y;
    vec3 t = (duy.y * dpx - dux.y * dpy) / (abs(det) > 1e-12 ? det : 1e-12);
    t = t - ng * dot(ng, t);
    if (dot(t, t) > 1e-20) {
      t = normalize(t);
      vec3 b = cross(ng, t);
      vec3 tn = texture(u_normal_tex, v_uv).xyz * 2.0 - 1.0;
      tn.xy *= u_normal_scale;
      vec3 p = mat3(t, b, ng) * tn;
      if (dot(p, p) > 1e-12) n = normalize(p);
    }
  }
  vec3 albedo = base.rgb;
  vec3 f0 = mix(vec3(0.04), albedo, metallic);
  vec3 diffuse = albedo * (1.0 - metallic) / kPi;
  float a = rough * rough, a2 = a * a;
  float nv = max(dot(n, v), 1e-4);
  // Ambient as a uniform environment of radiance u_ambient: Lambert reflects albedo of it, a
  // mirror-like lobe about F0 (no environment map: metals would otherwise be black).
  vec3 radiance = u_ambient * (albedo * (1.0 - metallic) + f0);
  for (int i = 0; i < u_light_count; ++i) {
    vec3 l;
    float atten = 1.0;
    int type = int(u_light_pos[i].w);
    if (type == 0) {
      l = -u_light_dir[i].xyz;
    } else {
      vec3 d = u_light_pos[i].xyz - v_world;
      float d2 = max(dot(d, d), 1e-6);
      l = d * inversesqrt(d2);
      atten = 1.0 / d2;
      float range = u_light_dir[i].w;
      if (range > 0.0) {  // the glTF extension's recommended window
        float r = sqrt(d2) / range;
        atten *= clamp(1.0 - r * r * r * r, 0.0, 1.0);
      }
      if (type == 2) {
        float cd = dot(u_light_dir[i].xyz, -l);
        float s = clamp((cd - u_light_cone[i].x) * u_light_cone[i].y, 0.0, 1.0);
        atten *= s * s;
      }
    }
    float nl = dot(n, l);
    if (nl <= 0.0) continue;
    vec3 h = normalize(l + v);
    float nh = max(dot(n, h), 0.0), vh = max(dot(v, h), 0.0);
    float dd = nh * nh * (a2 - 1.0) + 1.0;
    float D = a2 / (kPi * dd * dd);
    float k = a * 0.5;
    float vis = 1.0 / ((nl * (1.0 - k) + k) * (nv * (1.0 - k) + k) * 4.0);
    vec3 F = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
    vec3 spec = D * vis * F;
    radiance += ((1.0 - F) * diffuse + spec) * u_light_color[i].rgb * atten * nl;
  }
  vec3 emissive = u_emissive;
  if (u_textures.w != 0) emissive *= texture(u_emissive_tex, v_uv).rgb;
  radiance += emissive;
#ifdef HDR
  frag = vec4(radiance, 1.0);
#else
  frag = vec4(linear_to_srgb(clamp(radiance, 0.0, 1.0)), 1.0);
#endif
#ifdef PEEL
  // The second depth layer (peel.glsl); last, so every texture read above had its quad.
  if (!peel_keep(v_viewz)) discard;
#endif
}
