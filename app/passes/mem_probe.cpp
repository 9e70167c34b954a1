#include "passes/mem_probe.hpp"

#include <dirent.h>
#include <malloc.h>
#include <glad/gl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "scandof/gl/util.hpp"
#include "scandof/scan.hpp"
#if SCANDOF_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace demo {

namespace {
// GL_NVX_gpu_memory_info's enums (not in every glad header).
constexpr GLenum kNvxTotalAvailableKib = 0x9048;
constexpr GLenum kNvxCurrentAvailableKib = 0x9049;

bool has_gl_extension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i));
    if (e && std::strcmp(e, name) == 0) return true;
  }
  return false;
}
bool nvx_offered() {
  static const int offered = has_gl_extension("GL_NVX_gpu_memory_info") ? 1 : 0;
  return offered == 1;
}
#if SCANDOF_WITH_CUDA
bool cuda_usable() {
  static const bool usable = scandof::cuda_device_available();
  return usable;
}
#endif

long long rss_bytes() {
  std::ifstream f("/proc/self/statm");
  long long size = 0, resident = 0;
  if (!(f >> size >> resident)) return -1;
  return resident * static_cast<long long>(sysconf(_SC_PAGESIZE));
}

// RssAnon and RssFile of /proc/self/status (kB): statm's resident count is their sum with RssShmem,
// and only the anonymous part is the process's own memory; file pages (the driver's libraries and
// shader cache) come and go with the page cache.
void rss_split(long long* anon, long long* file) {
  std::ifstream f("/proc/self/status");
  std::string key;
  long long kb = 0;
  while (f >> key) {
    if (key == "RssAnon:" && (f >> kb)) *anon = kb * 1024;
    else if (key == "RssFile:" && (f >> kb)) *file = kb * 1024;
    else f.ignore(1 << 12, '\n');
  }
}

int open_fds() {
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n - 1;  // the directory stream's own descriptor
}

// Live names of one kind among 1 .. max(the fresh probe name, twice the highest live name seen so
// far, 2048), at most 65536. A driver that reuses freed names from a list (NVIDIA's hands back a
// low one) leaves live names above the probe: the high-water mark keeps them in range.
template <class IsFn>
int count_live(GLuint probe, GLuint* high_water, IsFn is) {
  GLuint top = std::max({probe, 2 * *high_water, 2048u});
  top = std::min(top, 65536u);
  int n = 0;
  for (GLuint id = 1; id < top; ++id) {
    if (is(id)) {
      ++n;
      *high_water = std::max(*high_water, id);
    }
  }
  return n;
}
}  // namespace

GlObjectCounts count_gl_objects() {
  // High-water marks per kind, for the one GL context a run has.
  static GLuint hw_tex = 0, hw_buf = 0, hw_fbo = 0, hw_prog = 0, hw_query = 0, hw_vao = 0;
  GlObjectCounts c;
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &id);
  glDeleteTextures(1, &id);
  c.textures = count_live(id, &hw_tex, [](GLuint i) { return glIsTexture(i) == GL_TRUE; });
  glCreateBuffers(1, &id);
  glDeleteBuffers(1, &id);
  c.buffers = count_live(id, &hw_buf, [](GLuint i) { return glIsBuffer(i) == GL_TRUE; });
  glCreateFramebuffers(1, &id);
  glDeleteFramebuffers(1, &id);
  c.framebuffers =
      count_live(id, &hw_fbo, [](GLuint i) { return glIsFramebuffer(i) == GL_TRUE; });
  // Programs and shaders share one name space; shaders are deleted once linked.
  id = glCreateProgram();
  glDeleteProgram(id);
  c.programs = count_live(id, &hw_prog, [](GLuint i) { return glIsProgram(i) == GL_TRUE; });
  glCreateQueries(GL_TIMESTAMP, 1, &id);
  glDeleteQueries(1, &id);
  c.queries = count_live(id, &hw_query, [](GLuint i) { return glIsQuery(i) == GL_TRUE; });
  glCreateVertexArrays(1, &id);
  glDeleteVertexArrays(1, &id);
  c.vertex_arrays =
      count_live(id, &hw_vao, [](GLuint i) { return glIsVertexArray(i) == GL_TRUE; });
  return c;
}

MemSample sample_memory(bool trim) {
  MemSample m;
  if (trim) malloc_trim(0);
  const struct mallinfo2 mi = mallinfo2();
  m.heap_bytes = static_cast<long long>(mi.uordblks + mi.hblkhd);
  m.rss_bytes = rss_bytes();
  rss_split(&m.rss_anon_bytes, &m.rss_file_bytes);
  m.fds = open_fds();
#if SCANDOF_WITH_CUDA
  if (cuda_usable()) {
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
      m.cuda_used_bytes = static_cast<long long>(total_b - free_b);
      m.cuda_total_bytes = static_cast<long long>(total_b);
    } else {
      cudaGetLastError();
    }
  }
#endif
  if (nvx_offered()) {
    GLint total = 0, avail = 0;
    glGetIntegerv(kNvxTotalAvailableKib, &total);
    glGetIntegerv(kNvxCurrentAvailableKib, &avail);
    m.nvx_used_kib = static_cast<long long>(total) - avail;
  }
  m.gl = count_gl_objects();
  return m;
}

long long free_frame_memory(std::string* source) {
#if SCANDOF_WITH_CUDA
  if (cuda_usable()) {
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
      *source = "cudaMemGetInfo";
      return static_cast<long long>(free_b);
    }
    cudaGetLastError();
  }
#endif
  if (nvx_offered()) {
    GLint avail = 0;
    glGetIntegerv(kNvxCurrentAvailableKib, &avail);
    *source = "GL_NVX_gpu_memory_info";
    return static_cast<long long>(avail) * 1024;
  }
  if (scandof::gl::software_renderer()) {
    std::ifstream f("/proc/meminfo");
    std::string key;
    long long kib = 0;
    std::string unit;
    while (f >> key >> kib >> unit) {
      if (key == "MemAvailable:") {
        *source = "MemAvailable of /proc/meminfo (a software rasterizer's textures are host memory)";
        return kib * 1024;
      }
    }
  }
  *source = "unknown";
  return -1;
}

}  // namespace demo
