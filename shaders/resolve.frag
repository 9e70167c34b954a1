#version 450 core
// MSAA resolve before the SAT: colour is the mean of the samples (what a blit resolve does), view
// z is the NEAREST sample's, not the mean: a mean of a foreground and a background depth is a
// depth where nothing is, and would give an edge pixel a circle of confusion of neither surface.
// The nearest keeps silhouettes on the foreground side (which the spreading methods blur over
// the background), at the cost of an edge pixel's colour mixing in some background.
layout(binding = RESOLVE_UNIT_COLOR) uniform sampler2DMS u_color;
layout(binding = RESOLVE_UNIT_VIEWZ) uniform sampler2DMS u_viewz;
layout(location = RESOLVE_LOC_SAMPLES) uniform int u_samples;
layout(location = SCENE_OUT_COLOR) out vec4 frag;
layout(location = SCENE_OUT_VIEWZ) out float frag_viewz;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 c = vec4(0.0);
  float z = 3.4e38;
  for (int i = 0; i < u_samples; ++i) {
    c += texelFetch(u_color, p, i);
    z = min(z, texelFetch(u_viewz, p, i).r);
  }
  frag = c / float(u_samples);
  frag_viewz = z;
}
