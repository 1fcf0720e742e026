#!/usr/bin/env bash
# The CUDA tree engine on the lent GPU machine, in one call (bench/README.md, "The tree on the
# GPU"): build with CUDA, run the tree's GPU tests (the GPU tree against the CPU's tree, against
# direct sums, every integrator over it), benchmark it (N = 10⁵ … 10⁷, fp32 and fp64, leaf and
# group sizes), and with `big` also step 2·10⁸ bodies once and run the million-body galaxy
# collision. Outputs in $OUT (default ./gpu-out).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/tree.log") 2>&1
cd "$(dirname "$0")/.."
echo "== machine"; nvidia-smi -L; nproc
echo "== build"
source bench/gpu_build.sh
gpu_build || { echo "build failed"; exit 1; }
echo "== tree tests on the GPU"
timeout 400 ./build-gpu/bin/orrery_tests \
  --gtest_filter="${TESTS:-Cuda*:EngineSuite.*:IntegratorsOverEngines.*:ForcesCli.*:Sim*:BackgroundWriter*}" 2>&1 \
  | tee "$OUT/tests.txt" | grep -E "^\[ *(FAILED|PASSED|SKIPPED) *\]|Failure|Expected|Which|actual|rror|exception|description" | head -60
echo "== benchmarks"
timeout 400 ./build-gpu/bin/orrery_bench --benchmark_filter="${BENCH:-tree/cuda|tree_accelerations/cuda|tree_tune/cuda}" \
  --benchmark_out="$OUT/tree_bench.json" --benchmark_out_format=json --benchmark_format=console 2>&1 \
  | grep -E "/|Run on" | head -40
if [ "${1:-}" = big ]; then
  echo "== 2e8 bodies, one step"
  timeout 400 ./build-gpu/bin/orrery_bench --benchmark_filter='tree_step/cuda' \
    --benchmark_out="$OUT/tree_step.json" --benchmark_out_format=json --benchmark_format=console 2>&1 \
    | grep -E "/|Run on" | head
fi
ls -la "$OUT"
