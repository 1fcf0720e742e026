#!/usr/bin/env bash
# The chaos indicators on the lent GPU machine, in one call: build with CUDA, the CUDA tests of
# the chaos kernel and of the ensembles beside the CPU chaos tests, then the issue's figures:
# the SALI and MEGNO maps of the Hénon–Heiles section (400 × 400, yoshida4, h = 0.01, t = 10³)
# on the GPU and on the host's cores, and the MEGNO map of the divergence map's canonical window
# (1000 × 1000, leapfrog, 50 000 steps of 0.001) on the GPU. Outputs go to $OUT (default
# ./gpu-out). Usage (device run, carry [".debs"]): bash bench/gpu_chaos.sh
set -uo pipefail
export OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-chaos.log") 2>&1
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
source bench/gpu_build.sh
SECONDS=0
gpu_build orrery-cli orrery_tests orrery_chaos_bench > "$OUT/build.txt" 2>&1
echo "== build rc $? in $SECONDS s"
grep -E " error|FAILED" "$OUT/build.txt" | head -20
echo "== tests"
timeout 200 ./build-gpu/bin/orrery_tests \
  --gtest_filter="ChaosCuda*:ChaosLanes*:ChaosCli*:ChaosIndicators*:TangentMap*:CudaEnsemble*${1:+:$1}" \
  > "$OUT/tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|tests ran" "$OUT/tests.log" | head -40
echo "== chaos maps ($SECONDS s)"
timeout 150 ./build-gpu/bin/orrery_chaos_bench --backend cuda --resolution 400 --three-body 1000 \
  --repeat 3 | tee "$OUT/chaos-gpu.json"
timeout 90 ./build-gpu/bin/orrery_chaos_bench --backend cpu --resolution 400 | tee "$OUT/chaos-cpu.json"
echo "== done in $SECONDS s"
