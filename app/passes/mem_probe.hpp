// What a soak samples to tell a leak from a steady state: host RSS (/proc/self/statm), open file
// descriptors (/proc/self/fd), GPU memory in use (cudaMemGetInfo where a CUDA device is usable;
// GL_NVX_gpu_memory_info where the driver offers it) and live GL objects per kind. Also the free
// memory a resize checks its estimate against (passes/frame_targets.*).
#pragma once

#include <string>

namespace demo {

// Live GL objects by kind, counted by probing names (see count_gl_objects); -1 = not counted.
struct GlObjectCounts {
  int textures = -1, buffers = -1, framebuffers = -1, programs = -1, queries = -1,
      vertex_arrays = -1;
  int total() const {
    return textures + buffers + framebuffers + programs + queries + vertex_arrays;
  }
  bool operator==(const GlObjectCounts& o) const {
    return textures == o.textures && buffers == o.buffers && framebuffers == o.framebuffers &&
           programs == o.programs && queries == o.queries && vertex_arrays == o.vertex_arrays;
  }
};

struct MemSample {
  long long rss_bytes = -1;        // resident set (statm's second field x page size)
  long long rss_anon_bytes = -1;   // its anonymous part (/proc/self/status RssAnon)
  long long rss_file_bytes = -1;   // its file-backed part (RssFile)
  long long heap_bytes = -1;       // glibc heap in use (mallinfo2: uordblks + hblkhd)
  long long cuda_used_bytes = -1;  // device total - free (cudaMemGetInfo): every process's
  long long cuda_total_bytes = -1;
  long long nvx_used_kib = -1;  // GL_NVX_gpu_memory_info: total available - current available
  int fds = -1;                 // entries of /proc/self/fd
  GlObjectCounts gl;
};

// Needs a current GL context for the GL parts; cheap enough to call every few hundred frames (a
// few hundred glIs* calls, one directory read, one cudaMemGetInfo).
// With `trim`, free heap pages go back to the OS first (malloc_trim(0), a few ms): RSS then counts
// memory in use rather than what glibc keeps on its free lists after a resize's large buffers.
MemSample sample_memory(bool trim = false);

// Live objects of each kind: every name up to a bound is asked glIs*. The bound: a fresh name of
// the kind (made and deleted), twice the highest live name seen before, at least 2048, at most
// 65536 (Mesa hands out the lowest free name; NVIDIA's driver reuses freed names out of order, so
// live names sit above a fresh one). About 12,000 glIs* calls a sample, well under a millisecond.
GlObjectCounts count_gl_objects();

// Free memory where the frame's targets will live, in bytes, or -1 when nothing can tell:
// cudaMemGetInfo on a usable CUDA device, else GL_NVX_gpu_memory_info, else (a software
// rasterizer, whose textures are host memory) MemAvailable of /proc/meminfo. *source names which.
long long free_frame_memory(std::string* source);

}  // namespace demo
