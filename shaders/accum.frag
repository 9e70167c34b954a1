#version 450 core
// The lens reference's accumulation (Haeberli & Akeley): one lens sample's RGBA8 frame, added into
// an RGBA32F target with glBlendFunc(GL_ONE, GL_ONE); the sum is divided by the sample count when
// read back.
layout(binding = ACCUM_UNIT_SAMPLE) uniform sampler2D u_sample;
out vec4 frag;
void main() { frag = vec4(texelFetch(u_sample, ivec2(gl_FragCoord.xy), 0).rgb, 1.0); }
