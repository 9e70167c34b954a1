// The depth-of-field panel (issue 9): method and kernel shape, "Compare with reference" and its
// PSNR / SSIM, the physical camera and autofocus, the sharp frame's texture filtering and MSAA.
// Widgets edit app.settings and add Requests; none calls GL or CUDA.
#pragma once

#include "requests.hpp"

namespace demo {

class App;

void draw_dof_panel(App& app, Requests* req);

}  // namespace demo
