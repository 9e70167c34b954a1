// dofbench: the depth-of-field gather kernel (scandof/dof_cuda.hpp) against its floors, with the
// SAT build that feeds it (planar vs interleaved, Fused) and cudaMemcpy beside it in the same run.
//
// Two timings of the DoF pass, medians of CUDA-event times after warm-up:
//  - "in frame": SAT build then DoF, as the demo's frame runs them; only the DoF is timed, so its
//    table reads hit whatever the build left in L2 (all of it at 1080p: 33 MB < 50 MB).
//  - "cold": the tables rotate over enough sets that each read comes from DRAM.
// Input: a smooth RGBA8 image and a depth map with near, focused and far regions (the radii are
// fractional almost everywhere, so most pixels take the 16-corner path), the demo's default lens.
// HDR rows ("hdr ..."): the same passes on an RGBA16F frame of radiance (the image's bytes as
// 2 (v/255)^2 plus a bright point of 50 in one pixel of 500), its fixed-point table (radiance up
// to 100; built once by sat_gold_hdr, so the rows time the DoF pass alone, as the LDR rows do)
// and an RGBA16F output; "hdr gather box f32" reads a float table of radiance instead.
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "scandof/cuda_check.hpp"
#include "scandof/dof_cuda.hpp"
#include "scandof/hdr.hpp"
#include "scandof/provenance.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/event_timer.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/sizes.hpp"
#include "scandof/util/stream.hpp"
#include "scandof/util/texture_object.hpp"

namespace {

using scandof::util::DeviceBuffer;

// A 2D cudaArray (the demo's GL textures are arrays too) with a texture or surface view.
using Array2D = scandof::util::CudaArray;

}  // namespace

int main(int argc, char** argv) {
  scandof::provenance::set_command_line(argc, argv);
  CLI::App app{
      "dofbench: the CUDA depth-of-field gather against its floors (see bench/dofbench.cu)"};
  std::string json_path;
  std::vector<std::string> sizes{"1920x1080", "3840x2160"};
  float focus = 15, aperture = 12, max_radius = 24;
  app.add_option("--json", json_path, "write the results as JSON");
  app.add_option("--sizes", sizes, "WxH sizes")->expected(1, 16);
  app.add_option("--focus", focus, "focal distance (scene units)")->check(CLI::PositiveNumber);
  app.add_option("--aperture", aperture, "CoC radius at infinity (px)")
      ->check(CLI::Range(0.f, 256.f));
  app.add_option("--max-radius", max_radius, "CoC clamp (px)")->check(CLI::Range(0.f, 256.f));
  CLI11_PARSE(app, argc, argv);

  try {
    const auto dev = scandof::util::current_device();
    std::printf("dofbench on %s (CUDA %s, %d SMs, L2 %.0f MB)\n", dev.name.c_str(),
                scandof::util::cuda_version_string(dev.runtime_version).c_str(), dev.sm_count,
                dev.l2_bytes / 1e6);
    std::printf("%-10s %-28s %10s %10s %10s\n", "size", "pass", "median ms", "min ms", "GB/s");
    scandof::util::Stream stream;
    scandof::util::EventTimer timer(stream);
    nlohmann::json out = {{"device", dev.name},
                          {"record", scandof::provenance::record<nlohmann::json>(dev.name)},
                          {"runs", nlohmann::json::array()}};
    for (const std::string& sz : sizes) {
      const scandof::util::ImageSize size = scandof::util::parse_size(sz);
      const int w = size.w, h = size.h;
      const std::size_t n = static_cast<std::size_t>(w) * h;
      std::vector<uint32_t> img(n);
      std::vector<float> z(n);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * w + x;
          const uint64_t r = scandof::util::hash_at(17, i);
          img[i] = static_cast<uint32_t>(r) | 0xFF000000u;
          // Depth from 3 (near, blurred) through the focal plane to 60 (far), with a band in focus.
          const float v = static_cast<float>(y) / h, u = static_cast<float>(x) / w;
          z[i] = 6.f + 54.f * v * v + 4.f * std::sin(12.f * u);  // 2 .. 64: always > 0
        }
      DeviceBuffer<uint32_t> px(n);
      px.upload(img.data(), n);
      Array2D color_a(cudaCreateChannelDesc<uchar4>(), w, h);
      Array2D depth_a(cudaCreateChannelDesc<float>(), w, h);
      Array2D out_a(cudaCreateChannelDesc<uchar4>(), w, h, cudaArraySurfaceLoadStore);
      CUDA_CHECK(cudaMemcpy2DToArray(color_a.get(), 0, 0, img.data(), w * 4, w * 4, h,
                                     cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy2DToArray(depth_a.get(), 0, 0, z.data(), w * 4, w * 4, h,
                                     cudaMemcpyHostToDevice));
      const scandof::util::TextureObject color_tex(color_a.get()), depth_tex(depth_a.get());
      const scandof::util::SurfaceObject surf(out_a.get());
      scandof::SatInput in;
      in.pixels = px.get();
      in.pitch_bytes = static_cast<std::size_t>(w) * 4;
      in.width = w;
      in.height = h;
      scandof::SatBuilder builder;
      const std::size_t il_bytes =
          scandof::SatBuilder::table_bytes(w, h, 3, scandof::SatLayout::Interleaved);
      const std::size_t pl_bytes = scandof::SatBuilder::table_bytes(w, h, 3);
      // Enough table sets that one set's reuse is 2 x L2 of traffic away (cold timing).
      const int sets = static_cast<int>(std::max<std::size_t>(1, 2 * dev.l2_bytes / il_bytes + 1));
      std::vector<DeviceBuffer<uint32_t>> tables;
      for (int i = 0; i < sets; ++i) tables.emplace_back(il_bytes / 4);
      DeviceBuffer<uint32_t> planar(pl_bytes / 4), copy_dst(il_bytes / 4);
      for (auto& t : tables)
        builder.build(in, t.get(), scandof::SatFormat::U32, scandof::SatMethod::Fused,
                      scandof::ScanAlgorithm::SinglePass, stream, false, 3,
                      scandof::SatLayout::Interleaved);
      // One frame and one lens for every pass below (the table pointer rotates for cold reads).
      scandof::DofFrame frame;
      frame.rgba = color_tex.get();
      frame.depth = depth_tex.get();
      frame.sat = tables[0].get();
      frame.out = surf.get();
      frame.width = w;
      frame.height = h;
      scandof::dof::Params lens;
      lens.aperture_px = aperture;
      lens.focus = focus;
      lens.max_radius = max_radius;

      auto row = [&](const char* pass, const scandof::util::Stats& st, double bytes) {
        const double gbs = bytes / (st.median_ms * 1e6);
        std::printf("%-10s %-28s %10.4f %10.4f %10.0f\n", sz.c_str(), pass, st.median_ms, st.min_ms,
                    gbs);
        out["runs"].push_back({{"size", sz},
                               {"pass", pass},
                               {"median_ms", st.median_ms},
                               {"min_ms", st.min_ms},
                               {"reps", st.reps},
                               {"bytes", bytes},
                               {"gb_per_s", gbs}});
      };
      const double img_bytes = 4.0 * n;
      row("sat fused planar", timer.measure([&](int) {
        builder.build(in, planar.get(), scandof::SatFormat::U32, scandof::SatMethod::Fused,
                      scandof::ScanAlgorithm::SinglePass, stream, false, 3);
      }),
          img_bytes + pl_bytes);
      row("sat fused interleaved", timer.measure([&](int rep) {
        builder.build(in, tables[rep % sets].get(), scandof::SatFormat::U32,
                      scandof::SatMethod::Fused, scandof::ScanAlgorithm::SinglePass, stream, false,
                      3, scandof::SatLayout::Interleaved);
      }),
          img_bytes + il_bytes);
      // In frame: build (untimed) then DoF (timed) on the same table.
      {
        scandof::util::Event a, b;
        std::vector<double> ms;
        for (int rep = 0; rep < 210; ++rep) {
          builder.build(in, tables[0].get(), scandof::SatFormat::U32, scandof::SatMethod::Fused,
                        scandof::ScanAlgorithm::SinglePass, stream, false, 3,
                        scandof::SatLayout::Interleaved);
          frame.sat = tables[0].get();
          a.record(stream);
          scandof::dof_gather(frame, lens, stream);
          b.record(stream);
          if (rep >= 10) ms.push_back(b.since(a));
        }
        row("dof gather (in frame)", scandof::util::summarize(ms), il_bytes + 4.0 * n + 4.0 * n);
      }
      row("dof gather (cold tables)", timer.measure([&](int rep) {
        frame.sat = tables[rep % sets].get();
        scandof::dof_gather(frame, lens, stream);
      }),
          il_bytes + 4.0 * n + 4.0 * n);
      // Every method and shape through DofGpu, in frame (table and textures fresh from the build),
      // then the same on the HDR frame.
      struct Cfg {
        const char* name;
        scandof::dof::Method m;
        scandof::dof::Shape shape;
        int layers;
        int blades = 0;  // aperture blades (dof::Params::blades; 0 = round)
        float offset = 0.0f;  // dof::Params::radius_offset
        // `lens` with this configuration's shape, layers or rings, blades and offset.
        scandof::dof::Params params(const scandof::dof::Params& lens) const {
          scandof::dof::Params p = lens;
          p.shape = shape;
          p.layers = m == scandof::dof::Method::Layered ? layers : 2;
          p.rings = layers;
          p.blades = blades;
          p.radius_offset = offset;
          return p;
        }
      };
      const Cfg cfgs[] = {
          {"gather box (DofGpu)", scandof::dof::Method::Gather, scandof::dof::Shape::Box, 2},
          {"gather octagon", scandof::dof::Method::Gather, scandof::dof::Shape::Octagon, 2},
          {"gather disc k=4", scandof::dof::Method::Gather, scandof::dof::Shape::Disc, 2},
          {"spread box", scandof::dof::Method::Spread, scandof::dof::Shape::Box, 2},
          {"spread disc k=4", scandof::dof::Method::Spread, scandof::dof::Shape::Disc, 2},
          {"layered box K=2", scandof::dof::Method::Layered, scandof::dof::Shape::Box, 2},
          {"layered box K=3", scandof::dof::Method::Layered, scandof::dof::Shape::Box, 3},
          // rings in the layers slot: the engine's half-resolution gathers (1 + 4N(N+1) samples)
          {"engine rings=3", scandof::dof::Method::Engine, scandof::dof::Shape::Box, 3},
          {"engine rings=5", scandof::dof::Method::Engine, scandof::dof::Shape::Box, 5},
          {"hybrid octagon rings=3", scandof::dof::Method::Hybrid, scandof::dof::Shape::Octagon, 3},
          {"hybrid disc k=4 rings=3", scandof::dof::Method::Hybrid, scandof::dof::Shape::Disc, 3},
          {"hybrid disc k=4 rings=5", scandof::dof::Method::Hybrid, scandof::dof::Shape::Disc, 5},
          // The demo's default (gather/octagon, shapes of the lens's area) and aperture blades:
          // the polygon's bands, 16 corners each.
          {"gather octagon offset 0.5", scandof::dof::Method::Gather, scandof::dof::Shape::Octagon,
           2, 0, 0.5f},
          {"gather 5 blades", scandof::dof::Method::Gather, scandof::dof::Shape::Disc, 2, 5, 0.5f},
          {"gather 6 blades", scandof::dof::Method::Gather, scandof::dof::Shape::Disc, 2, 6, 0.5f},
          {"gather 8 blades", scandof::dof::Method::Gather, scandof::dof::Shape::Disc, 2, 8, 0.5f},
          {"hybrid 6 blades rings=3", scandof::dof::Method::Hybrid, scandof::dof::Shape::Disc, 3, 6,
           0.5f},
      };
      {
        scandof::DofGpu gpu;
        frame.sat = tables[0].get();
        for (const Cfg& c : cfgs) {
          const scandof::dof::Params p = c.params(lens);
          row(c.name, timer.measure([&](int) { gpu.render(c.m, p, frame, stream); }),
              il_bytes + 4.0 * n + 4.0 * n);
        }
      }
      {
        std::vector<float> radiance(4 * n);
        std::vector<uint16_t> halves(4 * n);
        for (std::size_t i = 0; i < n; ++i)
          for (int c = 0; c < 4; ++c) {
            const float b = static_cast<float>((img[i] >> (8 * c)) & 0xFFu) / 255.f;
            const float v = scandof::util::hash_at(29, i) % 500 == 0 ? 50.f : 2.f * b * b;
            halves[4 * i + c] = scandof::float_to_half(v);
            radiance[4 * i + c] = scandof::half_to_float(halves[4 * i + c]);
          }
        const scandof::SatFixedPoint fp = scandof::hdr_fixed_point(max_radius, 100.f);
        std::vector<uint32_t> host_table(il_bytes / 4);
        DeviceBuffer<uint32_t> hdr_u32(il_bytes / 4), hdr_f32(il_bytes / 4);
        scandof::sat_gold_hdr(radiance.data(), w, h, fp, host_table.data(), 3,
                              scandof::SatLayout::Interleaved);
        hdr_u32.upload(host_table.data(), host_table.size());
        {
          std::vector<float> ft(il_bytes / 4);
          scandof::sat_gold_hdr(radiance.data(), w, h, ft.data(), 3,
                                scandof::SatLayout::Interleaved);
          std::memcpy(host_table.data(), ft.data(), il_bytes);
        }
        hdr_f32.upload(host_table.data(), host_table.size());
        Array2D color16(cudaCreateChannelDescHalf4(), w, h);
        Array2D out16(cudaCreateChannelDescHalf4(), w, h, cudaArraySurfaceLoadStore);
        CUDA_CHECK(cudaMemcpy2DToArray(color16.get(), 0, 0, halves.data(), w * 8, w * 8, h,
                                       cudaMemcpyHostToDevice));
        const scandof::util::TextureObject color16_tex(color16.get());
        const scandof::util::SurfaceObject surf16(out16.get());
        scandof::DofFrame hf = frame;
        hf.rgba = color16_tex.get();
        hf.sat = hdr_u32.get();
        hf.out = surf16.get();
        hf.pixels = scandof::SatPixels::Rgba16F;
        hf.fixed = fp;
        scandof::DofGpu gpu;
        // Bytes as the LDR rows count them, with the HDR frame and output twice as wide.
        const double hdr_bytes = il_bytes + 4.0 * n + 8.0 * n;
        for (const Cfg& c : cfgs) {
          const scandof::dof::Params p = c.params(lens);
          const std::string name = std::string("hdr ") + c.name;
          row(name.c_str(), timer.measure([&](int) { gpu.render(c.m, p, hf, stream); }),
              hdr_bytes);
        }
        hf.sat = hdr_f32.get();
        hf.format = scandof::SatFormat::F32;
        row("hdr gather box f32", timer.measure([&](int) { gpu.render(
                                        scandof::dof::Method::Gather, lens, hf, stream); }),
            hdr_bytes);
      }
      row("cudaMemcpy D2D (table size)", timer.measure([&](int) {
        CUDA_CHECK(cudaMemcpyAsync(copy_dst.get(), tables[0].get(), il_bytes,
                                   cudaMemcpyDeviceToDevice, stream));
      }),
          2.0 * il_bytes);
    }
    if (!json_path.empty()) scandof::util::write_text_file(json_path, out.dump(2) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dofbench: %s\n", e.what());
    return 1;
  }
  return 0;
}
