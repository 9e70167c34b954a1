#!/usr/bin/env bash
# The README's headline comparisons, each side with its own allocations and the same statistic,
# in one call on the GPU machine from a folder made by pack.sh
# (PACK_BINS="bench/sortbench bench/scanbench bench/satbench bench/glsatbench"):
#   bash .gpu-final/headlines.sh [PART...]   -> $OUT/headlines_PART.tgz per part, a summary on stdout
# Parts (default: all):
#   sort     sortbench, every key type, uniform keys at 2^20..2^28 (every second power), and the
#            skewed distributions at 2^24 and 2^28; each sort timed in 6 memory layouts (median
#            over layouts of per-call medians, range beside it). CUB with its own temp storage.
#   variants sortbench --variants (the onesweep policies behind the default) at 2^24..2^28.
#   profile  ncu: per-kernel time and DRAM bytes of the library's and CUB's sort, 2^28 uint32.
#   sat      satbench and glsatbench at 1920x1080 and 3840x2160 (per-call / single-build medians,
#            and 200-build stream means on both sides).
#   scan     scanbench, single-pass and CUB, 2^10..2^16 and 2^24..2^28 (per-call medians).
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
parts=${*:-sort variants profile sat scan}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for part in $parts; do
  O=/tmp/headlines/$part; rm -rf "$O"; mkdir -p "$O"
  echo "== $part"
  t0=$(date +%s)
  case $part in
    sort)
      "$R" "$D/sortbench" --keys uint32,int32,float,pairs,uint64,pairs64 --dists uniform \
        --min-log 20 --max-log 28 --step-log 2 --split-max-log 0 \
        --csv "$O/sortbench_uniform.csv" --json "$O/sortbench_uniform.json" > "$O/sortbench_uniform.log" 2>&1
      echo "uniform rc=$?"
      "$R" "$D/sortbench" --keys uint32,int32,float,pairs,uint64,pairs64 --dists equal,few,sorted \
        --min-log 24 --max-log 28 --step-log 4 --split-max-log 0 \
        --csv "$O/sortbench_skewed.csv" --json "$O/sortbench_skewed.json" > "$O/sortbench_skewed.log" 2>&1
      echo "skewed rc=$?"
      grep -E "^\| *(uint32|int32|float|pairs|uint64|pairs64) .*(lsd|cub)" "$O/sortbench_uniform.log" | \
        grep -E "268435456|16777216" ;;
    variants)
      "$R" "$D/sortbench" --keys uint32,int32,float,pairs --dists uniform --min-log 24 --max-log 28 \
        --step-log 2 --split-max-log 0 --variants --layouts 3 \
        --csv "$O/sortbench_variants.csv" --json "$O/sortbench_variants.json" > "$O/sortbench_variants.log" 2>&1
      echo "variants rc=$?"
      grep -E "268435456" "$O/sortbench_variants.log" ;;
    profile)
      ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
      for who in lsd cub; do
        if [[ $who == lsd ]]; then k='regex:histogram_|onesweep_kernel'; else k='regex:DeviceRadixSort'; fi
        "$ncu" -k "$k" --launch-count 10 \
          --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
          --csv "$R" "$D/sortbench" --keys uint32 --dists uniform --min-log 28 --max-log 28 \
          --split-max-log 0 --layouts 1 --quick > "$O/ncu_$who.csv" 2> "$O/ncu_$who.err"
        echo "ncu $who rc=$?"
      done ;;
    sat)
      "$R" "$D/satbench" --sizes 1920x1080,3840x2160 --out "$O/sat" > "$O/satbench.log" 2>&1
      echo "satbench rc=$?"
      shaders=$D/glsat/shaders
      "$R" "$D/glsatbench" --shaders "$shaders" --sizes 1920x1080,3840x2160 --formats u32 \
        --out "$O/glsat" > "$O/glsatbench.log" 2>&1
      echo "glsatbench rc=$?"
      grep -E "fused" "$O/satbench.log" | grep -E "u32" ; grep -E "fused|floor" "$O/glsatbench.log" ;;
    scan)
      "$R" "$D/scanbench" --min-log 10 --max-log 16 --algos single-pass,cub --no-table2 \
        --csv "$O/scanbench_small.csv" --json "$O/scanbench_small.json" > "$O/scanbench_small.log" 2>&1
      echo "small rc=$?"
      "$R" "$D/scanbench" --min-log 24 --max-log 28 --algos single-pass,cub --no-table2 \
        --csv "$O/scanbench_large.csv" --json "$O/scanbench_large.json" > "$O/scanbench_large.log" 2>&1
      echo "large rc=$?" ;;
    *) echo "unknown part $part" ;;
  esac
  echo "$part took $(( $(date +%s) - t0 )) s"
  (cd /tmp/headlines && tar czf "${OUT:-/tmp}/headlines_$part.tgz" "$part")
done
