// Device-wide LSD radix sort with 8-bit digits ("onesweep", Adinets & Merrill 2022): one histogram
// kernel for all digits, then one kernel per digit that ranks a tile and finds its digit offsets by
// decoupled look-back; n <= one tile runs every pass in one block. One read and one write of the
// keys per digit. Split as CUB splits its radix sort: the kernels (sort_lsd_agent.cuh), the tuned
// policies (sort_lsd_tuning.cuh), the host-side launch sequence (sort_lsd_dispatch.cuh). The
// figures against cub::DeviceRadixSort and what was tried are in results/sort/README.md.
#pragma once

#include "scandof/device/sort_lsd_agent.cuh"
#include "scandof/device/sort_lsd_dispatch.cuh"
#include "scandof/device/sort_lsd_tuning.cuh"
