// Summed-area tables built with OpenGL 4.3 compute shaders, straight from the rendered colour
// texture (no read-back): the SAT backend for GPUs without CUDA. The texture is GL_RGBA8 (the LDR
// frame, summed as integers 0..255) or GL_RGBA16F (linear radiance, the HDR frame): uint32 tables
// of it hold the fixed point of a scandof::SatFixedPoint the caller passes (scandof/hdr.hpp,
// quantized in glsat/shaders/sat_hdr.glsl exactly as scandof::quantize_radiance does, so the table
// equals scandof::sat_gold_hdr bit for bit) and count the pixels clamped (clamp_count()); float
// tables hold radiance sums (NaN and negative values as 0).
//
// Output: one GL buffer (SSBO) of 4 words per pixel, element (x, y) at word 4 * (y * width + x):
// R, G, B inclusive sums over x' <= x, y' <= y, 4th word 0; row 0 = the texture's bottom row (GL
// order). uint32 words (exact, wrapping modulo 2^32) or float32 bit patterns. This is
// scandof::SatLayout::Interleaved of kernels/include/scandof/sat.hpp.
//
// Variants: the paper's pipeline (sat_lines.comp + sat_block_scan.glsl: rows scanned from the
// pixels into the table, then the table's columns in place, lines longer than one 512-element
// block by the paper's arbitrary-size scan) with four block scans, and a fused path over 128 x 32
// tiles ported from kernels/include/scandof/device/sat_tiled.cuh, in the shape GlSatPolicy names:
// three passes (sat_fused_reduce.comp, sat_fused_aux.comp, sat_fused_scan.comp) or one pass with
// decoupled look-back (sat_fused_single.comp); default_policy() picks by support. The fused path
// sums in uint32; float tables of more than 2^32/255 pixels take the work-efficient pipeline
// (float sums), as on the CUDA side. Pixels are read as packed r32ui where the driver matches
// image formats by size (else through an rgba8 image), by textureGather from an r32ui view where
// the texture is immutable (else by image loads). RGBA16F pixels: the fused path takes their raw
// halves (2 words a pixel where RGBA8 keeps one packed word) by textureGather from an rg32ui view
// where the texture is immutable (else through an rgba16f image) and quantizes them where it sums
// them; the paper's pipeline reads them through the rgba16f image in its row pass only, and float
// tables of them take the work-efficient pipeline rather than the fused path (sums in uint32).
//
// Needs a current GL >= 4.3 context (glad loaded) and the shader folder (glsat/shaders).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
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
  Fused = 4,          // 128x32 tiles, table written once; three passes or one (GlSatPolicy)
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
  // GlSatFusedBuild::OnePass can run: compute shaders with the 6 shader storage blocks it binds.
  // It assumes no forward progress between workgroups (a waiter that waits too long computes
  // what it waits for: sat_fused_single.comp's decoupled fallback), so no driver is left out.
  bool lookback = false;
  // The fused path builds in one pass by default (see default_policy): where lookback holds,
  // except on software rasterizers, where the three passes measured faster.
  bool one_pass = false;
  int shared_bytes = 0;   // GL_MAX_COMPUTE_SHARED_MEMORY_SIZE
  int sm_count = 0;       // GL_SM_COUNT_NV where GL_NV_shader_thread_group is offered, else 0
  std::string reason;     // human-readable: why usable or not, which scan is native
};
GlSatSupport query_gl_sat_support();

// GPU time of the stages of a recent timed build (GlTimer: timestamps read a few builds late from
// a ring, never stalling). Paper variants: rows (block scans of the rows from the pixels, block
// sums, add), columns (the same down the table's columns). Fused: rows_ms = tile reduce + small
// scans, columns_ms = tile scans, aux_ms = the small scans alone (within rows_ms); one-pass
// fused: columns_ms = the one pass, rows_ms = aux_ms = 0. valid is false until enough timed
// builds went through the ring (GlTimer's 4, plus one) for a result to have been read.
struct GlSatStageTimes {
  float rows_ms = 0, columns_ms = 0, total_ms = 0, aux_ms = 0;
  bool valid = false;
};

// The fused build's shape: three dispatches (tile reduce, small scans, tile scans) or one
// dispatch whose tiles find their offsets by decoupled look-back over the tiles before them.
enum class GlSatFusedBuild { ThreePasses, OnePass };

// What the builder chooses among correct ways; benchmarks and tests set it from outside.
struct GlSatPolicy {
  // RGBA8 textures' fused build, and RGBA16F ones' unless fused_rgba16f is set.
  GlSatFusedBuild fused = GlSatFusedBuild::ThreePasses;
  // RGBA16F textures' own fused build (their one pass holds twice the pixel words through the
  // look-back and quantizes each pixel twice, so its best shape may differ); nullopt: `fused`.
  std::optional<GlSatFusedBuild> fused_rgba16f;
  GlSatFusedBuild fused_for(bool rgba16f) const {
    return rgba16f && fused_rgba16f ? *fused_rgba16f : fused;
  }
  // The one pass's look-back: polls of a predecessor's flag before the workgroup computes that
  // tile's sums from its pixels itself (0 .. kMaxLookbackPolls, an invocation's budget of polls in
  // all; 0 forces that fallback on every tile, the tests' policy). Any value gives the same tables.
  int lookback_polls = kDefaultLookbackPolls;
  static constexpr int kDefaultLookbackPolls = 1024, kMaxLookbackPolls = 4096;
};

// One pass where support.one_pass (every GPU driver with the storage blocks it needs): on the
// H200 1080p 0.0363 ms against the three passes' 0.0478, 4K 0.0970 against 0.1029
// (results/sat/README.md). A ticket-ordered phased build (the three passes as phases of one dispatch; see commit 2d8ac9a)
// measured 0.0424 ms at 1080p against the one pass's 0.0382 on the H100, and was removed.
// RGBA16F textures: the same rule, chosen on its own measurement: on the H200 at 1080p their one
// pass 0.0639 ms against the three passes' 0.0738 (results/sat/README.md).
GlSatPolicy default_policy(const GlSatSupport& support);

class GlSatBuilder {
 public:
  // shader_dir: folder holding the sat_* shader files. Checks support (throws std::runtime_error
  // with the reason when the context cannot run compute shaders); programs are built lazily, the
  // first time a (variant, format) is used. The policy is default_policy(support()).
  explicit GlSatBuilder(std::string shader_dir);
  // With `policy` (throws std::invalid_argument as set_policy does).
  GlSatBuilder(std::string shader_dir, const GlSatPolicy& policy);
  // With the capabilities of `limits` that the context has too: tests reach the fallbacks this
  // way (pixels_by_size off: the rgba8 image path; fused_subgroup or subgroup off: shared-memory
  // teams; lookback off: no one pass). The sizes and counts are the context's.
  GlSatBuilder(std::string shader_dir, const GlSatPolicy& policy, const GlSatSupport& limits);
  GlSatBuilder(const GlSatBuilder&) = delete;
  GlSatBuilder& operator=(const GlSatBuilder&) = delete;

  const GlSatSupport& support() const { return support_; }
  const GlSatPolicy& policy() const { return policy_; }
  // Throws std::invalid_argument with support().reason where the policy asks for the one pass
  // (for either pixel format) and support().lookback is false, or where lookback_polls is out of
  // its range.
  void set_policy(const GlSatPolicy& policy);

  // Bytes of the output buffer: width * height * 16.
  static std::size_t table_bytes(int width, int height);

  // Builds the table of `rgba8_texture` (a GL_RGBA8 2D texture: the lower-left width x height
  // pixels of level 0) into the builder's own buffer (output()). Asynchronous: ends with
  // glMemoryBarrier(SHADER_STORAGE | UNIFORM | BUFFER_UPDATE | CLIENT_MAPPED) so any later reader
  // of the buffer sees the table.
  // With `timed`, the stages are bracketed by GlTimers (timestamp pairs, so they may nest inside
  // the caller's own timers); stage_times() reports them a few timed builds later.
  // GL state left behind: image unit 0 and SSBO binding points 0..4 point at the builder's
  // objects (on the gather path, texture unit SAT_UNIT_PIXELS at a deleted view, and no sampler
  // object there); the current program is 0.
  // Throws std::invalid_argument on bad sizes, a texture that is neither GL_RGBA8 nor GL_RGBA16F
  // or is too small, or an RGBA16F texture into U32 tables (which need the overload with a
  // SatFixedPoint).
  void build(GLuint rgba8_texture, int width, int height, GlSatVariant variant,
             scandof::SatFormat format, bool timed = false);
  // The same into a caller's buffer of at least table_bytes(width, height) bytes at offset 0.
  void build_into(GLuint rgba8_texture, int width, int height, GlSatVariant variant,
                  scandof::SatFormat format, GLuint out_buffer, bool timed = false);
  // Either texture format; a GL_RGBA16F texture into U32 tables is summed in `fixed`
  // (scandof::hdr_fixed_point(); frac_bits 0..24, max_value 1..2^24, else std::invalid_argument),
  // which RGBA8 textures and F32 tables ignore. Such a build also counts its clamped pixels: one
  // store to zero the next build's counter and a timestamp query after it (no other cost unless
  // pixels clamp).
  void build(GLuint texture, int width, int height, GlSatVariant variant, scandof::SatFormat format,
             const scandof::SatFixedPoint& fixed, bool timed = false);
  void build_into(GLuint texture, int width, int height, GlSatVariant variant,
                  scandof::SatFormat format, const scandof::SatFixedPoint& fixed, GLuint out_buffer,
                  bool timed = false);

  // Pixels of the last build with any of R, G, B clamped by the fixed point (above its limit, NaN
  // or negative; -0 is not): what scandof::sat_gold_hdr returns. 0 after a build of an RGBA8
  // texture or into F32 tables. A sync point: reads a word back, waiting for that build.
  std::uint32_t clamp_count();
  // For a frame loop that must not stall: the clamp count of the newest build the GPU has
  // finished since the last true, by a timestamp query after the build (its result available),
  // never waiting.
  // Builds rotate through a ring of kClampRing counters, so a count can be read up to
  // kClampRing - 1 builds late; older unread ones are dropped. Returns false (and leaves `out`)
  // when no build has finished since the last true.
  bool poll_clamp_count(std::uint32_t& out);
  static constexpr int kClampRing = 4;

  GLuint output() const { return out_.get(); }
  // Tiles whose aggregates a waiting workgroup computed itself (the decoupled fallback; a tile
  // helped by two counts twice), over every one-pass build of this builder. Reads a word back:
  // waits for the builds.
  std::uint64_t lookback_helps();
  GlSatStageTimes stage_times() const;

  // Compiles every program for both formats now (so the first frame does not hitch); with
  // `with_rgba16f`, those of RGBA16F textures too (about a third more programs).
  void warm_up(bool with_rgba16f = false);

  // Writes every program built so far, as the driver returns it from glGetProgramBinary, to
  // dir/<shader>[__<define>...].bin (dir is created), for reading what the compiler made of a
  // shader (NVIDIA's blobs carry the generated assembly as text: local-memory arrays show there).
  // Returns the paths written; throws std::runtime_error where a write fails. Programs whose
  // driver offers no binary format are skipped.
  std::vector<std::string> dump_programs(const std::string& dir) const;

 private:
  GLuint program(const std::string& file, const std::vector<std::string>& defines);
  // Returns whether the texture is GL_RGBA16F (else it is GL_RGBA8); throws otherwise.
  static bool check_input(GLuint tex, int width, int height);
  // `fixed` is null for the RGBA8 calls.
  void build_impl(GLuint tex, int width, int height, GlSatVariant variant,
                  scandof::SatFormat format, const scandof::SatFixedPoint* fixed, GLuint out,
                  bool timed);
  // build_impl's steps, in the order it takes them: the pixels bound (the gather view returned,
  // to live through the build), then the dispatches of one of the three shapes of a build.
  struct Build;
  GlTexture bind_build_pixels(const Build& b, std::vector<std::string>& defines);
  void build_fused_one_pass(const Build& b, const std::vector<std::string>& fused_defs);
  void build_fused_three_passes(const Build& b, const std::vector<std::string>& fused_defs);
  void build_lines(const Build& b, const std::vector<std::string>& pixel_defs);
  // The fixed point's uniforms (and with `counts` the clamp words) of a quantizing program.
  void set_fixed(const Build& b, bool counts) const;
  // Binds the pixels for the shaders (image unit 0; with `gather`, an r32ui view on texture unit
  // SAT_UNIT_PIXELS where the texture is immutable, returned so it lives through the build) and
  // adds the matching define.
  GlTexture bind_pixels(GLuint tex, bool gather, std::vector<std::string>& defines);
  // Where `tex` is immutable: a `format` view of it (GL_R32UI for RGBA8, GL_RG32UI for RGBA16F:
  // the same texel size) bound on texture unit SAT_UNIT_PIXELS, nearest and clamped, with
  // PIXELS_GATHER added and the view returned; otherwise nothing.
  GlTexture bind_gather_view(GLuint tex, GLenum format, std::vector<std::string>& defines);
  // The clamp counters (made and zeroed once) bound at SAT_BINDING_CLAMPS.
  void begin_clamp_count();
  void end_clamp_count(bool counted);
  void set_clamp_words() const;
  std::uint32_t read_clamp_word(std::uint64_t build) const;
  void ensure_output(int width, int height);  // out_ holds at least table_bytes(width, height)
  void ensure_scratch(std::size_t bytes);
  void ensure_lookback_flags(std::size_t tiles);

  std::string dir_;
  GlSatSupport support_;
  GlSatPolicy policy_;
  std::map<std::string, GlProgram> programs_;  // key: file + defines
  GlBuffer out_;
  std::size_t out_bytes_ = 0;
  GlBuffer scratch_;
  std::size_t scratch_bytes_ = 0;
  // The one-pass build's tile counter and flags, and where this build's epoch and ids start (see
  // sat_fused_single.comp).
  GlBuffer flags_;
  std::size_t flag_words_ = 0;
  std::uint32_t epoch_ = 0, id_base_ = 0;
  std::uint64_t helps_before_clear_ = 0;  // lookback_helps() of the buffers cleared so far
  bool last_one_pass_ = false;  // the last timed build: stage_times() has one stage
  std::array<GlTimer, 3> timers_;
  int timed_builds_ = 0;
  // Clamp counters: kClampWords words kClampStride words apart, one per counting build in turn
  // (clamp_words_used_ so far). A counting build zeroes the next one's word itself (sat_hdr.glsl's
  // flush_clamps): with its own word and the kClampRing unread builds' words that is
  // kClampRing + 2 words. So no build pays for a clear: clearing its word
  // (glClearNamedBufferSubData and a barrier) and fencing the build (glFenceSync) took 0.0106 ms
  // of every RGBA16F build, the one pass at 1920x1080 0.0800 against 0.0694 ms on the H100
  // (results/sat/README.md). A timestamp query marks a counting build finished instead of the
  // fence. Per build b, at b % kClampWords: its word (-1 where it counted nothing), its query.
  // Builds clamp_read_ .. clamp_next_ - 1 are not read by poll_clamp_count() yet.
  static constexpr int kClampWords = kClampRing + 2;
  static constexpr std::size_t kClampStride = 64;
  GlBuffer clamps_;
  std::array<GlQuery, kClampWords> clamp_done_;
  std::array<int, kClampWords> clamp_word_{};
  std::uint64_t clamp_words_used_ = 0;
  std::uint64_t clamp_next_ = 0, clamp_read_ = 0;
};

}  // namespace scandof::gl
