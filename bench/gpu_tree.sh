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
if [ -d .debs ]; then
  mkdir -p /tmp/debs && for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
  toml="-Dtomlplusplus_DIR=/tmp/debs/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus"
  export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
echo "== build"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON ${toml:-} > "$OUT/cmake.log" 2>&1 \
  || { tail -30 "$OUT/cmake.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" 2>&1 | grep -E "error|FAILED" | head -40
[ -x build-gpu/bin/orrery_tests ] || { echo "build failed"; exit 1; }
echo "== tree tests on the GPU"
timeout 400 ./build-gpu/bin/orrery_tests \
  --gtest_filter="${TESTS:-Cuda*:EngineSuite.*:IntegratorsOverEngines.*:ForcesCli.*:Sim*:BackgroundWriter*}" 2>&1 \
  | tee "$OUT/tests.txt" | grep -E "^\[ *(FAILED|PASSED|SKIPPED) *\]|Failure|Expected|Which|actual|rror|exception|description" | head -60
echo "== benchmarks"
timeout 400 ./build-gpu/bin/orrery_bench --benchmark_filter="${BENCH:-tree/cuda|tree_tune/cuda}" \
  --benchmark_out="$OUT/tree_bench.json" --benchmark_out_format=json --benchmark_format=console 2>&1 \
  | grep -E "/|Run on" | head -40
if [ "${1:-}" = big ]; then
  echo "== 2e8 bodies, one step"
  timeout 400 ./build-gpu/bin/orrery_bench --benchmark_filter='tree_step/cuda' \
    --benchmark_out="$OUT/tree_step.json" --benchmark_out_format=json --benchmark_format=console 2>&1 \
    | grep -E "/|Run on" | head
fi
ls -la "$OUT"
