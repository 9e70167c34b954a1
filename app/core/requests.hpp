// One-shot actions asked for while a frame is drawn: by widgets (ui/, primitives/panel.cpp), by
// keys and clicks (ui/camera_input.cpp) or by the command line. Nothing that asks touches GL or CUDA;
// App::carry_out runs them after the frame's UI is drawn, at a point where the GL state is known.
#pragma once

namespace demo {

struct Requests {
  bool screenshot = false;           // F12 / P / the button: scandof-NNN.png of the DoF output
                                     // (written by the window loop through automation/)
  bool compare_variants = false;     // "Time every variant on this frame"
  bool measure_float_error = false;  // "Measure float32 error"
  bool run_primitives = false;       // the Primitives window's Run button (or --primitives)
  bool focus_at_pixel = false;       // a click: focus on the scene point under (focus_x, focus_y)
  int focus_x = 0, focus_y = 0;      // GL pixel coordinates (bottom-left origin)
  bool compare_reference = false;    // "Compare with reference": render the lens reference, score
  bool hover = false;                // the cursor is over the scene (not a panel) at hover_x/y:
  int hover_x = 0, hover_y = 0;      // autofocus "cursor" follows it (GL pixel coordinates)
  bool quit = false;                 // Esc
};

}  // namespace demo
