// Back-to-back launch cost of a kernel shaped like resident_sat_kernel at 1080p (264 blocks of
// 256 threads, 32 KiB dynamic shared memory, one grid barrier), launched normally and
// cooperatively: mean time per launch over 2000 launches, CUDA events, after warm-up.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void body(int* p, int spin) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  long long t0 = clock64();
  while (clock64() - t0 < spin) {}
  if (threadIdx.x == 0 && s[5] == 1234567) p[blockIdx.x] = 1;
}
__global__ void body_sync(int* p, int spin) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  long long t0 = clock64();
  while (clock64() - t0 < spin) {}
  cg::this_grid().sync();
  if (threadIdx.x == 0 && s[5] == 1234567) p[blockIdx.x] = 1;
}
int main() {
  int* p; cudaMalloc(&p, 1 << 20);
  const int grid = 264, block = 256; size_t smem = 32768;
  cudaFuncSetAttribute(body, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cudaFuncSetAttribute(body_sync, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int spin : {0, 20000}) {
    for (int mode = 0; mode < 3; ++mode) {
      void* args[] = {&p, &spin};
      auto launch = [&]() {
        if (mode == 0) body<<<grid, block, smem>>>(p, spin);
        else if (mode == 1) cudaLaunchCooperativeKernel((void*)body, grid, block, args, smem, 0);
        else cudaLaunchCooperativeKernel((void*)body_sync, grid, block, args, smem, 0);
      };
      for (int i = 0; i < 200; ++i) launch();
      cudaEventRecord(a);
      for (int i = 0; i < 2000; ++i) launch();
      cudaEventRecord(b); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b);
      printf("spin %6d cycles  %-28s %.2f us per launch  (%s)\n", spin,
             mode == 0 ? "normal launch" : mode == 1 ? "cooperative launch" : "cooperative + grid.sync",
             ms * 1000 / 2000, cudaGetErrorString(cudaGetLastError()));
    }
  }
}
