#include "sat_stage.hpp"

#include <chrono>
#include <vector>

#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

#if SCANDOF_WITH_CUDA
#include "cuda_gl_interop.hpp"
#include "scandof/util/event_timer.hpp"
#include "scandof/util/stream.hpp"
#include "scandof/util/texture_object.hpp"
#endif

namespace demo {

namespace {
using Clock = std::chrono::steady_clock;
float ms_since(Clock::time_point t0) {
  return std::chrono::duration<float, std::milli>(Clock::now() - t0).count();
}
}  // namespace

#if SCANDOF_WITH_CUDA
// Marks of the per-frame ring: before map, after map, before unmap, after unmap.
enum RingMark : int { kBeforeMap, kAfterMap, kBeforeUnmap, kAfterUnmap, kNumMarks };

struct SatStage::Cuda {
  scandof::SatBuilder builder;
  scandof::util::Stream stream;
  CudaGlRegistration color, sat;
  scandof::util::EventRing ring{kNumMarks};
  // The builder keeps one set of stage events, re-recorded by every build: its times are read when
  // the GPU is past `built` (the last build's end) and before the next build overwrites them.
  scandof::util::Event built;
  bool stages_pending = false;

  void harvest_stage_times(SatTimes* t, bool wait) {
    if (!stages_pending || !(wait || built.done())) return;
    const scandof::SatStageTimes st = builder.stage_times();  // past `built`: no wait here
    t->deinterleave_ms = st.deinterleave_ms;
    t->row_scan_ms = st.row_scan_ms;
    t->transpose_ms = st.transpose_ms;
    t->column_scan_ms = st.column_scan_ms;
    t->transpose_back_ms = st.transpose_back_ms;
    t->build_ms = st.total_ms;
    stages_pending = false;
  }
};
#else
struct SatStage::Cuda {};
#endif

SatStage::SatStage(bool force_cpu) {
#if SCANDOF_WITH_CUDA
  std::string why;
  if (force_cpu) {
    backend_ = "CPU fallback (forced with --cpu / UI)";
  } else if (scandof::cuda_device_available(&why)) {
    cuda_ = std::make_unique<Cuda>();
    device_ = scandof::util::current_device().name;
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
    cuda_->color.reset();
    cuda_->sat.reset();
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

void SatStage::build_cpu(scandof::SatFormat fmt) {
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
  if (fmt == scandof::SatFormat::U32)
    scandof::sat_gold(px.data(), width_, height_, table.data());
  else
    scandof::sat_gold(px.data(), width_, height_, reinterpret_cast<float*>(table.data()));
  t.cpu_build_ms = ms_since(t0);
  t0 = Clock::now();
  glNamedBufferSubData(sat_buffer_.get(), 0, static_cast<GLsizeiptr>(n * 4), table.data());
  t.upload_ms = ms_since(t0);
  t.build_ms = t.readback_ms + t.cpu_build_ms + t.upload_ms;
  times_ = t;
}

void SatStage::build(const Settings& s, SatTiming timing) {
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    Cuda& c = *cuda_;
    const cudaStream_t stream = c.stream.get();
    c.ring.record(kBeforeMap, stream);
    {
      auto t0 = Clock::now();
      ScopedMap map({c.color.get(), c.sat.get()}, stream);
      times_.map_ms = ms_since(t0);  // host wall time: where the driver waits for GL
      c.ring.record(kAfterMap, stream);
      // The previous build's stage times, if the GPU is past it (checked after the map, which
      // orders this frame after GL's use of the last tables); build() below re-records them.
      c.harvest_stage_times(&times_, /*wait=*/false);
      {
        const scandof::util::TextureObject tex(map.array(0));
        scandof::SatInput in;
        in.texture = tex.get();
        in.width = width_;
        in.height = height_;
        c.builder.build(in, map.pointer(1), s.format, s.method, s.variant, stream,
                        /*timed=*/true, 3);
      }
      c.ring.record(kBeforeUnmap, stream);
      t0 = Clock::now();
      map.unmap();
      times_.unmap_ms = ms_since(t0);
      c.ring.record(kAfterUnmap, stream);
    }
    c.built.record(stream);
    c.stages_pending = true;
    c.ring.next_frame();
    if (timing == SatTiming::Wait) {
      c.built.sync();
      c.harvest_stage_times(&times_, /*wait=*/true);
    }
    std::vector<float> iv;  // map, build, unmap of the newest frame the GPU has finished
    if (c.ring.poll(iv)) {
      times_.map_gpu_ms = iv[kBeforeMap];
      times_.unmap_gpu_ms = iv[kBeforeUnmap];
    }
    return;
  }
#endif
  (void)timing;
  build_cpu(s.format);
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

}  // namespace demo
