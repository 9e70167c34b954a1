// Blinn-Phong of the scene, written once for the two places that shade it: scene.frag (teapots,
// and the floor and wall in the lens reference and with MSAA) and shade_planes.comp (the floor
// and wall of the sharp frame, shaded after rasterisation; see there for why).
// One directional key light, a dim fill light, ambient; soft contact shadows ("blobs": x, z,
// radius) under the teapots, a few ALU operations per floor pixel instead of a shadow-map pass.
// With HDR the result is linear radiance: the albedo (authored as sRGB colours and textures) is
// decoded to linear, and the specular highlight is scaled by spec_gain (the UI's highlight
// intensity), so glints exceed 1 and blur into bokeh; without, the paper's display-referred
// colour, spec_gain 1.
vec3 srgb_to_linear(vec3 c) {
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

vec3 shade_surface(vec3 n, vec3 world, vec3 eye, vec3 albedo, float shininess, float specular,
                   int blob_count, vec3 blobs[MAX_BLOBS], float spec_gain) {
#ifdef HDR
  albedo = srgb_to_linear(albedo);
#endif
  vec3 v = normalize(eye - world);
  // The teapot is open (lid gap, spout): faces seen from behind are shaded as if facing us.
  if (dot(n, v) < 0.0) n = -n;
  const vec3 key_dir = normalize(vec3(0.45, 0.8, 0.55));
  const vec3 fill_dir = normalize(vec3(-0.6, 0.35, -0.3));
  float key = max(dot(n, key_dir), 0.0);
  float fill = max(dot(n, fill_dir), 0.0);
  vec3 h = normalize(key_dir + v);
  float spec = key > 0.0 ? pow(max(dot(n, h), 0.0), shininess) : 0.0;
  float occl = 1.0;
  for (int i = 0; i < blob_count; ++i) {
    float d = length(world.xz - blobs[i].xy) / blobs[i].z;
    occl *= mix(0.45, 1.0, smoothstep(0.55, 1.25, d));
  }
  key *= occl;
  return albedo * mix(0.6, 1.0, occl) * (0.18 + 0.85 * key + 0.25 * fill) +
         spec_gain * specular * spec * vec3(1.0);
}
