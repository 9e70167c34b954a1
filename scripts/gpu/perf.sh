#!/usr/bin/env bash
# The regression check behind results/: the headline figures re-measured in one call, on the GPU
# machine from a folder made by pack.sh (PACK_BINS="bench/scanbench bench/sortbench bench/compactbench
# bench/satbench bench/glsatbench app/scandof" is enough):
#   bash .gpu-final/perf.sh [LABEL]     -> $OUT/perf_LABEL.tgz, and a summary on stdout
# scanbench single-pass and CUB at 2^24..2^28; sortbench uint32 keys and uint32 pairs, uniform, at
# 2^24..2^28; compactbench single pass, int32, half kept, 2^24..2^28; satbench 1080p and 4K; glsatbench 1080p and 4K (uint32);
# the headless frame at 1080p on the CUDA and the GL backend (compute DoF, fused SAT), 120 frames.
# Compare a change against the commit before it by packing both and running both in one call.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; label=${1:-run}
O=/tmp/perf-$label/perf_$label; rm -rf "/tmp/perf-$label"; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
run() { local name=$1; shift; echo "== $name"; "$@" > "$O/$name.log" 2>&1; echo "rc=$?"; }
[[ -x $D/scanbench ]] && run scanbench "$R" "$D/scanbench" --min-log 24 --max-log 28 --algos single-pass,cub \
  --no-table2 --json "$O/scanbench.json" --csv "$O/scanbench.csv"
[[ -x $D/sortbench ]] && run sortbench "$R" "$D/sortbench" --min-log 24 --max-log 28 --keys uint32,pairs \
  --dists uniform --split-max-log 0 --csv "$O/sortbench.csv" --json "$O/sortbench.json"
[[ -x $D/compactbench ]] && run compactbench "$R" "$D/compactbench" --min-log 24 --max-log 28 --types int32 \
  --sel 0.5 --algos single-pass --csv "$O/compactbench.csv" --json "$O/compactbench.json"
[[ -x $D/satbench ]] && run satbench "$R" "$D/satbench" --sizes 1920x1080,3840x2160,4096x2160 --out "$O/sat"
if [[ -x $D/glsatbench ]]; then
  shaders=$D/glsat/shaders; [[ -d $shaders ]] || shaders=$D/shaders
  run glsatbench "$R" "$D/glsatbench" --shaders "$shaders" --sizes 1920x1080,3840x2160 --formats u32 \
    --out "$O/glsat"
fi
if [[ -x $D/scandof ]]; then
  for backend in cuda gl; do
    run "frame_$backend" "$R" "$D/scandof" --resources "$D" --headless --no-animate --size 1920x1080 \
      --frames 120 --backend $backend --method fused --variant single-pass --dof-pass compute \
      --report "$O/frame_$backend.json"
  done
fi
(cd "/tmp/perf-$label" && tar czf "${OUT:-/tmp}/perf_$label.tgz" "perf_$label")
