#!/usr/bin/env bash
# A stop's check of the merged tree on the lent GPU machine, in one call (the device's ten minutes):
# build the CLI, the tests and the ensemble benchmark with CUDA; every CUDA test and the CPU-side
# tests the stop touched; the ensemble benchmarks; the canonical map as whole processes
# (bench/gpu_map_timings.sh) and the CUDA driver's own start-up and release beside them
# (bench/cuda_start_cost.cpp). Each step has its own time limit, in the order of what matters
# most. Outputs go to $OUT (default ./gpu-out). Usage: bench/gpu_stop.sh [extra gtest filter]
set -uo pipefail
export OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-stop.log") 2>&1
cd "$(dirname "$0")/.."
extra=${1:-}
nvidia-smi --query-gpu=name,clocks.max.sm,persistence_mode --format=csv,noheader
git log -1 --format='commit %H %s' 2>/dev/null || true
source bench/gpu_build.sh
SECONDS=0
gpu_build orrery-cli orrery_tests orrery_ensemble_bench orrery_cuda_start_cost > "$OUT/build.txt" 2>&1
echo "== build rc $? in $SECONDS s"
grep -E " error|FAILED" "$OUT/build.txt" | head -20
echo "== CUDA tests"
timeout 240 ./build-gpu/bin/orrery_tests \
  --gtest_filter="Cuda*:*/Cuda*:EngineSuite.*:EngineRegistry.*:MapPreparation*:MapTimings*:CpuIsa*:ErrorNorm*:StepFactor*:FirstSameAsLast*:EnsembleAdaptive*${extra:+:$extra}" \
  > "$OUT/cuda-tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/cuda-tests.log" | head -40
echo "== the instruction sets CI does not compile (scripts/setup builds the widest only): every"
echo "   CPU kernel of this all-ISA build against the others and the scalar runs ($SECONDS s)"
timeout 240 ./build-gpu/bin/orrery_tests \
  --gtest_filter="CpuIsa*:SimKernelVariant*:SimCli*:Ensemble*:EnsembleSection*:EnsembleAdaptive*:MixedPrecision*:ThreeBody*:DivergenceMap*:MapIntegrators*:DirectEngine*:Chaos*:-*Cuda*" \
  > "$OUT/isa-tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/isa-tests.log" | head -20
echo "== ensemble benchmarks ($SECONDS s)"
timeout 120 ./build-gpu/bin/orrery_ensemble_bench gpu-henon-heiles gpu-lorenz gpu-lorenz-adaptive \
  --repeat 3 | tee "$OUT/ensemble-bench.json"
echo "== the canonical map as whole processes ($SECONDS s)"
timeout 90 bash bench/gpu_map_timings.sh > /dev/null 2>&1
cat "$OUT/map-timings.txt" "$OUT/map-timings-summary.txt" 2>/dev/null
echo "== the CUDA driver's own start and end, three processes"
for k in 1 2 3; do timeout 20 ./build-gpu/bin/orrery_cuda_start_cost; done | tee "$OUT/cuda-start-cost.json"
echo "== done in $SECONDS s"
