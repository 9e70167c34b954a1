// The Dear ImGui panels: lens, SAT construction, views, live timings with a history plot, and the
// all-variants comparison. Edits app.settings; actions are returned as requests for the loop.
#pragma once

#include <string>

namespace demo {

class App;

struct UiRequests {
  bool screenshot = false;
};

struct UiInfo {
  std::string gl_renderer;
  float fps = 0;
};

void draw_ui(App& app, const UiInfo& info, UiRequests* req);

}  // namespace demo
