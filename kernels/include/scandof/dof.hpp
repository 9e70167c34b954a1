// Depth of field from summed-area tables: the types every implementation shares
// (scandof/dof_types.hpp), the shape maths of host and device (scandof/dof_shapes.hpp) and the CPU
// gold implementation of every method (scandof/dof_gold.hpp). Host-only headers, includable from
// .cu files. The conventions, kernel shapes, methods and fixed-point limits: docs/dof.md.
#pragma once

#include "scandof/dof_gold.hpp"
#include "scandof/dof_shapes.hpp"
#include "scandof/dof_types.hpp"
