#version 450 core
// The lens reference's accumulation (Haeberli & Akeley): one lens sample's RGBA8 frame added into
// an RGBA32F sum; the sum is divided by the sample count when read back. A compute pass, not an
// additive-blend fragment pass: on the H100 (few raster units) the full-screen blend into RGBA32F
// cost about 2 ms per sample, more than the scene itself (a 1080p sample went from 3.3 to 1.2 ms). With
// MSAA (define MSAA) the sample frame is multisampled like the scene and resolved here by its
// mean, as shaders/resolve.frag resolves the sharp frame's colour.
layout(local_size_x = ACCUM_GROUP_X, local_size_y = ACCUM_GROUP_Y) in;
layout(binding = ACCUM_IMAGE_SUM, rgba32f) uniform image2D u_sum;
#ifdef MSAA
layout(binding = ACCUM_UNIT_SAMPLE) uniform sampler2DMS u_sample;
layout(location = ACCUM_LOC_SAMPLES) uniform int u_samples;
#else
layout(binding = ACCUM_UNIT_SAMPLE) uniform sampler2D u_sample;
#endif

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_sum)))) return;
#ifdef MSAA
  vec3 c = vec3(0.0);
  for (int i = 0; i < u_samples; ++i) c += texelFetch(u_sample, p, i).rgb;
  c /= float(u_samples);
#else
  vec3 c = texelFetch(u_sample, p, 0).rgb;
#endif
  imageStore(u_sum, p, imageLoad(u_sum, p) + vec4(c, 1.0));
}
