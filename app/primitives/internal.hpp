// Shared between the host and CUDA halves of the primitives benchmark (not for the UI).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "primitives/bench.hpp"

namespace demo::prim_detail {

// LessThan threshold that keeps about pct % of uniform uint32 keys.
std::uint32_t compact_threshold(int pct);
// The request's input of n keys (seeded; never all zeros).
std::vector<std::uint32_t> make_input(const PrimRequest& req, std::size_t n);
std::string label_of(const PrimRequest& r);

}  // namespace demo::prim_detail
