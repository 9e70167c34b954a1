// Summed-area tables of an RGBA8 image (GPU Gems 3, 39.3): the API the demo and the tools use.
// Host-only header (no nvcc needed). The implementation lives in kernels/src/sat*.cu.
//
// Layout of a table (SatLayout::Planar): `channels` planes (R, G, B), plane c at
// out + c * width * height, each plane row-major with `width` elements per row (Interleaved: see
// SatLayout), row 0 = the image's first row in memory (for a GL
// texture that is the bottom row). Element (x, y) is the inclusive sum of the channel over all
// pixels (x', y') with x' <= x and y' <= y. U32 tables are exact for 8-bit input and box sums stay
// exact under wrap-around (a box of up to 2^24 pixels fits in 32 bits); F32 tables are the paper's.
// Both are run-to-run deterministic with every method: F32 elements are summed in an order fixed
// by the pixel's position (block scans of rows and columns; no look-back ever combines floats), so
// every build of a frame gives the same bits (tests/test_sat_determinism.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scandof/hdr.hpp"
#include "scandof/scan.hpp"

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#else
typedef unsigned long long cudaTextureObject_t;
typedef struct CUevent_st* cudaEvent_t;
#endif

namespace scandof {

enum class SatFormat : int { U32 = 0, F32 = 1 };

// Where each channel's sums go.
enum class SatLayout : int {
  // `channels` planes one after another (the paper's layout; the scans and the benchmarks use it).
  Planar = 0,
  // 4 words per pixel, R G B A sums side by side (words >= channels are 0): a reader gets every
  // channel of one corner with one 16-byte load, which is what a depth-of-field gather wants
  // (16 corners per pixel). Built directly by the last pass of every method; same element type.
  Interleaved = 1,
};

// How the table is built.
enum class SatMethod : int {
  // The paper's pipeline: de-interleave RGBA8 into planes, scan all rows, transpose (tiled,
  // conflict-free), scan all rows again, transpose back. Rows are scanned with the chosen
  // ScanAlgorithm's block scan.
  Paper = 0,
  // The fastest path: no separate de-interleave or transpose passes. Reduce-then-scan over
  // 128 x 32 tiles straight from the RGBA8 pixels (tile row/column/total sums, small scans of
  // those, then each tile's 2D scan plus its offsets): the table is written once. Ignores the
  // ScanAlgorithm. Needs scratch of about 0.5 B per pixel.
  Fused = 1,
  // The two-pass fused path, the one float tables of RGBA16F frames or of images over 2^32/255
  // pixels take (Fused, FusedOnePass, FusedResident hand them over: it sums in float): rows scanned
  // straight from the pixels into the table, then an in-place column scan with coalesced loads
  // (the table makes one extra round trip).
  FusedTwoPass = 2,
  // Fused's tiles in one kernel: each tile reads its pixels once and finds the sums left of and
  // above it by a 2D decoupled look-back over the tiles before it (no second read of the pixels,
  // no kernel boundaries). Ignores the ScanAlgorithm. Its own scratch of about 8 B per pixel,
  // kept across builds (cleared only when it grows). Each build takes a new look-back epoch from
  // the host, so it cannot be captured into a CUDA graph (build() throws std::invalid_argument
  // on a capturing stream); the other methods can, and replay exactly.
  FusedOnePass = 3,
  // Fused's three phases in one cooperative kernel of resident blocks (sat_resident.cuh): each
  // tile's pixels are read once and kept in shared memory from the reduce to the scan, and two
  // grid-wide barriers replace the kernel boundaries. Same scratch as Fused. Where the device has
  // no cooperative launch it runs Fused's three kernels.
  FusedResident = 4,
};

constexpr int kNumSatMethods = 5;

const char* to_string(SatFormat f);  // "u32", "f32"
const char* to_string(SatMethod m);  // "paper", "fused", "fused-two-pass"
// Inverses of to_string (kernels/src/scan_names.cpp). Throw std::invalid_argument naming the
// choices.
SatFormat parse_sat_format(const std::string& name);
SatMethod parse_sat_method(const std::string& name);

// What a pixel is. Rgba8: the LDR frame, summed as integers 0..255. Rgba16F: linear radiance as
// IEEE half (the HDR frame), summed in the fixed point of SatInput::fixed (scandof/hdr.hpp) into
// U32 tables, exactly, or as float radiance into F32 tables (NaN and negative values as 0).
enum class SatPixels : int { Rgba8 = 0, Rgba16F = 1 };
const char* to_string(SatPixels p);  // "rgba8", "rgba16f"

// Where the pixels come from: either a texture object over a cudaArray (GL interop;
// cudaReadModeElementType, unnormalized integer coordinates; uchar4 for Rgba8, a 16-bit float4
// array, read as float4, for Rgba16F) or a pitched device pointer.
struct SatInput {
  cudaTextureObject_t texture = 0;  // used when nonzero
  const void* pixels = nullptr;     // uchar4 (Rgba8) or 4 x uint16_t halves (Rgba16F) per pixel
  std::size_t pitch_bytes = 0;      // bytes between rows of `pixels`
  int width = 0, height = 0;
  SatPixels format = SatPixels::Rgba8;
  // Rgba16F into U32 tables: the encoding (hdr_fixed_point()); ignored otherwise.
  SatFixedPoint fixed;
  // Optional device pointer to one uint32: the build sets it to the number of pixels that had a
  // channel (of the `channels` built) clamped by quantize_radiance (Rgba16F into U32 only; 0
  // otherwise). Written on the build's stream; the caller reads it when it likes.
  uint32_t* clamp_count = nullptr;
};

// GPU time of each stage of the last build(), in milliseconds (from CUDA events; stages a method
// does not have are 0). Reading them synchronizes on the last build's end event. The fused paths
// report two stages: row_scan_ms (Fused: tile reduce + small scans; FusedTwoPass: row scans from
// the pixels) and column_scan_ms (Fused: tile scans; FusedTwoPass: column scans); FusedOnePass
// and FusedResident report their one kernel as column_scan_ms.
struct SatStageTimes {
  float deinterleave_ms = 0, row_scan_ms = 0, transpose_ms = 0, column_scan_ms = 0,
        transpose_back_ms = 0, total_ms = 0;
};

// Owns scratch memory (resized on demand; explicit, never static) and the timing events.
class SatBuilder {
 public:
  SatBuilder();
  ~SatBuilder();
  SatBuilder(const SatBuilder&) = delete;
  SatBuilder& operator=(const SatBuilder&) = delete;

  // Bytes of the output tables: channels * width * height * 4 (Planar) or 16 * width * height
  // (Interleaved).
  static std::size_t table_bytes(int width, int height, int channels = 3,
                                 SatLayout layout = SatLayout::Planar);

  // Builds `channels` (1..4, from R) tables into d_out (table_bytes() bytes of device memory,
  // uint32_t or float by `format`). Asynchronous on `stream`; with `timed`, stage events are
  // recorded (a little overhead) and stage_times() reports them.
  void build(const SatInput& in, void* d_out, SatFormat format, SatMethod method,
             ScanAlgorithm algo, cudaStream_t stream = 0, bool timed = false, int channels = 3,
             SatLayout layout = SatLayout::Planar);

  // Stage times of the last timed build; waits for it to finish (tools, tests, benchmarks).
  SatStageTimes stage_times();

  // For a frame loop that must not stall: the stage times of the newest timed build that the GPU
  // has finished, read with cudaEventQuery only. Timed builds rotate through a ring of event sets
  // (kTimingRing deep), so a build's times can be read up to kTimingRing - 1 builds later.
  // Returns false (and leaves `out`) when no timed build has finished since the last true.
  bool poll_stage_times(SatStageTimes& out);
  static constexpr int kTimingRing = 4;

  // Frees the scratch memory (it grows to the largest build and is kept); the next build
  // allocates what its size needs. For a caller whose sizes change now and then (a resized
  // frame): without it, device memory stays at the largest size seen. Waits for the device
  // (cudaFree).
  void release_scratch();

 private:
  struct Impl;
  Impl* impl_;
};

// CPU reference: tables of an RGBA8 image (4 bytes per pixel, rows of width pixels).
void sat_gold(const uint8_t* rgba, int width, int height, uint32_t* out, int channels = 3,
              SatLayout layout = SatLayout::Planar);
void sat_gold(const uint8_t* rgba, int width, int height, float* out, int channels = 3,
              SatLayout layout = SatLayout::Planar);
// CPU reference for HDR frames: `rgba` is 4 floats per pixel (an RGBA16F frame as float; every
// half is a float exactly). U32: every value through quantize_radiance(v, fp), the tables summed
// modulo 2^32; returns the number of pixels with a channel (< channels) clamped. F32: radiance
// summed in float (NaN and negative values as 0, nothing clamped above), returns 0.
uint64_t sat_gold_hdr(const float* rgba, int width, int height, const SatFixedPoint& fp,
                      uint32_t* out, int channels = 3, SatLayout layout = SatLayout::Planar);
uint64_t sat_gold_hdr(const float* rgba, int width, int height, float* out, int channels = 3,
                      SatLayout layout = SatLayout::Planar);
// The same frame's values as fixed point, 4 per pixel (all four channels), and the clamped-pixel
// count over the first `channels`: what every backend sums.
uint64_t quantize_frame(const float* rgba, int width, int height, const SatFixedPoint& fp,
                        uint32_t* q, int channels = 3);

}  // namespace scandof
