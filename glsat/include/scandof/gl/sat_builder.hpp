// Summed-area tables built with OpenGL 4.3 compute shaders, straight from the rendered RGBA8
// colour texture (no read-back): the SAT backend for GPUs without CUDA (issue 12).
//
// Output: one GL buffer (SSBO) of 4 words per pixel, element (x, y) at word 4 * (y * width + x):
// R, G, B inclusive sums over x' <= x, y' <= y, 4th word 0; row 0 = the texture's bottom row (GL
// order). uint32 words (exact, wrapping modulo 2^32) or float32 bit patterns. This is
// scandof::SatLayout::Interleaved of kernels/include/scandof/sat.hpp.
//
// Variants: the paper's pipeline (rows scanned from the pixels into the table, then the table's
// columns scanned in place, each line longer than one 512-element block by the paper's arbitrary-
// size scan: block sums scanned and added back) with four block scans, and a fused reduce-then-
// scan path over 128 x 32 tiles ported from kernels/include/scandof/device/sat_tiled.cuh.
//
// Needs a current GL >= 4.3 context (glad loaded). Shader files, from the folder given:
// sat_lines.comp (+ sat_block_scan.glsl), sat_fused_reduce.comp and sat_fused_scan.comp
// (+ sat_fused_common.glsl), sat_fused_aux.comp. The fused path sums in uint32; float tables of
// more than 2^32/255 pixels take the work-efficient pipeline instead (float sums), as on the CUDA
// side.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scandof/gl/util.hpp"
#include "scandof/sat.hpp"

namespace scandof::gl {

enum class GlSatVariant : int {
  Naive = 0,          // Hillis-Steele, double-buffered in shared memory
  WorkEfficient = 1,  // Blelloch up-sweep / down-sweep
  ConflictFree = 2,   // Blelloch with padded shared-memory indices
  Subgroup = 3,       // subgroupInclusiveAdd (KHR_shader_subgroup) or a shared-memory emulation
  Fused = 4,          // reduce-then-scan over 128x32 tiles: 3 dispatches, table written once
};
constexpr int kNumGlSatVariants = 5;
const char* to_string(GlSatVariant v);  // "naive", "work-efficient", ... "fused"
// Parses to_string()'s names; throws std::invalid_argument listing them otherwise.
GlSatVariant parse_gl_sat_variant(const std::string& s);

// What the current context offers. Queried, never assumed: call with the context current.
struct GlSatSupport {
  bool usable = false;          // GL >= 4.3 with compute shaders: every variant runs
  bool subgroup = false;        // GL_KHR_shader_subgroup arithmetic in compute shaders
  int subgroup_size = 0;        // 0 when not offered
  bool fused_subgroup = false;  // the fused path uses subgroup ops (needs subgroup size 32)
  bool pixels_by_size = false;  // RGBA8 may be bound as an r32ui image (formats match by size)
  bool lookback = false;  // GlSatTuning::fused_single_pass is safe (not on software rasterizers)
  // The fused path builds in one pass by default (default_gl_sat_tuning): where lookback holds
  // on NVIDIA's driver, which keeps running workgroups progressing and where the one pass was
  // measured fastest (H100 1080p 0.038 ms against the three passes' 0.047, session 20). Other
  // drivers keep the three passes: GL promises no forward progress between workgroups.
  bool one_pass = false;
  int shared_bytes = 0;  // GL_MAX_COMPUTE_SHARED_MEMORY_SIZE
  int sm_count = 0;      // GL_SM_COUNT_NV where GL_NV_shader_thread_group is offered, else 0
  std::string reason;    // human-readable: why usable or not, which scan is native
};
GlSatSupport query_gl_sat_support();

// GPU time of the stages of a recent timed build (GlTimer: timestamps read a few builds late from
// a ring, never stalling). Paper variants: rows (block scans of the rows from the pixels, block
// sums, add), columns (the same down the table's columns). Fused: rows_ms = tile reduce + small
// scans, columns_ms = tile scans, aux_ms = the small scans alone (within rows_ms); single-pass
// fused: columns_ms = the one pass, rows_ms = aux_ms = 0. valid is false until enough timed
// builds went through the ring (GlTimer's 4, plus one) for a result to have been read.
struct GlSatStageTimes {
  float rows_ms = 0, columns_ms = 0, total_ms = 0, aux_ms = 0;
  bool valid = false;
};

// Alternatives kept for measurement (glsatbench); the defaults are the ones to use.
struct GlSatTuning {
  // Fused: results leave through shared memory a tile row at a time, so each store instruction
  // writes 512 contiguous bytes (the default); off: each lane stores its 4 contiguous 16-byte
  // words directly. On the H100 (session 16) staged 0.0506 against direct 0.0608 ms at 1080p.
  // Before the staging used workgroup barriers (subgroupBarrier compiled to a device-wide MEMBAR
  // on NVIDIA) the direct stores had been 1-3 % faster.
  bool fused_staged_stores = true;
  // Pixels read through an r32ui view of the RGBA8 texture (one packed word per texel), where
  // the driver matches image formats by size (query_gl_sat_support's pixels_by_size); off, or
  // where it does not: through an rgba8 image, repacked with packUnorm4x8.
  bool pixels_as_r32ui = true;
  // Fused: pixels fetched by textureGather through an r32ui texture view of the RGBA8 texture
  // (2x2 packed pixels per instruction instead of one per image load). Needs an immutable
  // texture (glTexStorage); otherwise the image path above is used. On the H100 it took the
  // 1080p build from 0.071 to 0.064-0.067 ms (results/sat/gl/README.md).
  bool pixels_gather = true;
  // Fused in one dispatch with decoupled look-back between tiles (sat_fused_single.comp) instead of
  // three (tile reduce, small scans, tile scans): on the H100 1080p 0.038 ms against 0.047, 4K
  // 0.109 against 0.114 (session 20). It relies on running workgroups progressing while one waits
  // on another, which GL does not promise; check GlSatSupport::lookback before turning it on.
  // The builder starts with it on where GlSatSupport::one_pass (default_gl_sat_tuning).
  bool fused_single_pass = false;
  // Fused as ticket-ordered phases of one dispatch (sat_fused_phased.comp: reduce, small scans,
  // scan, with no dispatch boundary between them); on the H100 1080p 0.042 ms against the three
  // passes' 0.047 (session 19). Like fused_single_pass it relies on running workgroups progressing,
  // which GL does not promise: check GlSatSupport::lookback before turning it on.
  bool fused_phased = false;
  // The phased path's reduce and scan workgroups each take this many tiles in turn; 0 picks 2
  // where the tiles are more than one wave of workgroups (3 an SM, GlSatSupport::sm_count) but
  // at most two, so that pairs make one wave with no tail; else 1. H100 (396 workgroups at once),
  // stream ms with 1 / 2: 512x512 (64 tiles) 0.0205 / 0.0246, 1024x1024 (256) 0.0268 / 0.0325,
  // 1536x1024 (384) 0.0319 / 0.0380, 1920x1080 (510) 0.0454 / 0.0420, 2560x1440 (900) 0.0616 /
  // 0.0684, 3840x2160 (2040) 0.1155 / 0.1157 (results/sat/gl/README.md, session 19).
  int phased_reduce_tiles = 0, phased_scan_tiles = 0;
};

// The tuning a builder starts with on this context: the defaults above, plus the one-pass fused
// build where support.one_pass.
GlSatTuning default_gl_sat_tuning(const GlSatSupport& support);

class GlSatBuilder {
 public:
  // shader_dir: folder holding the sat_* shader files. Checks support (throws std::runtime_error
  // with the reason when the context cannot run compute shaders); programs are built lazily, the
  // first time a (variant, format) is used.
  explicit GlSatBuilder(std::string shader_dir);
  GlSatBuilder(const GlSatBuilder&) = delete;
  GlSatBuilder& operator=(const GlSatBuilder&) = delete;

  const GlSatSupport& support() const { return support_; }

  // Bytes of the output buffer: width * height * 16.
  static std::size_t table_bytes(int width, int height);

  // Builds the table of `rgba8_texture` (a GL_RGBA8 2D texture: the lower-left width x height
  // pixels of level 0) into the builder's own buffer (output()). Asynchronous: ends with
  // glMemoryBarrier(SHADER_STORAGE | UNIFORM | BUFFER_UPDATE | CLIENT_MAPPED) so any later reader
  // of the buffer sees the table.
  // With `timed`, the stages are bracketed by GlTimers (timestamp pairs, so they may nest inside
  // the caller's own timers); stage_times() reports them a few timed builds later.
  // GL state left behind: image unit 0 and SSBO binding points 0..4 point at the builder's
  // objects (with pixels_gather, texture unit SAT_UNIT_PIXELS at a deleted view, and no sampler
  // object there); the current program is 0.
  // Throws std::invalid_argument on bad sizes or a texture that is not RGBA8 or too small.
  void build(GLuint rgba8_texture, int width, int height, GlSatVariant variant,
             scandof::SatFormat format, bool timed = false);
  // The same into a caller's buffer of at least table_bytes(width, height) bytes at offset 0.
  void build_into(GLuint rgba8_texture, int width, int height, GlSatVariant variant,
                  scandof::SatFormat format, GLuint out_buffer, bool timed = false);

  // The floor glsatbench puts beside the fused path: every pixel loaded once and its 16-byte
  // word, unscanned, stored once into output() (or out_buffer, as build_into), both coalesced
  // (sat_floor.comp).
  void write_floor(GLuint rgba8_texture, int width, int height, GLuint out_buffer = 0);

  GLuint output() const { return out_.get(); }
  void set_tuning(const GlSatTuning& t) { tuning_ = t; }
  GlSatStageTimes stage_times() const;
  // Measurement only (glsatbench --trace-phased): phased and one-pass builds record each
  // workgroup's SM and clock marks into `buffer` (3 uvec4 per workgroup; sat_fused_trace.glsl).
  // Needs GL_ARB_shader_clock (throws std::runtime_error otherwise); the SM is recorded where
  // GL_NV_shader_thread_group is offered (else ~0). 0 turns it off.
  void set_phase_trace(GLuint buffer);
  // Bytes a trace buffer needs for a width x height phased or one-pass build (the phased one's
  // most workgroups, 48 each).
  static std::size_t phase_trace_bytes(int width, int height);

  // Compiles every program for both formats now (so the first frame does not hitch).
  void warm_up();

  // Writes every program built so far, as the driver returns it from glGetProgramBinary, to
  // dir/<shader>[__<define>...].bin (dir is created), for reading what the compiler made of a
  // shader (NVIDIA's blobs carry the generated assembly as text). Returns the paths written;
  // throws std::runtime_error where a write fails. Programs whose driver offers no binary format
  // are skipped.
  std::vector<std::string> dump_programs(const std::string& dir) const;

 private:
  GLuint program(const std::string& file, const std::vector<std::string>& defines);
  // fused_staged_stores' define.
  void add_staging_defines(std::vector<std::string>& defs) const;
  // PHASE_TRACE and the trace buffer's binding, where set_phase_trace gave one.
  void add_trace(std::vector<std::string>& defs) const;
  static void check_input(GLuint tex, int width, int height);
  // Binds the pixels for the shaders (image unit 0; with `gather`, an r32ui view on texture unit
  // SAT_UNIT_PIXELS, returned so it lives through the build) and adds the matching define.
  GlTexture bind_pixels(GLuint tex, bool gather, std::vector<std::string>& defines);
  void ensure_output(int width, int height);  // out_ holds at least table_bytes(width, height)
  void ensure_scratch(std::size_t bytes);
  void ensure_lookback_flags(std::size_t tiles);

  std::string dir_;
  GlSatSupport support_;
  std::map<std::string, GlProgram> programs_;  // key: file + defines
  GlBuffer out_;
  std::size_t out_bytes_ = 0;
  GlBuffer scratch_;
  std::size_t scratch_bytes_ = 0;
  // The single-pass fused path's tile counter and flags, and where this build's epoch and ids
  // start (see sat_fused_single.comp).
  GlBuffer flags_;
  std::size_t flag_words_ = 0;
  std::uint32_t epoch_ = 0, id_base_ = 0;
  // The phased path's counters (tickets, tiles reduced, small-scan groups done) and their values
  // when the next build starts.
  GlBuffer phase_counters_;
  std::array<std::uint32_t, 3> phase_base_{};
  GLuint phase_trace_ = 0;         // not owned
  bool last_single_pass_ = false;  // the last timed build: stage_times() has one stage
  std::array<GlTimer, 3> timers_;
  GlSatTuning tuning_;
  int timed_builds_ = 0;
};

}  // namespace scandof::gl
