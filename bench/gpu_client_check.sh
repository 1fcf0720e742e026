#!/usr/bin/env bash
# After bench/gpu_before_after.sh gpu on a warm device machine (its build-gpu and build-base kept):
# the machine code of every map kernel, base against new (bench/sass_compare.py); the map
# integrator nearest its register limit (ab4, fp64) and the CPU map lanes on one thread
# (AVX-512 and the portable generic kernel, fp64 and fp32), base and new alternately; then the
# CUDA tests of the ensembles and chaos indicators and the chaos figures (bench/gpu_chaos.sh).
# Outputs go to $OUT. Usage (device run, carry [".debs", ".scratch"]): bash bench/gpu_client_check.sh
set -uo pipefail
export OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
pick() { python3 -c "
import json,sys
for r in json.load(open(sys.argv[1]))['benchmarks']:
    print(sys.argv[2], r['name'].split('/min_time')[0].replace('/iterations:3/manual_time',''),
          ' '.join('%s %.4g' % (k, r[k]) for k in ('seconds_per_map','pixel_steps_per_s_per_core') if k in r))
" "$@"; }
# alternate NAME FILTER SECONDS: base, new, base, new, each run's JSON kept.
alternate() {
  local i=0 b
  for b in base gpu base gpu; do
    i=$((i+1))
    timeout "$3" build-$b/bin/orrery_bench --benchmark_filter="$2" --benchmark_format=json \
      2>/dev/null > "$OUT/$1-$b-$i.json"
    pick "$OUT/$1-$b-$i.json" $b
  done
}
echo "== map kernels' SASS, base against new"
for o in build-base/src/CMakeFiles/orrery.dir/map_kernels/twin_kernel_*.cu.o; do
  k=$(basename "$o" .cu.o)
  cuobjdump -sass "$o" > "$OUT/$k-base.sass" 2>&1
  cuobjdump -sass "build-gpu/src/CMakeFiles/orrery.dir/map_kernels/$k.cu.o" > "$OUT/$k-new.sass" 2>&1
  python3 bench/sass_compare.py "$OUT/$k-base.sass" "$OUT/$k-new.sass" > "$OUT/$k-sass-compare.txt"
  echo "$k: $(tail -1 "$OUT/$k-sass-compare.txt")"
done
echo "== ab4 fp64 map, 1 GPU: base, new, base, new"
alternate ab4 'divergence_map_cuda/integrator/ab4/1gpu' 60
echo "== CPU map lanes, one thread: base, new, base, new"
alternate cpu 'divergence_map_cpu/(avx512|generic)/(fp64|fp32)/1thread' 100
echo "== ensemble and chaos CUDA tests"
timeout 150 ./build-gpu/bin/orrery_tests --gtest_filter='CudaEnsemble*:*/CudaEnsemble*:EnsembleAdaptive*:ChaosCuda*' \
  > "$OUT/ensemble-tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|Expected|Which|tests ran" "$OUT/ensemble-tests.log" | head -30
echo "== chaos maps"
timeout 120 ./build-gpu/bin/orrery_chaos_bench --backend cuda --resolution 400 --three-body 1000 \
  --repeat 3 | tee "$OUT/chaos-gpu.json"
