#include "scandof/gl/sat_builder.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "shared.h"
#include "scandof/util/file_io.hpp"

namespace scandof::gl {

namespace {

// KHR_shader_subgroup enums (not in the generated GL 4.5 core loader).
constexpr GLenum kSubgroupSize = 0x9532;
constexpr GLenum kSubgroupStages = 0x9533;
constexpr GLenum kSubgroupFeatures = 0x9534;
constexpr GLint kSubgroupFeatureBasic = 0x1;
constexpr GLint kSubgroupFeatureArithmetic = 0x4;

constexpr int kBlock = 512;  // elements per block scan (2 per thread of 256)
constexpr int kTileW = 128, kTileH = 32;

const char* const kVariantNames[kNumGlSatVariants] = {"naive", "work-efficient", "conflict-free",
                                                      "subgroup", "fused"};

// GL_NV_shader_thread_group's SM count query (the loader is generated for the core profile).
#ifndef GL_SM_COUNT_NV
#define GL_SM_COUNT_NV 0x933B
#endif
int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

// Immutable storage with no access flags: GPU-only memory, which nothing here maps or uploads
// (measured no faster than glNamedBufferData's DYNAMIC_COPY on the H100, but it says so).
void allocate(GLuint buf, std::size_t bytes) {
  glNamedBufferStorage(buf, static_cast<GLsizeiptr>(bytes), nullptr, 0);
}

// Every SAT shader takes the image size at uniform locations 0 and 1.
void use_program(GLuint prog, int width, int height) {
  glUseProgram(prog);
  glUniform1i(0, width);
  glUniform1i(1, height);
}

void dispatch(GLuint x, GLuint y) {
  if (x == 0 || y == 0) return;
  glDispatchCompute(x, y, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

}  // namespace

const char* to_string(GlSatVariant v) {
  const int i = static_cast<int>(v);
  return i >= 0 && i < kNumGlSatVariants ? kVariantNames[i] : "?";
}

GlSatVariant parse_gl_sat_variant(const std::string& s) {
  for (int i = 0; i < kNumGlSatVariants; ++i)
    if (s == kVariantNames[i]) return static_cast<GlSatVariant>(i);
  std::string all;
  for (int i = 0; i < kNumGlSatVariants; ++i) all += std::string(i ? ", " : "") + kVariantNames[i];
  throw std::invalid_argument("unknown GL SAT variant '" + s + "' (one of " + all + ")");
}

GlSatSupport query_gl_sat_support() {
  GlSatSupport s;
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  const std::string ver = "OpenGL " + std::to_string(major) + "." + std::to_string(minor);
  if (major < 4 || (major == 4 && minor < 3)) {
    s.reason = ver + ": compute shaders need OpenGL 4.3";
    return s;
  }
  GLint invocations = 0, shared = 0;
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  if (invocations < 256 || shared < 24 * 1024) {
    s.reason = ver + ": compute workgroups too small (" + std::to_string(invocations) +
               " invocations, " + std::to_string(shared) + " B shared; need 256 and 24 KiB)";
    return s;
  }
  s.usable = true;
  s.shared_bytes = shared;
  if (has_extension("GL_NV_shader_thread_group")) {
    GLint sms = 0;
    glGetIntegerv(GL_SM_COUNT_NV, &sms);
    s.sm_count = sms;
  }
  s.reason = ver + " compute shaders";
  GLint compat = 0;
  glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_IMAGE_FORMAT_COMPATIBILITY_TYPE, 1, &compat);
  s.pixels_by_size = compat == GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE;
  s.reason += s.pixels_by_size ? "; pixels as packed r32ui" : "; pixels through an rgba8 image";
  // The one pass needs no forward progress between workgroups (its decoupled fallback), only
  // its storage blocks: table, flags, rows, columns, tiles and the clamp counters.
  GLint blocks = 0;
  glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
  // Software rasterizers run it too (the tests do, under llvmpipe), but start with the three
  // passes: on llvmpipe (2 cores, Mesa 22.3) the 1080p one pass took 366 ms against the three
  // passes' 279 (glsatbench, results/sat/README.md), its barriers and team scans in shared
  // memory costing a CPU more than the second read of the pixels they save.
  s.lookback = blocks >= 6;
  s.one_pass = s.lookback && !software_renderer();
  s.reason += s.one_pass ? "; fused path in one pass (decoupled look-back with fallback)"
              : s.lookback
                  ? "; fused path in three passes (software rasterizer: measured faster than "
                    "the one pass, which runs where a policy asks)"
                  : "; fused path in three passes (the one pass binds 6 storage blocks, " +
                        std::to_string(blocks) + " offered)";
  if (!has_extension("GL_KHR_shader_subgroup")) {
    s.reason +=
        "; no GL_KHR_shader_subgroup: the subgroup variant and the fused path scan "
        "32-lane teams in shared memory instead";
    return s;
  }
  GLint stages = 0, features = 0, size = 0;
  glGetIntegerv(kSubgroupStages, &stages);
  glGetIntegerv(kSubgroupFeatures, &features);
  glGetIntegerv(kSubgroupSize, &size);
  glGetError();  // an implementation that lists the extension but rejects the enums: no subgroups
  const GLint need = kSubgroupFeatureBasic | kSubgroupFeatureArithmetic;
  if (!(stages & GL_COMPUTE_SHADER_BIT) || (features & need) != need) {
    s.reason +=
        "; GL_KHR_shader_subgroup lacks arithmetic in compute shaders: the subgroup "
        "variant and the fused path scan 32-lane teams in shared memory instead";
    return s;
  }
  s.subgroup = true;
  s.subgroup_size = size;
  s.fused_subgroup = size == 32;
  s.reason += "; subgroup arithmetic, subgroup size " + std::to_string(size);
  if (!s.fused_subgroup) s.reason += " (the fused path's 32-lane teams use shared memory)";
  return s;
}

GlSatPolicy default_policy(const GlSatSupport& support) {
  GlSatPolicy p;
  p.fused = support.one_pass ? GlSatFusedBuild::OnePass : GlSatFusedBuild::ThreePasses;
  p.fused_rgba16f = p.fused;  // measured apart: see default_policy's note
  return p;
}

GlSatBuilder::GlSatBuilder(std::string shader_dir) : dir_(std::move(shader_dir)) {
  support_ = query_gl_sat_support();
  if (!support_.usable) throw std::runtime_error("GL SAT backend unusable: " + support_.reason);
  policy_ = default_policy(support_);
}

GlSatBuilder::GlSatBuilder(std::string shader_dir, const GlSatPolicy& policy)
    : GlSatBuilder(std::move(shader_dir)) {
  set_policy(policy);
}

GlSatBuilder::GlSatBuilder(std::string shader_dir, const GlSatPolicy& policy,
                           const GlSatSupport& limits)
    : GlSatBuilder(std::move(shader_dir)) {
  GlSatSupport& s = support_;
  s.subgroup = s.subgroup && limits.subgroup;
  s.fused_subgroup = s.fused_subgroup && s.subgroup && limits.fused_subgroup;
  s.pixels_by_size = s.pixels_by_size && limits.pixels_by_size;
  s.lookback = s.lookback && limits.lookback;
  s.one_pass = s.one_pass && s.lookback && limits.one_pass;
  s.reason += "; capabilities limited by the caller";
  set_policy(policy);
}

void GlSatBuilder::set_policy(const GlSatPolicy& policy) {
  static_assert(GlSatPolicy::kMaxLookbackPolls == SAT_LOOKBACK_POLL_BUDGET &&
                GlSatPolicy::kDefaultLookbackPolls <= GlSatPolicy::kMaxLookbackPolls);
  if (policy.lookback_polls < 0 || policy.lookback_polls > GlSatPolicy::kMaxLookbackPolls)
    throw std::invalid_argument("GlSatPolicy: lookback_polls " +
                                std::to_string(policy.lookback_polls) + " outside 0.." +
                                std::to_string(GlSatPolicy::kMaxLookbackPolls));
  if ((policy.fused_for(false) == GlSatFusedBuild::OnePass ||
       policy.fused_for(true) == GlSatFusedBuild::OnePass) &&
      !support_.lookback)
    throw std::invalid_argument(
        "GlSatPolicy: the one-pass fused build needs what GlSatSupport::lookback names, which "
        "this context does not give: " +
        support_.reason);
  policy_ = policy;
}

std::size_t GlSatBuilder::table_bytes(int width, int height) {
  if (width < 0 || height < 0) throw std::invalid_argument("GlSatBuilder: negative size");
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 16u;
}

GLuint GlSatBuilder::program(const std::string& file, const std::vector<std::string>& defines) {
  std::string key = file;
  for (const auto& d : defines) key += "|" + d;
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second.get();
  // The shaders pull in their common code (sat_block_scan.glsl, sat_fused_common.glsl) with
  // #include and enable the subgroup extensions themselves when the defines ask for them.
  GlProgram prog = build_compute_program(dir_, file, defines);
  const GLuint id = prog.get();
  programs_.emplace(key, std::move(prog));
  return id;
}

std::vector<std::string> GlSatBuilder::dump_programs(const std::string& dir) const {
  scandof::util::make_output_folder(dir);
  std::vector<std::string> written;
  for (const auto& [key, prog] : programs_) {
    GLint len = 0;
    glGetProgramiv(prog.get(), GL_PROGRAM_BINARY_LENGTH, &len);
    if (len <= 0) continue;
    std::string blob(static_cast<std::size_t>(len), '\0');
    GLenum format = 0;
    GLsizei got = 0;
    glGetProgramBinary(prog.get(), len, &got, &format, blob.data());
    blob.resize(static_cast<std::size_t>(std::max(got, 0)));
    // "sat_fused_scan.comp|FUSED_SUBGROUP|PIXELS_RGBA16F" ->
    // "sat_fused_scan.comp__FUSED_SUBGROUP__PIXELS_RGBA16F"
    std::string name;
    for (char c : key) {
      if (c == '|') {
        name += "__";
      } else {
        const bool keep =
            std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
        name += keep ? c : '_';
      }
    }
    const std::string path = dir + "/" + name + ".bin";
    scandof::util::write_text_file(path, blob);
    written.push_back(path);
  }
  return written;
}

void GlSatBuilder::ensure_lookback_flags(std::size_t tiles) {
  // Flags hold epoch * 4 + status and the counter hands out ids from id_base_ on: both only grow,
  // so the buffer is cleared only when it grows or before either could wrap.
  const std::size_t words = 2 + 2 * tiles;  // the counter, the helps, two flags a tile
  const bool wrap = epoch_ >= (1u << 29) || id_base_ + tiles >= (1u << 31);
  if (flags_ && flag_words_ >= words && !wrap && epoch_ > 0) return;
  if (flags_) helps_before_clear_ = lookback_helps();
  if (!flags_ || flag_words_ < words) {
    flags_ = make_buffer();
    allocate(flags_.get(), words * 4);
    flag_words_ = words;
  }
  const std::uint32_t zero = 0;
  glClearNamedBufferData(flags_.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  epoch_ = 1;
  id_base_ = 0;
}

void GlSatBuilder::ensure_scratch(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 16);
  if (scratch_ && scratch_bytes_ >= bytes) return;
  scratch_ = make_buffer();
  allocate(scratch_.get(), bytes);
  scratch_bytes_ = bytes;
}

void GlSatBuilder::ensure_output(int width, int height) {
  const std::size_t bytes = std::max<std::size_t>(table_bytes(width, height), 16);
  if (out_ && out_bytes_ >= bytes) return;
  out_ = make_buffer();
  allocate(out_.get(), bytes);
  out_bytes_ = bytes;
}

void GlSatBuilder::build(GLuint tex, int width, int height, GlSatVariant variant,
                         scandof::SatFormat format, bool timed) {
  ensure_output(width, height);
  build_impl(tex, width, height, variant, format, nullptr, out_.get(), timed);
}

void GlSatBuilder::build_into(GLuint tex, int width, int height, GlSatVariant variant,
                              scandof::SatFormat format, GLuint out, bool timed) {
  build_impl(tex, width, height, variant, format, nullptr, out, timed);
}

void GlSatBuilder::build(GLuint tex, int width, int height, GlSatVariant variant,
                         scandof::SatFormat format, const scandof::SatFixedPoint& fixed,
                         bool timed) {
  ensure_output(width, height);
  build_impl(tex, width, height, variant, format, &fixed, out_.get(), timed);
}

void GlSatBuilder::build_into(GLuint tex, int width, int height, GlSatVariant variant,
                              scandof::SatFormat format, const scandof::SatFixedPoint& fixed,
                              GLuint out, bool timed) {
  build_impl(tex, width, height, variant, format, &fixed, out, timed);
}

bool GlSatBuilder::check_input(GLuint tex, int width, int height) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("GlSatBuilder::build: empty image");
  // Lines are dispatched one workgroup row each: 65535 is GL's guaranteed grid limit.
  if (width > 65535 || height > 65535)
    throw std::invalid_argument("GlSatBuilder::build: image larger than 65535 pixels a side");
  GLint internal = 0;
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
  if (internal != GL_RGBA8 && internal != GL_RGBA16F)
    throw std::invalid_argument(
        "GlSatBuilder::build: the texture is neither GL_RGBA8 nor GL_RGBA16F");
  GLint tw = 0, th = 0;
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_WIDTH, &tw);
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_HEIGHT, &th);
  if (tw < width || th < height)
    throw std::invalid_argument("GlSatBuilder::build: the texture is smaller than the size asked");
  return internal == GL_RGBA16F;
}

void GlSatBuilder::begin_clamp_count() {
  if (!clamps_) {
    clamps_ = make_buffer();
    allocate(clamps_.get(), kClampWords * kClampStride * 4);
    // Once: from here on each counting build zeroes the next one's word.
    const std::uint32_t zero = 0;
    glClearNamedBufferData(clamps_.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    for (GlQuery& q : clamp_done_) q = make_query();
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SAT_BINDING_CLAMPS, clamps_.get());
}

// The uniform of the one program of a build that counts: its word and the next counting build's.
// Words go to counting builds in turn; the kClampRing unread builds hold at most the kClampRing
// words before this build's, so the word zeroed is none of theirs.
void GlSatBuilder::set_clamp_words() const {
  const auto word = [](std::uint64_t k) {
    return static_cast<GLuint>((k % kClampWords) * kClampStride);
  };
  glUniform2ui(SAT_LOC_CLAMP_WORDS, word(clamp_words_used_), word(clamp_words_used_ + 1));
}

void GlSatBuilder::end_clamp_count(bool counted) {
  const int slot = static_cast<int>(clamp_next_ % kClampWords);
  if (clamp_next_ - clamp_read_ == static_cast<std::uint64_t>(kClampRing)) {
    // kClampRing builds unread: the oldest one's count is dropped.
    ++clamp_read_;
  }
  clamp_word_[slot] = -1;
  if (counted) {
    glQueryCounter(clamp_done_[slot].get(), GL_TIMESTAMP);
    clamp_word_[slot] = static_cast<int>(clamp_words_used_ % kClampWords);
    ++clamp_words_used_;
  }
  ++clamp_next_;
}

// 0 for a build that counted nothing.
std::uint32_t GlSatBuilder::read_clamp_word(std::uint64_t build) const {
  const int word = clamp_word_[build % kClampWords];
  std::uint32_t n = 0;
  if (word >= 0)
    glGetNamedBufferSubData(
        clamps_.get(), static_cast<GLintptr>(static_cast<std::size_t>(word) * kClampStride * 4), 4,
        &n);
  return n;
}

std::uint32_t GlSatBuilder::clamp_count() {
  return clamp_next_ == 0 ? 0 : read_clamp_word(clamp_next_ - 1);
}

bool GlSatBuilder::poll_clamp_count(std::uint32_t& out) {
  // Queries finish in submission order, so the first unfinished build ends the walk.
  bool got = false;
  while (clamp_read_ < clamp_next_) {
    const int slot = static_cast<int>(clamp_read_ % kClampWords);
    if (clamp_word_[slot] >= 0) {
      GLint done = 0;
      glGetQueryObjectiv(clamp_done_[slot].get(), GL_QUERY_RESULT_AVAILABLE, &done);
      if (!done) {
        glFlush();  // a query never submitted never finishes
        break;
      }
    }
    out = read_clamp_word(clamp_read_);
    got = true;
    ++clamp_read_;
  }
  return got;
}

GlTexture GlSatBuilder::bind_pixels(GLuint tex, bool gather, std::vector<std::string>& defines) {
  // The RGBA8 texels read as one packed uint32 each where image formats match by size.
  const bool packed = support_.pixels_by_size;
  glBindImageTexture(0, tex, 0, GL_FALSE, 0, GL_READ_ONLY, packed ? GL_R32UI : GL_RGBA8);
  GlTexture view;
  if (gather) view = bind_gather_view(tex, GL_R32UI, defines);
  if (!view.get() && !packed) defines.push_back("PIXELS_RGBA8");
  return view;
}

GlTexture GlSatBuilder::bind_gather_view(GLuint tex, GLenum format,
                                         std::vector<std::string>& defines) {
  GLint immutable = GL_FALSE;
  glGetTextureParameteriv(tex, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
  if (!immutable) return GlTexture();
  // A view shares the texture's storage, so it is made per build: a cached one would keep
  // showing a deleted texture whose name GL has since handed out again.
  GLuint view = 0;
  glGenTextures(1, &view);  // glTextureView wants a name that was never bound
  glTextureView(view, GL_TEXTURE_2D, tex, format, 0, 1, 0, 1);
  glTextureParameteri(view, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(view, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(view, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(view, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindSampler(SAT_UNIT_PIXELS, 0);
  glBindTextureUnit(SAT_UNIT_PIXELS, view);
  defines.push_back("PIXELS_GATHER");
  return GlTexture(view);
}

// What one build reads, settled by build_impl() for its steps.
struct GlSatBuilder::Build {
  GLuint tex;
  int width, height;
  GlSatVariant variant;                 // after the float tables' fall-back (build_variant)
  const scandof::SatFixedPoint* fixed;  // null for the RGBA8 calls
  bool hdr;                             // the texture is GL_RGBA16F
  bool f32;                             // float tables
  bool quantized;                       // RGBA16F into uint32 tables: fixed point, clamps counted
  bool timed;
};

namespace {

void check_fixed_point(const scandof::SatFixedPoint* fixed) {
  if (!fixed)
    throw std::invalid_argument(
        "GlSatBuilder::build: an RGBA16F texture into U32 tables needs a SatFixedPoint");
  if (fixed->frac_bits < 0 || fixed->frac_bits > scandof::kMaxFracBits || fixed->max_value < 1 ||
      fixed->max_value > scandof::kMaxFixedValue)
    throw std::invalid_argument(
        "GlSatBuilder::build: SatFixedPoint frac_bits must be 0..24, max_value 1..2^24");
}

// The fused path sums in uint32; float tables of more than 2^32/255 pixels would overflow, so
// they take the work-efficient pipeline, which sums in float (as the CUDA side does). Float
// tables of radiance take it too: a fused path in float sums would be a second copy of its
// shaders for a format the DoF does not read (it reads the exact uint32 tables).
GlSatVariant build_variant(GlSatVariant variant, bool f32, bool hdr, int width, int height) {
  if (variant == GlSatVariant::Fused && f32 &&
      (hdr || static_cast<double>(width) * height > 4294967295.0 / 255.0))
    return GlSatVariant::WorkEfficient;
  return variant;
}

// SSBO offsets rounded up to GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (<= 256).
std::size_t align_offset(std::size_t b) {
  return (b + 255) & ~std::size_t(255);
}

}  // namespace

void GlSatBuilder::build_impl(GLuint tex, int width, int height, GlSatVariant variant,
                              scandof::SatFormat format, const scandof::SatFixedPoint* fixed,
                              GLuint out, bool timed) {
  Build b;
  b.tex = tex;
  b.width = width;
  b.height = height;
  b.fixed = fixed;
  b.timed = timed;
  b.hdr = check_input(tex, width, height);
  b.f32 = format == scandof::SatFormat::F32;
  b.quantized = b.hdr && !b.f32;
  if (b.quantized) check_fixed_point(fixed);
  b.variant = build_variant(variant, b.f32, b.hdr, width, height);
  if (b.quantized) begin_clamp_count();

  const bool fused = b.variant == GlSatVariant::Fused;
  const bool one_pass = fused && policy_.fused_for(b.hdr) == GlSatFusedBuild::OnePass;
  if (timed) last_one_pass_ = one_pass;  // what stage_times() reports follows the last timed build
  std::vector<std::string> pixel_defs;
  const GlTexture view = bind_build_pixels(b, pixel_defs);  // lives through the build
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);

  if (fused) {
    // The defines all the fused path's shaders take.
    std::vector<std::string> fused_defs = pixel_defs;
    if (b.f32) fused_defs.push_back("SAT_F32");
    if (support_.fused_subgroup) fused_defs.push_back("FUSED_SUBGROUP");
    if (one_pass)
      build_fused_one_pass(b, fused_defs);
    else
      build_fused_three_passes(b, fused_defs);
  } else {
    build_lines(b, pixel_defs);
  }
  if (timed) ++timed_builds_;
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT |
                  GL_BUFFER_UPDATE_BARRIER_BIT | GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  glUseProgram(0);
  end_clamp_count(b.quantized);
}

// How the shaders read the pixels (PIXELS_GATHER, PIXELS_RGBA8 or nothing); gathers only on the
// fused path, whose shaders have them. On the H100 the gathers took the 1080p three-pass build
// from 0.071 to 0.064-0.067 ms (results/sat/README.md). RGBA16F on the fused path: raw halves
// by gathers from an rg32ui view (PIXELS_GATHER) where the texture is immutable, else through
// the rgba16f image, which the paper's row pass reads too.
GlTexture GlSatBuilder::bind_build_pixels(const Build& b, std::vector<std::string>& defines) {
  const bool fused = b.variant == GlSatVariant::Fused;
  if (!b.hdr) return bind_pixels(b.tex, fused, defines);
  glBindImageTexture(0, b.tex, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA16F);
  defines.push_back("PIXELS_RGBA16F");
  return fused ? bind_gather_view(b.tex, GL_RG32UI, defines) : GlTexture();
}

// The fixed point of the programs that quantize (those that read RGBA16F pixels into uint32).
// counts: the program that counts the build's clamps (one a build; the tile scan of the three
// passes reads the pixels again and does not).
void GlSatBuilder::set_fixed(const Build& b, bool counts) const {
  glUniform1i(SAT_LOC_FIXED_BITS, b.fixed->frac_bits);
  glUniform1ui(SAT_LOC_FIXED_MAX, b.fixed->max_value);
  if (counts) set_clamp_words();
}

void GlSatBuilder::build_fused_one_pass(const Build& b,
                                        const std::vector<std::string>& fused_defs) {
  const int tx = ceil_div(b.width, kTileW), ty = ceil_div(b.height, kTileH);
  const std::size_t tiles = static_cast<std::size_t>(tx) * ty;
  ensure_lookback_flags(tiles);
  // Scratch: per tile 32 rows and 128 columns of (aggregate, inclusive) words, and 2 tile words.
  const std::size_t rows_bytes = tiles * kTileH * 2 * 16, cols_bytes = tiles * kTileW * 2 * 16;
  const std::size_t cols_off = align_offset(rows_bytes),
                    tsum_off = align_offset(cols_off + cols_bytes);
  ensure_scratch(tsum_off + tiles * 2 * 16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, flags_.get());
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, scratch_.get(), 0,
                    static_cast<GLsizeiptr>(rows_bytes));
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 3, scratch_.get(), static_cast<GLintptr>(cols_off),
                    static_cast<GLsizeiptr>(cols_bytes));
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 4, scratch_.get(), static_cast<GLintptr>(tsum_off),
                    static_cast<GLsizeiptr>(tiles * 2 * 16));
  const GLuint single = program("sat_fused_single.comp", fused_defs);
  if (b.timed) timers_[1].begin();
  use_program(single, b.width, b.height);
  if (b.quantized) set_fixed(b, true);
  glUniform1ui(2, epoch_);
  glUniform1ui(3, id_base_);
  glUniform1ui(SAT_LOC_LOOKBACK_POLLS, static_cast<GLuint>(policy_.lookback_polls));
  dispatch(static_cast<GLuint>(tx), static_cast<GLuint>(ty));
  if (b.timed) timers_[1].end();
  ++epoch_;
  id_base_ += static_cast<std::uint32_t>(tiles);
}

void GlSatBuilder::build_fused_three_passes(const Build& b,
                                            const std::vector<std::string>& fused_defs) {
  const int width = b.width, height = b.height;
  const int tx = ceil_div(width, kTileW), ty = ceil_div(height, kTileH);
  const std::size_t rt = static_cast<std::size_t>(tx) * height,
                    ct = static_cast<std::size_t>(ty) * width,
                    st = static_cast<std::size_t>(tx) * ty;
  const std::size_t ct_off = align_offset(rt * 16), st_off = align_offset(ct_off + ct * 16);
  ensure_scratch(st_off + st * 16);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, scratch_.get(), 0,
                    static_cast<GLsizeiptr>(rt * 16));
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, scratch_.get(), static_cast<GLintptr>(ct_off),
                    static_cast<GLsizeiptr>(ct * 16));
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 3, scratch_.get(), static_cast<GLintptr>(st_off),
                    static_cast<GLsizeiptr>(st * 16));
  const int nb_rows = ceil_div(height, SAT_AUX_ROWS_PER_GROUP),
            nb_cols = ceil_div(width, SAT_AUX_COLS_PER_GROUP);
  const GLuint reduce = program("sat_fused_reduce.comp", fused_defs);
  const GLuint scan = program("sat_fused_scan.comp", fused_defs);
  if (b.timed) timers_[0].begin();
  use_program(reduce, width, height);
  if (b.quantized) set_fixed(b, true);
  dispatch(static_cast<GLuint>(tx), static_cast<GLuint>(ty));
  const GLuint aux = program("sat_fused_aux.comp", {});
  if (b.timed) timers_[2].begin();
  use_program(aux, width, height);
  glUniform1i(2, tx);
  glUniform1i(3, ty);
  glUniform1i(4, nb_rows);
  glUniform1i(5, nb_cols);
  dispatch(static_cast<GLuint>(nb_rows + nb_cols + 1), 1);
  if (b.timed) timers_[2].end();
  if (b.timed) {
    timers_[0].end();
    timers_[1].begin();
  }
  use_program(scan, width, height);
  if (b.quantized) set_fixed(b, false);
  dispatch(static_cast<GLuint>(tx), static_cast<GLuint>(ty));
  if (b.timed) timers_[1].end();
}

// The paper's pipeline: block scans of the rows from the pixels into the table, then of the
// table's columns in place, each line of more than one block finished by its block sums' scan
// and an add (sat_lines.comp's PASS_BLOCKS, PASS_SUMS, PASS_ADD).
void GlSatBuilder::build_lines(const Build& b, const std::vector<std::string>& pixel_defs) {
  const int width = b.width, height = b.height;
  const bool hdr = b.hdr;
  // RGBA16F pixels are read by the row pass's block scans only: the other programs are the
  // RGBA8 build's (fewer programs to compile, the slow part on llvmpipe).
  std::vector<std::string> base = hdr ? std::vector<std::string>() : pixel_defs;
  if (b.f32) base.push_back("SAT_F32");
  switch (b.variant) {
    case GlSatVariant::Naive:
      base.push_back("SCAN_NAIVE");
      break;
    case GlSatVariant::WorkEfficient:
      base.push_back("SCAN_BLELLOCH");
      break;
    case GlSatVariant::ConflictFree:
      base.push_back("SCAN_CONFLICT_FREE");
      break;
    default:
      base.push_back("SCAN_SUBGROUP");
      if (support_.subgroup) base.push_back("HAVE_SUBGROUP");
      // Radiance in float: no subtraction of sums (sat_block_scan.glsl).
      if (hdr && b.f32) base.push_back("SCAN_NO_SUBTRACT");
      break;
  }
  const int nb_row = ceil_div(width, kBlock), nb_col = ceil_div(height, kBlock);
  ensure_scratch(static_cast<std::size_t>(std::max(nb_row * height, nb_col * width)) * 16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, scratch_.get());
  for (int pass = 0; pass < 2; ++pass) {
    const bool rows = pass == 0;
    const int nb = rows ? nb_row : nb_col, lines = rows ? height : width;
    std::vector<std::string> d = base;
    d.push_back(rows ? "LINES_ROWS" : "LINES_COLUMNS");
    auto with = [&](const char* p) {
      std::vector<std::string> v = d;
      v.push_back(p);
      if (hdr && rows && std::strcmp(p, "PASS_BLOCKS") == 0) v.push_back("PIXELS_RGBA16F");
      return program("sat_lines.comp", v);
    };
    if (b.timed) timers_[pass].begin();
    auto set_uniforms = [&](GLuint prog) {
      use_program(prog, width, height);
      glUniform1i(2, nb);
    };
    set_uniforms(with("PASS_BLOCKS"));
    if (rows && b.quantized) set_fixed(b, true);
    dispatch(static_cast<GLuint>(nb), static_cast<GLuint>(lines));
    if (nb > 1) {
      set_uniforms(with("PASS_SUMS"));
      dispatch(static_cast<GLuint>(lines), 1);
      set_uniforms(with("PASS_ADD"));
      dispatch(static_cast<GLuint>(nb - 1), static_cast<GLuint>(lines));
    }
    if (b.timed) timers_[pass].end();
  }
}

std::uint64_t GlSatBuilder::lookback_helps() {
  std::uint32_t word = 0;
  if (flags_) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(flags_.get(), 4, 4, &word);
  }
  return helps_before_clear_ + word;
}

GlSatStageTimes GlSatBuilder::stage_times() const {
  GlSatStageTimes t;
  t.valid = timed_builds_ > 4;
  t.rows_ms = last_one_pass_ ? 0.0f : timers_[0].ms();
  t.columns_ms = timers_[1].ms();
  t.aux_ms = last_one_pass_ ? 0.0f : timers_[2].ms();
  t.total_ms = t.rows_ms + t.columns_ms;
  return t;
}

void GlSatBuilder::warm_up(bool with_rgba16f) {
  // Over one block each way, so the multi-block passes are compiled too.
  const int n = kBlock + 1;
  GlTexture tex = make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(tex.get(), 1, GL_RGBA8, n, n);
  for (int v = 0; v < kNumGlSatVariants; ++v)
    for (auto f : {scandof::SatFormat::U32, scandof::SatFormat::F32})
      build(tex.get(), n, n, static_cast<GlSatVariant>(v), f, false);
  if (!with_rgba16f) return;
  GlTexture hdr = make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(hdr.get(), 1, GL_RGBA16F, n, n);
  const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(24.0f, 100.0f);
  for (int v = 0; v < kNumGlSatVariants; ++v)
    for (auto f : {scandof::SatFormat::U32, scandof::SatFormat::F32})
      build(hdr.get(), n, n, static_cast<GlSatVariant>(v), f, fp, false);
}

}  // namespace scandof::gl
