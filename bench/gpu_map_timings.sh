#!/usr/bin/env bash
# The canonical map as a user runs it, on the lent GPU machine: whole processes of
# `orrery map --backend cuda --resolution 1000 --timings --overwrite`, timed from outside, three
# times on one GPU and, where the host has two or more, three times on two (--devices 0,1).
# (it writes the PNG; one more run on one GPU writes the HDF5 too, --data, and is left out of the
# summary). Each run prints one machine-readable line:
#   map_timing gpus=1 run=2 wall=0.612 start-up=0.0100 set-up=0.0020 device=0.1000 compute=0.4900 writing=0.0100 release=0.0100 total=0.6220
# where `wall` is the process from outside (bash's $EPOCHREALTIME around it) and the rest its own
# --timings; then a summary per GPU count (median wall, and the speed-up of two GPUs over one).
# The first run of each count is a run like the others: no warm-up is discarded, since a user's
# one map is a first run. Builds build-gpu as the other device scripts do (bench/gpu_build.sh).
# Everything goes to $OUT (default ./gpu-out). Usage: bench/gpu_map_timings.sh
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-map-timings.log") 2>&1
cd "$(dirname "$0")/.."

echo "== machine"
nvidia-smi -L
nvidia-smi --query-gpu=name,clocks.max.sm,persistence_mode --format=csv
nproc

echo "== build"
source bench/gpu_build.sh
gpu_build orrery-cli || { echo "build failed"; exit 1; }
git log -1 --format='commit %H %s' 2>/dev/null || true

gpus=$(nvidia-smi -L | grep -c '^GPU')
work="$OUT/map-timings"
mkdir -p "$work"
lines="$OUT/map-timings.txt"
: > "$lines"

# One whole process, timed from outside (bash's own clock: a `date` process on each side would
# add its start-up to the time); its --timings line turned into key=value pairs.
run_map() {  # gpus run extra-args...
  local n=$1 k=$2
  shift 2
  local before after
  before=$EPOCHREALTIME
  ./build-gpu/bin/orrery map --backend cuda --resolution 1000 --timings --overwrite \
    --out "$work/map-$n.png" "$@" > "$work/run-$n-$k.txt" 2>&1
  local status=$?
  after=$EPOCHREALTIME
  if [ $status -ne 0 ]; then
    echo "map_timing gpus=$n run=$k failed status=$status"
    cat "$work/run-$n-$k.txt"
    return 1
  fi
  local wall phases
  wall=$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.4f", b - a }')
  phases=$(sed -n 's/.*timings (s): //p' "$work/run-$n-$k.txt" |
           awk '{ for (i = 1; i < NF; i += 2) printf " %s=%s", $i, $(i + 1) }')
  echo "map_timing gpus=$n run=$k wall=$wall$phases" | tee -a "$lines"
}

echo "== the canonical map, one GPU"
for k in 1 2 3; do run_map 1 $k --devices 0; done
echo "== the same with its counts written too (HDF5 beside the PNG)"
run_map 1 data --devices 0 --data "$work/map-1.h5"
if [ "$gpus" -ge 2 ]; then
  echo "== the canonical map, two GPUs"
  for k in 1 2 3; do run_map 2 $k --devices 0,1; done
  # The two GPUs' map must be the one GPU's, bit for bit.
  cmp "$work/map-1.png" "$work/map-2.png" && echo "map_identical png gpus=1,2 yes" ||
    echo "map_identical png gpus=1,2 NO"
fi

echo "== summary"
awk '
  $1 == "map_timing" {
    for (i = 2; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (v["run"] == "data") next
    n = v["gpus"]; walls[n] = walls[n] " " v["wall"]; count[n]++
  }
  function median(list,   a, m, i, j, t) {
    m = split(list, a, " ")
    for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    for (n in count) { med[n] = median(walls[n]); printf "map_summary gpus=%s runs=%d median_wall=%.4f\n", n, count[n], med[n] }
    if ((1 in med) && (2 in med)) printf "map_summary speedup_2_over_1=%.3f\n", med[1] / med[2]
  }' "$lines" | tee "$OUT/map-timings-summary.txt"
ls -la "$OUT"
