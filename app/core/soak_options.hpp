// The soak and fault flags (--soak SECONDS, --soak-frames N, --soak-switch N, --soak-resize M,
// --soak-seed S, --soak-backends LIST, --soak-verify K, --inject-fault NAME): what a long scripted
// run cycles through and which faults it provokes (automation/soak.*, the loop of both runners).
// GL-free, so the command line's tests (app/tests/) parse them without a context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/settings.hpp"

namespace CLI {
class App;
}

namespace demo {

// A fault the soak provokes (or, for no-gl-compute, a driver feature it hides from the start). Each
// must end in a message and either a recovered run or a clean non-zero exit.
enum class Fault : int {
  Minimise = 0,     // the frame becomes 0x0 for a few loop passes, then the old size comes back
  HugeResize,       // a resize to 65536x65536: past the GL limits, refused, the old size kept
  LowMemoryResize,  // a resize refused because free memory is (pretended) too small
  AllocResize,      // an allocation fails inside the resize (CUDA: a real failed cudaMalloc)
  NoGlCompute,      // the GL SAT backend's compute support reported missing from the start
  ReferenceCancel,  // the lens reference cancelled half-way through its samples
  // A CUDA-GL registration fails in frame N (interop-register@N; any run, no soak needed): the
  // SAT stage falls back to the next backend for the rest of the run. On GL compute, the GL build
  // fails instead (the fallback to the CPU); the CPU backend has nothing to fail.
  InteropRegister,
};
constexpr int kNumFaults = 7;
// The flag's names: minimise, huge-resize, low-memory@resize, alloc@resize, no-gl-compute,
// reference-cancel, interop-register (cuda-alloc@resize and minimize are accepted too).
const char* to_string(Fault f);
bool parse_fault(const std::string& name, Fault* f);

// What a soak's switches change (--soak-vary); a soak that varies one at a time tells which
// switch a memory drift follows.
enum SoakVary : unsigned {
  kVaryBackend = 1u << 0,   // the SAT backend (and with it the CUDA-GL interop)
  kVarySat = 1u << 1,       // SAT method, scan variant, table format
  kVaryDof = 1u << 2,       // DoF method and shape
  kVaryView = 1u << 3,      // camera view
  kVaryMsaa = 1u << 4,      // MSAA 1/2/4
  kVaryPipeline = 1u << 5,  // HDR / LDR
  kVarySize = 1u << 6,      // the random resizes
  kVaryExtras = 1u << 7,    // lens references, the primitives panel, screenshots
  kVaryAll = (1u << 8) - 1,
};
// Comma-separated names (backend, sat, dof, view, msaa, pipeline, size, extras, all) to a mask;
// false with *bad set to the first unknown name.
bool parse_soak_vary(const std::string& list, unsigned* mask, std::string* bad);
// The mask's names, comma separated ("all" for every one).
std::string soak_vary_names(unsigned mask);

struct SoakOptions {
  bool on = false;
  double seconds = 0;     // --soak SECONDS (0: no time limit)
  long long frames = 0;   // --soak-frames N (0: no frame limit)
  int switch_every = 50;  // frames between configuration switches
  int resize_every = 200;  // frames between random resizes
  std::uint64_t seed = 1;  // of the random sizes
  int verify_every = 5;    // --verify: every K-th switch verifies (and every canonical one)
  double flat_limit = 0.01;  // --soak-flat-limit PCT / 100: the memory drift judged flat
  // Backends the switches cycle through (default all four: auto, cuda, gl, cpu; a backend that
  // cannot run here falls back as it would at start and says so).
  std::vector<SatBackend> backends = {SatBackend::Auto, SatBackend::Cuda, SatBackend::Gl,
                                      SatBackend::Cpu};
  std::vector<Fault> faults;  // in the order they fire
  std::vector<long long> interop_fault_frames;  // interop-register@N: the frames (from 1)
  unsigned vary = kVaryAll;   // --soak-vary
  bool operator==(const SoakOptions& o) const {
    return on == o.on && seconds == o.seconds && frames == o.frames &&
           switch_every == o.switch_every && resize_every == o.resize_every && seed == o.seed &&
           verify_every == o.verify_every && flat_limit == o.flat_limit && backends == o.backends && faults == o.faults &&
           interop_fault_frames == o.interop_fault_frames && vary == o.vary;
  }
};

// How checked_int reports text that holds no integer at all, or one past 64 bits: the command
// line's own flags (run/cli.cpp) say "not an integer: 'V'"; the soak flags name the range, as for
// any other bad value.
enum class NotAnInteger { Say, NameRange };
// An integer flag's value in [lo, hi], parsed as 64 bits: overflow is an error, never a wrapped
// value; so are trailing characters. Throws CLI::ValidationError("FLAG", "'V' is not an integer in
// LO..HI") (or, for no integer at all with NotAnInteger::Say, "not an integer: 'V'").
long long checked_int(const std::string& flag, const std::string& v, long long lo, long long hi,
                      NotAnInteger garbage);

// Adds the soak and fault flags to the parser; called by parse_cli.
void add_soak_flags(CLI::App& app, SoakOptions* s);
// After parsing: the defaults and the checks CLI11 cannot express; returns an error text (empty
// when fine).
std::string finish_soak_options(SoakOptions* s);

}  // namespace demo
