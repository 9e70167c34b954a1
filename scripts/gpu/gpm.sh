#!/usr/bin/env bash
# GPU-wide counters (scripts/gpu/gpm.c, NVML GPM) sampled while a command runs, on the GPU machine
# from a folder made by pack.sh:
#   bash .gpu-final/gpm.sh OUT.csv WINDOWS PERIOD_MS -- COMMAND ARGS...
# The sampler starts with the command; read the windows where "busy" is 100 (the command's
# steady state). results/sat/README.md: glsatbench's RGBA8 and RGBA16F one pass this way.
set -euo pipefail
D=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 5 && $4 == -- ]] || { echo "usage: gpm.sh OUT.csv WINDOWS PERIOD_MS -- COMMAND..." >&2; exit 2; }
out=$1 windows=$2 period=$3; shift 4
inc=$(find /usr/local/cuda/ -name nvml.h 2>/dev/null | head -1)
lib=$(ldconfig -p | awk '$1 ~ /^libnvidia-ml\.so/ {print $NF; exit}')
[[ -n $inc && -n $lib ]] || { echo "gpm.sh: nvml.h or libnvidia-ml not found" >&2; exit 1; }
gcc -O2 -Wall -I"$(dirname "$inc")" "$D/gpm.c" -o /tmp/scandof_gpm "$lib"
"$@" &
pid=$!
/tmp/scandof_gpm "$windows" "$period" > "$out"
wait "$pid"
