// Names of the scan enums (and the SAT enums' parsers) for CLIs, benchmark tables and test names.
// Host only; built with or without CUDA.
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/ops.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace scandof {

const char* to_string(ScanAlgorithm a) {
  switch (a) {
    case ScanAlgorithm::Naive:
      return "naive";
    case ScanAlgorithm::WorkEfficient:
      return "work-efficient";
    case ScanAlgorithm::ConflictFree:
      return "conflict-free";
    case ScanAlgorithm::Optimized:
      return "optimized";
    case ScanAlgorithm::WarpShuffle:
      return "warp-shuffle";
    case ScanAlgorithm::SinglePass:
      return "single-pass";
    case ScanAlgorithm::Cub:
      return "cub";
  }
  return "unknown";
}

const char* to_string(Determinism d) {
  switch (d) {
    case Determinism::NotGuaranteed:
      return "not-guaranteed";
    case Determinism::RunToRun:
      return "run-to-run";
  }
  return "unknown";
}

const char* to_string(ScanKind k) {
  switch (k) {
    case ScanKind::Exclusive:
      return "exclusive";
    case ScanKind::Inclusive:
      return "inclusive";
  }
  return "unknown";
}

const char* to_string(OpKind op) {
  switch (op) {
    case OpKind::Sum:
      return "sum";
    case OpKind::Min:
      return "min";
    case OpKind::Max:
      return "max";
  }
  return "unknown";
}

std::vector<ScanAlgorithm> all_scan_algorithms() {
  std::vector<ScanAlgorithm> v;
  v.reserve(kNumScanAlgorithms);
  for (int i = 0; i < kNumScanAlgorithms; ++i) v.push_back(static_cast<ScanAlgorithm>(i));
  return v;
}

ScanAlgorithm parse_scan_algorithm(const std::string& name) {
  // Case and '_' versus '-' do not matter: "Work_Efficient" is "work-efficient".
  std::string key;
  for (char c : name)
    key += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string choices;
  for (ScanAlgorithm a : all_scan_algorithms()) {
    if (key == to_string(a)) return a;
    choices += (choices.empty() ? "" : ", ") + std::string(to_string(a));
  }
  if (!key.empty() && key.size() <= 2 && key.find_first_not_of("0123456789") == std::string::npos) {
    const int v = std::stoi(key);
    if (v < kNumScanAlgorithms) return static_cast<ScanAlgorithm>(v);
  }
  throw std::invalid_argument("unknown scan algorithm '" + name + "'; choose one of: " + choices +
                              " (or 0.." + std::to_string(kNumScanAlgorithms - 1) + ")");
}

SatFormat parse_sat_format(const std::string& name) {
  for (SatFormat f : {SatFormat::U32, SatFormat::F32})
    if (name == to_string(f)) return f;
  throw std::invalid_argument("unknown SAT format '" + name + "'; choose one of: u32, f32");
}

SatMethod parse_sat_method(const std::string& name) {
  std::string choices;
  for (int i = 0; i < kNumSatMethods; ++i) {
    const auto m = static_cast<SatMethod>(i);
    if (name == to_string(m)) return m;
    choices += (choices.empty() ? "" : ", ") + std::string(to_string(m));
  }
  throw std::invalid_argument("unknown SAT method '" + name + "'; choose one of: " + choices);
}

}  // namespace scandof
