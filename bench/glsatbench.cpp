// glsatbench: the OpenGL compute SAT backend timed per variant and size on a headless EGL context
// (the GL half of the chapter's CUDA-vs-OpenGL comparison; satbench gives the CUDA half).
//
//   glsatbench [--out DIR] [--sizes 512x512,1024x1024,1920x1080,3840x2160] [--reps 200]
//              [--warmup 20] [--formats u32,f32] [--shaders DIR] [--no-verify] [--l2-mb 50]
//              [--variants fused,fused-direct,...,floor] [--dump-programs DIR]
//              [--phased-reduce-tiles N] [--phased-scan-tiles N] [--trace-phased]
//
// Per (size, format, variant), on fresh random RGBA8 textures, after --warmup builds (every build
// takes the next of several texture/table sets unless one build moves twice --l2-mb):
//   single: --reps builds, each bracketed by GL timestamps with a glFinish between (median, p10,
//           p90): one build's GPU time, as a frame pays it;
//   stream: --reps builds back to back between two timestamps (mean): what overlap allows;
//   cpu: the host's time to issue one build of the stream loop (mean, steady clock): where it is
//        not well under "stream", the stream figure measures the driver, not the GPU;
//   stages: the builder's own per-stage GlTimer ring (timestamps read late; medians).
// Every variant's first build is checked against the CPU reference (uint32 exact; float within
// the tests' bound) unless --no-verify; a mismatch makes the exit status 1.
// Writes DIR/glsatbench.json and DIR/glsatbench.csv (atomically) and prints a table; with
// --trace-phased also DIR/phased_trace_WxH.csv and single_trace_WxH.csv per size (read by
// scripts/phased_trace.py).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "scandof/gl/context.hpp"
#include "scandof/gl/sat_builder.hpp"
#include "scandof/gl/util.hpp"
#include "rotation.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/sizes.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/stats.hpp"

namespace {

using scandof::gl::GlSatBuilder;
using scandof::gl::GlSatVariant;
using scandof::SatFormat;

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

// GPU time between two timestamp queries, in ms (blocks until available).
double elapsed_ms(GLuint q0, GLuint q1) {
  GLuint64 a = 0, b = 0;
  glGetQueryObjectui64v(q0, GL_QUERY_RESULT, &a);
  glGetQueryObjectui64v(q1, GL_QUERY_RESULT, &b);
  return static_cast<double>(b - a) * 1e-6;
}

struct QueryPair {
  scandof::gl::GlQuery a, b;
  QueryPair() {
    GLuint id[2];
    glGenQueries(2, id);
    a = scandof::gl::GlQuery(id[0]);
    b = scandof::gl::GlQuery(id[1]);
  }
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

}  // namespace

int main(int argc, char** argv) {
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
  bool no_gather = false;
  app.add_flag("--no-gather", no_gather,
               "fused rows load pixels by image loads, one per pixel, instead of textureGather "
               "through an r32ui view (GlSatTuning::pixels_gather = false)");
  // The rows glsatbench can run: the GL variants, the fused path's alternatives (GlSatTuning:
  // row kNumGlSatVariants + alt - 1 for alt = 1..4), the copy floor.
  const char* const alt_names[] = {"", "fused-direct", "fused-1pass", "fused-1pass-direct",
                                   "fused-phased"};
  std::vector<std::string> row_names;
  for (int vi = 0; vi < scandof::gl::kNumGlSatVariants; ++vi)
    row_names.push_back(scandof::gl::to_string(static_cast<GlSatVariant>(vi)));
  row_names.insert(row_names.end(), std::begin(alt_names) + 1, std::end(alt_names));
  row_names.push_back("floor");
  std::string row_list;
  for (const auto& n : row_names) row_list += (row_list.empty() ? "" : ", ") + n;
  std::vector<std::string> wanted;
  std::string dump_dir;
  app.add_option("--variants", wanted,
                 "comma-separated rows to run (" + row_list + "); default: all")
      ->delimiter(',')
      ->check(CLI::IsMember(row_names));
  app.add_option("--dump-programs", dump_dir,
                 "after the runs, write every compiled program's driver binary to this folder "
                 "(GlSatBuilder::dump_programs)");
  int phased_reduce_tiles = scandof::gl::GlSatTuning{}.phased_reduce_tiles,
      phased_scan_tiles = scandof::gl::GlSatTuning{}.phased_scan_tiles;
  app.add_option("--phased-reduce-tiles", phased_reduce_tiles,
                 "tiles each reduce workgroup of the fused-phased rows takes in turn "
                 "(GlSatTuning::phased_reduce_tiles; 0: the builder picks)")
      ->check(CLI::Range(0, 64));
  app.add_option("--phased-scan-tiles", phased_scan_tiles,
                 "tiles each scan workgroup of the fused-phased rows takes in turn "
                 "(GlSatTuning::phased_scan_tiles; 0: the builder picks)")
      ->check(CLI::Range(0, 64));
  bool trace_phased = false;
  app.add_flag("--trace-phased", trace_phased,
               "per size, 5 fused-phased and 5 fused-1pass u32 builds with each workgroup's SM "
               "and clock marks recorded (GlSatBuilder::set_phase_trace), written to "
               "phased_trace_WxH.csv and single_trace_WxH.csv");
  CLI11_PARSE(app, argc, argv);
  // The builder's tuning for alternative `alt` of the fused path (alt_names; 0: the defaults).
  constexpr int kOnePass = 2, kPhased = 4;
  auto tuning_for = [&](int alt) {
    scandof::gl::GlSatTuning tuning;
    tuning.fused_staged_stores = !(alt == 1 || alt == 3);
    tuning.fused_single_pass = alt == kOnePass || alt == 3;
    tuning.fused_phased = alt == kPhased;
    tuning.phased_reduce_tiles = phased_reduce_tiles;
    tuning.phased_scan_tiles = phased_scan_tiles;
    tuning.pixels_gather = !no_gather;
    return tuning;
  };
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
    builder.warm_up();

    nlohmann::json j;
    j["gl"] = gl;
    j["support"] = builder.support().reason;
    j["subgroup"] = builder.support().subgroup;
    j["subgroup_size"] = builder.support().subgroup_size;
    j["sm_count"] = builder.support().sm_count;
    j["reps"] = reps;
    j["warmup"] = warmup;
    j["results"] = nlohmann::json::array();
    std::ostringstream csv;
    csv << "width,height,format,variant,single_median_ms,single_p10_ms,single_p90_ms,stream_ms,"
           "rows_ms,columns_ms,aux_ms,cpu_issue_ms,gbps_fused_bytes,verified\n";
    // Fused rows: "rows" = tile reduce + small scans, "aux" = the small scans alone, "cols" =
    // tile scans.
    std::printf("\n%-10s %-4s %-19s %10s %10s %10s %10s %10s %10s %10s %6s\n", "size", "fmt",
                "variant", "median ms", "p90 ms", "stream ms", "rows ms", "aux ms", "cols ms",
                "cpu ms", "check");
    auto emit = [&](const Size& z, const char* fmt, const std::string& vname, double med,
                    double p10, double p90, double stream, double r_ms, double a_ms, double c_ms,
                    double cpu_ms, const std::string& check) {
      // Tiled-fused byte count (pixels read twice, the 16-byte words written once), the
      // floor every variant is compared with.
      const double px = static_cast<double>(z.w) * z.h;
      const double gbps = px * (4 + 4 + 16) / (med * 1e-3) * 1e-9;
      const std::string sz = std::to_string(z.w) + "x" + std::to_string(z.h);
      std::printf("%-10s %-4s %-19s %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %6s\n",
                  sz.c_str(), fmt, vname.c_str(), med, p90, stream, r_ms, a_ms, c_ms, cpu_ms,
                  check.c_str());
      std::fflush(stdout);
      csv << z.w << ',' << z.h << ',' << fmt << ',' << vname << ',' << med << ',' << p10 << ','
          << p90 << ',' << stream << ',' << r_ms << ',' << c_ms << ',' << a_ms << ',' << cpu_ms
          << ',' << gbps << ',' << check << '\n';
      j["results"].push_back({{"width", z.w},
                              {"height", z.h},
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
      std::vector<std::uint8_t> rgba(static_cast<std::size_t>(z.w) * z.h * 4);
      scandof::util::SplitMix64 rng(seed++);
      for (std::size_t i = 0; i < rgba.size(); i += 8) {
        const std::uint64_t r = rng.next();
        for (std::size_t k = 0; k < 8 && i + k < rgba.size(); ++k)
          rgba[i + k] = static_cast<std::uint8_t>(r >> (8 * k));
      }
      // Timed builds rotate through `sets` textures and tables (the same pixels in each), so that
      // no build reads its pixels or writes its table through an L2 a recent build left warm; as
      // satbench does on the CUDA side.
      const std::size_t table_bytes = GlSatBuilder::table_bytes(z.w, z.h);
      const std::size_t sets = std::min<std::size_t>(
          scandof::bench::rotation_sets(rgba.size() + table_bytes, static_cast<std::size_t>(l2_mb)
                                                                       << 20),
          32);
      std::vector<scandof::gl::GlTexture> texs;
      std::vector<scandof::gl::GlBuffer> tables;
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      for (std::size_t k = 0; k < sets; ++k) {
        texs.push_back(scandof::gl::make_texture(GL_TEXTURE_2D));
        glTextureStorage2D(texs.back().get(), 1, GL_RGBA8, z.w, z.h);
        glTextureSubImage2D(texs.back().get(), 0, 0, 0, z.w, z.h, GL_RGBA, GL_UNSIGNED_BYTE,
                            rgba.data());
        tables.push_back(scandof::gl::make_buffer());
        glNamedBufferStorage(tables.back().get(), static_cast<GLsizeiptr>(table_bytes), nullptr, 0);
      }
      auto build = [&](int i, GlSatVariant v, SatFormat f, bool timed) {
        const std::size_t k = static_cast<std::size_t>(i) % sets;
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
        builder.write_floor(texs[k].get(), z.w, z.h, tables[k].get());
      };
      for (SatFormat f : formats)
        for (int vi = 0; vi < scandof::gl::kNumGlSatVariants + 4; ++vi) {
          // The last rows: the fused path's alternatives (GlSatTuning), for comparison:
          // each lane storing its words directly instead of through shared memory, and one
          // dispatch with look-back instead of three, and the three as phases of one dispatch
          // (both where safe).
          const int alt = std::max(0, vi - scandof::gl::kNumGlSatVariants + 1);
          const auto v = alt ? GlSatVariant::Fused : static_cast<GlSatVariant>(vi);
          if (alt >= 2 && !builder.support().lookback) continue;
          const std::string vname = alt ? alt_names[alt] : scandof::gl::to_string(v);
          if (!runs(vname)) continue;
          builder.set_tuning(tuning_for(alt));
          std::string check = "skip";
          if (!no_verify) {
            const std::uint32_t poison = 0xDEADBEEFu;
            glClearNamedBufferData(tables[0].get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT,
                                   &poison);
            build(0, v, f, false);
            const std::size_t bad = verify(rgba, z.w, z.h, v, f, tables[0].get());
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
          emit(z, scandof::to_string(f), vname, med, p10, p90, stream.gpu_ms, r_ms, a_ms, c_ms,
               stream.cpu_ms, check);
        }
      // Where each workgroup of the one-dispatch builds spent its time: its SM's cycle counter
      // at marks (sat_fused_trace.glsl; scripts/phased_trace.py reads them).
      if (trace_phased && builder.support().lookback)
        for (const auto& [alt, file] : {std::pair<int, const char*>{kPhased, "phased_trace_"},
                                        std::pair<int, const char*>{kOnePass, "single_trace_"}}) {
          const std::size_t words = GlSatBuilder::phase_trace_bytes(z.w, z.h) / 4;
          scandof::gl::GlBuffer tb = scandof::gl::make_buffer();
          glNamedBufferStorage(tb.get(), static_cast<GLsizeiptr>(words * 4), nullptr,
                               GL_DYNAMIC_STORAGE_BIT);
          builder.set_tuning(tuning_for(alt));
          builder.set_phase_trace(tb.get());
          std::ostringstream tcsv;
          tcsv << "run,ticket,phase,sm,ck0,ck1,ck2,ck3,ck4,ck5,ck6,ck7\n";
          for (int i = 0; i < warmup; ++i) build(i, GlSatVariant::Fused, SatFormat::U32, false);
          for (int run = 0; run < 5; ++run) {
            const std::uint32_t zero = 0;
            glClearNamedBufferData(tb.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
            glFinish();
            build(run, GlSatVariant::Fused, SatFormat::U32, false);
            glFinish();
            std::vector<std::uint32_t> t(words);
            glGetNamedBufferSubData(tb.get(), 0, static_cast<GLsizeiptr>(words * 4), t.data());
            for (std::size_t g = 0; g + 12 <= words; g += 12) {
              if (t[g + 11] != 1) continue;  // no such workgroup
              tcsv << run << ',' << t[g + 10] << ',' << t[g + 9] << ',' << t[g + 8];
              for (int k = 0; k < 8; ++k) tcsv << ',' << t[g + k];
              tcsv << '\n';
            }
          }
          builder.set_phase_trace(0);
          const std::string path =
              out_dir + "/" + file + std::to_string(z.w) + "x" + std::to_string(z.h) + ".csv";
          scandof::util::write_text_file(path, tcsv.str());
          std::printf("wrote %s\n", path.c_str());
        }
      // The floor under the fused path: the same bytes loaded and stored, coalesced, with no
      // scan between (one format: the stores are the same 16-byte words).
      if (runs("floor")) {
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
        emit(z, "-", "floor (copy)", scandof::util::median(single),
             scandof::util::percentile(single, 0.1), scandof::util::percentile(single, 0.9),
             stream.gpu_ms, 0.0, 0.0, 0.0, stream.cpu_ms, "-");
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
