#!/usr/bin/env bash
# The merged tree on the lent GPU machine in one call: build everything with CUDA, run every CUDA
# test (one process: they share the GPU), then the rest of the suite on every core.
# Outputs go to $OUT (default ./gpu-out).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-check.log") 2>&1
cd "$(dirname "$0")/.."
nvidia-smi -L
source bench/gpu_build.sh
SECONDS=0
gpu_build || { echo "build failed"; exit 1; }
echo "== built in $SECONDS s"
echo "== CUDA tests"
timeout 330 ./build-gpu/bin/orrery_tests \
  --gtest_filter='Cuda*:*/Cuda*:EngineSuite.*:EngineRegistry.*:TreeAccuracy.*:MapPreparation*:MapTimings*:CpuIsa*' 2>&1 |
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) +\]|Failure|Expected|Which|actual|tests ran" | head -60
ORRERY_GPU_STATS=1 timeout 60 ./build-gpu/bin/orrery_tests --gtest_filter=CudaMap.IdenticalWhateverTheSchedule 2>&1 |
  grep -m3 -E "segment_ends|park_waits"
echo "== the rest of the suite"
timeout 200 ctest --test-dir build-gpu -j16 -E 'Cuda|EngineSuite|TreeAccuracy' 2>&1 | tail -15
