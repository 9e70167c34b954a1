#!/usr/bin/env bash
# GPU smoke test of scantool for the GPU machine (no numpy, no CTest needed there): every
# algorithm x dtype x operator x kind against the --cpu reference, at awkward sizes, exact for
# integers and min/max, within a tolerance for float sums; then --time at 2^24 for each algorithm.
#   tools/scantool/tests/gpu_smoke.sh "<launcher> <scantool>" WORKDIR [--full]
# e.g. tools/scantool/tests/gpu_smoke.sh ".gpu-scantool/rt/run .gpu-scantool/scantool" /tmp/st
# Prints one line per failure and a summary; exit status 1 if anything failed.
# SMOKE_SECTIONS picks parts (default all: "scan nan compact time"); each part fits the device's
# 10-minute command limit on its own: e.g. SMOKE_SECTIONS="nan compact" for the NaN and
# compaction-threshold checks.
set -u
read -r -a T <<<"$1"
W=$2
FULL=${3:-}
mkdir -p "$W"
fails=0
runs=0
SECTIONS=" ${SMOKE_SECTIONS:-scan nan compact time} "
has() { [[ $SECTIONS == *" $1 "* ]]; }
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

if has scan; then
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
fi

# Patches one NaN into a .npy (no numpy here); used by the nan and compact sections.
put_nan() {  # file index bytes(4|8)
  local hl off
  hl=$(od -An -tu2 -j8 -N2 "$1" | tr -d ' ')
  off=$((10 + hl + $2 * $3))
  if [ "$3" = 4 ]; then
    printf '\x00\x00\xc0\x7f' | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
  else
    printf '\x00\x00\x00\x00\x00\x00\xf8\x7f' | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
  fi
}

if has nan; then
# NaN in min/max scans: NaN propagates as in np.minimum.accumulate, on every GPU
# algorithm as on the CPU reference; the identity (+-inf) must never leak into the output. One NaN
# is patched into a generated array (no numpy here) at the first, second, a middle and the last
# position, so it lands at tile starts, inside tiles and in the look-back chain.
nan_check() {  # dtype n index
  local dt=$1 n=$2 k=$3 sz=4
  [ "$dt" = float64 ] && sz=8
  local in=$W/in_${dt}_${n}.npy
  st gen --dtype "$dt" --n "$n" --seed 11 --low -1000 --high 1000 "$in" || { fail "gen nan $dt"; return; }
  put_nan "$in" "$k" "$sz"
  for op in min max; do
    for kind in inclusive exclusive; do
      check "$dt" "$n" "$op" "$kind"
    done
  done
  # From index k on every inclusive output is NaN, before it none is: exactly k outputs are
  # numbers (> -inf counts every non-NaN; a leaked identity +-inf would count too, or be NaN-free).
  for op in min max; do
    st scan --op "$op" --inclusive "$in" "$W/nan_out.npy" >/dev/null 2>&1
    local kept
    kept=$(st compact --cpu --keep '>=-inf' "$W/nan_out.npy" "$W/nan_kept.npy" 2>/dev/null)
    [ "$kept" = "$k" ] || fail "$op inclusive $dt n=$n NaN at $k: $kept non-NaN outputs, expected $k"
  done
}
for dt in float32 float64; do
  for n in 1000 1048583; do  # 2^20 + 7: several tiles and look-back steps, within 10 minutes
    for k in 0 1 $((n / 2)) $((n - 1)); do
      nan_check "$dt" "$n" "$k"
    done
  done
done
fi

if has compact; then
# Compaction thresholds outside the element type: compared in exact arithmetic, the
# GPU kernels and the CPU reference keep the same elements (numpy's answer; the CTest robustness
# suite checks the CPU reference against numpy). Every algorithm, bit-exact against --cpu.
st gen --dtype int32 --n 100003 --seed 5 --low -2147483648 --high 2147483647 "$W/c_int32.npy"
st gen --dtype uint32 --n 100003 --seed 6 --low 0 --high 4294967295 "$W/c_uint32.npy"
st gen --dtype int64 --n 100003 --seed 7 --low -9223372036854775808 --high 9223372036854775807 "$W/c_int64.npy"
st gen --dtype float32 --n 100003 --seed 8 --low -3e38 --high 3e38 "$W/c_float32.npy"
st gen --dtype float64 --n 100003 --seed 9 --low -1e300 --high 1e300 "$W/c_float64.npy"
put_nan "$W/c_float32.npy" 17 4
put_nan "$W/c_float64.npy" 17 8
for dt in int32 uint32 int64 float32 float64; do
  for test in '>3000000000' '<3000000000' '>-1' '>=-1' '<-1' '<=-3000000000' '==2.5' '!=2.5' \
              '>2.5' '<-2.5' '>1e300' '<1e300' '>-1e300' '>=9223372036854775807' \
              '<18446744073709551616' '==nan' '!=nan' '<inf' '>-inf' '>0.1'; do
    st compact --cpu --keep "$test" "$W/c_$dt.npy" "$W/c_ref.npy" >"$W/c_ref.txt" 2>/dev/null ||
      { fail "compact --cpu $dt $test"; continue; }
    for algo in paper reduce-then-scan single-pass; do
      runs=$((runs + 1))
      msg=$(st compact --algo "$algo" --keep "$test" "$W/c_$dt.npy" "$W/c_out.npy" 2>&1) ||
        { fail "compact $algo $dt $test: $msg"; continue; }
      if [ -z "${SMOKE_ALLOW_CPU:-}" ]; then
        case $msg in *"computed on the CPU"*) fail "no GPU used: $msg"; continue ;; esac
      fi
      cmp -s "$W/c_out.npy" "$W/c_ref.npy" ||
        fail "compact $algo $dt '$test': GPU kept $(echo "$msg" | tail -n 1), CPU $(cat "$W/c_ref.txt")"
    done
  done
done
# Known counts: none of int32 exceeds 3e9, every uint32 exceeds -1.
[ "$(st compact --keep '>3000000000' "$W/c_int32.npy" "$W/c_out.npy" 2>/dev/null)" = 0 ] ||
  fail "int32 '>3000000000' should keep 0"
[ "$(st compact --keep '>-1' "$W/c_uint32.npy" "$W/c_out.npy" 2>/dev/null)" = 100003 ] ||
  fail "uint32 '>-1' should keep all 100003"
fi

if has time; then
echo "== --time --verify, int32 2^24 (kernel median of 20, end-to-end) =="
st gen --dtype int32 --n 2^24 --seed 4 "$W/t.npy"
for algo in $ALGOS; do
  st scan --time --verify --algo "$algo" "$W/t.npy" "$W/t_out.npy" || fail "--time $algo"
done
fi
echo "scantool GPU smoke: $runs GPU scans checked, $fails failure(s)"
[ "$fails" = 0 ]
