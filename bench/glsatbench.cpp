// glsatbench: the OpenGL compute SAT backend timed per variant and size on a headless EGL context
// (the GL half of the chapter's CUDA-vs-OpenGL comparison; satbench gives the CUDA half).
//
//   glsatbench [--out DIR] [--sizes 512x512,1024x1024,1920x1080,3840x2160] [--reps 200]
//              [--warmup 20] [--formats u32,f32] [--shaders DIR] [--no-verify] [--l2-mb 50]
//              [--variants naive,...,fused,fused-1pass,floor] [--pixels rgba8,rgba16f]
//              [--dump-programs DIR] [--lookback-polls 1024]
//
// Rows: the paper's four variants; "fused", the fused path in three passes, and "fused-1pass", in
// one pass with decoupled look-back and fallback (GlSatPolicy set from here; the one pass where
// GlSatSupport::lookback); "floor", a copy of the same bytes (sat_floor.comp, built here).
// --lookback-polls sets GlSatPolicy::lookback_polls for the one pass (0 forces its fallback on
// every tile); each one-pass row prints how many tiles the fallback computed over its builds.
// Per (size, pixels, format, row), on fresh random textures, after --warmup builds (every build
// takes the next of several texture/table sets unless one build moves twice --l2-mb):
//   single: --reps builds, each bracketed by GL timestamps with a glFinish between (median, p10,
//           p90): one build's GPU time, as a frame pays it;
//   stream: --reps builds back to back between two timestamps (mean): what overlap allows;
//   cpu: the host's time to issue one build of the stream loop (mean, steady clock): where it is
//        not well under "stream", the stream figure measures the driver, not the GPU;
//   stages: the builder's own per-stage GlTimer ring (timestamps read late; medians).
// Pixels: RGBA8 (random bytes) and RGBA16F (random radiance as halves, log-uniform over
// [2^-12, 100] with 1 in 16 zeros, none clamped; uint32 tables in hdr_fixed_point(24, 100), the
// demo's F = 14): the same rows and statistics for each ("floor" only for RGBA8; no fused rows for
// float tables of RGBA16F, which the builder makes with the work-efficient pipeline).
// Every variant's first build is checked against the CPU reference (uint32 exact; float within
// the tests' bound) unless --no-verify; a mismatch makes the exit status 1.
// Writes DIR/glsatbench.json and DIR/glsatbench.csv (atomically) and prints a table.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "scandof/gl/context.hpp"
#include "scandof/gl/sat_builder.hpp"
#include "scandof/gl/util.hpp"
#include "rotation.hpp"
#include "scandof/hdr.hpp"
#include "scandof/provenance.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/sizes.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/stats.hpp"

namespace {

using scandof::SatFormat;
using scandof::gl::GlSatBuilder;
using scandof::gl::GlSatFusedBuild;
using scandof::gl::GlSatVariant;

struct Size {
  int w, h;
};

std::vector<Size> parse_sizes(const std::string& s) {
  std::vector<Size> out;
  for (const auto& z : scandof::util::parse_sizes(s)) out.push_back({z.w, z.h});
  return out;
}

std::string default_shaders() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    std::string exe(buf, static_cast<std::size_t>(n));
    const std::string dir = exe.substr(0, exe.rfind('/')) + "/glsat/shaders";
    if (std::ifstream(dir + "/sat_lines.comp")) return dir;
  }
  return SCANDOF_SOURCE_DIR "/glsat/shaders";
}

// The floor under the fused path: every pixel loaded once and its 16-byte word, unscanned, stored
// once, both coalesced (sat_floor.comp), over the fused path's 128 x 32 tiles, with the pixels
// bound as the builder binds them for image loads (packed r32ui where formats match by size).
class CopyFloor {
 public:
  CopyFloor(const std::string& shaders, const scandof::gl::GlSatSupport& s)
      : packed_(s.pixels_by_size) {
    std::vector<std::string> defs;
    if (s.fused_subgroup) defs.push_back("FUSED_SUBGROUP");
    if (!packed_) defs.push_back("PIXELS_RGBA8");
    prog_ = scandof::gl::build_compute_program(shaders, "sat_floor.comp", defs);
  }
  void write(GLuint tex, int w, int h, GLuint out) const {
    glBindImageTexture(0, tex, 0, GL_FALSE, 0, GL_READ_ONLY, packed_ ? GL_R32UI : GL_RGBA8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glUseProgram(prog_.get());
    glUniform1i(0, w);
    glUniform1i(1, h);
    glDispatchCompute(static_cast<GLuint>((w + 127) / 128), static_cast<GLuint>((h + 31) / 32), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(0);
  }

 private:
  bool packed_;
  scandof::gl::GlProgram prog_;
};

// GPU time between two timestamp queries, in ms (blocks until available).
double elapsed_ms(GLuint q0, GLuint q1) {
  GLuint64 a = 0, b = 0;
  glGetQueryObjectui64v(q0, GL_QUERY_RESULT, &a);
  glGetQueryObjectui64v(q1, GL_QUERY_RESULT, &b);
  return static_cast<double>(b - a) * 1e-6;
}

struct QueryPair {
  scandof::gl::GlQuery a = scandof::gl::make_query(), b = scandof::gl::make_query();
};

// Returns the number of wrong words (uint32: any difference; float: the tests' bound).
std::size_t verify(const std::vector<std::uint8_t>& rgba, int w, int h, GlSatVariant v, SatFormat f,
                   GLuint buf) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  std::vector<std::uint32_t> gold(plane * 4), out(plane * 4);
  scandof::sat_gold(rgba.data(), w, h, gold.data(), 3, scandof::SatLayout::Interleaved);
  glGetNamedBufferSubData(buf, 0, static_cast<GLsizeiptr>(out.size() * 4), out.data());
  std::size_t bad = 0;
  for (std::size_t p = 0; p < plane; ++p)
    for (int c = 0; c < 4; ++c) {
      const std::uint32_t want = gold[4 * p + c];
      if (f == SatFormat::U32) {
        bad += out[4 * p + c] != want;
      } else {
        float got;
        std::memcpy(&got, &out[4 * p + c], 4);
        const double exact = want;
        const double bound =
            v == GlSatVariant::Fused
                ? std::nextafter(static_cast<float>(exact), INFINITY) - static_cast<float>(exact)
                : 32.0 * std::ldexp(exact, -24);
        bad += !(std::fabs(got - exact) <= bound);
      }
    }
  return bad;
}

// RGBA16F frames: the builder against scandof::sat_gold_hdr (uint32: any difference; float: the
// pipeline's bound plus the gold's own, w + h sequential roundings; test_gl_sat's hdr_float_bound).
std::size_t verify_hdr(const std::vector<float>& f, int w, int h, const scandof::SatFixedPoint& fp,
                       SatFormat fmt, GLuint buf) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  std::vector<std::uint32_t> out(plane * 4), gold_u(plane * 4);
  std::vector<float> gold_f(plane * 4);
  glGetNamedBufferSubData(buf, 0, static_cast<GLsizeiptr>(out.size() * 4), out.data());
  if (fmt == SatFormat::U32)
    scandof::sat_gold_hdr(f.data(), w, h, fp, gold_u.data(), 3, scandof::SatLayout::Interleaved);
  else
    scandof::sat_gold_hdr(f.data(), w, h, gold_f.data(), 3, scandof::SatLayout::Interleaved);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < plane * 4; ++i) {
    if (fmt == SatFormat::U32) {
      bad += out[i] != gold_u[i];
    } else {
      float got;
      std::memcpy(&got, &out[i], 4);
      const double want = gold_f[i];
      bad += !(std::fabs(got - want) <= 2.0 * (32.0 + w + h) * std::ldexp(want, -24));
    }
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  scandof::provenance::set_command_line(argc, argv);
  CLI::App app{"glsatbench: OpenGL compute summed-area tables, every variant timed"};
  std::string out_dir = "results/sat", sizes_s = "512x512,1024x1024,1920x1080,3840x2160",
              formats_s = "u32,f32", shaders;
  int reps = 200, warmup = 20;
  bool no_verify = false;
  app.add_option("--out", out_dir, "folder for glsatbench.json and glsatbench.csv");
  app.add_option("--sizes", sizes_s, "comma-separated WxH list");
  app.add_option("--reps", reps, "timed builds per configuration")->check(CLI::Range(1, 100000));
  app.add_option("--warmup", warmup, "untimed builds first")->check(CLI::Range(0, 100000));
  app.add_option("--formats", formats_s, "u32, f32 or u32,f32 (the default)");
  app.add_option("--shaders", shaders, "shader folder (default: next to the binary, then source)");
  app.add_flag("--no-verify", no_verify, "skip the CPU reference check");
  int l2_mb = 50;
  app.add_option("--l2-mb", l2_mb,
                 "last-level cache the inputs and tables rotate past, in MB (GL cannot query it; "
                 "50 is the H100's L2)")
      ->check(CLI::Range(0, 4096));
  // The rows glsatbench can run: the GL variants ("fused": three passes), the one pass, the floor.
  std::vector<std::string> row_names;
  for (int vi = 0; vi < scandof::gl::kNumGlSatVariants; ++vi)
    row_names.push_back(scandof::gl::to_string(static_cast<GlSatVariant>(vi)));
  row_names.push_back("fused-1pass");
  row_names.push_back("floor");
  std::string row_list;
  for (const auto& n : row_names) row_list += (row_list.empty() ? "" : ", ") + n;
  std::vector<std::string> wanted;
  app.add_option("--variants", wanted,
                 "comma-separated rows to run (" + row_list + "); default: all")
      ->delimiter(',')
      ->check(CLI::IsMember(row_names));
  std::vector<std::string> pixel_kinds = {"rgba8", "rgba16f"};
  app.add_option("--pixels", pixel_kinds,
                 "comma-separated texture formats: rgba8, rgba16f (default both)")
      ->delimiter(',')
      ->check(CLI::IsMember({"rgba8", "rgba16f"}));
  std::string dump_dir;
  app.add_option("--dump-programs", dump_dir,
                 "write every program built, as glGetProgramBinary returns it, to this folder "
                 "(GlSatBuilder::dump_programs)");
  int lookback_polls = scandof::gl::GlSatPolicy::kDefaultLookbackPolls;
  app.add_option("--lookback-polls", lookback_polls,
                 "the one pass's polls of a flag before it computes that tile itself (0: always)")
      ->check(CLI::Range(0, scandof::gl::GlSatPolicy::kMaxLookbackPolls));
  CLI11_PARSE(app, argc, argv);
  auto runs = [&](const std::string& name) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };
  try {
    const std::vector<Size> sizes = parse_sizes(sizes_s);
    scandof::util::make_output_folder(out_dir);  // before the run, not after it
    std::vector<SatFormat> formats;
    if (formats_s.find("u32") != std::string::npos) formats.push_back(SatFormat::U32);
    if (formats_s.find("f32") != std::string::npos) formats.push_back(SatFormat::F32);
    if (formats.empty()) throw std::invalid_argument("--formats: u32, f32 or u32,f32");
    if (shaders.empty()) shaders = default_shaders();

    scandof::gl::HeadlessContext ctx;
    GlSatBuilder builder(shaders);
    const std::string gl = scandof::gl::gl_description();
    std::printf("glsatbench on %s\n%s\nSMs (GL_SM_COUNT_NV, 0 where not offered): %d\n", gl.c_str(),
                builder.support().reason.c_str(), builder.support().sm_count);
    builder.warm_up(std::find(pixel_kinds.begin(), pixel_kinds.end(), "rgba16f") !=
                    pixel_kinds.end());
    const scandof::SatFixedPoint fixed = scandof::hdr_fixed_point(24.0f, 100.0f);
    const CopyFloor copy_floor(shaders, builder.support());

    nlohmann::json j;
    j["gl"] = gl;
    j["record"] = scandof::provenance::record<nlohmann::json>(gl);
    j["support"] = builder.support().reason;
    j["subgroup"] = builder.support().subgroup;
    j["subgroup_size"] = builder.support().subgroup_size;
    j["sm_count"] = builder.support().sm_count;
    j["reps"] = reps;
    j["warmup"] = warmup;
    j["rgba16f_fixed_point"] = {{"frac_bits", fixed.frac_bits}, {"max_value", fixed.max_value}};
    j["results"] = nlohmann::json::array();
    std::ostringstream csv;
    csv << "width,height,pixels,format,variant,single_median_ms,single_p10_ms,single_p90_ms,"
           "stream_ms,"
           "rows_ms,columns_ms,aux_ms,cpu_issue_ms,gbps_fused_bytes,verified\n";
    // Fused rows: "rows" = tile reduce + small scans, "aux" = the small scans alone, "cols" =
    // tile scans.
    std::printf("\n%-10s %-7s %-4s %-19s %10s %10s %10s %10s %10s %10s %10s %6s\n", "size",
                "pixels", "fmt", "variant", "median ms", "p90 ms", "stream ms", "rows ms", "aux ms",
                "cols ms", "cpu ms", "check");
    auto emit = [&](const Size& z, const char* pixels, const char* fmt, const std::string& vname,
                    double med, double p10, double p90, double stream, double r_ms, double a_ms,
                    double c_ms, double cpu_ms, const std::string& check) {
      // Tiled-fused byte count (pixels read twice, the 16-byte words written once), the
      // floor every variant is compared with (a pixel is 8 bytes in RGBA16F).
      const double px = static_cast<double>(z.w) * z.h;
      const double in_bytes = std::strcmp(pixels, "rgba16f") == 0 ? 8 : 4;
      const double gbps = px * (2 * in_bytes + 16) / (med * 1e-3) * 1e-9;
      const std::string sz = std::to_string(z.w) + "x" + std::to_string(z.h);
      std::printf("%-10s %-7s %-4s %-19s %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %6s\n",
                  sz.c_str(), pixels, fmt, vname.c_str(), med, p90, stream, r_ms, a_ms, c_ms,
                  cpu_ms, check.c_str());
      std::fflush(stdout);
      csv << z.w << ',' << z.h << ',' << pixels << ',' << fmt << ',' << vname << ',' << med << ','
          << p10 << ',' << p90 << ',' << stream << ',' << r_ms << ',' << c_ms << ',' << a_ms << ','
          << cpu_ms << ',' << gbps << ',' << check << '\n';
      j["results"].push_back({{"width", z.w},
                              {"height", z.h},
                              {"pixels", pixels},
                              {"format", fmt},
                              {"variant", vname},
                              {"single_median_ms", med},
                              {"single_p10_ms", p10},
                              {"single_p90_ms", p90},
                              {"stream_ms", stream},
                              {"rows_ms", r_ms},
                              {"columns_ms", c_ms},
                              {"aux_ms", a_ms},
                              {"cpu_issue_ms", cpu_ms},
                              {"gbps_fused_bytes", gbps},
                              {"check", check}});
    };
    std::size_t total_bad = 0;
    std::uint64_t seed = 0x61A55A7ull;
    for (const Size& z : sizes) {
      for (const std::string& pk : pixel_kinds) {
        const bool hdr = pk == "rgba16f";
        const char* pixels = hdr ? "rgba16f" : "rgba8";
        std::vector<std::uint8_t> rgba(static_cast<std::size_t>(z.w) * z.h * 4);
        std::vector<std::uint16_t> halves;
        std::vector<float> radiance;  // the halves as floats, for the CPU reference
        scandof::util::SplitMix64 rng(seed++);
        if (!hdr) {
          for (std::size_t i = 0; i < rgba.size(); i += 8) {
            const std::uint64_t r = rng.next();
            for (std::size_t k = 0; k < 8 && i + k < rgba.size(); ++k)
              rgba[i + k] = static_cast<std::uint8_t>(r >> (8 * k));
          }
        } else {
          // Log-uniform radiance over [2^-12, 100], 1 in 16 zeros: no clamps in `fixed`.
          halves.resize(rgba.size());
          radiance.resize(rgba.size());
          const double hi = std::log2(100.0);
          for (std::size_t i = 0; i < halves.size(); ++i) {
            const std::uint64_t r = rng.next();
            const double u = static_cast<double>(r >> 11) * 0x1.0p-53;
            const float v =
                (r & 15u) == 0 ? 0.0f : static_cast<float>(std::exp2(-12.0 + (hi + 12.0) * u));
            halves[i] = scandof::float_to_half(v);
            radiance[i] = scandof::half_to_float(halves[i]);
          }
        }
        const std::size_t in_bytes = hdr ? halves.size() * 2 : rgba.size();
        // Timed builds rotate through `sets` textures and tables (the same pixels in each), so that
        // no build reads its pixels or writes its table through an L2 a recent build left warm; as
        // satbench does on the CUDA side.
        const std::size_t table_bytes = GlSatBuilder::table_bytes(z.w, z.h);
        const std::size_t sets = std::min<std::size_t>(
            scandof::bench::rotation_sets(in_bytes + table_bytes, static_cast<std::size_t>(l2_mb)
                                                                      << 20),
            32);
        std::vector<scandof::gl::GlTexture> texs;
        std::vector<scandof::gl::GlBuffer> tables;
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        for (std::size_t k = 0; k < sets; ++k) {
          texs.push_back(scandof::gl::make_texture(GL_TEXTURE_2D));
          glTextureStorage2D(texs.back().get(), 1, hdr ? GL_RGBA16F : GL_RGBA8, z.w, z.h);
          if (hdr)
            glTextureSubImage2D(texs.back().get(), 0, 0, 0, z.w, z.h, GL_RGBA, GL_HALF_FLOAT,
                                halves.data());
          else
            glTextureSubImage2D(texs.back().get(), 0, 0, 0, z.w, z.h, GL_RGBA, GL_UNSIGNED_BYTE,
                                rgba.data());
          tables.push_back(scandof::gl::make_buffer());
          glNamedBufferStorage(tables.back().get(), static_cast<GLsizeiptr>(table_bytes), nullptr,
                               0);
        }
        auto build = [&](int i, GlSatVariant v, SatFormat f, bool timed) {
          const std::size_t k = static_cast<std::size_t>(i) % sets;
          if (hdr)
            builder.build_into(texs[k].get(), z.w, z.h, v, f, fixed, tables[k].get(), timed);
          else
            builder.build_into(texs[k].get(), z.w, z.h, v, f, tables[k].get(), timed);
        };
        // --reps builds back to back: GPU time between two timestamps, and the host's time to
        // issue them, per build.
        struct StreamTimes {
          double gpu_ms, cpu_ms;
        };
        auto time_stream = [&](auto&& one_build) {
          QueryPair qp;
          glQueryCounter(qp.a.get(), GL_TIMESTAMP);
          const auto t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < reps; ++i) one_build(i);
          const auto t1 = std::chrono::steady_clock::now();
          glQueryCounter(qp.b.get(), GL_TIMESTAMP);
          return StreamTimes{elapsed_ms(qp.a.get(), qp.b.get()) / reps,
                             std::chrono::duration<double, std::milli>(t1 - t0).count() / reps};
        };
        auto floor = [&](int i) {
          const std::size_t k = static_cast<std::size_t>(i) % sets;
          copy_floor.write(texs[k].get(), z.w, z.h, tables[k].get());
        };
        for (SatFormat f : formats)
          for (int vi = 0; vi <= scandof::gl::kNumGlSatVariants; ++vi) {
            // The last row: the fused path in one pass (where safe), beside "fused" in three.
            const bool one_pass = vi == scandof::gl::kNumGlSatVariants;
            const auto v = one_pass ? GlSatVariant::Fused : static_cast<GlSatVariant>(vi);
            if (one_pass && !builder.support().lookback) continue;
            // Float tables of RGBA16F take the work-efficient pipeline whatever the variant
            // (GlSatBuilder::build_into): fused rows would time that row again.
            if (hdr && f == SatFormat::F32 && v == GlSatVariant::Fused) continue;
            const std::string vname = one_pass ? "fused-1pass" : scandof::gl::to_string(v);
            if (!runs(vname)) continue;
            scandof::gl::GlSatPolicy policy;  // this row's shape for both pixel formats
            policy.fused = one_pass ? GlSatFusedBuild::OnePass : GlSatFusedBuild::ThreePasses;
            policy.lookback_polls = lookback_polls;
            builder.set_policy(policy);
            const std::uint64_t helps_before = one_pass ? builder.lookback_helps() : 0;
            std::string check = "skip";
            if (!no_verify) {
              const std::uint32_t poison = 0xDEADBEEFu;
              glClearNamedBufferData(tables[0].get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT,
                                     &poison);
              build(0, v, f, false);
              const std::size_t bad =
                  hdr ? verify_hdr(radiance, z.w, z.h, fixed, f, tables[0].get())
                      : verify(rgba, z.w, z.h, v, f, tables[0].get());
              total_bad += bad;
              check = bad ? std::to_string(bad) + " bad" : "exact";
              if (bad == 0 && f == SatFormat::F32) check = "ok";
            }
            for (int i = 0; i < warmup; ++i) build(i, v, f, true);
            glFinish();
            std::vector<double> single, rows, cols, aux;
            QueryPair qp;
            for (int i = 0; i < reps; ++i) {
              glQueryCounter(qp.a.get(), GL_TIMESTAMP);
              build(i, v, f, true);
              glQueryCounter(qp.b.get(), GL_TIMESTAMP);
              single.push_back(elapsed_ms(qp.a.get(), qp.b.get()));
              const auto st = builder.stage_times();
              if (st.valid) {
                rows.push_back(st.rows_ms);
                cols.push_back(st.columns_ms);
                aux.push_back(st.aux_ms);
              }
            }
            const StreamTimes stream = time_stream([&](int i) { build(i, v, f, false); });
            const double med = scandof::util::median(single);
            const double p10 = scandof::util::percentile(single, 0.1),
                         p90 = scandof::util::percentile(single, 0.9);
            const double r_ms = scandof::util::median(rows), c_ms = scandof::util::median(cols),
                         a_ms = v == GlSatVariant::Fused ? scandof::util::median(aux) : 0.0;
            emit(z, pixels, scandof::to_string(f), vname, med, p10, p90, stream.gpu_ms, r_ms, a_ms,
                 c_ms, stream.cpu_ms, check);
            if (one_pass)
              std::printf("  %s %dx%d %s: %llu tiles computed by the fallback in %d builds of %d "
                          "tiles (--lookback-polls %d)\n",
                          vname.c_str(), z.w, z.h, pixels,
                          static_cast<unsigned long long>(builder.lookback_helps() - helps_before),
                          (no_verify ? 0 : 1) + warmup + 2 * reps,
                          ((z.w + 127) / 128) * ((z.h + 31) / 32), lookback_polls);
          }
        // The floor under the fused path: the same bytes loaded and stored, coalesced, with no
        // scan between (one format: the stores are the same 16-byte words).
        if (!hdr && runs("floor")) {
          for (int i = 0; i < warmup; ++i) floor(i);
          glFinish();
          std::vector<double> single;
          QueryPair qp;
          for (int i = 0; i < reps; ++i) {
            glQueryCounter(qp.a.get(), GL_TIMESTAMP);
            floor(i);
            glQueryCounter(qp.b.get(), GL_TIMESTAMP);
            single.push_back(elapsed_ms(qp.a.get(), qp.b.get()));
          }
          const StreamTimes stream = time_stream(floor);
          emit(z, pixels, "-", "floor (copy)", scandof::util::median(single),
               scandof::util::percentile(single, 0.1), scandof::util::percentile(single, 0.9),
               stream.gpu_ms, 0.0, 0.0, 0.0, stream.cpu_ms, "-");
        }
      }
    }
    if (!dump_dir.empty())
      for (const auto& path : builder.dump_programs(dump_dir))
        std::printf("wrote %s\n", path.c_str());
    if (const GLenum e = glGetError())
      throw std::runtime_error("OpenGL error " + std::to_string(e));
    scandof::util::write_text_file(out_dir + "/glsatbench.json", j.dump(2) + "\n");
    scandof::util::write_text_file(out_dir + "/glsatbench.csv", csv.str());
    std::printf("\nwrote %s/glsatbench.json and .csv\n", out_dir.c_str());
    if (total_bad) {
      std::fprintf(stderr, "glsatbench: %zu wrong words against the CPU reference\n", total_bad);
      return 1;
    }
    std::printf("verify: all variants match the CPU reference\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "glsatbench: %s\n", e.what());
    return 1;
  }
}
