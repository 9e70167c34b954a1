#version 450 core
// The depth-of-field pass as a GL compute shader: the fragment pass's DepthOfField view, one
// invocation per pixel, written with imageStore. For GPUs where full-screen fragment shading is
// slow (the H100) and no CUDA is in use (the GL backend, the CPU fallback).
layout(local_size_x = DOF_COMPUTE_GROUP_X, local_size_y = DOF_COMPUTE_GROUP_Y) in;

#include "dof_gather.glsl"

layout(COLOR_FORMAT, binding = DOF_IMAGE_OUT) writeonly uniform image2D u_out;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  float r = coc_radius(texelFetch(u_viewz, p, 0).r);
  imageStore(u_out, p, vec4(blurred(p, r), 1.0));
}
