#version 450 core
// The lens reference's accumulation (Haeberli & Akeley): one lens sample's RGBA8 frame, added into
// an RGBA32F target with glBlendFunc(GL_ONE, GL_ONE); the sum is divided by the sample count when
// read back. With MSAA (define MSAA) the sample frame is multisampled like the scene and resolved
// here by its mean, as shaders/resolve.frag resolves the sharp frame's colour.
out vec4 frag;
#ifdef MSAA
layout(binding = ACCUM_UNIT_SAMPLE) uniform sampler2DMS u_sample;
layout(location = ACCUM_LOC_SAMPLES) uniform int u_samples;
void main() {
  vec3 c = vec3(0.0);
  for (int i = 0; i < u_samples; ++i) c += texelFetch(u_sample, ivec2(gl_FragCoord.xy), i).rgb;
  frag = vec4(c / float(u_samples), 1.0);
}
#else
layout(binding = ACCUM_UNIT_SAMPLE) uniform sampler2D u_sample;
void main() { frag = vec4(texelFetch(u_sample, ivec2(gl_FragCoord.xy), 0).rgb, 1.0); }
#endif
