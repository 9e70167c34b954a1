#!/usr/bin/env bash
# A change that must not change speed or pixels, checked in one call on the GPU machine: two
# folders made by pack.sh (the commit before and the commit after), the same runs on each,
# alternating before / after so that clocks and temperature drift hit both alike:
#   bash scripts/gpu/before_after.sh .gpu-before .gpu-after   -> $OUT/before_after.tgz
# Runs: scanbench (every variant, int32 and float, 2^10..2^28), sortbench (uint32 keys and
# pairs), satbench, glsatbench, the headless frame (CUDA and GL compute backends, 1080p, the
# default configuration and --method fused; median frame_gpu_ms of 120 frames), and the images of
# the CPU, GL and CUDA backends (HDR and LDR), compared with cmp. scripts/gpu/before_after.py
# prints the table (after / before of every median, and the worst row).
set -u
B=$(cd "$1" && pwd); A=$(cd "$2" && pwd); O=/tmp/before-after; rm -rf "$O"; mkdir -p "$O/before" "$O/after"
for d in "$B" "$A"; do for g in "$d"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done; done
pack() { (cd /tmp && tar czf "${OUT:-/tmp}/before_after.tgz" before-after); }
side() { [[ $1 == before ]] && echo "$B" || echo "$A"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
run_benches() {  # run_benches SIDE
  local D; D=$(side "$1"); local R=$D/rt/run L=$O/$1
  $R "$D/scanbench" --no-table2 --csv "$L/scanbench.csv" > "$L/scanbench.log" 2>&1
  $R "$D/sortbench" --keys uint32 --dists uniform --csv "$L/sortbench_keys.csv" > "$L/sortbench_keys.log" 2>&1
  $R "$D/sortbench" --keys uint32 --dists uniform --pairs --csv "$L/sortbench_pairs.csv" > "$L/sortbench_pairs.log" 2>&1
  $R "$D/satbench" --out "$L/sat" > "$L/satbench.log" 2>&1
  $R "$D/glsatbench" --shaders "$D/glsat/shaders" --out "$L/glsat" > "$L/glsatbench.log" 2>&1
}
run_frames() {  # run_frames SIDE
  local D; D=$(side "$1"); local L=$O/$1
  local S="$D/rt/run $D/scandof --resources $D --headless --no-animate --size 1920x1080"
  for backend in cuda gl; do
    $S --frames 120 --backend $backend --report "$L/frame_${backend}_default.json" > /dev/null 2>&1
    $S --frames 120 --backend $backend --method fused --report "$L/frame_${backend}_fused.json" > /dev/null 2>&1
  done
  for backend in cpu gl cuda; do
    for pipe in "" --ldr; do
      $S --frames 3 --backend $backend $pipe --out "$L/image_${backend}${pipe/--/_}.png" > /dev/null 2>&1
    done
  done
}
for s in before after; do echo "== frames $s"; run_frames $s; done; pack
for s in after before; do echo "== frames $s"; run_frames $s; mv "$O/$s/frame_cuda_default.json" "$O/$s/frame2_cuda_default.json"; done; pack
for s in before after; do echo "== benchmarks $s"; run_benches $s; pack; done
for f in "$O"/before/image_*.png; do
  n=$(basename "$f"); if cmp -s "$f" "$O/after/$n"; then echo "image $n: identical"; else echo "image $n: DIFFERS"; fi
done | tee "$O/images.txt"
pack
