// GPU-wide counters of an H100-class GPU through NVML's GPM (GPU Performance Monitoring): SM
// activity, warp occupancy, integer and float pipe use, DRAM bandwidth, one line per window. The
// GL compute SAT cannot be profiled by Nsight Compute (CUDA only); these counters see every
// engine's work. Built and run by scripts/gpu/gpm.sh on the GPU machine (needs the driver's
// libnvidia-ml and the CUDA toolkit's nvml.h).
//   gpm WINDOWS PERIOD_MS
#include <nvml.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int check(nvmlReturn_t r, const char* what) {
  if (r == NVML_SUCCESS) return 0;
  fprintf(stderr, "gpm: %s: %s\n", what, nvmlErrorString(r));
  return 1;
}

int main(int argc, char** argv) {
  const int windows = argc > 1 ? atoi(argv[1]) : 20, period_ms = argc > 2 ? atoi(argv[2]) : 200;
  if (windows < 1 || period_ms < 10) {
    fprintf(stderr, "usage: gpm WINDOWS PERIOD_MS (PERIOD_MS >= 10)\n");
    return 2;
  }
  nvmlDevice_t dev;
  if (check(nvmlInit_v2(), "nvmlInit") || check(nvmlDeviceGetHandleByIndex_v2(0, &dev), "device 0"))
    return 1;
  nvmlGpmSupport_t support = {0};
  support.version = NVML_GPM_SUPPORT_VERSION;
  if (check(nvmlGpmQueryDeviceSupport(dev, &support), "GPM support")) return 1;
  if (!support.isSupportedDevice) {
    fprintf(stderr, "gpm: this GPU has no GPM counters (Hopper and later)\n");
    return 1;
  }
  static const unsigned ids[] = {NVML_GPM_METRIC_GRAPHICS_UTIL, NVML_GPM_METRIC_SM_UTIL,
                                 NVML_GPM_METRIC_SM_OCCUPANCY,  NVML_GPM_METRIC_INTEGER_UTIL,
                                 NVML_GPM_METRIC_FP32_UTIL,     NVML_GPM_METRIC_FP16_UTIL,
                                 NVML_GPM_METRIC_DRAM_BW_UTIL};
  static const char* names[] = {"busy", "sm_active", "occupancy", "int", "fp32", "fp16", "dram_bw"};
  const int n = (int)(sizeof(ids) / sizeof(ids[0]));
  nvmlGpmSample_t s[2];
  if (check(nvmlGpmSampleAlloc(&s[0]), "sample") || check(nvmlGpmSampleAlloc(&s[1]), "sample") ||
      check(nvmlGpmSampleGet(dev, s[0]), "sample"))
    return 1;
  printf("window_ms");
  for (int i = 0; i < n; ++i) printf(",%s_pct", names[i]);
  printf("\n");
  for (int w = 0; w < windows; ++w) {
    usleep((useconds_t)period_ms * 1000u);
    if (check(nvmlGpmSampleGet(dev, s[(w + 1) & 1]), "sample")) return 1;
    nvmlGpmMetricsGet_t m = {0};
    m.version = NVML_GPM_METRICS_GET_VERSION;
    m.numMetrics = (unsigned)n;
    m.sample1 = s[w & 1];
    m.sample2 = s[(w + 1) & 1];
    for (int i = 0; i < n; ++i) m.metrics[i].metricId = ids[i];
    if (check(nvmlGpmMetricsGet(&m), "metrics")) return 1;
    printf("%d", (w + 1) * period_ms);
    for (int i = 0; i < n; ++i) printf(",%.1f", m.metrics[i].value);
    printf("\n");
    fflush(stdout);
  }
  return 0;
}
