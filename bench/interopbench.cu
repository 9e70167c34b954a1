// interopbench: what handing a GL frame to CUDA and back costs on the GPU, per way of doing it.
//
//   interopbench [--size 1920x1080] [--frames 300] [--out FILE.json]
//
// Each frame is three passes over an RGBA8 image, timed on the GPU by GL timestamps from the start
// of the first to the end of the last (the demo's "scene start to DoF end"):
//   produce (GL compute writes `src`) -> transform (reads `src`, writes `dst`) -> consume (GL
//   compute reads `dst`), two frames in flight (a fence per frame, as a swap chain).
// The transform runs as:
//   gl         a GL compute pass: no handoff at all (the floor);
//   map        a CUDA kernel between cudaGraphicsMapResources and cudaGraphicsUnmapResources of
//              both textures (what the demo's CUDA backend does);
//   map-empty  map and unmap with no kernel: the handoff alone;
//   map-host   map as above, with the host waiting for GL before the map (glFinish) and for CUDA
//              after the unmap: whether making the order explicit on the host helps;
//   concurrent a GL transform plus an unrelated CUDA kernel each frame, nothing shared: what GL
//              pays for CUDA work merely running beside it;
//   host-wait  a GL transform after glFinish, no CUDA: the host round trip alone;
//   switch     host-wait with an unrelated CUDA kernel (waited for) between the two GL passes:
//              the cost of switching the GPU from GL to CUDA and back, with no interop at all;
//   egl        a CUDA kernel on EGLImages of both textures, registered once and never mapped,
//              ordered by an EGL fence turned into a CUDA event (GL -> CUDA) and an EGL sync made
//              from a CUDA event that GL waits on (CUDA -> GL): EGL_KHR_gl_texture_2D_image,
//              EGL_KHR_wait_sync, EGL_NV_cuda_event. Skipped, with the reason, where the driver
//              lacks any of them.
//   host-sync  the egl route with the host waiting on both syncs instead of the GPU.
// The span minus the gl row's span is the handoff's cost. The same kernel and shaders run in every
// mode, and the consume pass checks `dst` (a mismatch count is printed per mode).
#include <CLI/CLI.hpp>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <nlohmann/json.hpp>
#include <glad/gl.h>
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>
#include <cuda_egl_interop.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/gl/context.hpp"
#include "scandof/gl/util.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/provenance.hpp"
#include "scandof/scan.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/stream.hpp"
#include "scandof/util/sizes.hpp"
#include "scandof/util/stats.hpp"

namespace {

constexpr int kInFlight = 2;

// The transform: dst = src with its channels rotated and the frame number added to alpha, so a
// stale or racing read shows as a mismatch in the consume pass.
// Work for the concurrent mode: a pass over a CUDA-only buffer of the image's size.
__global__ void busy_kernel(unsigned* buf, int w, int h, unsigned frame) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  buf[static_cast<size_t>(y) * w + x] += frame;
}

__global__ void transform_kernel(cudaTextureObject_t src, cudaSurfaceObject_t dst, int w, int h,
                                 unsigned frame) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const uchar4 p = tex2D<uchar4>(src, x, y);
  surf2Dwrite(make_uchar4(p.y, p.z, p.x, static_cast<unsigned char>(p.w + frame)), dst,
              x * 4, y);
}

const char* kProduce = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8ui, binding = 0) uniform writeonly uimage2D src;
layout(location = 0) uniform uint frame;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(src)))) return;
  uint h = uint(p.x) * 73856093u ^ uint(p.y) * 19349663u ^ frame * 83492791u;
  imageStore(src, p, uvec4(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u, (h >> 24) & 255u));
})";

const char* kTransform = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8ui, binding = 0) uniform readonly uimage2D src;
layout(rgba8ui, binding = 1) uniform writeonly uimage2D dst;
layout(location = 0) uniform uint frame;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(src)))) return;
  uvec4 v = imageLoad(src, p);
  imageStore(dst, p, uvec4(v.y, v.z, v.x, (v.w + frame) & 255u));
})";

// Counts pixels of dst that are not the transform of this frame's src.
const char* kConsume = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8ui, binding = 1) uniform readonly uimage2D dst;
layout(std430, binding = 0) buffer Bad { uint bad; };
layout(location = 0) uniform uint frame;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(dst)))) return;
  uint h = uint(p.x) * 73856093u ^ uint(p.y) * 19349663u ^ frame * 83492791u;
  uvec4 s = uvec4(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u, (h >> 24) & 255u);
  uvec4 want = uvec4(s.y, s.z, s.x, (s.w + frame) & 255u);
  if (imageLoad(dst, p) != want) atomicAdd(bad, 1u);
})";

scandof::gl::GlProgram compute_program(const char* src) {
  const GLuint p = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &src);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("interopbench shader: ") + log);
  }
  return scandof::gl::GlProgram(p);
}

scandof::gl::GlTexture rgba8_texture(int w, int h) {
  scandof::gl::GlTexture t = scandof::gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(t.get(), 1, GL_RGBA8UI, w, h);
  return t;
}

bool has_ext(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

struct EglFns {
  PFNEGLCREATEIMAGEKHRPROC create_image = nullptr;
  PFNEGLDESTROYIMAGEKHRPROC destroy_image = nullptr;
  PFNEGLCREATESYNCKHRPROC create_sync = nullptr;
  PFNEGLDESTROYSYNCKHRPROC destroy_sync = nullptr;
  PFNEGLWAITSYNCKHRPROC wait_sync = nullptr;
};

// Why images cannot be shared through EGL here, or "" when they can. gpu_wait: whether GL can wait
// on a CUDA event on the GPU (EGL_NV_cuda_event + EGL_KHR_wait_sync); else the host waits.
std::string egl_missing(EGLDisplay dpy, EglFns& f, bool* gpu_wait) {
  if (dpy == EGL_NO_DISPLAY) return "no current EGL display (windowed GLX context?)";
  const char* ext = eglQueryString(dpy, EGL_EXTENSIONS);
  for (const char* e : {"EGL_KHR_gl_texture_2D_image", "EGL_KHR_fence_sync"})
    if (!has_ext(ext, e)) return std::string("the EGL display lacks ") + e;
  *gpu_wait = has_ext(ext, "EGL_NV_cuda_event") && has_ext(ext, "EGL_KHR_wait_sync");
  f.create_image = reinterpret_cast<PFNEGLCREATEIMAGEKHRPROC>(eglGetProcAddress("eglCreateImageKHR"));
  f.destroy_image =
      reinterpret_cast<PFNEGLDESTROYIMAGEKHRPROC>(eglGetProcAddress("eglDestroyImageKHR"));
  f.create_sync = reinterpret_cast<PFNEGLCREATESYNCKHRPROC>(eglGetProcAddress("eglCreateSyncKHR"));
  f.destroy_sync =
      reinterpret_cast<PFNEGLDESTROYSYNCKHRPROC>(eglGetProcAddress("eglDestroySyncKHR"));
  f.wait_sync = reinterpret_cast<PFNEGLWAITSYNCKHRPROC>(eglGetProcAddress("eglWaitSyncKHR"));
  if (!f.create_image || !f.destroy_image || !f.create_sync || !f.destroy_sync ||
      (*gpu_wait && !f.wait_sync))
    return "eglGetProcAddress found no entry point for an advertised extension";
  return "";
}

enum class Mode { Gl, Map, MapEmpty, MapHost, Concurrent, HostWait, Switch, Egl, Cpu };
const char* name_of(Mode m) {
  switch (m) {
    case Mode::Gl: return "gl";
    case Mode::Map: return "map";
    case Mode::MapEmpty: return "map-empty";
    case Mode::MapHost: return "map-host";
    case Mode::Concurrent: return "concurrent";
    case Mode::HostWait: return "host-wait";
    case Mode::Switch: return "switch";
    case Mode::Egl: return "egl";
    case Mode::Cpu: return "host-sync";
  }
  return "?";
}

struct Result {
  Mode mode;
  std::string skipped;
  scandof::util::Stats span;
  unsigned bad = 0;
};

class Bench {
 public:
  Bench(int w, int h)
      : w_(w),
        h_(h),
        src_(rgba8_texture(w, h)),
        dst_(rgba8_texture(w, h)),
        produce_(compute_program(kProduce)),
        transform_(compute_program(kTransform)),
        consume_(compute_program(kConsume)),
        bad_(scandof::gl::make_buffer()) {
    glNamedBufferStorage(bad_.get(), 4, nullptr, GL_DYNAMIC_STORAGE_BIT);
    glCreateQueries(GL_TIMESTAMP, 2 * kInFlight, queries_);
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
    CUDA_CHECK(cudaMalloc(&scratch_, sizeof(unsigned) * w * h));
  }
  ~Bench() {
    glDeleteQueries(2 * kInFlight, queries_);
    cudaEventDestroy(done_);
    cudaStreamDestroy(stream_);
    cudaFree(scratch_);
  }

  Result run(Mode mode, int frames) {
    Result r{mode, "", {}, 0};
    cudaGraphicsResource_t res[2] = {nullptr, nullptr};
    EGLImageKHR img[2] = {EGL_NO_IMAGE_KHR, EGL_NO_IMAGE_KHR};
    const EGLDisplay dpy = eglGetCurrentDisplay();
    EglFns egl;
    bool gpu_wait = false;
    cudaEglFrame ef[2];
    if (mode == Mode::Map || mode == Mode::MapEmpty || mode == Mode::MapHost) {
      CUDA_CHECK(cudaGraphicsGLRegisterImage(&res[0], src_.get(), GL_TEXTURE_2D,
                                             cudaGraphicsRegisterFlagsReadOnly));
      CUDA_CHECK(cudaGraphicsGLRegisterImage(&res[1], dst_.get(), GL_TEXTURE_2D,
                                             cudaGraphicsRegisterFlagsSurfaceLoadStore));
    } else if (mode == Mode::Egl || mode == Mode::Cpu) {
      r.skipped = egl_missing(dpy, egl, &gpu_wait);
      if (!r.skipped.empty()) return r;
      const EGLContext ctx = eglGetCurrentContext();
      const GLuint tex[2] = {src_.get(), dst_.get()};
      for (int i = 0; i < 2; ++i) {
        img[i] = egl.create_image(dpy, ctx, EGL_GL_TEXTURE_2D_KHR,
                                  reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(tex[i])),
                                  nullptr);
        if (img[i] == EGL_NO_IMAGE_KHR) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "eglCreateImageKHR failed (EGL error 0x%x)", eglGetError());
          r.skipped = buf;
          break;
        }
        const cudaError_t e = cudaGraphicsEGLRegisterImage(&res[i], img[i],
                                                           cudaGraphicsRegisterFlagsNone);
        if (e != cudaSuccess) {
          r.skipped = std::string("cudaGraphicsEGLRegisterImage: ") + cudaGetErrorString(e);
          cudaGetLastError();
          break;
        }
        const cudaError_t e2 = cudaGraphicsResourceGetMappedEglFrame(&ef[i], res[i], 0, 0);
        if (e2 != cudaSuccess) {
          r.skipped = std::string("cudaGraphicsResourceGetMappedEglFrame: ") +
                      cudaGetErrorString(e2);
          cudaGetLastError();
          break;
        }
        if (ef[i].frameType != cudaEglFrameTypeArray) {
          r.skipped = "the EGL frame is not a CUDA array";
          break;
        }
      }
      if (!r.skipped.empty()) {
        for (int i = 0; i < 2; ++i) {
          if (res[i]) cudaGraphicsUnregisterResource(res[i]);
          if (img[i] != EGL_NO_IMAGE_KHR) egl.destroy_image(dpy, img[i]);
        }
        return r;
      }
    }
    cudaTextureObject_t tex_obj = 0;
    cudaSurfaceObject_t surf_obj = 0;
    auto make_objects = [&](cudaArray_t a_src, cudaArray_t a_dst) {
      cudaResourceDesc rd{};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = a_src;
      cudaTextureDesc td{};
      td.readMode = cudaReadModeElementType;
      CUDA_CHECK(cudaCreateTextureObject(&tex_obj, &rd, &td, nullptr));
      rd.res.array.array = a_dst;
      CUDA_CHECK(cudaCreateSurfaceObject(&surf_obj, &rd));
    };
    auto drop_objects = [&] {
      if (tex_obj) cudaDestroyTextureObject(tex_obj);
      if (surf_obj) cudaDestroySurfaceObject(surf_obj);
      tex_obj = 0;
      surf_obj = 0;
    };
    if (mode == Mode::Egl || mode == Mode::Cpu) make_objects(ef[0].frame.pArray[0], ef[1].frame.pArray[0]);

    std::vector<double> spans;
    GLsync fence[kInFlight] = {};
    EGLSyncKHR back[kInFlight] = {};  // CUDA -> GL syncs of the frames in flight
    const GLuint zero = 0;
    glNamedBufferSubData(bad_.get(), 0, 4, &zero);
    const dim3 block(16, 16), grid((w_ + 15) / 16, (h_ + 15) / 16);
    const int warmup = 20;
    for (int f = 0; f < frames + warmup; ++f) {
      const int slot = f % kInFlight;
      if (fence[slot]) {  // the frame two back: its queries are ready
        glClientWaitSync(fence[slot], GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(1e10));
        glDeleteSync(fence[slot]);
        if (back[slot]) egl.destroy_sync(dpy, back[slot]);
        back[slot] = nullptr;
        if (f - kInFlight >= warmup) {
          GLuint64 t0 = 0, t1 = 0;
          glGetQueryObjectui64v(queries_[2 * slot], GL_QUERY_RESULT, &t0);
          glGetQueryObjectui64v(queries_[2 * slot + 1], GL_QUERY_RESULT, &t1);
          spans.push_back((t1 - t0) * 1e-6);
        }
      }
      const unsigned frame = static_cast<unsigned>(f);
      glQueryCounter(queries_[2 * slot], GL_TIMESTAMP);
      glUseProgram(produce_.get());
      glUniform1ui(0, frame);
      glBindImageTexture(0, src_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8UI);
      glDispatchCompute(grid.x, grid.y, 1);
      glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      // The transform as a GL pass (the gl row, and the modes that hand nothing to CUDA).
      auto gl_transform = [&](unsigned n) {
        glUseProgram(transform_.get());
        glUniform1ui(0, n);
        glBindImageTexture(0, src_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8UI);
        glBindImageTexture(1, dst_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8UI);
        glDispatchCompute(grid.x, grid.y, 1);
      };
      switch (mode) {
        case Mode::HostWait:
        case Mode::Switch:
          // No interop: the host waits for GL, (switch:) runs an unrelated CUDA kernel and waits
          // for it, then GL goes on. host-wait is the host round trip alone; switch adds what
          // running any CUDA work between two GL passes costs.
          glFinish();
          if (mode == Mode::Switch) {
            busy_kernel<<<grid, block, 0, stream_>>>(scratch_, w_, h_, frame);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaStreamSynchronize(stream_));
          }
          gl_transform(frame);
          break;
        case Mode::Concurrent:
          // An unrelated CUDA kernel each frame, nothing shared, no synchronisation: what GL
          // pays for CUDA work merely being on the GPU at the same time.
          busy_kernel<<<grid, block, 0, stream_>>>(scratch_, w_, h_, frame);
          CUDA_CHECK(cudaGetLastError());
          [[fallthrough]];
        case Mode::Gl:
          gl_transform(frame);
          break;
        case Mode::Map:
        case Mode::MapHost:
        case Mode::MapEmpty: {
          if (mode == Mode::MapHost) glFinish();
          CUDA_CHECK(cudaGraphicsMapResources(2, res, stream_));
          if (mode != Mode::MapEmpty) {
            cudaArray_t a[2];
            for (int i = 0; i < 2; ++i)
              CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&a[i], res[i], 0, 0));
            make_objects(a[0], a[1]);
            transform_kernel<<<grid, block, 0, stream_>>>(tex_obj, surf_obj, w_, h_, frame);
            CUDA_CHECK(cudaGetLastError());
            drop_objects();
          }
          CUDA_CHECK(cudaGraphicsUnmapResources(2, res, stream_));
          if (mode == Mode::MapHost) CUDA_CHECK(cudaStreamSynchronize(stream_));
          if (mode == Mode::MapEmpty) {  // keep consume's check meaningful: GL does the work
            gl_transform(frame);
          }
          break;
        }
        case Mode::Egl: {
          EGLSyncKHR to_cuda = egl.create_sync(dpy, EGL_SYNC_FENCE_KHR, nullptr);
          glFlush();  // the fence must reach the GPU before CUDA waits on it
          cudaEvent_t wait_ev = nullptr;
          CUDA_CHECK(cudaEventCreateFromEGLSync(&wait_ev, to_cuda, cudaEventDefault));
          CUDA_CHECK(cudaStreamWaitEvent(stream_, wait_ev, 0));
          transform_kernel<<<grid, block, 0, stream_>>>(tex_obj, surf_obj, w_, h_, frame);
          CUDA_CHECK(cudaGetLastError());
          CUDA_CHECK(cudaEventRecord(done_, stream_));
          if (gpu_wait) {
            // The event handle is a pointer: EGL 1.5's eglCreateSync takes EGLAttrib
            // (intptr_t) attributes, eglCreateSyncKHR only EGLint.
            const EGLAttrib attr[] = {EGL_CUDA_EVENT_HANDLE_NV,
                                      reinterpret_cast<EGLAttrib>(done_), EGL_NONE};
            EGLSync from_cuda = eglCreateSync(dpy, EGL_SYNC_CUDA_EVENT_NV, attr);
            if (from_cuda == EGL_NO_SYNC)
              throw std::runtime_error("eglCreateSync(CUDA event) failed");
            if (!egl.wait_sync(dpy, from_cuda, 0)) throw std::runtime_error("eglWaitSyncKHR failed");
            back[slot] = from_cuda;
          } else {
            CUDA_CHECK(cudaEventSynchronize(done_));  // no GPU-side way back: the host waits
          }
          CUDA_CHECK(cudaEventDestroy(wait_ev));
          egl.destroy_sync(dpy, to_cuda);
          break;
        }
        case Mode::Cpu:
          glFinish();
          transform_kernel<<<grid, block, 0, stream_>>>(tex_obj, surf_obj, w_, h_, frame);
          CUDA_CHECK(cudaGetLastError());
          CUDA_CHECK(cudaStreamSynchronize(stream_));
          break;
      }
      glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      glUseProgram(consume_.get());
      glUniform1ui(0, frame);
      glBindImageTexture(1, dst_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8UI);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bad_.get());
      glDispatchCompute(grid.x, grid.y, 1);
      glQueryCounter(queries_[2 * slot + 1], GL_TIMESTAMP);
      fence[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      glFlush();
    }
    glFinish();
    for (int s = 0; s < kInFlight; ++s) {
      if (fence[s]) glDeleteSync(fence[s]);
      if (back[s]) egl.destroy_sync(dpy, back[s]);
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(bad_.get(), 0, 4, &r.bad);
    drop_objects();
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (int i = 0; i < 2; ++i) {
      if (res[i]) CUDA_CHECK(cudaGraphicsUnregisterResource(res[i]));
      if (img[i] != EGL_NO_IMAGE_KHR) egl.destroy_image(dpy, img[i]);
    }
    r.span = scandof::util::summarize(spans);
    return r;
  }

 private:
  int w_, h_;
  scandof::gl::GlTexture src_, dst_;
  scandof::gl::GlProgram produce_, transform_, consume_;
  scandof::gl::GlBuffer bad_;
  GLuint queries_[2 * kInFlight] = {};
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;
  unsigned* scratch_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) try {
  scandof::provenance::set_command_line(argc, argv);
  CLI::App cli{"interopbench: the GPU cost of GL <-> CUDA handoffs"};
  std::string size = "1920x1080", out;
  int frames = 300;
  cli.add_option("--size", size, "WxH of the image");
  cli.add_option("--frames", frames, "timed frames per mode")->check(CLI::Range(1, 100000));
  cli.add_option("--out", out, "write the results as JSON to this file");
  CLI11_PARSE(cli, argc, argv);
  const auto sizes = scandof::util::parse_sizes(size);
  if (sizes.size() != 1) throw std::runtime_error("--size takes one WxH");
  const int w = sizes[0].w, h = sizes[0].h;

  scandof::gl::HeadlessContext ctx;
  std::string why;
  if (!scandof::cuda_device_available(&why)) {
    std::printf("interopbench: no usable CUDA device (%s): nothing to measure\n", why.c_str());
    return 0;
  }
  std::printf("interopbench %dx%d, %d frames per mode, GL: %s\n", w, h, frames,
              scandof::gl::gl_description().c_str());
  Bench bench(w, h);
  nlohmann::json js;
  js["device"] = scandof::util::current_device().name;
  js["gl"] = scandof::gl::gl_description();
  js["record"] = scandof::provenance::record<nlohmann::json>(js["device"].get<std::string>());
  js["width"] = w;
  js["height"] = h;
  js["frames"] = frames;
  std::printf("%-10s %10s %10s %10s %10s  %s\n", "mode", "span ms", "min", "max", "handoff",
              "check");
  double floor_ms = 0;
  int failures = 0;
  for (Mode m : {Mode::Gl, Mode::Map, Mode::MapEmpty, Mode::MapHost, Mode::Concurrent, Mode::HostWait, Mode::Switch, Mode::Egl, Mode::Cpu}) {
    const Result r = bench.run(m, frames);
    nlohmann::json row;
    row["mode"] = name_of(m);
    if (!r.skipped.empty()) {
      std::printf("%-10s skipped: %s\n", name_of(m), r.skipped.c_str());
      row["skipped"] = r.skipped;
      js["modes"].push_back(row);
      continue;
    }
    if (m == Mode::Gl) floor_ms = r.span.median_ms;
    std::printf("%-10s %10.4f %10.4f %10.4f %10.4f  %s\n", name_of(m), r.span.median_ms,
                r.span.min_ms, r.span.max_ms, r.span.median_ms - floor_ms,
                r.bad ? (std::to_string(r.bad) + " bad pixels").c_str() : "ok");
    failures += r.bad != 0;
    row["span_median_ms"] = r.span.median_ms;
    row["span_min_ms"] = r.span.min_ms;
    row["span_max_ms"] = r.span.max_ms;
    row["handoff_ms"] = r.span.median_ms - floor_ms;
    row["bad_pixels"] = r.bad;
    js["modes"].push_back(row);
  }
  if (!out.empty()) scandof::util::write_text_file(out, js.dump(1) + "\n");
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "interopbench: %s\n", e.what());
  return 1;
}
