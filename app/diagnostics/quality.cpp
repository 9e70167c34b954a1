#include "diagnostics/quality.hpp"

#include <algorithm>
#include <cstdint>

#include "scandof/dof.hpp"

namespace demo {

std::string dof_label(const Settings& s) {
  return std::string(scandof::dof::to_string(s.dof_method)) + "/" +
         scandof::dof::to_string(s.dof_shape);
}

QualityResult score(const std::vector<float>& image, const std::vector<float>& reference,
                    const std::vector<float>& viewz, int width, int height, const Settings& s) {
  QualityResult r;
  r.method = dof_label(s);
  const scandof::dof::Params p = dof_params(s);
  for (float zi : viewz) r.edge_radius = std::max(r.edge_radius, scandof::dof::coc_radius(zi, p));
  std::vector<uint8_t> mask(viewz.size());
  scandof::metrics::edge_band_mask(viewz.data(), width, height, r.edge_radius, mask.data());
  r.q = scandof::metrics::compare(image.data(), reference.data(), width, height, mask.data());
  return r;
}

}  // namespace demo
