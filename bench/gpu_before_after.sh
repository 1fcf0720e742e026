#!/usr/bin/env bash
# Before and after on the device machine: builds this tree and BASE (default .scratch/base, a
# copy of an earlier commit: `git archive <commit> | tar -x -C .scratch/base`), runs every CUDA
# map test, times the canonical fp64 Euler map of both alternately (base, new, base, new), then
# the other precision modes and every map integrator of this tree; then the CPU map of both
# alternately on the host's cores, and the direct engine against its measured limit. toml++
# travels as .debs/ (bench/gpu.sh). Outputs go to $OUT. Used for the figures of
# bench/README.md, "Maps with other integrators, and the restructuring":
#   device run, carry [".debs", ".scratch"]:  bash bench/gpu_before_after.sh [gpu|cpu|all]
# (the builds stay on the machine while it is warm, so `cpu` may follow `gpu` in a second call).
set -uo pipefail
what=${1:-all}
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
mkdir -p /tmp/debs; for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
toml=-Dtomlplusplus_DIR=/tmp/debs/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus
export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu
nvidia-smi -L; date
if ! [ -x build-gpu/bin/orrery_bench ] || ! [ -x build-base/bin/orrery_bench ]; then
  ( cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON $toml > "$OUT/cmake.log" 2>&1 && cmake --build build-gpu -j 12 > "$OUT/build.log" 2>&1; echo "new build rc $?" ) &
  a=$!
  ( cmake -S "${BASE:-.scratch/base}" -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON -DORRERY_TESTS=OFF $toml > "$OUT/cmake-base.log" 2>&1 && cmake --build build-base -j 4 --target orrery_bench > "$OUT/build-base.log" 2>&1; echo "base build rc $?" ) &
  b=$!
  wait $a $b; date
  grep -E "error|FAILED" "$OUT/build.log" | head -20
fi

# report FILE TREE COUNTER...: the machine once, then each benchmark's name and counters.
report() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); print(sys.argv[2], d['context'].get('cpu_model'), d['context'].get('num_cpus'), 'cpus')
for r in d['benchmarks']:
    print(sys.argv[2], r['name'].replace('/iterations:3/manual_time',''), ' '.join('%s %.4g' % (k, r[k]) for k in sys.argv[3:] if k in r))
" "$@"; }
# alternate NAME FILTER SECONDS COUNTER...: base, new, base, new.
alternate() {
  local name=$1 filter=$2 limit=$3 i=0 b
  shift 3
  for b in base gpu base gpu; do
    i=$((i+1))
    timeout "$limit" build-$b/bin/orrery_bench --benchmark_filter="$filter" --benchmark_format=json \
      2>/dev/null > "$OUT/bench-$name-$b-$i.json"
    report "$OUT/bench-$name-$b-$i.json" "$b" "$@"
  done
}

if [ "$what" = gpu ] || [ "$what" = all ]; then
  echo "== CUDA tests"
  timeout 200 build-gpu/bin/orrery_tests --gtest_filter='*CudaMap*:*WorkPool*' > "$OUT/cuda-tests.log" 2>&1
  grep -E "^\[ figure|^\[  (FAILED|PASSED|SKIPPED) |Failure|Expected|Which|actual|rror|tests ran" "$OUT/cuda-tests.log" | head -60
  date
  echo "== canonical fp64 Euler map, 1 GPU: base, new, base, new"
  alternate euler 'divergence_map_cuda/fp64/1gpu/' 60 seconds_per_map device_seconds_per_map
  echo "== new: modes and integrators"
  timeout 240 build-gpu/bin/orrery_bench --benchmark_filter='divergence_map_cuda/(fp64-exact|mixed|fp32)/1gpu/|divergence_map_cuda/integrator/' \
    --benchmark_format=json 2>/dev/null > "$OUT/bench-new.json"
  report "$OUT/bench-new.json" new seconds_per_map device_seconds_per_map identical_to_exact_fp64
  cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/map_kernels/twin_kernel_0.cu.o > /tmp/k0.sass 2>&1
  python3 bench/sass_fp64_count.py /tmp/k0.sass > "$OUT/sass_counts.txt" 2>&1; head -12 "$OUT/sass_counts.txt"
  date
fi
if [ "$what" = cpu ] || [ "$what" = all ]; then
  echo "== CPU map, one thread and all cores: base, new, base, new"
  alternate cpu-map 'divergence_map_cpu/[^/]*/(fp64|fp32)/' 200 pixel_steps_per_s_per_core fraction_of_limit
  echo "== direct engine against the measured limit of its instruction mix (new)"
  timeout 200 build-gpu/bin/orrery_bench --benchmark_filter='direct_engine/.*/(2048|8192)/1thread' \
    --benchmark_format=json 2>/dev/null > "$OUT/bench-direct.json"
  report "$OUT/bench-direct.json" new interactions_per_s_per_core limit_interactions_per_s_per_core fraction_of_limit
  date
fi
