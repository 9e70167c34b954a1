#include "sat_stage.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <exception>
#include <stdexcept>
#include <utility>

#if SCANDOF_WITH_CUDA
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "scandof/cuda_check.hpp"
#endif

namespace demo {

namespace {
using Clock = std::chrono::steady_clock;
float ms_since(Clock::time_point t0) {
  return std::chrono::duration<float, std::milli>(Clock::now() - t0).count();
}

template <class T>
void sat_cpu_impl(const uint8_t* rgba, int w, int h, T* out) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  for (int c = 0; c < 3; ++c) {
    T* o = out + c * plane;
    for (int y = 0; y < h; ++y) {
      T run = 0;
      const uint8_t* row = rgba + static_cast<std::size_t>(y) * w * 4 + c;
      T* orow = o + static_cast<std::size_t>(y) * w;
      for (int x = 0; x < w; ++x) {
        run += static_cast<T>(row[4 * x]);
        orow[x] = run;
      }
      if (y > 0) {
        const T* above = orow - w;
        for (int x = 0; x < w; ++x) orow[x] += above[x];
      }
    }
  }
}

float median(std::vector<float> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

void sat_cpu(const uint8_t* rgba, int width, int height, uint32_t* out) {
  sat_cpu_impl(rgba, width, height, out);
}
void sat_cpu(const uint8_t* rgba, int width, int height, float* out) {
  sat_cpu_impl(rgba, width, height, out);
}

const char* variant_name(scandof::ScanAlgorithm a) {
  switch (a) {
    case scandof::ScanAlgorithm::Naive:
      return "naive";
    case scandof::ScanAlgorithm::WorkEfficient:
      return "work-efficient";
    case scandof::ScanAlgorithm::ConflictFree:
      return "conflict-free";
    case scandof::ScanAlgorithm::Optimized:
      return "optimized";
    case scandof::ScanAlgorithm::WarpShuffle:
      return "warp-shuffle";
    case scandof::ScanAlgorithm::SinglePass:
      return "single-pass";
    case scandof::ScanAlgorithm::Cub:
      return "cub";
  }
  return "?";
}

namespace {
// Whether the library's SatMethod has FusedTwoPass (added after the demo was written): detected at
// compile time so the demo builds against either version of the header.
template <class E, class = void>
struct HasTwoPass : std::false_type {};
template <class E>
struct HasTwoPass<E, std::void_t<decltype(E::FusedTwoPass)>> : std::true_type {};
}  // namespace

int num_sat_methods() {
  return HasTwoPass<scandof::SatMethod>::value ? 3 : 2;
}

const char* method_name(scandof::SatMethod m) {
  switch (static_cast<int>(m)) {
    case 0:
      return "paper";
    case 1:
      return "fused";
    case 2:
      return "fused-two-pass";
    default:
      return "?";
  }
}

bool parse_method(const std::string& s, scandof::SatMethod* out) {
  for (int i = 0; i < num_sat_methods(); ++i) {
    auto m = static_cast<scandof::SatMethod>(i);
    if (s == method_name(m)) {
      *out = m;
      return true;
    }
  }
  return false;
}

bool parse_variant(const std::string& s, scandof::ScanAlgorithm* out) {
  for (int i = 0; i < scandof::kNumScanAlgorithms; ++i) {
    auto a = static_cast<scandof::ScanAlgorithm>(i);
    if (s == variant_name(a) || s == std::to_string(i)) {
      *out = a;
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------------------------------------
#if SCANDOF_WITH_CUDA

namespace {
// One GL object registered with CUDA; unregistered on destruction (before the GL object dies).
class CudaGlRegistration {
 public:
  CudaGlRegistration() = default;
  static CudaGlRegistration image(GLuint tex, unsigned flags) {
    CudaGlRegistration r;
    CUDA_CHECK(cudaGraphicsGLRegisterImage(&r.res_, tex, GL_TEXTURE_2D, flags));
    return r;
  }
  static CudaGlRegistration buffer(GLuint buf, unsigned flags) {
    CudaGlRegistration r;
    CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r.res_, buf, flags));
    return r;
  }
  ~CudaGlRegistration() {
    if (res_) cudaGraphicsUnregisterResource(res_);  // no throw from a destructor
  }
  CudaGlRegistration(CudaGlRegistration&& o) noexcept : res_(std::exchange(o.res_, nullptr)) {}
  CudaGlRegistration& operator=(CudaGlRegistration&& o) noexcept {
    if (this != &o) {
      if (res_) cudaGraphicsUnregisterResource(res_);
      res_ = std::exchange(o.res_, nullptr);
    }
    return *this;
  }
  cudaGraphicsResource_t get() const { return res_; }

 private:
  cudaGraphicsResource_t res_ = nullptr;
};

// Maps a set of registered resources for the scope (one map call, one unmap call per frame);
// exposes the colour array as a texture object and the SAT buffer as a device pointer.
class ScopedMap {
 public:
  ScopedMap(cudaGraphicsResource_t color, cudaGraphicsResource_t sat, cudaStream_t stream,
            SatTimes* t, cudaEvent_t ev0, cudaEvent_t ev1, cudaEvent_t ev2, cudaEvent_t ev3)
      : stream_(stream), t_(t), ev2_(ev2), ev3_(ev3) {
    res_[0] = color;
    res_[1] = sat;
    CUDA_CHECK(cudaEventRecord(ev0, stream));
    auto t0 = Clock::now();
    CUDA_CHECK(cudaGraphicsMapResources(2, res_, stream));
    if (t_) t_->map_ms = ms_since(t0);
    mapped_ = true;
    // The destructor does not run if the constructor throws: unmap here so GL gets its objects
    // back.
    try {
      CUDA_CHECK(cudaEventRecord(ev1, stream));
      cudaArray_t arr = nullptr;
      CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&arr, color, 0, 0));
      cudaResourceDesc rd{};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = arr;
      cudaTextureDesc td{};
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
      td.filterMode = cudaFilterModePoint;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = 0;
      CUDA_CHECK(cudaCreateTextureObject(&tex_, &rd, &td, nullptr));
      std::size_t bytes = 0;
      CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&sat_ptr_, &bytes, sat));
    } catch (...) {
      if (tex_) cudaDestroyTextureObject(tex_);
      cudaGraphicsUnmapResources(2, res_, stream_);
      throw;
    }
  }
  ~ScopedMap() noexcept(false) {
    if (tex_) cudaDestroyTextureObject(tex_);
    if (!mapped_) return;
    cudaEventRecord(ev2_, stream_);
    auto t0 = Clock::now();
    cudaError_t e = cudaGraphicsUnmapResources(2, res_, stream_);
    if (t_) t_->unmap_ms = ms_since(t0);
    cudaEventRecord(ev3_, stream_);
    if (e != cudaSuccess && !std::uncaught_exceptions())
      ::scandof::throw_cuda_error(e, "cudaGraphicsUnmapResources", __FILE__, __LINE__);
  }
  ScopedMap(const ScopedMap&) = delete;
  ScopedMap& operator=(const ScopedMap&) = delete;
  cudaTextureObject_t texture() const { return tex_; }
  void* sat() const { return sat_ptr_; }

 private:
  cudaGraphicsResource_t res_[2];
  cudaStream_t stream_;
  SatTimes* t_;
  cudaEvent_t ev2_, ev3_;
  bool mapped_ = false;
  cudaTextureObject_t tex_ = 0;
  void* sat_ptr_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~CudaEvent() { cudaEventDestroy(e_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p_, bytes)); }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

float elapsed(const CudaEvent& a, const CudaEvent& b) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
  return ms;
}

bool cuda_usable(std::string* name, std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return false;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    *why = "cudaGetDeviceProperties failed";
    return false;
  }
  *name = p.name;
  return true;
}
}  // namespace

struct SatStage::Cuda {
  scandof::SatBuilder builder;
  cudaStream_t stream = nullptr;
  CudaGlRegistration color, sat;
  CudaEvent ev[4];
  Cuda() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~Cuda() {
    color = CudaGlRegistration();
    sat = CudaGlRegistration();
    cudaStreamDestroy(stream);
  }
};

#else
struct SatStage::Cuda {};
#endif

// ------------------------------------------------------------------------------------------------

SatStage::SatStage(bool force_cpu) {
#if SCANDOF_WITH_CUDA
  std::string why;
  if (force_cpu) {
    backend_ = "CPU fallback (forced with --cpu / UI)";
  } else if (cuda_usable(&device_, &why)) {
    cuda_ = std::make_unique<Cuda>();
    backend_ = "CUDA on " + device_;
  } else {
    backend_ = "CPU fallback: no usable CUDA device (" + why + ")";
  }
#else
  (void)force_cpu;
  backend_ = "CPU fallback: built without CUDA";
#endif
  if (device_.empty()) device_ = "CPU";
}

SatStage::~SatStage() = default;

bool SatStage::using_cuda() const {
  return cuda_ != nullptr;
}

void SatStage::release() {
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    cuda_->color = CudaGlRegistration();
    cuda_->sat = CudaGlRegistration();
  }
#endif
}

void SatStage::resize(int width, int height, GLuint color_texture) {
  // Registrations refer to the old GL objects: drop them before those are replaced.
  release();
  width_ = width;
  height_ = height;
  color_ = color_texture;
  sat_buffer_ = make_buffer();
  // U32 and F32 tables have the same size, so switching formats never re-creates the buffer.
  glNamedBufferStorage(sat_buffer_.get(),
                       static_cast<GLsizeiptr>(scandof::SatBuilder::table_bytes(width, height, 3)),
                       nullptr, GL_DYNAMIC_STORAGE_BIT);
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    cuda_->color = CudaGlRegistration::image(color_texture, cudaGraphicsRegisterFlagsReadOnly);
    cuda_->sat =
        CudaGlRegistration::buffer(sat_buffer_.get(), cudaGraphicsRegisterFlagsWriteDiscard);
  }
#endif
}

void SatStage::build_cpu(const Settings& s, scandof::SatFormat fmt) {
  (void)s;
  SatTimes t;
  auto t0 = Clock::now();
  std::vector<uint8_t> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(color_, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                    px.data());
  t.readback_ms = ms_since(t0);
  const std::size_t n = static_cast<std::size_t>(width_) * height_ * 3;
  t0 = Clock::now();
  std::vector<uint32_t> table(n);  // same bytes for u32 and f32
  if (fmt == scandof::SatFormat::U32) {
    sat_cpu(px.data(), width_, height_, table.data());
  } else {
    sat_cpu(px.data(), width_, height_, reinterpret_cast<float*>(table.data()));
  }
  t.cpu_build_ms = ms_since(t0);
  t0 = Clock::now();
  glNamedBufferSubData(sat_buffer_.get(), 0, static_cast<GLsizeiptr>(n * 4), table.data());
  t.upload_ms = ms_since(t0);
  t.build_ms = t.readback_ms + t.cpu_build_ms + t.upload_ms;
  times_ = t;
}

void SatStage::build(const Settings& s) {
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    SatTimes t;
    Cuda& c = *cuda_;
    {
      ScopedMap map(c.color.get(), c.sat.get(), c.stream, &t, c.ev[0].get(), c.ev[1].get(),
                    c.ev[2].get(), c.ev[3].get());
      scandof::SatInput in;
      in.texture = map.texture();
      in.width = width_;
      in.height = height_;
      c.builder.build(in, map.sat(), s.format, s.method, s.variant, c.stream, /*timed=*/true, 3);
    }
    CUDA_CHECK(cudaEventSynchronize(c.ev[3].get()));
    t.map_gpu_ms = elapsed(c.ev[0], c.ev[1]);
    t.unmap_gpu_ms = elapsed(c.ev[2], c.ev[3]);
    scandof::SatStageTimes st = c.builder.stage_times();
    t.deinterleave_ms = st.deinterleave_ms;
    t.row_scan_ms = st.row_scan_ms;
    t.transpose_ms = st.transpose_ms;
    t.column_scan_ms = st.column_scan_ms;
    t.transpose_back_ms = st.transpose_back_ms;
    t.build_ms = st.total_ms;
    times_ = t;
    return;
  }
#endif
  build_cpu(s, s.format);
}

std::vector<VariantTiming> SatStage::compare_all(const Settings& s, int reps) {
  std::vector<std::pair<scandof::ScanAlgorithm, scandof::SatMethod>> runs;
  for (int i = 0; i < scandof::kNumScanAlgorithms; ++i)
    runs.emplace_back(static_cast<scandof::ScanAlgorithm>(i), scandof::SatMethod::Paper);
  for (int m = 1; m < num_sat_methods(); ++m)
    runs.emplace_back(scandof::ScanAlgorithm::Cub, static_cast<scandof::SatMethod>(m));
  std::vector<VariantTiming> out;
  for (auto [algo, method] : runs) {
    Settings cfg = s;
    cfg.variant = algo;
    cfg.method = method;
    VariantTiming vt;
    vt.name = !using_cuda()                         ? std::string("CPU fallback")
              : method != scandof::SatMethod::Paper ? std::string(method_name(method))
                                                    : std::string(variant_name(algo));
    vt.algo = algo;
    vt.method = method;
    std::vector<SatTimes> all;
    try {
      build(cfg);  // warm-up (first launch, scratch allocation)
      for (int r = 0; r < reps; ++r) {
        build(cfg);
        all.push_back(times_);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "[compare] %s failed: %s\n", vt.name.c_str(), e.what());
      continue;
    }
    auto med = [&](float SatTimes::*f) {
      std::vector<float> v;
      for (auto& t : all) v.push_back(t.*f);
      return median(v);
    };
    for (float SatTimes::*f :
         {&SatTimes::map_ms, &SatTimes::unmap_ms, &SatTimes::map_gpu_ms, &SatTimes::unmap_gpu_ms,
          &SatTimes::deinterleave_ms, &SatTimes::row_scan_ms, &SatTimes::transpose_ms,
          &SatTimes::column_scan_ms, &SatTimes::transpose_back_ms, &SatTimes::build_ms,
          &SatTimes::readback_ms, &SatTimes::cpu_build_ms, &SatTimes::upload_ms})
      vt.median.*f = med(f);
    out.push_back(vt);
    if (!using_cuda()) break;  // the CPU path ignores the variant: one row says it all
  }
  build(s);  // leave the current settings' tables in the buffer
  return out;
}

std::vector<uint32_t> SatStage::read_u32() const {
  std::vector<uint32_t> v(static_cast<std::size_t>(width_) * height_ * 3);
  glGetNamedBufferSubData(sat_buffer_.get(), 0, static_cast<GLsizeiptr>(v.size() * 4), v.data());
  return v;
}

std::vector<float> SatStage::read_f32() const {
  std::vector<float> v(static_cast<std::size_t>(width_) * height_ * 3);
  glGetNamedBufferSubData(sat_buffer_.get(), 0, static_cast<GLsizeiptr>(v.size() * 4), v.data());
  return v;
}

double SatStage::float_box_error(const Settings& s, int max_radius, int boxes) {
  Settings cfg = s;
  cfg.format = scandof::SatFormat::U32;
  build(cfg);
  std::vector<uint32_t> exact = read_u32();
  cfg.format = scandof::SatFormat::F32;
  build(cfg);
  std::vector<float> approx = read_f32();
  build(s);
  const int w = width_, h = height_;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  auto at_u = [&](int c, int x, int y) -> uint32_t {
    return (x < 0 || y < 0) ? 0u : exact[c * plane + static_cast<std::size_t>(y) * w + x];
  };
  auto at_f = [&](int c, int x, int y) -> float {
    return (x < 0 || y < 0) ? 0.0f : approx[c * plane + static_cast<std::size_t>(y) * w + x];
  };
  std::mt19937 rng(12345);
  double worst = 0;
  for (int i = 0; i < boxes; ++i) {
    int r = 1 + static_cast<int>(rng() % static_cast<unsigned>(std::max(1, max_radius)));
    int px = static_cast<int>(rng() % static_cast<unsigned>(w));
    int py = static_cast<int>(rng() % static_cast<unsigned>(h));
    int x0 = std::max(px - r - 1, -1), x1 = std::min(px + r, w - 1);
    int y0 = std::max(py - r - 1, -1), y1 = std::min(py + r, h - 1);
    double area = static_cast<double>(x1 - x0) * (y1 - y0);
    for (int c = 0; c < 3; ++c) {
      uint32_t su = at_u(c, x1, y1) - at_u(c, x0, y1) - at_u(c, x1, y0) + at_u(c, x0, y0);
      // The shader's float arithmetic: corner differences in float.
      float sf = at_f(c, x1, y1) - at_f(c, x0, y1) - at_f(c, x1, y0) + at_f(c, x0, y0);
      worst = std::max(worst, std::abs(static_cast<double>(sf) - su) / area);
    }
  }
  return worst;
}

}  // namespace demo
