#!/usr/bin/env bash
# Re-measures the figures results/ publishes, one part per GPU-machine call (each within 10
# minutes and a 64 MiB pack). Two steps:
#   here:     scripts/gpu/record.sh pack PART...   builds what the parts run (build/gpu, sm_90) and
#                                                  packs it into .gpu-record/ (scripts/gpu/pack.sh)
#   there:    scripts/gpu/record.sh PART...        from the repository root, with .gpu-record/
#                                                  beside it; writes $OUT/record_PART.tgz
#   here:     tar xzf record_PART.tgz results      its files land under results/ as committed
#             /usr/bin/python3 scripts/results.py  (the logs stay in the archive), then the
#                                                  tables are made from them
# Every JSON a part writes carries {"record": {commit, dirty, device, driver, date_utc, command}}
# (the programs write it: tools/provenance). File names end in the GPU's short name (h200, h100).
# Parts:
#   scan     scanbench: every variant, int32 and float, 2^10..2^28, beside cub::DeviceScan and a
#            cudaMemcpy of the same bytes, and Table 2 (the CPU scan against the GPU)
#   compact  compactbench: the three compactions beside cub::DeviceSelect::If, int32 and float,
#            1 / 50 / 99 % kept, 2^10..2^28
#   sort     sortbench: every key type at 2^20..2^28, uniform keys, and the skewed distributions at
#            2^24 and 2^28, each sort in six memory layouts; the chapter's split sort to 2^24
#   sat      satbench (CUDA, RGBA8 and RGBA16F frames, 512x512 and 1024x1024 for Table 39-1, 1080p
#            and 4K) and glsatbench (GL compute, 1080p and 4K, both formats), one call
#   frame    the demo headless at 1920x1080 and 3840x2160: the default configuration on the CUDA
#            and the GL backend, then each named variant (--method fused, --ldr, --dof-pass
#            fragment), 240 frames each (GPU timers, medians in the report)
#   dof      every DoF method and shape in the default configuration against a 256-sample lens
#            reference at 1920x1080, the four views (near-blur, highlights, default, focus8), and
#            the paper's gather/box (radius offset 0, no bokeh split) at the same views
#   soak     10,000 headless frames at 1920x1080 switching backends, methods, variants, DoF,
#            sizes and pipelines, with verifies, lens references, primitives runs and
#            screenshots along the way (scripts/gpu/soak.sh adds compute-sanitizer)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=${RECORD_PACK:-$root/.gpu-record}
all_parts="scan compact sort sat frame dof soak"

bins_of() {
  case $1 in
    scan) echo bench/scanbench ;;
    compact) echo bench/compactbench ;;
    sort) echo bench/sortbench ;;
    sat) echo bench/satbench bench/glsatbench ;;
    frame | dof | soak) echo app/scandof ;;
    *) echo "record.sh: unknown part '$1' (parts: $all_parts)" >&2; return 2 ;;
  esac
}

if [[ ${1:-} == pack ]]; then
  shift
  parts=${*:-$all_parts}
  bins=
  for p in $parts; do bins+=" $(bins_of "$p")" || exit 2; done
  targets=$(for b in $bins; do basename "$b"; done | tr '\n' ' ')
  export PATH=/usr/local/cuda/bin:$PATH
  [[ -f $root/build/gpu/CMakeCache.txt ]] || cmake --preset h100 -S "$root" || exit 1
  cmake --build "$root/build/gpu" -j"$(nproc)" --target $targets || exit 1
  PACK_BINS="$bins" bash "$root/scripts/gpu/pack.sh" "$root/build/gpu" "$pack" || exit 1
  # Only the demo reads shaders and assets: without it they are not carried.
  [[ $bins == *app/scandof* ]] || rm -rf "$pack/shaders" "$pack/assets"
  [[ $bins == *app/scandof* || $bins == *glsatbench* ]] || rm -rf "$pack/glsat"
  du -sh "$pack"
  exit 0
fi

[[ -d $pack ]] || { echo "record.sh: no pack at $pack (run 'scripts/gpu/record.sh pack PART' first)" >&2; exit 2; }
for g in "$pack"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
R=$pack/rt/run
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[[ -n $gpu ]] || { echo "record.sh: no NVIDIA GPU here (nvidia-smi)" >&2; exit 1; }
# "NVIDIA H200" -> h200, "NVIDIA H100 80GB HBM3" -> h100
tag=$(echo "$gpu" | sed -E 's/^NVIDIA //; s/ .*//' | tr 'A-Z' 'a-z')
work=$(mktemp -d)
failed=0
# step NAME CMD...: runs CMD with its output in LOG/NAME.log; a failure is reported, the part goes on.
step() {
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$work/logs/$name.log" 2>&1
  local rc=$?
  echo "  $name rc=$rc $((SECONDS - t0)) s"
  [[ $rc == 0 ]] || { failed=1; tail -5 "$work/logs/$name.log"; }
}

for part in ${*:-$all_parts}; do
  bins_of "$part" > /dev/null || exit 2
  rm -rf "$work"/*; mkdir -p "$work/logs"
  echo "== $part on $gpu"
  t0=$SECONDS
  case $part in
    scan)
      d=$work/results/scan; mkdir -p "$d"
      step scanbench "$R" "$pack/scanbench" --types int32,float --min-log 10 --max-log 28 \
        --json "$d/scanbench_$tag.json" --csv "$d/scanbench_$tag.csv" ;;
    compact)
      d=$work/results/compact; mkdir -p "$d"
      step compactbench "$R" "$pack/compactbench" --types int32,float --sel 0.01,0.5,0.99 \
        --min-log 10 --max-log 28 --json "$d/compactbench_$tag.json" --csv "$d/compactbench_$tag.csv" ;;
    sort)
      d=$work/results/sort; mkdir -p "$d"
      step sortbench_uniform "$R" "$pack/sortbench" --keys uint32,int32,float,pairs,uint64,pairs64 \
        --dists uniform --min-log 20 --max-log 28 --step-log 2 --split-max-log 24 \
        --json "$d/sortbench_uniform_$tag.json" --csv "$d/sortbench_uniform_$tag.csv"
      step sortbench_skewed "$R" "$pack/sortbench" --keys uint32,int32,float,pairs,uint64,pairs64 \
        --dists equal,few,sorted --min-log 24 --max-log 28 --step-log 4 --split-max-log 0 \
        --json "$d/sortbench_skewed_$tag.json" --csv "$d/sortbench_skewed_$tag.csv" ;;
    sat)
      d=$work/results/sat; mkdir -p "$d" "$work/sat" "$work/glsat"
      step satbench "$R" "$pack/satbench" --sizes 512x512,1024x1024,1920x1080,3840x2160 \
        --pixels rgba8,rgba16f \
        --out "$work/sat"
      step glsatbench "$R" "$pack/glsatbench" --shaders "$pack/glsat/shaders" \
        --sizes 1920x1080,3840x2160 --formats u32 --pixels rgba8,rgba16f --out "$work/glsat"
      cp "$work/sat/satbench.json" "$d/satbench_$tag.json" 2>/dev/null
      cp "$work/glsat/glsatbench.json" "$d/glsatbench_$tag.json" 2>/dev/null ;;
    frame)
      d=$work/results/frame; mkdir -p "$d"
      demo=("$R" "$pack/scandof" --resources "$pack" --headless --no-animate --frames 240)
      for size in 1920x1080 3840x2160; do
        s=${size#*x}p; [[ $size == 3840x2160 ]] && s=4k
        for backend in cuda gl; do
          step "default_${backend}_$s" "${demo[@]}" --size $size --backend $backend \
            --report "$d/frame_default_${backend}_${s}_$tag.json"
        done
      done
      for backend in cuda gl; do
        step "fused_${backend}" "${demo[@]}" --size 1920x1080 --backend $backend --method fused \
          --report "$d/frame_fused_${backend}_1080p_$tag.json"
        step "ldr_${backend}" "${demo[@]}" --size 1920x1080 --backend $backend --ldr \
          --report "$d/frame_ldr_${backend}_1080p_$tag.json"
        step "fragment_${backend}" "${demo[@]}" --size 1920x1080 --backend $backend \
          --dof-pass fragment --report "$d/frame_fragment_${backend}_1080p_$tag.json"
      done ;;
    dof)
      d=$work/results/dof; mkdir -p "$d"
      for view in near-blur highlights default focus8; do
        step "dof_$view" "$R" "$pack/scandof" --resources "$pack" --headless --size 1920x1080 \
          --frames 30 --view-preset $view --all-methods --reference 256 \
          --report "$d/dof_${view}_$tag.json"
        step "dof_paper_$view" "$R" "$pack/scandof" --resources "$pack" --headless \
          --size 1920x1080 --frames 30 --view-preset $view --dof gather --shape box \
          --dof-radius-offset 0 --dof-bokeh 0 --reference 256 --report "$d/dof_paper_${view}_$tag.json"
      done ;;
    soak)
      d=$work/results/demo; mkdir -p "$d" "$work/screens"
      step soak "$R" "$pack/scandof" --resources "$pack" --headless --size 1920x1080 \
        --soak-frames 10000 --soak 420 --verify --reference 64 --prim-size 20 \
        --screenshot-dir "$work/screens" --report "$d/soak_1080p_$tag.json" ;;
  esac
  echo "$part took $((SECONDS - t0)) s"
  (cd "$work" && tar czf "${OUT:-/tmp}/record_$part.tgz" results logs)
done
rm -rf "$work"
exit $failed
