// The soak's flags (core/soak_options.*) and its bounded time series
// (diagnostics/soak_series.hpp): fault names both ways, refusals, and a series that stays within
// its capacity, evenly spaced, however many samples it is offered.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/soak_options.hpp"
#include "cli_test_util.hpp"
#include "diagnostics/soak_series.hpp"
#include "run/cli.hpp"

namespace demo {
namespace {

using cli_test::parse_quiet;

TEST(SoakFaults, EveryNameParsesBackToItsFault) {
  for (int k = 0; k < kNumFaults; ++k) {
    Fault f{};
    if (static_cast<Fault>(k) == Fault::InteropRegister) {  // only with its frame (below)
      EXPECT_FALSE(parse_fault(to_string(Fault::InteropRegister), &f));
      continue;
    }
    ASSERT_TRUE(parse_fault(to_string(static_cast<Fault>(k)), &f)) << k;
    EXPECT_EQ(f, static_cast<Fault>(k));
  }
  Fault f{};
  EXPECT_TRUE(parse_fault("cuda-alloc@resize", &f));
  EXPECT_EQ(f, Fault::AllocResize);
  EXPECT_TRUE(parse_fault("minimize", &f));
  EXPECT_EQ(f, Fault::Minimise);
  EXPECT_FALSE(parse_fault("alloc", &f));
  EXPECT_FALSE(parse_fault("", &f));
}

TEST(SoakFlags, FaultsKeepTheirOrderAndNeedASoak) {
  Options o;
  ASSERT_EQ(parse_quiet({"--headless", "--soak-frames", "99", "--inject-fault", "huge-resize",
                         "--inject-fault", "minimise", "--inject-fault", "alloc@resize"},
                        &o),
            -1);
  EXPECT_TRUE(o.soak.on);
  EXPECT_EQ(o.soak.frames, 99);
  EXPECT_EQ(o.soak.faults,
            (std::vector<Fault>{Fault::HugeResize, Fault::Minimise, Fault::AllocResize}));
  Options p;
  EXPECT_EQ(parse_quiet({"--headless", "--inject-fault", "reference-cancel"}, &p),
            kExitBadArguments);
  Options q;  // no-gl-compute acts at start: no soak needed
  EXPECT_EQ(parse_quiet({"--headless", "--inject-fault", "no-gl-compute"}, &q), -1);
}

// interop-register@N strikes in frame N of any run, a soak or not; repeatable, in order.
TEST(SoakFlags, InteropFaultTakesItsFrame) {
  Options o;
  ASSERT_EQ(parse_quiet({"--headless", "--inject-fault", "interop-register@120", "--inject-fault",
                         "interop-register@7"},
                        &o),
            -1);
  EXPECT_FALSE(o.soak.on);
  EXPECT_TRUE(o.soak.faults.empty());
  EXPECT_EQ(o.soak.interop_fault_frames, (std::vector<long long>{120, 7}));
  for (const char* bad : {"interop-register", "interop-register@", "interop-register@0",
                          "interop-register@-3", "interop-register@1.5", "interop-register@x"}) {
    Options p;
    EXPECT_EQ(parse_quiet({"--headless", "--inject-fault", bad}, &p), kExitBadArguments) << bad;
  }
}

TEST(SoakFlags, WindowSoakMayWriteAReport) {
  Options o;
  EXPECT_EQ(parse_quiet({"--soak", "30", "--report", "r.json"}, &o), -1);
  Options p;
  EXPECT_EQ(parse_quiet({"--report", "r.json"}, &p), kExitBadArguments);
}

TEST(SoakFlags, BadValuesRefused) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--soak", "0"}, {"--soak", "nan"}, {"--soak", "-5"}, {"--soak-frames", "1e3"},
           {"--soak-switch", "0"}, {"--soak-resize", "x"}, {"--soak-backends", ""},
           {"--soak-backends", "gl,,cpu"}, {"--soak-flat-limit", "101"},
           {"--inject-fault", "crash"}}) {
    std::vector<std::string> a = args;
    a.insert(a.begin(), "--headless");
    Options o;
    EXPECT_EQ(parse_quiet(a, &o), kExitBadArguments) << args[0] << " " << args[1];
  }
}

SoakSample at(long long frame) {
  SoakSample s;
  s.frame = frame;
  return s;
}

TEST(SoakSeries, BoundedAndEvenlySpaced) {
  for (std::size_t cap : {2u, 7u, 600u}) {
    for (long long n : {1LL, 5LL, 599LL, 600LL, 601LL, 10007LL}) {
      DecimatingSeries s(cap);
      for (long long i = 0; i < n; ++i) s.add(at(i));
      const auto& v = s.items();
      ASSERT_LE(v.size(), cap) << cap << " " << n;
      ASSERT_FALSE(v.empty());
      EXPECT_EQ(v.front().frame, 0);
      // Every kept sample sits on the stride; consecutive ones one stride apart; the last within a
      // stride of the end.
      for (std::size_t i = 0; i < v.size(); ++i)
        EXPECT_EQ(v[i].frame, static_cast<long long>(i * s.stride())) << cap << " " << n;
      EXPECT_GT(v.back().frame + static_cast<long long>(s.stride()), n - 1 - 0)
          << cap << " " << n;
      if (n > static_cast<long long>(cap)) EXPECT_GE(v.size(), cap / 2);
    }
  }
}

}  // namespace
}  // namespace demo
