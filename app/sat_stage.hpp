// From the rendered frame to summed-area tables in a GL buffer the DoF shader reads (an SSBO).
//
// CUDA path: the colour texture and the SAT buffer are registered with CUDA once per size
// (read-only / write-discard, cuda_gl_interop.*), mapped once per frame with a single map call,
// and the library's SatBuilder writes the planar tables straight into the mapped buffer. Nothing
// crosses to the host, and the frame never waits for the GPU: stage times are read a frame or more
// later, once the GPU has passed them (as the GL timer queries are).
// CPU fallback (no device, CUDA off, or forced): the frame is read back, the tables are built on
// the CPU (scandof::sat_gold) and uploaded. Slow, and the UI says so.
// Comparing variants, verifying and the float error are in sat_analysis.*.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gl_util.hpp"
#include "settings.hpp"

namespace demo {

struct SatTimes {
  float map_ms = 0;      // cudaGraphicsMapResources (host wall time, both resources at once)
  float unmap_ms = 0;    // cudaGraphicsUnmapResources (host wall time)
  float map_gpu_ms = 0;  // same, as the stream sees it (CUDA events around the calls)
  float unmap_gpu_ms = 0;
  float deinterleave_ms = 0, row_scan_ms = 0, transpose_ms = 0, column_scan_ms = 0,
        transpose_back_ms = 0, build_ms = 0;               // SatBuilder stage events
  float readback_ms = 0, cpu_build_ms = 0, upload_ms = 0;  // CPU fallback (host wall time)
};

// How build() gets its CUDA timings: Latest (per frame: whatever the GPU has finished, never
// waiting) or Wait (this build's own times, synchronizing: for "time this now" measurements).
enum class SatTiming { Latest, Wait };

class SatStage {
 public:
  // Picks the CUDA path when the build has CUDA and a device is usable, unless force_cpu.
  explicit SatStage(bool force_cpu);
  ~SatStage();
  SatStage(const SatStage&) = delete;
  SatStage& operator=(const SatStage&) = delete;

  bool using_cuda() const;
  const std::string& backend() const { return backend_; }  // human-readable, shown in the UI
  const std::string& device_name() const { return device_; }

  // Drops the CUDA registrations; call before the GL objects they refer to are destroyed.
  void release();
  // (Re)creates the SAT buffer and the CUDA registrations for a colour texture of this size.
  void resize(int width, int height, GLuint color_texture);
  // Builds the tables of the current colour texture into buffer() (GL may read them right after).
  void build(const Settings& s, SatTiming timing = SatTiming::Latest);
  GLuint buffer() const { return sat_buffer_.get(); }
  int width() const { return width_; }
  int height() const { return height_; }
  const SatTimes& times() const { return times_; }

  // Reads the tables of the last build back (3 planes of width*height).
  std::vector<uint32_t> read_u32() const;
  std::vector<float> read_f32() const;

 private:
  struct Cuda;
  void build_cpu(scandof::SatFormat fmt);
  std::unique_ptr<Cuda> cuda_;
  std::string backend_, device_;
  GlBuffer sat_buffer_;
  GLuint color_ = 0;
  int width_ = 0, height_ = 0;
  SatTimes times_;
};

}  // namespace demo
