#!/usr/bin/env bash
# Everything the lent GPU machine checks before a submission, in one call: build with CUDA
# (sm_90), the whole test suite through ctest on all cores (the CUDA tests run there, against the
# CPU paths), then the GPU benchmarks of bench/README.md: the direct kernel's instructions per
# interaction (its limit) and its rows ("Direct gravity on CUDA"), the tree walk's instructions
# per interaction (bench/sass_tree_count.py), and the tree's rows ("Barnes–Hut
# tree on CUDA"): one evaluation at 10⁵, 10⁶, 10⁷ bodies in fp32 and fp64, accelerations alone,
# and the steps (10⁷ and 2·10⁸ Plummer bodies, the 10⁶-body collision in fp64 SI and fp32 N-body
# units).
# Outputs in $OUT (default ./gpu-out): the test log and the benchmarks' JSON.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
echo "== machine"; nvidia-smi -L; nproc
echo "== build"
source bench/gpu_build.sh
gpu_build || { echo "build failed"; exit 1; }
echo "== tests"
# The tests that use the GPU one at a time (several processes on one GPU at once made the
# direct engine's small sums come back empty), the rest on every core.
gpu_tests='Cuda|EngineSuite|IntegratorsOverEngines|ForcesCli|BackgroundWriter|Zoom'
ctest --test-dir build-gpu -j "$(nproc)" --timeout 300 --output-on-failure -E "$gpu_tests" \
  > "$OUT/ctest.txt" 2>&1
ctest --test-dir build-gpu --timeout 300 --output-on-failure -R "$gpu_tests" >> "$OUT/ctest.txt" 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" "$OUT/ctest.txt" | head -30
grep -c "Passed" "$OUT/ctest.txt"
echo "== GPU tests skipped"
grep -E "Skipped" "$OUT/ctest.txt" | grep -E "Cuda|Engine|Zoom" | head
echo "== direct kernel: instructions per interaction and limit"
cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/nbody/direct/cuda/direct_cuda_kernel.cu.o > /tmp/direct.sass 2>&1
python3 bench/sass_direct_count.py /tmp/direct.sass 132 \
  "$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)e6" | tee "$OUT/direct_limit.json"
echo "== tree walk: instructions per interaction"
cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/nbody/tree/cuda/tree_walk.cu.o > /tmp/tree.sass 2>&1
python3 bench/sass_tree_count.py /tmp/tree.sass | tee "$OUT/tree_walk_sass.json"
echo "== benchmarks"
timeout "${BENCH_LIMIT:-300}" ./build-gpu/bin/orrery_bench \
  --benchmark_filter="${BENCH:-direct/cuda|direct_tune/cuda|tree/cuda|tree_accelerations/cuda|tree_devices/cuda|tree_step/cuda}" \
  --benchmark_out="$OUT/gpu_bench.json" --benchmark_out_format=json --benchmark_format=console 2>&1 \
  | grep -E "/|Run on" | head -60
