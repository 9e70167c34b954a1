// Autofocus's focus pull, apart from where its target comes from (frame/app.cpp reads the view z
// under the cursor or the centre, or a teapot's depth): a pure function, unit-tested in
// app/tests/focus_pull_test.cpp.
#pragma once

namespace demo {

// The nearest focal distance a pull may reach (scene units): a target nearer than this clamps.
constexpr float kMinFocusDistance = 0.05f;

// The focal distance after dt_s seconds of pulling from `current` towards `target` at `speed` per
// second. A focus pull moves evenly in dioptres (1/distance), as a lens's focus ring does: the
// same turn takes 1 m to 2 m as 2 m to infinity; exponential approach, 63 % of the way in 1/speed
// seconds. A target or a time step that is not > 0 (the background, a paused frame, NaN) leaves
// the focus where it is.
float pull_focus(float current, float target, float speed, float dt_s);

}  // namespace demo
