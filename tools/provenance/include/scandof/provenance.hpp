// The record every JSON of measured figures carries (scripts/results.py checks it): the commit the
// program was built from, whether tracked sources differed from it, the device, the GPU driver,
// the date and the exact command line. Programs call set_command_line() first thing in main().
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace scandof {
namespace provenance {

void set_command_line(int argc, char** argv);

const char* commit();      // 40 hex digits, or "unknown" outside a git checkout
bool dirty();              // tracked sources (not results/, not Markdown) differed from commit()
std::string command();     // argv as a shell would take it back ("" before set_command_line)
std::string date_utc();    // now, 2026-12-04T05:00:00Z
std::string gpu_driver();  // the NVIDIA kernel module's version, or "none"

// {"commit", "dirty", "device", "driver", "date_utc", "command"} in that order.
template <class Json = nlohmann::ordered_json>
Json record(const std::string& device) {
  Json r;
  r["commit"] = commit();
  r["dirty"] = dirty();
  r["device"] = device;
  r["driver"] = gpu_driver();
  r["date_utc"] = date_utc();
  r["command"] = command();
  return r;
}

}  // namespace provenance
}  // namespace scandof
