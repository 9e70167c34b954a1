#include "passes/sat_stage.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/faults.hpp"
#include "core/backend_choice.hpp"
#include "core/frame_times.hpp"  // ms_since
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

#if SCANDOF_WITH_CUDA
#include "passes/cuda_gl_interop.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/event_timer.hpp"
#include "scandof/util/stream.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/util/texture_object.hpp"
#endif

namespace demo {

using Clock = std::chrono::steady_clock;

#if SCANDOF_WITH_CUDA
// Marks of the per-frame ring: before map, after map, after the SAT, after the DoF kernel (same as
// after the SAT when it did not run), after unmap.
enum RingMark : int { kBeforeMap, kAfterMap, kAfterSat, kAfterDof, kAfterUnmap, kNumMarks };

// The HDR build's clamp count, read without stalling the frame: the builder sets a device word,
// which is copied into pinned host memory after the build with an event behind it; a later frame
// reads the copy once the event has passed (kSlots frames in flight at most).
class ClampCounter {
 public:
  ClampCounter() {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocHost(&p, kSlots * sizeof(uint32_t)));
    host_ = static_cast<uint32_t*>(p);
  }
  ~ClampCounter() {
    if (host_) cudaFreeHost(host_);  // a destructor must not throw
  }
  ClampCounter(const ClampCounter&) = delete;
  ClampCounter& operator=(const ClampCounter&) = delete;
  uint32_t* device() { return device_.data(); }
  // After the build on `stream`: copy this build's count out.
  void copy_out(cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyAsync(host_ + next_, device_.data(), sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, stream));
    events_[next_].record(stream);
    pending_[next_] = true;
    next_ = (next_ + 1) % kSlots;
  }
  // The newest count the GPU has delivered, or `keep` when none has since the last call.
  uint64_t latest(uint64_t keep) {
    for (int k = 0; k < kSlots; ++k) {
      const int slot = (next_ + k) % kSlots;  // oldest first, so the newest wins
      if (pending_[slot] && events_[slot].done()) {
        keep = host_[slot];
        pending_[slot] = false;
      }
    }
    return keep;
  }

 private:
  static constexpr int kSlots = 3;
  scandof::util::DeviceBuffer<uint32_t> device_{1};
  uint32_t* host_ = nullptr;
  scandof::util::Event events_[kSlots];
  bool pending_[kSlots] = {};
  int next_ = 0;
};

struct SatStage::Cuda {
  scandof::SatBuilder builder;
  scandof::util::Stream stream;
  CudaGlRegistration color, sat, viewz, output;
  CudaGlRegistration color2, viewz2;  // the second depth layer (FrameTextures::color2), when on
  scandof::util::EventRing ring{kNumMarks};
  ClampCounter clamps;
};
#else
struct SatStage::Cuda {};
#endif

SatStage::SatStage(SatBackend requested, const std::string& shader_dir, bool window,
                   const BackendFailures& failed)
    : requested_(requested), shader_dir_(shader_dir), window_(window), failed_(failed) {
  choose();
}

void SatStage::choose() {
  BackendFacts f;
  f.requested = requested_;
  f.window = window_;
  f.interop_failed = failed_.interop;
  f.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  f.software = gl::software_renderer();
#if SCANDOF_WITH_CUDA
  f.cuda_built = true;
  // Only a request CUDA may serve initialises it (a CUDA context costs memory and time).
  if ((requested_ == SatBackend::Auto || requested_ == SatBackend::Cuda) && failed_.interop.empty()) {
    try {
      f.cuda_usable = scandof::cuda_device_available(&f.cuda_missing);
      if (f.cuda_usable) f.gl_cuda_devices = gl_context_cuda_devices(&f.gl_cuda_query);
      if (!f.gl_cuda_devices.empty()) {
        // The context's device, not device 0 by habit; its kernel code is checked there.
        CUDA_CHECK(cudaSetDevice(f.gl_cuda_devices.front()));
        f.cuda_usable = scandof::cuda_device_available(&f.cuda_missing);
        f.cuda_name = scandof::util::current_device().name;
      }
    } catch (const scandof::CudaError& e) {
      cudaGetLastError();
      f.cuda_usable = false;
      f.cuda_missing = e.what();
      f.gl_cuda_devices.clear();
    }
  }
#else
  f.cuda_built = false;
#endif
  if (requested_ != SatBackend::Cpu) {
    gl::GlSatSupport gs = gl::query_gl_sat_support();
    if (take_fault(Fault::NoGlCompute)) {  // a driver without what the GL backend needs
      gs.usable = false;
      gs.reason = "GL compute reported missing (--inject-fault no-gl-compute)";
    }
    if (!failed_.gl.empty()) {
      gs.usable = false;
      gs.reason = "it failed earlier in this run (" + failed_.gl + ")";
    }
    f.gl_compute = gs.usable;
    f.gl_missing = gs.reason;
    f.gl_one_pass = gs.one_pass;
  }
  const BackendChoice c = choose_backend(f);
  kind_ = c.kind;
  backend_ = c.line;
  hint_ = c.hint;
  refused_ = c.refused;
  no_cuda_ = c.no_cuda;
  switch (c.kind) {
    case SatBackend::Cuda:
#if SCANDOF_WITH_CUDA
      try {
        cuda_ = std::make_unique<Cuda>();
      } catch (const scandof::CudaError& e) {
        // Its stream, events or pinned memory could not be made: CUDA is as unusable here as
        // after a failed registration.
        cudaGetLastError();
        failed_.interop = std::string("setting up CUDA failed: ") + e.what();
        choose();
        return;
      }
      device_ = f.cuda_name;
#endif
      break;
    case SatBackend::Gl:
      gl_ = std::make_unique<gl::GlSatBuilder>(shader_dir_);
      device_ = f.renderer;
      break;
    default:
      device_ = "CPU";
  }
}

void SatStage::fall_back(const std::string& what) {
  // The GPU backend that failed goes with everything it holds; what it already wrote stays in the
  // SAT buffer and the output texture until the next backend rebuilds them this frame.
  if (cuda_) {
    cuda_.reset();  // its registrations unregister as it goes
#if SCANDOF_WITH_CUDA
    cudaGetLastError();  // a non-sticky error must not fail the next backend's first check
#endif
    failed_.interop = what;
  } else if (gl_) {
    gl_.reset();
    failed_.gl = what;
  }
  choose();
  std::fprintf(stderr, "[scandof] %s; the SAT backend falls back for the rest of the run: %s\n",
               what.c_str(), backend_.c_str());
}

SatStage::~SatStage() = default;

bool SatStage::using_cuda() const {
  return cuda_ != nullptr;
}

bool SatStage::can_two_layer() const {
#if SCANDOF_WITH_CUDA
  return cuda_ != nullptr && cuda_->color2.get() != nullptr && cuda_->viewz2.get() != nullptr;
#else
  return false;
#endif
}

void SatStage::release() {
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    cuda_->color.reset();
    cuda_->sat.reset();
    cuda_->viewz.reset();
    cuda_->output.reset();
    cuda_->color2.reset();
    cuda_->viewz2.reset();
  }
#endif
}

void SatStage::resize(int width, int height, const FrameTextures& tex) {
  // Registrations refer to the old GL objects: drop them before those are replaced.
  release();
  width_ = width;
  height_ = height;
  tex_ = tex;
  sat_buffer_ = gl::make_buffer();
  // U32 and F32 tables have the same size, so switching formats never re-creates the buffer.
  glNamedBufferStorage(sat_buffer_.get(),
                       static_cast<GLsizeiptr>(scandof::SatBuilder::table_bytes(
                           width, height, 3, scandof::SatLayout::Interleaved)),
                       nullptr, GL_DYNAMIC_STORAGE_BIT);
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    // Scratch sized for the old frame goes: kept, it would hold device memory at the largest size
    // seen since the stage was made. The first build at the new size allocates afresh (one
    // cudaMalloc each, at a resize that waits for the device anyway).
    cuda_->builder.release_scratch();
    // The builder's scratch (at most one more table) must fit beside what GL already holds.
    std::size_t free_b = 0, total_b = 0;
    if (const cudaError_t e = cudaMemGetInfo(&free_b, &total_b); e != cudaSuccess) {
      cudaGetLastError();
      fall_back(std::string("cudaMemGetInfo failed: ") + cudaGetErrorString(e));
      return;
    }
    const std::size_t need = scandof::SatBuilder::table_bytes(width, height, 3);
    if (need > free_b)
      throw std::runtime_error("frame size " + std::to_string(width) + "x" +
                               std::to_string(height) + ": the SAT scratch needs " +
                               std::to_string(need) + " bytes, the device has " +
                               std::to_string(free_b) + " free");
    try {
      register_frame();
    } catch (const scandof::CudaError& e) {
      // A format or object the driver will not share (or a lost device): GL compute or the CPU
      // takes over at this size; nothing of the failed registrations is kept.
      fall_back(std::string("CUDA-GL registration failed: ") + e.what());
    }
  }
#endif
}

#if SCANDOF_WITH_CUDA
void SatStage::register_frame() {
  Cuda& c = *cuda_;
  c.color = CudaGlRegistration::image(tex_.color, cudaGraphicsRegisterFlagsReadOnly);
  c.sat = CudaGlRegistration::buffer(sat_buffer_.get(), cudaGraphicsRegisterFlagsWriteDiscard);
  c.viewz = CudaGlRegistration::image(tex_.viewz, cudaGraphicsRegisterFlagsReadOnly);
  c.output = CudaGlRegistration::image(tex_.output, cudaGraphicsRegisterFlagsSurfaceLoadStore);
  if (tex_.color2 != 0 && tex_.viewz2 != 0) {  // the second depth layer, while it is on
    c.color2 = CudaGlRegistration::image(tex_.color2, cudaGraphicsRegisterFlagsReadOnly);
    c.viewz2 = CudaGlRegistration::image(tex_.viewz2, cudaGraphicsRegisterFlagsReadOnly);
  }
}

// --inject-fault interop-register@FRAME: the registration a resize makes, of a texture the driver
// cannot register (a name with no storage), so the failure comes from the driver through the one
// check macro as a real one would.
void SatStage::inject_register_failure() {
  const gl::GlTexture bare = gl::make_texture(GL_TEXTURE_2D);
  CudaGlRegistration r = CudaGlRegistration::image(bare.get(), cudaGraphicsRegisterFlagsReadOnly);
  throw scandof::CudaError(static_cast<int>(cudaErrorUnknown),
                           "injected registration failure (--inject-fault interop-register): "
                           "the driver registered a texture without storage");
}
#endif

void SatStage::build_cpu(const Settings& s) {
  const scandof::SatFormat fmt = s.format;
  SatTimes t;
  auto t0 = Clock::now();
  const std::size_t n = static_cast<std::size_t>(width_) * height_ * 4;
  std::vector<uint8_t> px;
  std::vector<float> radiance;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (hdr(s)) {
    radiance.resize(n);
    glGetTextureImage(tex_.color, 0, GL_RGBA, GL_FLOAT,
                      static_cast<GLsizei>(radiance.size() * sizeof(float)), radiance.data());
  } else {
    px.resize(n);
    glGetTextureImage(tex_.color, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                      px.data());
  }
  t.readback_ms = ms_since(t0);
  t0 = Clock::now();
  std::vector<uint32_t> table(n);  // same bytes for u32 and f32
  float* ftable = reinterpret_cast<float*>(table.data());
  const auto il = scandof::SatLayout::Interleaved;
  clamped_ = 0;
  if (hdr(s) && fmt == scandof::SatFormat::U32)
    clamped_ = scandof::sat_gold_hdr(radiance.data(), width_, height_, table_fixed_point(s),
                                     table.data(), 3, il);
  else if (hdr(s))
    scandof::sat_gold_hdr(radiance.data(), width_, height_, ftable, 3, il);
  else if (fmt == scandof::SatFormat::U32)
    scandof::sat_gold(px.data(), width_, height_, table.data(), 3, il);
  else
    scandof::sat_gold(px.data(), width_, height_, ftable, 3, il);
  t.cpu_build_ms = ms_since(t0);
  t0 = Clock::now();
  glNamedBufferSubData(sat_buffer_.get(), 0, static_cast<GLsizeiptr>(n * 4), table.data());
  t.upload_ms = ms_since(t0);
  t.build_ms = t.readback_ms + t.cpu_build_ms + t.upload_ms;
  times_ = t;
}

#if SCANDOF_WITH_CUDA
bool SatStage::build_cuda(const Settings& s, SatTiming timing, CudaDofPass* dof_pass) {
  bool dof = dof_pass != nullptr;
  Cuda& c = *cuda_;
  if (take_fault(Fault::InteropRegister)) inject_register_failure();
  const cudaStream_t stream = c.stream.get();
  // The second depth layer's colour and view z are mapped only for the two-layer method.
  const bool layer2 = dof && two_layer(s) && can_two_layer();
  const int count = layer2 ? 6 : dof ? 4 : 2;
  c.ring.record(kBeforeMap, stream);
  {
    auto t0 = Clock::now();
    ScopedMap map({c.color.get(), c.sat.get(), c.viewz.get(), c.output.get(), c.color2.get(),
                   c.viewz2.get()},
                  count, stream);
    times_.map_ms = ms_since(t0);
    c.ring.record(kAfterMap, stream);
    const scandof::util::TextureObject rgba(map.array(0));  // the SAT's input and DofGpu's
    {
      scandof::SatInput in;
      in.texture = rgba.get();
      in.width = width_;
      in.height = height_;
      if (hdr(s)) {
        in.format = scandof::SatPixels::Rgba16F;
        in.fixed = table_fixed_point(s);
        in.clamp_count = c.clamps.device();
      }
      c.builder.build(in, map.pointer(1), s.format, s.method, s.variant, stream,
                      /*timed=*/true, 3, scandof::SatLayout::Interleaved);
      if (hdr(s)) c.clamps.copy_out(stream);
    }
    c.ring.record(kAfterSat, stream);
    if (dof) {
      const scandof::util::TextureObject viewz(map.array(2));
      const scandof::util::SurfaceObject out(map.array(3));
      scandof::DofFrame f;
      f.rgba = rgba.get();
      f.depth = viewz.get();
      f.sat = map.pointer(1);
      f.format = s.format;
      if (hdr(s)) {
        f.pixels = scandof::SatPixels::Rgba16F;
        f.fixed = fixed_point(s);
      }
      f.out = out.get();
      f.width = width_;
      f.height = height_;
      scandof::util::TextureObject rgba2, viewz2;
      if (layer2) {
        rgba2 = scandof::util::TextureObject(map.array(4));
        viewz2 = scandof::util::TextureObject(map.array(5));
        f.rgba2 = rgba2.get();
        f.depth2 = viewz2.get();
      }
      dof = dof_pass->render(f, s, stream);
    }
    c.ring.record(kAfterDof, stream);
    t0 = Clock::now();
    map.unmap();
    times_.unmap_ms = ms_since(t0);
    c.ring.record(kAfterUnmap, stream);
  }
  c.ring.next_frame();
  // Stage times of the newest build the GPU has finished: never a wait on the frame path. "Time
  // this now" callers wait for this build's own end first.
  if (timing == SatTiming::Wait) CUDA_CHECK(cudaStreamSynchronize(stream));
  scandof::SatStageTimes st;
  if (c.builder.poll_stage_times(st)) {
    times_.deinterleave_ms = st.deinterleave_ms;
    times_.row_scan_ms = st.row_scan_ms;
    times_.transpose_ms = st.transpose_ms;
    times_.column_scan_ms = st.column_scan_ms;
    times_.transpose_back_ms = st.transpose_back_ms;
    times_.build_ms = st.total_ms;
  }
  std::vector<float> iv;  // map, SAT, DoF, unmap of the newest frame the GPU has finished
  if (c.ring.poll(iv)) {
    times_.map_gpu_ms = iv[kBeforeMap];
    times_.dof_compute_ms = iv[kAfterSat];
    times_.unmap_gpu_ms = iv[kAfterDof];
  }
  if (!dof) times_.dof_compute_ms = 0;
  clamped_ = hdr(s) ? c.clamps.latest(clamped_) : 0;
  return dof;
}
#endif

bool SatStage::build(const Settings& s, SatTiming timing, CudaDofPass* dof) {
#if SCANDOF_WITH_CUDA
  if (cuda_) {
    try {
      return build_cuda(s, timing, dof);
    } catch (const scandof::CudaError& e) {
      // A map, the SAT or the DoF kernel inside it failed: the frame is built again below on the
      // next backend, so the screen shows this frame, not a broken one.
      fall_back(std::string("a CUDA-GL frame failed: ") + e.what());
    }
  }
#endif
  (void)dof;
  if (gl_) {
    try {
      if (take_fault(Fault::InteropRegister))
        throw std::runtime_error("injected GL compute failure (--inject-fault interop-register)");
      build_gl(s, timing);
      return false;
    } catch (const std::runtime_error& e) {
      fall_back(std::string("the GL compute build failed: ") + e.what());
    }
  }
  if (take_fault(Fault::InteropRegister))
    std::fprintf(stderr, "[scandof] --inject-fault interop-register: the CPU backend has no GPU "
                         "interop to fail\n");
  build_cpu(s);
  return false;
}

// The GL variants are the paper's block scans plus a fused path; the library's other variants
// (optimized, single-pass, CUB) have no GL twin, so they and every fused method build with the GL
// fused path, the fastest one there (the UI says so).
gl::GlSatVariant gl_variant_of(const Settings& s) {
  if (s.method != scandof::SatMethod::Paper) return gl::GlSatVariant::Fused;
  switch (s.variant) {
    case scandof::ScanAlgorithm::Naive:
      return gl::GlSatVariant::Naive;
    case scandof::ScanAlgorithm::WorkEfficient:
      return gl::GlSatVariant::WorkEfficient;
    case scandof::ScanAlgorithm::ConflictFree:
      return gl::GlSatVariant::ConflictFree;
    case scandof::ScanAlgorithm::WarpShuffle:
      return gl::GlSatVariant::Subgroup;
    default:
      return gl::GlSatVariant::Fused;
  }
}

void SatStage::build_gl(const Settings& s, SatTiming timing) {
  // The HDR frame is RGBA16F: its uint32 tables take the fixed point (the RGBA8 frame ignores it).
  const scandof::SatFixedPoint fixed = table_fixed_point(s);
  auto build = [&] {
    gl_->build_into(tex_.color, width_, height_, gl_variant_of(s), s.format, fixed,
                    sat_buffer_.get(), /*timed=*/true);
  };
  build();
  if (timing == SatTiming::Wait) {
    // "Time this now": GL timers are read from a ring a few builds late, so run the ring through.
    for (int i = 0; i < 5; ++i) build();
    glFinish();
  }
  if (hdr(s) && s.format == scandof::SatFormat::U32) {
    std::uint32_t n = 0;
    if (gl_->poll_clamp_count(n)) clamped_ = n;
  } else {
    clamped_ = 0;
  }
  const gl::GlSatStageTimes t = gl_->stage_times();
  if (t.valid) {
    times_ = SatTimes{};
    times_.row_scan_ms = t.rows_ms;
    times_.column_scan_ms = t.columns_ms;
    times_.build_ms = t.total_ms;
  }
}

// The buffer holds interleaved tables; callers get the 3 planes the reference and dumps use.
namespace {
template <class T>
std::vector<T> read_planar(GLuint buffer, int w, int h) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<T> il(n * 4), planes(n * 3);
  glGetNamedBufferSubData(buffer, 0, static_cast<GLsizeiptr>(il.size() * sizeof(T)), il.data());
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) planes[c * n + i] = il[4 * i + c];
  return planes;
}
}  // namespace

std::vector<uint32_t> SatStage::read_u32() const {
  return read_planar<uint32_t>(sat_buffer_.get(), width_, height_);
}

std::vector<float> SatStage::read_f32() const {
  return read_planar<float>(sat_buffer_.get(), width_, height_);
}

}  // namespace demo
