#!/usr/bin/env bash
# Before and after on the device machine: builds this tree and BASE (default .scratch/base, a
# copy of an earlier commit: `git archive <commit> | tar -x -C .scratch/base`), runs every CUDA
# map test, times the canonical fp64 Euler map of both alternately (base, new, base, new), then
# the other precision modes and every map integrator of this tree; then the CPU map of both
# alternately on the host's cores, and the direct engine against its measured limit. toml++
# travels as .debs/ (bench/gpu.sh). Outputs go to $OUT. Used for the figures of
# bench/README.md, "Maps with other integrators, and the restructuring":
#   device run, carry [".debs", ".scratch"]:  bash bench/gpu_before_after.sh [gpu|cpu|all]
# (the build stays on the machine while it is warm, so `cpu` may follow `gpu` in a second call).
what=${1:-all}
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
mkdir -p /tmp/debs; for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
toml=-Dtomlplusplus_DIR=/tmp/debs/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus
export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu
nvidia-smi -L; date
[ -x build-gpu/bin/orrery_bench ] && [ -x build-base/bin/orrery_bench ] || {
( cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON $toml > "$OUT/cmake.log" 2>&1 && cmake --build build-gpu -j 12 > "$OUT/build.log" 2>&1; echo "new build rc $?" ) &
a=$!
( cmake -S "${BASE:-.scratch/base}" -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON -DORRERY_TESTS=OFF $toml > "$OUT/cmake-base.log" 2>&1 && cmake --build build-base -j 4 --target orrery_bench > "$OUT/build-base.log" 2>&1; echo "base build rc $?" ) &
b=$!
wait $a $b; date
grep -E "error|FAILED" "$OUT/build.log" | head -20
}
summary() { python3 -c "
import json,sys
for r in json.load(open(sys.argv[1]))['benchmarks']:
    print(sys.argv[2], r['name'].replace('/iterations:3/manual_time',''), 'seconds_per_map %.4f device_s %.4f identical %.6f' % (r['seconds_per_map'], r['device_seconds_per_map'], r.get('identical_to_exact_fp64', -1)))
" "$1" "$2"; }
if [ "$what" = gpu ] || [ "$what" = all ]; then
echo "== CUDA tests"
timeout 200 build-gpu/bin/orrery_tests --gtest_filter='*CudaMap*' > "$OUT/cuda-tests.log" 2>&1
grep -E "^\[ (figure|  FAILED|  PASSED|  SKIPPED) |Failure|Expected|Which|actual|rror|tests ran" "$OUT/cuda-tests.log" | head -60
date
echo "== canonical fp64 Euler map, 1 GPU: base, new, base, new"
i=0
for b in base gpu base gpu; do
  i=$((i+1))
  timeout 60 build-$b/bin/orrery_bench --benchmark_filter='divergence_map_cuda/fp64/1gpu/' \
    --benchmark_format=json 2>/dev/null > "$OUT/bench-euler-$b-$i.json"
  summary "$OUT/bench-euler-$b-$i.json" "$b"
done
echo "== new: modes and integrators"
timeout 240 build-gpu/bin/orrery_bench --benchmark_filter='divergence_map_cuda/(fp64-exact|mixed|fp32)/1gpu/|divergence_map_cuda/integrator/' \
  --benchmark_format=json 2>/dev/null > "$OUT/bench-new.json"
summary "$OUT/bench-new.json" new
cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/map_kernels/twin_kernel_0.cu.o > /tmp/k0.sass 2>&1
python3 bench/sass_fp64_count.py /tmp/k0.sass > "$OUT/sass_counts.txt" 2>&1; head -12 "$OUT/sass_counts.txt"
date
fi
if [ "$what" = cpu ] || [ "$what" = all ]; then
  counters() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); print(sys.argv[2], d['context'].get('cpu_model'), d['context'].get('num_cpus'))
for r in d['benchmarks']:
    print(sys.argv[2], r['name'], ' '.join('%s %.4g' % (k, r[k]) for k in sys.argv[3:] if k in r))
" "$@"; }
  echo "== CPU map, all cores: base, new, base, new"
  i=0
  for b in base gpu base gpu; do
    i=$((i+1))
    timeout 100 build-$b/bin/orrery_bench --benchmark_filter='divergence_map_cpu/[^/]*/(fp64|fp32)/allthreads' \
      --benchmark_format=json 2>/dev/null > "$OUT/bench-cpu-map-$b-$i.json"
    counters "$OUT/bench-cpu-map-$b-$i.json" "$b" pixel_steps_per_s fraction_of_limit
  done
  echo "== direct engine against the measured limit of its instruction mix (new)"
  timeout 200 build-gpu/bin/orrery_bench --benchmark_filter='direct_engine/.*/(2048|8192)/1thread' \
    --benchmark_format=json 2>/dev/null > "$OUT/bench-direct.json"
  counters "$OUT/bench-direct.json" new interactions_per_s_per_core limit_interactions_per_s_per_core fraction_of_limit
  date
fi
