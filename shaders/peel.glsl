// The second depth layer (app/passes/peel_pass.*): with PEEL defined, scene.frag and
// scene_gltf.frag keep, where the frame's first (visible) surface lies in front of the focal
// plane, only the fragments lying in a later circle-of-confusion layer than it, so the nearest
// surface kept is what the first layer hides from the pinhole but the lens sees around a blurred
// object (scandof/dof.hpp, "Two depth layers": behind an occluder beyond the focus the lens sees
// nothing hidden). A plain depth peel (discard z <= z1 + epsilon) would keep the far side of the
// same object (the teapots are drawn without culling and are not closed), which lies in the same
// layer, hides nothing the composite can use and covers what is behind; the layer test is the
// depth peel with the layer boundary for its epsilon. Exactly dof::hidden_source's test.
layout(binding = SCENE_UNIT_PEEL_FIRST) uniform sampler2D u_peel_first_viewz;  // the first layer
// A (px), z_f, r_max, K (layers); K negative (-K): the oracle's cut instead (oracle_score, diagnostics/frame_checks.hpp):
// every surface beyond the near field, whatever the first layer holds.
layout(location = SCENE_LOC_PEEL) uniform vec4 u_peel;

// scandof::dof::layer_of, the same arithmetic.
int peel_layer(float z) {
  int k = abs(int(u_peel.w));
  if (!(u_peel.z > 0.0)) return z < u_peel.y ? 0 : k - 1;
  float r = min(u_peel.x * abs(z - u_peel.y) / z, u_peel.z);
  float s = z < u_peel.y ? -r : r;
  int b = int(floor((s + u_peel.z) / (2.0 * u_peel.z) * float(k)));
  return clamp(b, 0, k - 1);
}

// Whether the fragment at view depth z belongs to the second layer at this pixel.
bool peel_keep(float z) {
  if (u_peel.w < 0.0) return peel_layer(z) > 0;
  float z1 = texelFetch(u_peel_first_viewz, ivec2(gl_FragCoord.xy), 0).r;
  return z1 < u_peel.y && peel_layer(z) > peel_layer(z1);
}
