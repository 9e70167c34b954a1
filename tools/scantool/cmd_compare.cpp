// `scantool compare`: element-wise comparison of two .npy arrays, so users (and the GPU smoke
// script, where numpy may be missing) can check a GPU result against a reference file.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "scandof/npy.hpp"

namespace scantool {
namespace {

struct Stats {
  std::size_t mismatches = 0;
  double max_abs = 0;
};

template <class T>
Stats compare_typed(const T* a, const T* b, std::size_t n, double rtol, double atol,
                    std::size_t show) {
  Stats s;
  for (std::size_t i = 0; i < n; ++i) {
    bool same;
    double diff = 0;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a[i]) || std::isnan(b[i])) {
        same = std::isnan(a[i]) && std::isnan(b[i]);
      } else if (a[i] == b[i]) {  // also equal infinities, whose difference is NaN; -0.0 == +0.0
        same = true;
      } else if (std::isinf(a[i]) || std::isinf(b[i])) {
        // An infinity matches only itself: rtol * |inf| would otherwise make 1 equal to inf.
        same = false;
        diff = std::numeric_limits<double>::infinity();
      } else {
        diff = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
        same = diff <= atol + rtol * std::fabs(static_cast<double>(b[i]));
      }
    } else {
      // Exact in the integer type first: doubles cannot hold every int64/uint64 value.
      same = a[i] == b[i];
      if (!same) {
        diff = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
        same = (rtol > 0 || atol > 0) && diff <= atol + rtol * std::fabs(static_cast<double>(b[i]));
      }
    }
    if (!std::isnan(diff) && diff > s.max_abs) s.max_abs = diff;
    if (!same) {
      if (s.mismatches < show)
        std::printf("  [%zu] %.17g vs %.17g\n", i, static_cast<double>(a[i]),
                    static_cast<double>(b[i]));
      ++s.mismatches;
    }
  }
  return s;
}

struct Options {
  std::string a, b, rtol = "0", atol = "0", show = "5";
};

int run_compare(const Options& o) {
  // Tolerances are finite and non-negative: inf or NaN would make every pair match (or none).
  const double rtol = parse_finite(o.rtol, "--rtol", 0.0, HUGE_VAL);
  const double atol = parse_finite(o.atol, "--atol", 0.0, HUGE_VAL);
  const std::size_t show = parse_size(o.show, "--show");
  const std::vector<std::string> positional{o.a, o.b};
  const auto& p = positional;

  const scandof::npy::Array a = scandof::npy::load(p[0]);
  const scandof::npy::Array b = scandof::npy::load(p[1]);
  if (a.dtype != b.dtype || a.shape != b.shape) {
    std::printf("scantool compare: %s is %s %s, %s is %s %s\n", p[0].c_str(),
                scandof::npy::to_string(a.dtype), scandof::npy::shape_string(a.shape).c_str(),
                p[1].c_str(), scandof::npy::to_string(b.dtype),
                scandof::npy::shape_string(b.shape).c_str());
    return kExitFailure;
  }
  const std::size_t n = a.count();
  Stats s;
  using scandof::npy::DType;
  switch (a.dtype) {
    case DType::Int32:
      s = compare_typed(a.data<std::int32_t>(), b.data<std::int32_t>(), n, rtol, atol, show);
      break;
    case DType::UInt32:
      s = compare_typed(a.data<std::uint32_t>(), b.data<std::uint32_t>(), n, rtol, atol, show);
      break;
    case DType::Int64:
      s = compare_typed(a.data<std::int64_t>(), b.data<std::int64_t>(), n, rtol, atol, show);
      break;
    case DType::Float32:
      s = compare_typed(a.data<float>(), b.data<float>(), n, rtol, atol, show);
      break;
    case DType::Float64:
      s = compare_typed(a.data<double>(), b.data<double>(), n, rtol, atol, show);
      break;
    case DType::UInt8:
      s = compare_typed(a.data<std::uint8_t>(), b.data<std::uint8_t>(), n, rtol, atol, show);
      break;
  }
  std::printf("scantool compare: %zu of %zu elements differ (%s %s), max |a - b| = %.6g\n",
              s.mismatches, n, scandof::npy::to_string(a.dtype),
              scandof::npy::shape_string(a.shape).c_str(), s.max_abs);
  return s.mismatches ? kExitFailure : kExitOk;
}

std::function<int()> setup(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.description(
      "Compares two arrays of the same dtype and shape element by element. Exit status 0 when\n"
      "every element matches (|a - b| <= atol + rtol * |b|), 1 when some differ, with a summary.\n"
      "Integers compare exactly unless a tolerance is given. Floats: NaN matches NaN (any\n"
      "payload, at the same index) and nothing else; an infinity matches only the same infinity,\n"
      "whatever the tolerance; -0.0 matches +0.0.");
  sub.add_option("A.npy", o->a, "the array to check")->required()->type_name("");
  sub.add_option("B.npy", o->b, "the reference (rtol scales |b|)")->required()->type_name("");
  add_text_options(sub,
                   {{"--rtol", &o->rtol, "R", "relative tolerance, finite, >= 0     (default: 0)"},
                    {"--atol", &o->atol, "A", "absolute tolerance, finite, >= 0     (default: 0)"},
                    {"--show", &o->show, "N", "print the first N mismatches       (default: 5)"}});
  sub.footer(std::string("Example:\n"
                         "  scantool scan in.npy gpu.npy && scantool scan --cpu in.npy cpu.npy\n"
                         "  scantool compare --rtol 1e-5 gpu.npy cpu.npy\n\n") +
             kErrorsHelp);
  return [o] { return run_compare(*o); };
}

const Registrar kRegistrar{Command{
    "compare", "compare two .npy arrays element-wise (exact or within a tolerance)", setup}};

}  // namespace
}  // namespace scantool
