#include "core/soak_options.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <sstream>

namespace demo {

const char* to_string(Fault f) {
  switch (f) {
    case Fault::Minimise:
      return "minimise";
    case Fault::HugeResize:
      return "huge-resize";
    case Fault::LowMemoryResize:
      return "low-memory@resize";
    case Fault::AllocResize:
      return "alloc@resize";
    case Fault::NoGlCompute:
      return "no-gl-compute";
    case Fault::ReferenceCancel:
      return "reference-cancel";
    case Fault::InteropRegister:
      return "interop-register";
  }
  return "?";
}

bool parse_fault(const std::string& name, Fault* f) {
  for (int k = 0; k < kNumFaults; ++k) {
    if (static_cast<Fault>(k) == Fault::InteropRegister) continue;  // needs its frame: @N
    if (name == to_string(static_cast<Fault>(k))) {
      *f = static_cast<Fault>(k);
      return true;
    }
  }
  if (name == "cuda-alloc@resize") {
    *f = Fault::AllocResize;
    return true;
  }
  if (name == "minimize") {
    *f = Fault::Minimise;
    return true;
  }
  return false;
}

namespace {
const struct {
  const char* name;
  unsigned bit;
} kVaryNames[] = {{"backend", kVaryBackend}, {"sat", kVarySat},     {"dof", kVaryDof},
                  {"view", kVaryView},       {"msaa", kVaryMsaa},   {"pipeline", kVaryPipeline},
                  {"size", kVarySize},       {"extras", kVaryExtras}, {"all", kVaryAll}};
}  // namespace

std::string soak_vary_names(unsigned mask) {
  if (mask == kVaryAll) return "all";
  std::string s;
  for (const auto& n : kVaryNames)
    if (n.bit != kVaryAll && (mask & n.bit)) s += (s.empty() ? "" : ",") + std::string(n.name);
  return s;
}

bool parse_soak_vary(const std::string& list, unsigned* mask, std::string* bad) {
  unsigned m = 0;
  std::stringstream ss(list);
  std::string name;
  while (std::getline(ss, name, ',')) {
    bool found = false;
    for (const auto& n : kVaryNames)
      if (name == n.name) {
        m |= n.bit;
        found = true;
      }
    if (!found) {
      *bad = name;
      return false;
    }
  }
  *mask = m;
  return true;
}

long long checked_int(const std::string& flag, const std::string& v, long long lo, long long hi,
                      NotAnInteger garbage) {
  std::size_t used = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    if (garbage == NotAnInteger::Say)
      throw CLI::ValidationError(flag, "not an integer: '" + v + "'");
    used = 0;
  }
  if (v.empty() || used != v.size() || x < lo || x > hi)
    throw CLI::ValidationError(flag, "'" + v + "' is not an integer in " + std::to_string(lo) +
                                         ".." + std::to_string(hi));
  return x;
}

namespace {

long long parse_count(const std::string& flag, const std::string& v, long long lo, long long hi) {
  return checked_int(flag, v, lo, hi, NotAnInteger::NameRange);
}

// The whole of v as a finite number in (0, hi].
bool parse_positive(const std::string& v, double hi, double* out) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || !std::isfinite(x) || x <= 0 || x > hi) return false;
  *out = x;
  return true;
}

// A number of frames between two soak events, 1..1000000.
CLI::Option* add_every(CLI::App& app, const std::string& flag, int* target,
                       const std::string& help) {
  return app.add_option_function<std::string>(
      flag,
      [flag, target](const std::string& v) {
        *target = static_cast<int>(parse_count(flag, v, 1, 1000000));
      },
      help);
}

}  // namespace

void add_soak_flags(CLI::App& app, SoakOptions* s) {
  app.add_option_function<std::string>(
         "--soak",
         [s](const std::string& v) {
           double x = 0;
           if (!parse_positive(v, 7 * 24 * 3600.0, &x))
             throw CLI::ValidationError("--soak", "wants seconds in (0, 604800], got '" + v + "'");
           s->on = true;
           s->seconds = x;
         },
         "soak: cycle backends, SAT methods, scan variants, DoF methods and\n"
         "shapes, views, MSAA, HDR/LDR and random sizes for SECONDS, sampling\n"
         "memory, GL objects and file descriptors (summary: flat or not)")
      ->type_name("SECONDS");
  app.add_option_function<std::string>(
         "--soak-frames",
         [s](const std::string& v) {
           s->on = true;
           s->frames = parse_count("--soak-frames", v, 1, 1000000000LL);
         },
         "soak for N frames (with --soak: whichever ends first)")
      ->type_name("N");
  add_every(app, "--soak-switch", &s->switch_every, "soak: frames between configuration switches (default 50)")->type_name("N");
  add_every(app, "--soak-resize", &s->resize_every, "soak: frames between random resizes (default 200)")->type_name("M");
  app.add_option_function<std::string>(
         "--soak-seed",
         [s](const std::string& v) {
           s->seed = static_cast<std::uint64_t>(parse_count("--soak-seed", v, 0, 1LL << 62));
         },
         "soak: seed of the random sizes (default 1)")
      ->type_name("S");
  add_every(app, "--soak-verify", &s->verify_every,
            "soak with --verify: verify every K-th switch besides every canonical\n"
            "one (default 5)")
      ->type_name("K");
  app.add_option_function<std::string>(
         "--soak-flat-limit",
         [s](const std::string& v) {
           double x = 0;
           if (!parse_positive(v, 100, &x))
             throw CLI::ValidationError("--soak-flat-limit",
                                        "wants a percentage in (0, 100], got '" + v + "'");
           s->flat_limit = x / 100.0;
         },
         "soak: the memory drift (percent) still judged flat (default 1)")
      ->type_name("PCT");
  app.add_option_function<std::string>(
         "--soak-backends",
         [s](const std::string& v) {
           s->backends.clear();
           std::stringstream ss(v);
           std::string name;
           while (std::getline(ss, name, ',')) {
             bool found = false;
             for (int k = 0; k < kNumSatBackends; ++k) {
               if (name == to_string(static_cast<SatBackend>(k))) {
                 s->backends.push_back(static_cast<SatBackend>(k));
                 found = true;
               }
             }
             if (!found)
               throw CLI::ValidationError("--soak-backends",
                                          "auto, cuda, gl or cpu, comma separated, got '" + v + "'");
           }
           if (s->backends.empty())
             throw CLI::ValidationError("--soak-backends", "names no backend");
         },
         "soak: the SAT backends the switches cycle through (default\n"
         "auto,cuda,gl,cpu)")
      ->type_name("LIST");
  app.add_option_function<std::string>(
         "--soak-vary",
         [s](const std::string& v) {
           std::string bad;
           unsigned m = 0;
           if (!parse_soak_vary(v, &m, &bad) || m == 0)
             throw CLI::ValidationError(
                 "--soak-vary", "backend, sat, dof, view, msaa, pipeline, size, extras or all, "
                                "comma separated, got '" + v + "'");
           s->vary = m;
         },
         "soak: what the switches change (default all): backend, sat (method,\n"
         "variant, table format), dof (method, shape), view, msaa, pipeline\n"
         "(HDR/LDR), size (the random resizes), extras (lens references,\n"
         "primitives, screenshots); one at a time tells which a drift follows")
      ->type_name("LIST");
  // Repeatable: every occurrence arrives, in order, in one call.
  app.add_option_function<std::vector<std::string>>(
         "--inject-fault",
         [s](const std::vector<std::string>& names) {
           s->faults.clear();
           s->interop_fault_frames.clear();
           const std::string at = "interop-register@";
           for (const std::string& v : names) {
             if (v.compare(0, at.size(), at) == 0) {
               s->interop_fault_frames.push_back(
                   parse_count("--inject-fault interop-register@FRAME", v.substr(at.size()), 1,
                               1000000000LL));
               continue;
             }
             Fault f{};
             if (!parse_fault(v, &f))
               throw CLI::ValidationError(
                   "--inject-fault",
                   "minimise, huge-resize, low-memory@resize, alloc@resize (cuda-alloc@resize), "
                   "no-gl-compute, reference-cancel or interop-register@FRAME, got '" + v + "'");
             s->faults.push_back(f);
           }
         },
         "provoke a fault (repeatable): minimise, huge-resize, low-memory@resize,\n"
         "alloc@resize (cuda-alloc@resize: a real failed cudaMalloc on the CUDA\n"
         "backend), reference-cancel (all with --soak*), no-gl-compute (GL SAT\n"
         "backend reported unsupported), interop-register@FRAME (a CUDA-GL\n"
         "registration fails in that frame: the SAT backend falls back)")
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

std::string finish_soak_options(SoakOptions* s) {
  for (Fault f : s->faults)
    if (f != Fault::NoGlCompute && !s->on)
      return std::string("--inject-fault ") + to_string(f) +
             " fires during a soak (add --soak SECONDS or --soak-frames N)";
  return {};
}

}  // namespace demo
