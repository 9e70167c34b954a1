// From the rendered frame to summed-area tables in a GL buffer (an SSBO), and on the CUDA path the
// compute depth-of-field pass that reads them.
//
// CUDA path: the colour texture, the SAT buffer, the view-z texture and the output texture are
// registered with CUDA once per size (read-only / write-discard / read-only / surface store,
// cuda_gl_interop.*), mapped once per frame with a single map call; the library's SatBuilder
// writes interleaved tables (16 bytes per pixel: a DoF corner is one load) straight into the
// mapped buffer, and the CUDA DoF pass (passes/cuda_dof_pass.*) writes the blurred frame into the
// output texture before the one unmap. Nothing crosses to the host, and the frame never waits for the GPU: stage times are read a frame or more
// later, once the GPU has passed them (as the GL timer queries are).
// CPU fallback (no device, CUDA off, or forced): the frame is read back, the tables are built on
// the CPU (scandof::sat_gold) and uploaded. Slow, and the UI says so.
// The backend is core/backend_choice.hpp's choice: CUDA only on the device the GL context renders
// on. A CUDA-GL call that fails later (a registration at a resize, a map, a kernel inside the map)
// or a GL compute build that fails drops that backend for the rest of the run: the frame is built
// again on the next one, and the log says so once.
// Comparing variants, verifying and the float error are in sat_analysis.*.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scandof/gl/sat_builder.hpp"
#include "scandof/gl/util.hpp"
#include "core/frame_times.hpp"
#include "passes/cuda_dof_pass.hpp"
#include "core/settings.hpp"

namespace demo {
namespace gl = scandof::gl;

// The GL textures a frame's CUDA work reads and writes besides the SAT buffer.
struct FrameTextures {
  GLuint color = 0;   // scene colour, RGBA8 or RGBA16F radiance (read)
  GLuint viewz = 0;   // R32F distance along the view axis (read by the compute DoF pass)
  GLuint output = 0;  // output, the colour's format (written by the compute DoF pass)
  // The second depth layer (passes/peel_pass.*; 0 when off): its colour and view z, read by the
  // two-layer compute DoF pass.
  GLuint color2 = 0, viewz2 = 0;
};

// How build() gets its CUDA timings: Latest (per frame: whatever the GPU has finished, never
// waiting) or Wait (this build's own times, synchronizing: for "time this now" measurements).
enum class SatTiming { Latest, Wait };

// The GL compute variant a setting builds with on the GL backend: the paper's block scans where the
// variant has a GL twin (naive, work-efficient, conflict-free, warp-shuffle -> subgroup), else the
// GL fused path.
gl::GlSatVariant gl_variant_of(const Settings& s);

// The GPU backends that failed earlier in a run (what failed; empty: nothing): a stage made later
// (a backend switch, a new pipeline) does not choose them again.
struct BackendFailures {
  std::string interop;  // a CUDA-GL call
  std::string gl;       // a GL compute build
};

class SatStage {
 public:
  // Picks the backend (choose_backend): the requested one when it can run here, else the next in
  // the order CUDA, GL compute, CPU; backend() says which and why. shader_dir holds the GL
  // compute shaders (sat_*.comp); `window`: a window's context (else headless EGL).
  SatStage(SatBackend requested, const std::string& shader_dir, bool window = true,
           const BackendFailures& failed = {});
  ~SatStage();
  SatStage(const SatStage&) = delete;
  SatStage& operator=(const SatStage&) = delete;

  bool using_cuda() const;
  bool using_gl() const { return gl_ != nullptr; }
  SatBackend kind() const { return kind_; }  // Cuda, Gl or Cpu: what actually runs
  const std::string& backend() const { return backend_; }  // human-readable, shown in the UI
  const std::string& device_name() const { return device_; }
  // What a user can do to get CUDA here (empty: nothing): the PRIME offload line.
  const std::string& hint() const { return hint_; }
  // Headless --backend cuda that CUDA cannot serve: the runner refuses it (exit 2).
  bool refused() const { return refused_; }
  const std::string& no_cuda() const { return no_cuda_; }  // why CUDA does not run here
  // The backends that failed so far, this stage's failures included.
  const BackendFailures& failures() const { return failed_; }

  // Drops the CUDA registrations; call before the GL objects they refer to are destroyed.
  void release();
  // (Re)creates the SAT buffer and the CUDA registrations for frame textures of this size.
  void resize(int width, int height, const FrameTextures& tex);
  // Builds the tables of the current colour texture into buffer() (GL may read them right after).
  // With `dof` (CUDA path only) the CUDA DoF pass runs over the same map, after the SAT and before
  // the one unmap; returns whether it drew the frame, so the caller knows whether a GL pass or the
  // CPU method must run instead.
  bool build(const Settings& s, SatTiming timing = SatTiming::Latest, CudaDofPass* dof = nullptr);
  // Whether build(..., dof) can run the CUDA DoF pass here.
  bool can_compute_dof() const { return using_cuda(); }
  // Whether it can run the two-layer method (two_layer(Settings)): the second layer registered.
  bool can_two_layer() const;
  GLuint buffer() const { return sat_buffer_.get(); }
  int width() const { return width_; }
  int height() const { return height_; }
  const SatTimes& times() const { return times_; }
  // HDR uint32 tables: pixels of a recent build with a value clamped at the fixed point's limit
  // (or NaN/negative); read without waiting, so it may be a few frames old. 0 otherwise.
  uint64_t clamped() const { return clamped_; }

  // Reads the tables of the last build back as 3 planes of width*height (the planar layout the
  // CPU reference, the dump and the comparisons use; the buffer itself is interleaved).
  std::vector<uint32_t> read_u32() const;
  std::vector<float> read_f32() const;

 private:
  struct Cuda;
  void choose();  // the backend for requested_ and failed_, and its builder
  // Drops the running GPU backend after `what` failed and chooses again without it.
  void fall_back(const std::string& what);
  bool build_cuda(const Settings& s, SatTiming timing, CudaDofPass* dof);
  void register_frame();  // the CUDA registrations of tex_ and the SAT buffer
  [[noreturn]] void inject_register_failure();
  void build_cpu(const Settings& s);
  void build_gl(const Settings& s, SatTiming timing);
  std::unique_ptr<Cuda> cuda_;
  std::unique_ptr<gl::GlSatBuilder> gl_;
  SatBackend kind_ = SatBackend::Cpu;
  SatBackend requested_;
  std::string shader_dir_;
  bool window_;
  BackendFailures failed_;
  std::string backend_, device_, hint_;
  bool refused_ = false;
  std::string no_cuda_;
  gl::GlBuffer sat_buffer_;
  FrameTextures tex_;
  int width_ = 0, height_ = 0;
  SatTimes times_;
  uint64_t clamped_ = 0;
};

}  // namespace demo
