// The Dear ImGui panels: lens, SAT construction, views, live timings with a history plot, the
// all-variants comparison and the Primitives window. Widgets edit app.settings and return actions
// as Requests (requests.hpp) for the frame loop to carry out; none calls GL or CUDA.
#pragma once

#include <string>

#include "requests.hpp"

namespace demo {

class App;

struct UiInfo {
  std::string gl_renderer;
  float fps = 0;
};

void draw_ui(App& app, const UiInfo& info, Requests* req);

}  // namespace demo
