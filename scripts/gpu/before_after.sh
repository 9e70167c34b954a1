#!/usr/bin/env bash
# A change that must not change speed or pixels, checked in one call on the GPU machine: two
# folders made by pack.sh (a build of the commit before and one of the commit after), the same runs
# on each (the frames in the order before, after, after, before, so that clock and temperature
# drift weigh on both alike; the benchmarks, whose points are medians of many calls, once each):
#   bash scripts/gpu/before_after.sh BEFORE_DIR AFTER_DIR   -> $OUT/before_after.tgz
# Runs: scanbench (every variant, int32 and float, 2^10..2^28), sortbench (uint32 keys and
# pairs, uniform, 2^14..2^28, two memory layouts), satbench, glsatbench (1080p, 4K), the headless frame (CUDA and GL compute backends,
# 1920x1080, the default configuration and --method fused, 120 frames), and the images of the CPU,
# GL and CUDA backends (HDR and LDR) compared with cmp. scripts/gpu/before_after.py prints the
# table of medians, after / before.
set -u
B=$(cd "$1" && pwd); A=$(cd "$2" && pwd); O=/tmp/before-after; rm -rf "$O"; mkdir -p "$O/before" "$O/after"
for d in "$B" "$A"; do for g in "$d"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done; done
pack() { (cd /tmp && tar czf "${OUT:-/tmp}/before_after.tgz" before-after); }
side() { [[ $1 == before ]] && echo "$B" || echo "$A"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
benches() {  # benches SIDE ROUND
  local D; D=$(side "$1"); local R=$D/rt/run L=$O/$1/r$2; mkdir -p "$L"
  $R "$D/scanbench" --no-table2 --csv "$L/scanbench.csv" > "$L/scanbench.log" 2>&1
  $R "$D/sortbench" --keys uint32,pairs --dists uniform --layouts 2 --min-log 14 --csv "$L/sortbench.csv" > "$L/sortbench.log" 2>&1
  $R "$D/satbench" --out "$L/sat" > "$L/satbench.log" 2>&1
  $R "$D/glsatbench" --shaders "$D/glsat/shaders" --sizes 1920x1080,3840x2160 --out "$L/glsat" > "$L/glsatbench.log" 2>&1
}
frames() {  # frames SIDE ROUND
  local D; D=$(side "$1"); local L=$O/$1/r$2; mkdir -p "$L"
  local S="$D/rt/run $D/scandof --resources $D --headless --no-animate --size 1920x1080"
  for backend in cuda gl; do
    $S --frames 120 --backend $backend --report "$L/frame_${backend}_default.json" > "$L/frame_${backend}_default.log" 2>&1
    $S --frames 120 --backend $backend --method fused --report "$L/frame_${backend}_fused.json" > "$L/frame_${backend}_fused.log" 2>&1
  done
  [[ $2 == 1 ]] || return 0
  for backend in cpu gl cuda; do
    for pipe in hdr ldr; do
      $S --frames 3 --backend $backend $([[ $pipe == ldr ]] && echo --ldr) --out "$L/image_${backend}_$pipe.png" > /dev/null 2>&1
    done
  done
}
for step in "frames before 1" "frames after 1" "frames after 2" "frames before 2" \
            "benches before 1" "benches after 1"; do
  set -- $step; echo "== $step $(date +%T)"; $1 "$2" "$3"; pack
done
for f in "$O"/before/r1/image_*.png; do
  n=$(basename "$f"); if cmp -s "$f" "$O/after/r1/$n"; then echo "image $n: identical"; else echo "image $n: DIFFERS"; fi
done | tee "$O/images.txt"
pack
