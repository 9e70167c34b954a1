// Host half of the primitives benchmark: names, seeded inputs, the CPU references and checks, the
// headless table and JSON. Builds without CUDA, where it also stands in for the GPU half.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "primitives/bench.hpp"
#include "primitives/internal.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"
#include "scandof/util/rng.hpp"

namespace demo {

const char* to_string(Primitive p) {
  switch (p) {
    case Primitive::Scan:
      return "scan";
    case Primitive::Compact:
      return "compaction";
    case Primitive::Sort:
      return "radix sort";
  }
  return "?";
}

const char* to_string(CompactMode m) {
  switch (m) {
    case CompactMode::Select:
      return "select (compact_if)";
    case CompactMode::Partition:
      return "partition (partition_if)";
    case CompactMode::Flagged:
      return "flagged (compact_flagged)";
  }
  return "?";
}

const char* to_string(Distribution d) {
  switch (d) {
    case Distribution::Uniform:
      return "uniform";
    case Distribution::AllEqual:
      return "all equal";
    case Distribution::FewDistinct:
      return "16 distinct";
    case Distribution::Sorted:
      return "sorted";
  }
  return "?";
}

namespace prim_detail {

std::uint32_t compact_threshold(int pct) {
  const double t = static_cast<double>(std::clamp(pct, 0, 100)) / 100.0 * 4294967296.0;
  return t >= 4294967295.0 ? 0xffffffffu : static_cast<std::uint32_t>(t);
}

// The project's splitmix64: fast enough for 2^26 elements in well under a second, and seeded per
// request. Bits 16..47 of each draw, as before, so inputs (and timings) match earlier results.
std::vector<std::uint32_t> make_input(const PrimRequest& req, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  scandof::util::SplitMix64 rng(req.seed ^ (static_cast<std::uint64_t>(req.primitive) << 56) ^ n);
  auto next = [&rng]() { return static_cast<std::uint32_t>(rng.next() >> 16); };
  const Distribution d =
      req.primitive == Primitive::Sort ? req.distribution : Distribution::Uniform;
  switch (d) {
    case Distribution::Uniform:
      for (auto& x : v) x = next();
      break;
    case Distribution::AllEqual: {
      const std::uint32_t c = next() | 1u;  // not zero: zeros hide "nothing was written"
      std::fill(v.begin(), v.end(), c);
      break;
    }
    case Distribution::FewDistinct: {
      std::uint32_t vals[16];
      for (auto& x : vals) x = next();
      for (auto& x : v) x = vals[next() & 15u];
      break;
    }
    case Distribution::Sorted:
      for (auto& x : v) x = next();
      std::sort(v.begin(), v.end());
      break;
  }
  return v;
}

std::string label_of(const PrimRequest& r) {
  std::string l = to_string(r.primitive);
  switch (r.primitive) {
    case Primitive::Scan:
      l += std::string(" ") + scandof::to_string(r.scan_variant) + " (exclusive, uint32 sum)";
      break;
    case Primitive::Compact: {
      const char* mode[] = {"select", "partition", "flagged"};
      l += std::string(" ") + scandof::to_string(r.compact_algo) + " " +
           mode[static_cast<int>(r.compact_mode)] + " " + std::to_string(r.selectivity_pct) + "%";
      break;
    }
    case Primitive::Sort:
      l += std::string(" ") + scandof::to_string(r.sort_algo) + " (uint32, " +
           to_string(r.distribution) + ")";
      break;
  }
  return l;
}

}  // namespace prim_detail

namespace {

// First difference between got[0..n) and want[0..n), or "OK".
std::string compare(const std::uint32_t* got, const std::uint32_t* want, std::size_t n,
                    std::size_t offset = 0) {
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      std::size_t bad = 0;
      for (std::size_t j = i; j < n; ++j) bad += got[j] != want[j];
      char buf[160];
      std::snprintf(buf, sizeof buf, "%zu of %zu differ, first at %zu: got %u, want %u", bad, n,
                    i + offset, got[i], want[i]);
      return buf;
    }
  }
  return "OK";
}

void set_check(PrimTiming* t, std::string msg) {
  t->verified = msg == "OK";
  t->check = std::move(msg);
}

}  // namespace

void verify_primitive(PrimResult* r) {
  if (!r->ran || r->input.size() != r->n) return;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = r->n;
  const std::uint32_t* in = r->input.data();
  std::vector<std::uint32_t> want(n);
  if (r->lib_out.size() != n || r->cub_out.size() != n) {
    set_check(&r->lib, "no output read back");
    set_check(&r->cub, "no output read back");
  } else if (r->req.primitive == Primitive::Scan) {
    scandof::scan_gold(scandof::ScanKind::Exclusive, in, want.data(), n, scandof::Sum{},
                       std::uint32_t(0));
    set_check(&r->lib, compare(r->lib_out.data(), want.data(), n));
    set_check(&r->cub, compare(r->cub_out.data(), want.data(), n));
  } else if (r->req.primitive == Primitive::Sort) {
    std::copy(in, in + n, want.begin());
    std::stable_sort(want.begin(), want.end());
    set_check(&r->lib, compare(r->lib_out.data(), want.data(), n));
    set_check(&r->cub, compare(r->cub_out.data(), want.data(), n));
  } else {
    const std::uint32_t thr = prim_detail::compact_threshold(r->req.selectivity_pct);
    auto keep = [thr](std::uint32_t x) { return x < thr; };
    const std::size_t k =
        static_cast<std::size_t>(std::copy_if(in, in + n, want.begin(), keep) - want.begin());
    auto check_count = [k](std::size_t got) -> std::string {
      if (got == k) return "OK";
      return "count " + std::to_string(got) + ", want " + std::to_string(k);
    };
    std::string lib_msg = check_count(r->selected), cub_msg = check_count(r->cub_selected);
    if (r->req.compact_mode == CompactMode::Partition) {
      // Rejected items follow the selected ones: in input order for the library (stable
      // partition), in reverse input order for cub::DevicePartition::If (its documented layout).
      std::remove_copy_if(in, in + n, want.begin() + k, keep);
      if (lib_msg == "OK") lib_msg = compare(r->lib_out.data(), want.data(), n);
      if (cub_msg == "OK") {
        cub_msg = compare(r->cub_out.data(), want.data(), k);
        std::reverse(want.begin() + k, want.end());
        if (cub_msg == "OK") cub_msg = compare(r->cub_out.data() + k, want.data() + k, n - k, k);
      }
    } else {
      if (lib_msg == "OK") lib_msg = compare(r->lib_out.data(), want.data(), k);
      if (cub_msg == "OK") cub_msg = compare(r->cub_out.data(), want.data(), k);
    }
    set_check(&r->lib, lib_msg);
    set_check(&r->cub, cub_msg);
  }
  r->verify_wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // The copies are 3 x n x 4 B (768 MiB at 2^26): not kept once checked.
  std::vector<std::uint32_t>().swap(r->input);
  std::vector<std::uint32_t>().swap(r->lib_out);
  std::vector<std::uint32_t>().swap(r->cub_out);
}

std::vector<PrimRequest> headless_primitive_set(int log2_n) {
  std::vector<PrimRequest> v;
  // One request of primitive p at 2^log2_n, the defaults but for what `edit` sets.
  auto add = [&](Primitive p, const auto& edit) {
    PrimRequest r;
    r.log2_n = log2_n;
    r.primitive = p;
    edit(r);
    v.push_back(r);
  };
  for (int a = 0; a < scandof::kNumScanAlgorithms; ++a)
    add(Primitive::Scan,
        [a](PrimRequest& r) { r.scan_variant = static_cast<scandof::ScanAlgorithm>(a); });
  for (int m = 0; m < kNumCompactModes; ++m)
    add(Primitive::Compact, [m](PrimRequest& r) { r.compact_mode = static_cast<CompactMode>(m); });
  for (int pct : {1, 99})
    add(Primitive::Compact, [pct](PrimRequest& r) { r.selectivity_pct = pct; });
  // The chapter's flags + scan + scatter, at the default selectivity.
  add(Primitive::Compact,
      [](PrimRequest& r) { r.compact_algo = scandof::CompactAlgorithm::Paper; });
  for (int d = 0; d < kNumDistributions; ++d)
    add(Primitive::Sort, [d](PrimRequest& r) { r.distribution = static_cast<Distribution>(d); });
  add(Primitive::Sort, [](PrimRequest& r) { r.sort_algo = scandof::SortAlgorithm::Split; });
  return v;
}

std::string primitives_table(const std::vector<PrimResult>& rs) {
  std::ostringstream o;
  char line[512];
  std::snprintf(line, sizeof line, "%-50s %-6s %9s %8s %9s %9s %9s %8s %7s  %s\n", "primitive", "n",
                "lib ms", "Gelem/s", "lib GB/s", "CUB ms", "CUB GB/s", "CUB/lib", "%copy",
                "check (lib / CUB)");
  o << line;
  for (const auto& r : rs) {
    const std::string label = r.label.empty() ? prim_detail::label_of(r.req) : r.label;
    if (!r.ran) {
      std::snprintf(line, sizeof line, "%-50s 2^%-4d not run: %s\n", label.c_str(), r.req.log2_n,
                    r.error.c_str());
      o << line;
      continue;
    }
    const char* lib_chk = r.lib.check.empty() ? "unchecked" : r.lib.check.c_str();
    const char* cub_chk = r.cub.check.empty() ? "unchecked" : r.cub.check.c_str();
    std::snprintf(
        line, sizeof line, "%-50s 2^%-4d %9.4f %8.2f %9.1f %9.4f %9.1f %7.2fx %6.1f%%  %s / %s\n",
        label.c_str(), r.req.log2_n, r.lib.ms, r.lib.gelem_s, r.lib.gb_s, r.cub.ms, r.cub.gb_s,
        r.ratio, r.memcpy_ms > 0 ? 100.0 * r.lib.gb_s / r.memcpy_gb_s : 0.0, lib_chk, cub_chk);
    o << line;
  }
  o << "(medians of the timed runs after " << kPrimWarmups
    << " warm-ups, CUDA events; GB/s counts bytes read + written once; CUB/lib > 1: the library is "
       "faster; %copy: library GB/s as % of cudaMemcpy "
       "D2D's in the same run)\n";
  return o.str();
}

nlohmann::ordered_json primitives_json(const std::vector<PrimResult>& rs) {
  // One contender's columns, prefixed "lib_" or "cub_": its times, then (last in the record) its
  // check.
  using Json = nlohmann::ordered_json;
  const auto times = [](Json& o, const std::string& who, const PrimTiming& t) {
    o[who + "_ms"] = t.ms;
    o[who + "_min_ms"] = t.min_ms;
    o[who + "_gelem_s"] = t.gelem_s;
    o[who + "_gb_s"] = t.gb_s;
  };
  const auto check = [](Json& o, const std::string& who, const PrimTiming& t) {
    o[who + "_verified"] = t.verified;
    o[who + "_check"] = t.check;
  };
  Json a = Json::array();
  for (const PrimResult& r : rs) {
    Json o;
    o["label"] = r.label;
    o["log2_n"] = r.req.log2_n;
    o["ran"] = r.ran;
    if (!r.ran) {
      o["error"] = r.error;
      a.push_back(std::move(o));
      continue;
    }
    o["n"] = r.n;
    o["reps"] = r.reps;
    o["input_copies"] = r.input_copies;
    o["bytes"] = r.bytes;
    times(o, "lib", r.lib);
    times(o, "cub", r.cub);
    o["cub_over_lib"] = r.ratio;
    o["memcpy_ms"] = r.memcpy_ms;
    o["memcpy_gb_s"] = r.memcpy_gb_s;
    if (r.req.primitive == Primitive::Compact) o["selected"] = r.selected;
    check(o, "lib", r.lib);
    check(o, "cub", r.cub);
    a.push_back(std::move(o));
  }
  return a;
}

#if !SCANDOF_WITH_CUDA
bool primitives_available(std::string* why) {
  if (why) *why = "built without CUDA (SCANDOF_CUDA=OFF)";
  return false;
}
int primitives_max_log2(int) {
  return 0;
}
PrimResult run_primitive_gpu(const PrimRequest& req) {
  PrimResult r;
  r.req = req;
  r.label = prim_detail::label_of(req);
  r.error = "needs a CUDA device (built without CUDA)";
  return r;
}
#endif

}  // namespace demo
