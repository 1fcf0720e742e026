#!/usr/bin/env bash
# The merged tree on a fresh device machine, within what is left of a session's device time:
# builds the tests and the chaos benchmark with CUDA (every CPU instruction set, the CMake
# default), runs every CUDA test, then the CPU tests that compare instruction sets (CI and
# scripts/setup build the widest only), then the chaos maps' figures. Each step has its own time
# limit. Outputs go to $OUT. Usage (device run, carry [".debs"]): bash bench/gpu_merge_check.sh
set -uo pipefail
export OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-merge-check.log") 2>&1
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
source bench/gpu_build.sh
SECONDS=0
gpu_build orrery_tests orrery_chaos_bench > "$OUT/build.txt" 2>&1
echo "== build rc $? in $SECONDS s"
grep -E " error|FAILED" "$OUT/build.txt" | head -20
echo "== CUDA tests ($SECONDS s)"
timeout 150 ./build-gpu/bin/orrery_tests --gtest_filter='*Cuda*:*WorkPool*' > "$OUT/cuda-tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/cuda-tests.log" | head -30
echo "== chaos maps ($SECONDS s)"
timeout 60 ./build-gpu/bin/orrery_chaos_bench --backend cuda --resolution 400 --three-body 1000 \
  --repeat 3 | tee "$OUT/chaos-gpu.json"
echo "== instruction sets compared ($SECONDS s)"
timeout 120 ./build-gpu/bin/orrery_tests \
  --gtest_filter="CpuIsa*:SimKernelVariant*:Ensemble*:EnsembleSection*:EnsembleAdaptive*:MixedPrecision*:ThreeBody*:DivergenceMap*:MapIntegrators*:Chaos*:Gali*:Escape*:-*Cuda*" \
  > "$OUT/isa-tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/isa-tests.log" | head -20
echo "== done in $SECONDS s"
