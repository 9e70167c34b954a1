#!/usr/bin/env bash
# GPU smoke test of scantool for the GPU machine (no numpy, no CTest needed there): every
# algorithm x dtype x operator x kind against the --cpu reference, at awkward sizes, exact for
# integers and min/max, within a tolerance for float sums; then --time at 2^24 for each algorithm.
#   tools/scantool/tests/gpu_smoke.sh "<launcher> <scantool>" WORKDIR [--full]
# e.g. tools/scantool/tests/gpu_smoke.sh ".gpu-scantool/rt/run .gpu-scantool/scantool" /tmp/st
# Prints one line per failure and a summary; exit status 1 if anything failed.
set -u
read -r -a T <<<"$1"
W=$2
FULL=${3:-}
mkdir -p "$W"
fails=0
runs=0
ALGOS="naive work-efficient conflict-free optimized warp-shuffle single-pass cub"

st() { "${T[@]}" "$@"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

st --version || fail "--version"

# One configuration: CPU reference once, then every algorithm on the default (GPU) path.
check() {  # dtype n op kind tol-args...
  local dt=$1 n=$2 op=$3 kind=$4
  shift 4
  local in=$W/in_${dt}_${n}.npy ref=$W/ref.npy out=$W/out.npy
  st scan --cpu --op "$op" "--$kind" "$in" "$ref" 2>/dev/null || { fail "cpu $dt $n $op $kind"; return; }
  for algo in $ALGOS; do
    runs=$((runs + 1))
    local msg
    msg=$(st scan --algo "$algo" --op "$op" "--$kind" "$in" "$out" 2>&1) ||
      { fail "$algo $dt n=$n $op $kind: $msg"; continue; }
    if [ -z "${SMOKE_ALLOW_CPU:-}" ]; then  # SMOKE_ALLOW_CPU=1: dry run of the script, no GPU
      case $msg in *"computed on the CPU"*) fail "no GPU used: $msg"; return ;; esac
    fi
    msg=$(st compare "$@" "$out" "$ref") || fail "$algo $dt n=$n $op $kind: $msg"
  done
}

SIZES="1 1000 100003"
[ "$FULL" = --full ] && SIZES="1 2 31 1000 4097 100003 1048579"
for dt in int32 uint32 int64 float32 float64; do
  tol=()
  [ "$dt" = float32 ] && tol=(--rtol 1e-4 --atol 1e-5)
  [ "$dt" = float64 ] && tol=(--rtol 1e-12 --atol 1e-14)
  for n in $SIZES; do
    # Integer data spans negative and positive values so sums cross zero and (int32) wrap.
    st gen --dtype "$dt" --n "$n" --seed "$n" "$W/in_${dt}_${n}.npy" || fail "gen $dt $n"
    if [ "$n" = 100003 ] || [ "$FULL" = --full ]; then
      configs="sum:exclusive sum:inclusive min:exclusive min:inclusive max:exclusive max:inclusive"
    else
      configs="sum:exclusive max:inclusive"
    fi
    for c in $configs; do
      if [ "${c%%:*}" = sum ]; then
        check "$dt" "$n" "${c%%:*}" "${c##*:}" "${tol[@]}"
      else
        check "$dt" "$n" "${c%%:*}" "${c##*:}"
      fi
    done
  done
done

# Large and exact: 2^24 + 7 int32 (several levels of the three-phase scans, many look-back
# tiles); float32 ones just below 2^24 so every exclusive sum is an exact float.
st gen --dtype int32 --n 16777223 --seed 3 "$W/in_int32_16777223.npy"
check int32 16777223 sum exclusive
check int32 16777223 sum inclusive
st gen --dtype float32 --dist ones --n 16777213 "$W/in_float32_16777213.npy"
check float32 16777213 sum exclusive

# Float sums at scale, held by --verify against a long double sum within a rounding bound.
for dt in float32 float64; do
  st gen --dtype "$dt" --n 16777223 --seed 8 --low -1 --high 1 "$W/v_$dt.npy"
  for algo in $ALGOS; do
    runs=$((runs + 1))
    msg=$(st scan --verify --inclusive --algo "$algo" "$W/v_$dt.npy" "$W/v_out.npy" 2>&1) ||
      fail "--verify $algo $dt: $msg"
  done
done

echo "== --time --verify, int32 2^24 (kernel median of 20, end-to-end) =="
st gen --dtype int32 --n 2^24 --seed 4 "$W/t.npy"
for algo in $ALGOS; do
  st scan --time --verify --algo "$algo" "$W/t.npy" "$W/t_out.npy" || fail "--time $algo"
done
echo "scantool GPU smoke: $runs GPU scans checked, $fails failure(s)"
[ "$fails" = 0 ]
