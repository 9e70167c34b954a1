#!/usr/bin/env bash
# The demo's soak on the GPU machine (results/demo/soak), from a folder made by pack.sh with
# PACK_BINS="app/scandof":
#   bash .gpu-soak/soak.sh        -> $OUT/soak.tgz (soak_1080p.json, sanitizer reports, soak.log)
# 1. 10,000 headless frames at 1920x1080 (EGL on the NVIDIA driver), switching every 50 frames and
#    resizing every 200, the CUDA and GL compute backends cycled, --verify along the way; the
#    summary says whether host RSS and GPU memory stayed flat after the warm-up.
# 2. compute-sanitizer (memcheck, then racecheck and synccheck) over a 60-frame CUDA soak at
#    640x360 switching every 10 frames and resizing every 20 (no injected fault: memcheck reports
#    the failed cudaMalloc of --inject-fault alloc@resize as the API error it is meant to be).
# SOAK_FRAMES / SOAK_CAP_S shorten step 1 (the cap ends it early, said in the log, rather than
# running into the call's time limit).
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=/tmp/soak-out/soak; rm -rf /tmp/soak-out; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
S="$D/scandof --resources $D --headless"
frames=${SOAK_FRAMES:-10000}
cap=${SOAK_CAP_S:-140}
total=${SOAK_TOTAL_S:-260}  # the whole script's wall time: sanitizers that would pass it are skipped
pack() { (cd /tmp/soak-out && tar czf "${OUT:-/tmp}/soak.tgz" soak); }
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  date -u +%FT%TZ
  echo "== soak: $frames frames at 1920x1080, cuda,gl (cap ${cap} s)"
  $R $S --size 1920x1080 --soak-frames "$frames" --soak "$cap" --soak-switch 50 \
    --soak-resize 200 --soak-backends cuda,gl --verify --reference 64 --prim-size 20 \
    --screenshot-dir "$O" --report "$O/soak_1080p.json" > "$O/soak_1080p.log" 2>&1
  echo "exit status $?"
  grep -E "^soak:|verify|refused|error|start" "$O/soak_1080p.log" | cut -c1-400
  pack
  for tool in memcheck racecheck synccheck; do
    left=$((total - SECONDS))
    if ((left < 40)); then echo "== compute-sanitizer --tool $tool: skipped ($left s left)"; continue; fi
    echo "== compute-sanitizer --tool $tool: 60-frame CUDA soak at 640x360 (at most $((left - 10)) s)"
    timeout $((left - 10)) $R compute-sanitizer --tool $tool --error-exitcode 9 --log-file "$O/san_$tool.txt" \
      $S --size 640x360 --soak-frames 60 --soak-switch 10 --soak-resize 20 --soak-backends cuda \
      --reference 8 --prim-size 16 --verify \
      --report "$O/san_$tool.json" > "$O/san_$tool.log" 2>&1
    echo "exit status $?"
    grep -E "ERROR SUMMARY|^soak: [0-9]|fault" "$O/san_$tool.txt" "$O/san_$tool.log" | cut -c1-300
    pack
  done
} 2>&1 | tee "$O/soak.log"
pack
