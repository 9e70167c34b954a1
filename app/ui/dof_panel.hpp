// The depth-of-field section of the sidebar: method and kernel shape, "Compare with
// reference" and its PSNR / SSIM, the physical camera and autofocus, the sharp frame's texture
// filtering and MSAA; and the error view's heat-map legend. Widgets edit app.settings and add
// Requests; none calls GL or CUDA. Tooltips go through ui_tip (ui.hpp), so --ui-selftest checks
// these controls too.
#pragma once

#include "core/requests.hpp"

namespace demo {

class App;

void draw_dof_panel(App& app, Requests* req);
// The heat colour ramp of the "error" view (scandof::metrics::heat_color), `width` px wide,
// labelled 0 .. scale.
void heat_legend(float scale, float width);

}  // namespace demo
