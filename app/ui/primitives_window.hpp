// The "Primitives" window: pick a primitive, a size and an input distribution, press Run, read the
// library's time next to CUB's (the run itself: primitives/run.hpp).
#pragma once

#include "core/requests.hpp"
#include "primitives/run.hpp"

namespace demo {

// Draws the window (when *open); edits `req` (the Settings' request); Run sets
// out->run_primitives. No GPU work.
void primitives_window(const PrimitivesRun& run, PrimRequest* req, bool* open, Requests* out);

}  // namespace demo
