// From the rendered frame to summed-area tables in a GL buffer the DoF shader reads (an SSBO).
//
// CUDA path: the colour texture and the SAT buffer are registered with CUDA once per size
// (read-only / write-discard), mapped once per frame with a single map call, and SatBuilder writes
// the planar tables straight into the mapped buffer. Nothing crosses to the host.
// CPU fallback (no device, CUDA off, or forced): the frame is read back, the tables are built on
// the CPU and uploaded. Slow, and the UI says so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gl_util.hpp"
#include "settings.hpp"

namespace demo {

// CPU tables of an RGBA8 image (bottom-up rows), planar R, G, B: the reference the GPU must match.
void sat_cpu(const uint8_t* rgba, int width, int height, uint32_t* out);
// float tables accumulated in float (rows, then columns), as a float scan would.
void sat_cpu(const uint8_t* rgba, int width, int height, float* out);

struct SatTimes {
  float map_ms = 0;      // cudaGraphicsMapResources (host wall time, both resources at once)
  float unmap_ms = 0;    // cudaGraphicsUnmapResources (host wall time)
  float map_gpu_ms = 0;  // same, as the stream sees it (CUDA events around the calls)
  float unmap_gpu_ms = 0;
  float deinterleave_ms = 0, row_scan_ms = 0, transpose_ms = 0, column_scan_ms = 0,
        transpose_back_ms = 0, build_ms = 0;               // SatBuilder stage events
  float readback_ms = 0, cpu_build_ms = 0, upload_ms = 0;  // CPU fallback (host wall time)
};

struct VariantTiming {
  std::string name;
  scandof::ScanAlgorithm algo;
  scandof::SatMethod method;
  SatTimes median;
};

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
  void build(const Settings& s);
  GLuint buffer() const { return sat_buffer_.get(); }
  const SatTimes& times() const { return times_; }

  // Times each (variant, method) on the current frame: `reps` builds after a warm-up, medians.
  std::vector<VariantTiming> compare_all(const Settings& s, int reps);

  // Reads the tables of the last build back (3 planes of width*height).
  std::vector<uint32_t> read_u32() const;
  std::vector<float> read_f32() const;
  // Largest error of float box averages against the exact ones (0..255 units), over `boxes`
  // random boxes of radius 1..max_radius of the current frame. Builds both formats (on demand).
  double float_box_error(const Settings& s, int max_radius, int boxes);

 private:
  struct Cuda;
  void build_cpu(const Settings& s, scandof::SatFormat fmt);
  std::unique_ptr<Cuda> cuda_;
  std::string backend_, device_;
  GlBuffer sat_buffer_;
  GLuint color_ = 0;
  int width_ = 0, height_ = 0;
  SatTimes times_;
};

// Names and parsing for the UI and the CLI (kept here so the demo does not need the library's
// string helpers to link).
const char* variant_name(scandof::ScanAlgorithm a);
// SatMethods this build of the library offers (Paper, Fused, and FusedTwoPass where it exists),
// named "paper", "fused", "fused-two-pass".
int num_sat_methods();
const char* method_name(scandof::SatMethod m);
bool parse_method(const std::string& s, scandof::SatMethod* out);
bool parse_variant(const std::string& s, scandof::ScanAlgorithm* out);

}  // namespace demo
