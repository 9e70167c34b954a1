#include "diagnostics/verify.hpp"

#include <cstdio>

#include "diagnostics/image_diff.hpp"
#include "scandof/npy.hpp"
#include "scandof/util/file_io.hpp"

namespace demo {

bool verify_dof_passes(const Settings& settings, GlDofPass& dof, SatStage& sat,
                       CudaDofPass& cuda_dof, FrameTargets& t, std::string* message) {
  Settings s = settings;
  s.view = View::DepthOfField;
  s.dof_method = scandof::dof::Method::Gather;  // the one method both passes draw
  s.dof_shape = scandof::dof::Shape::Box;
  // The tables of `s`, not of the frame's method: the gather's bokeh split reads tables clamped
  // at its threshold, which a spread or layered frame does not build.
  sat.build(s, SatTiming::Wait);
  dof.render_fragment(t, s, sat.buffer());
  const std::vector<uint8_t> frag = t.read_rgba(t.output());
  bool ok = true;
  auto check = [&](const char* name) {
    const ImageDiff d = diff_images(frag, t.read_rgba(t.output()), 1);
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "\nDoF passes %s: %s vs fragment max difference %d/255, %zu of %zu channel "
                  "values differ by more than 1",
                  d.max <= 1 ? "agree" : "DISAGREE", name, d.max, d.over, d.count);
    *message += buf;
    ok = ok && d.max <= 1;
  };
  dof.render_compute(t, s, sat.buffer());
  check("GL compute");
  if (sat.can_compute_dof()) {
    sat.build(s, SatTiming::Wait, &cuda_dof);
    check("CUDA compute");
  }
  return ok;
}

bool judge_scene_shading(const std::vector<uint8_t>& fwd, const std::vector<uint8_t>& def,
                         bool at_1x, std::string* message) {
  const ImageDiff d = diff_images(fwd, def, kSceneShadingTolerance);
  const bool ok = d.fraction_over() <= kSceneShadingOutliers;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "\nscene shading %s: deferred planes vs forward%s max difference %d/255, mean "
                "%.4f, %.4f %% of channel values differ by more than %d (at most %.2f %% allowed)",
                ok ? "agrees" : "DISAGREES", at_1x ? " (anisotropy 1x: software rasterizer)" : "",
                d.max, d.mean, 100.0 * d.fraction_over(), kSceneShadingTolerance,
                100.0 * kSceneShadingOutliers);
  *message += buf;
  return ok;
}

void dump_sat(const SatStage& sat, scandof::SatFormat format, const std::string& path) {
  const std::vector<std::size_t> shape = {3, static_cast<std::size_t>(sat.height()),
                                          static_cast<std::size_t>(sat.width())};
  const bool u32 = format == scandof::SatFormat::U32;
  const std::vector<uint32_t> tu = u32 ? sat.read_u32() : std::vector<uint32_t>();
  const std::vector<float> tf = u32 ? std::vector<float>() : sat.read_f32();
  const void* data = u32 ? static_cast<const void*>(tu.data()) : tf.data();
  const auto dtype = u32 ? scandof::npy::DType::UInt32 : scandof::npy::DType::Float32;
  scandof::util::write_file_atomic(
      path, [&](std::ostream& o) { scandof::npy::save(o, dtype, shape, data, path); });
  std::fprintf(stderr, "[scandof] SAT written: %s\n", path.c_str());
}

}  // namespace demo
