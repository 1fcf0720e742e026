#!/usr/bin/env bash
# The ensembles on the lent GPU machine, in one call: build with CUDA, run the CUDA tests of the
# ensembles and of the map (whose steppers the ensembles share), the ensemble benchmarks, the
# canonical map's benchmark, and the fp64 instructions per Hénon–Heiles step in the compiled
# kernels. Outputs go to $OUT (default ./gpu-out). Usage: bench/gpu_ensemble.sh [all|tests|bench]
# (a build that is up to date is reused, so the two halves can run as two calls).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-ensemble.log") 2>&1
what=${1:-all}
cd "$(dirname "$0")/.."

echo "== machine"
nvidia-smi -L
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv
nproc

echo "== build"
source bench/gpu_build.sh
gpu_build orrery-cli orrery_tests orrery_ensemble_bench orrery_bench orrery_polynomial_leapfrog || { echo "build failed"; exit 1; }

if [ "$what" != bench ]; then
echo "== CUDA tests: ensembles, and the map's kernels that share the steppers"
timeout 300 ./build-gpu/bin/orrery_tests \
  --gtest_filter='CudaEnsemble*:Ensemble*:HenonHeiles*:Lorenz*:Polynomial*' 2>&1 |
  grep -E "^\[ +(FAILED|PASSED|SKIPPED|OK) +\]|Failure|Expected|Which|actual|tests ran" | head -80

fi
[ "$what" = tests ] && exit 0

echo "== fp64 instructions per step (SASS)"
cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/ensemble_kernels/ensemble_kernel_0_false_fp64.cu.o \
  > "$OUT/ensemble_kernel_0.sass" 2>&1
python3 bench/sass_ensemble_count.py "$OUT/ensemble_kernel_0.sass" | tee "$OUT/ensemble_sass.txt"

echo "== ensemble benchmarks"
timeout 300 ./build-gpu/bin/orrery_ensemble_bench gpu-henon-heiles gpu-polynomial-henon-heiles \
  gpu-lorenz gpu-lorenz-adaptive cpu-henon-heiles --repeat 3 | tee "$OUT/ensemble-bench.json"

echo "== the user's polynomial against the built-in field (leapfrog, 2^20 x 10^5, fp64)"
timeout 120 ./build-gpu/bin/orrery_polynomial_leapfrog | tee "$OUT/polynomial-leapfrog.json"
cuobjdump -sass ./build-gpu/bin/orrery_polynomial_leapfrog > "$OUT/polynomial.sass" 2>&1
python3 bench/sass_ensemble_count.py "$OUT/polynomial.sass" | tee -a "$OUT/ensemble_sass.txt"

echo "== the map's CUDA tests (its kernels share the register steppers)"
timeout 300 ./build-gpu/bin/orrery_tests --gtest_filter='CudaMap*:CudaDivergence*:*CudaMapIntegrator*' 2>&1 |
  grep -E "^\[ +(FAILED|PASSED|SKIPPED|OK) +\]|Failure|Expected|tests ran" | head -40

echo "== the canonical map"
timeout 120 ./build-gpu/bin/orrery_bench --benchmark_filter='divergence_map_cuda/fp64/1gpu$' \
  --benchmark_format=console 2>&1 | tail -8
ls -la "$OUT"
