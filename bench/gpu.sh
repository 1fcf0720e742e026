#!/usr/bin/env bash
# Everything that needs the GPU, in one call on the lent device machine (see bench/README.md):
# build with CUDA, run the CUDA tests (and the rest), benchmark the canonical map, count the fp64
# instructions per pixel-step in the compiled kernel, and render the precision modes' pictures.
# Outputs go to $OUT (default ./gpu-out). Usage: bench/gpu.sh [tests|bench|all] (default all).
set -uo pipefail
what=${1:-all}
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
log="$OUT/gpu.log"
exec > >(tee -a "$log") 2>&1
cd "$(dirname "$0")/.."

echo "== machine"
nvidia-smi -L
nvcc --version | tail -1
nproc

echo "== build"
source bench/gpu_build.sh
gpu_build || { echo "build failed"; exit 1; }

if [ "$what" = tests ] || [ "$what" = all ]; then
  echo "== CUDA tests"
  timeout 300 ./build-gpu/bin/orrery_tests --gtest_filter='CudaMap*:WorkPool.*' 2>&1 | grep -E "^\[ (figure|  FAILED|  PASSED|  SKIPPED|       OK) |Failure|Expected|Which|actual" | head -80
  echo "== all tests"
  ctest --test-dir build-gpu -j "$(nproc)" --timeout 200 2>&1 | tail -15
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== fp64 instructions per pixel-step (SASS)"
  cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/map_kernels/twin_kernel_0.cu.o > "$OUT/twin_kernel.sass" 2>&1
  python3 bench/sass_fp64_count.py "$OUT/twin_kernel.sass" | tee "$OUT/sass_counts.txt"
  echo "== benchmark"
  timeout 240 ./build-gpu/bin/orrery_bench --benchmark_filter="${BENCH_FILTER:-divergence_map_cuda}" \
    --benchmark_out="$OUT/bench.json" --benchmark_out_format=json --benchmark_format=console 2>&1 | tail -20
  echo "== end to end (process start to picture)"
  for p in fp64 mixed fp32; do
    timeout 60 /usr/bin/time -f "$p: %e s end to end" ./build-gpu/bin/orrery map --precision $p --quiet \
      --out "$OUT/map-$p.png"
  done
fi
ls -la "$OUT"
