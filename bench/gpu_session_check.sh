#!/usr/bin/env bash
# A stop's device check in two calls on one warm machine (each call within the 10-minute limit):
#   bash bench/gpu_session_check.sh build   builds every target with CUDA (every CPU instruction
#                                           set, the CMake default) and runs every CUDA test;
#   bash bench/gpu_session_check.sh figures the map's kernels timed (Euler fp64 fast and exact,
#                                           ab4 fp64), the chaos maps, the Lyapunov map per core
#                                           against a scalar loop, and the CPU tests that compare
#                                           instruction sets;
#   bash bench/gpu_session_check.sh zoom    the published zoom's schedule on one GPU (issue 31):
#                                           120 frames of 1000², widths 40 → 10⁻⁶, steps
#                                           50 000 → 200 000, timed as a whole process, and
#                                           three of its frames kept in $OUT.
# Outputs go to $OUT. Device run, carry [".debs"].
set -uo pipefail
export OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-session-check.log") 2>&1
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
source bench/gpu_build.sh
SECONDS=0
if [ "${1:-build}" = zoom ]; then
  gpu_build orrery-cli > "$OUT/build-zoom.txt" 2>&1
  echo "== zoom, 120 frames ($SECONDS s)"
  rm -rf /tmp/zoom-frames
  start=$SECONDS
  timeout 560 ./build-gpu/bin/orrery zoom --center 5.30031:-0.45 --from-width 40 --to-width 1e-6 \
    --frames 120 --steps 50000 --steps-to 200000 --scale-shift --resolution 1000 --backend cuda \
    --out /tmp/zoom.mp4 --frames-dir /tmp/zoom-frames > "$OUT/zoom.txt" 2>&1
  echo "== zoom rc $? in $((SECONDS - start)) s; frames: $(ls /tmp/zoom-frames/*.png | wc -l)"
  tail -5 "$OUT/zoom.txt"
  for k in 000000 000060 000119; do cp /tmp/zoom-frames/frame_$k.png "$OUT/" 2>/dev/null; done
elif [ "${1:-build}" = build ]; then
  gpu_build > "$OUT/build.txt" 2>&1
  echo "== build rc $? in $SECONDS s"
  grep -E " error|FAILED" "$OUT/build.txt" | head -20
  echo "== CUDA tests ($SECONDS s)"
  timeout 200 ./build-gpu/bin/orrery_tests --gtest_filter='*Cuda*:*WorkPool*:MapPreparation*' \
    > "$OUT/cuda-tests.log" 2>&1
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/cuda-tests.log" | head -30
else
  gpu_build > "$OUT/build2.txt" 2>&1  # nothing to do on the same machine
  echo "== map kernels ($SECONDS s)"
  timeout 150 ./build-gpu/bin/orrery_bench \
    --benchmark_filter='divergence_map_cuda/(fp64|fp64-exact)/1gpu|divergence_map_cuda/integrator/ab4/1gpu' \
    --benchmark_format=json 2>/dev/null > "$OUT/map.json"
  python3 -c "
import json
for r in json.load(open('$OUT/map.json'))['benchmarks']:
    print(r['name'], ' '.join('%s %.4g' % (k, r[k]) for k in ('seconds_per_map','real_time') if k in r))"
  echo "== canonical map as a whole process, one GPU and every GPU, three runs each ($SECONDS s)"
  ngpu=$(nvidia-smi -L | wc -l)
  for devices in 0 all; do
    for run in 1 2 3; do
      { TIMEFORMAT="wall %R s"; time ./build-gpu/bin/orrery map --backend cuda --resolution 1000 \
        --devices $devices --out /tmp/map.png --data /tmp/map.h5 --overwrite --quiet --timings; } 2>&1 \
        | sed "s/^/devices $devices ($ngpu present): /"
    done
  done | tee "$OUT/map-process.txt"
  echo "== chaos maps ($SECONDS s)"
  timeout 90 ./build-gpu/bin/orrery_chaos_bench --backend cuda --resolution 400 --three-body 1000 \
    --repeat 3 | tee "$OUT/chaos-gpu.json"
  echo "== Lyapunov map per core against a scalar loop ($SECONDS s)"
  timeout 120 ./build-gpu/bin/orrery_lyapunov_bench | tee "$OUT/lyapunov-cpu.json"
  echo "== instruction sets compared ($SECONDS s)"
  timeout 150 ./build-gpu/bin/orrery_tests \
    --gtest_filter="CpuIsa*:SimKernelVariant*:Ensemble*:EnsembleSection*:EnsembleAdaptive*:MixedPrecision*:ThreeBody*:DivergenceMap*:MapIntegrators*:Chaos*:Gali*:Escape*:DoubleDouble*:ZoomJob*:-*Cuda*" \
    > "$OUT/isa-tests.log" 2>&1
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/isa-tests.log" | head -20
fi
echo "== done in $SECONDS s"
