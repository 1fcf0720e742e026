#!/usr/bin/env bash
# The force engines on the lent GPU machine, in one call (bench/README.md): build with CUDA, run
# the engine tests (CUDA against long-double sums and the CPU), count the direct kernel's
# instructions per interaction (its limit), benchmark the CUDA direct engine and the CPU tree, and
# run `orrery forces` and `orrery sim` end to end on the GPU. Outputs in $OUT (default ./gpu-out).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/engines.log") 2>&1
cd "$(dirname "$0")/.."
echo "== machine"; nvidia-smi -L; nproc
echo "== build"
source bench/gpu_build.sh
gpu_build || { echo "build failed"; exit 1; }
echo "== engine tests on the GPU"
timeout 300 ./build-gpu/bin/orrery_tests \
  --gtest_filter='CudaDirect*:CudaArray*:EngineSuite.*:IntegratorsOverEngines.*:ForcesCli.*' 2>&1 \
  | grep -E "^\[ *(FAILED|PASSED|SKIPPED|OK) *\]|Failure|Expected|Which|actual|trace" | head -60
echo "== direct kernel: instructions per interaction and limit"
# H100 SXM and H200 both have 132 SMs; the clock is the card's maximum SM clock.
sm_count=132
clock_mhz=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
cuobjdump -sass build-gpu/src/CMakeFiles/orrery.dir/nbody/direct/cuda/direct_cuda_kernel.cu.o > "$OUT/direct.sass" 2>&1
python3 bench/sass_direct_count.py "$OUT/direct.sass" "$sm_count" "${clock_mhz}e6" | tee "$OUT/direct_limit.json"
echo "== benchmarks (the SM clock sampled every 200 ms meanwhile)"
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 200 > "$OUT/sm_clock.txt" 2>/dev/null &
clock_pid=$!
timeout 200 ./build-gpu/bin/orrery_bench --benchmark_filter='direct/cuda|tree/cpu/fp32/100000/0' \
  --benchmark_out="$OUT/engines_bench.json" --benchmark_out_format=json --benchmark_format=console 2>&1 | grep -E "/|Run on" | head -30
kill $clock_pid 2>/dev/null
sort -n "$OUT/sm_clock.txt" | awk '{v[NR]=$1} END {print "SM clock under load (MHz): median", v[int(NR/2)+1], "max", v[NR]}'
echo "== orrery forces and sim on the GPU"
O=$PWD/build-gpu/bin/orrery
rm -rf /tmp/e2e && mkdir /tmp/e2e && cd /tmp/e2e
$O sim --scene plummer --n 100000 --t-end 1e-4 --dt 1e-4 --out p --quiet --backend cpu --engine tree
for p in fp32 fp64; do $O forces --input p/snapshot_000000.h5 --backend cuda --precision $p --repeat 5 --out direct-$p.h5; done
$O forces --input p/snapshot_000000.h5 --engine tree --backend cpu --precision fp32 --threads 2 --repeat 5 --out tree.h5
python3 -c "
import h5py, numpy as np
d=h5py.File('direct-fp64.h5')['acceleration'][:]
for f in ['direct-fp32.h5','tree.h5']:
    a=h5py.File(f)['acceleration'][:]; e=np.linalg.norm(a-d,axis=1)/np.linalg.norm(d,axis=1)
    print(f, 'vs CUDA direct fp64: median %.3g, p99 %.3g' % (np.median(e), np.percentile(e,99)))
" 2>&1
/usr/bin/time -f "sim wall %e s" $O sim --scene plummer --n 50000 --backend cuda --dt 0.001 --t-end 0.05 --every 25 --out g --quiet
$O sim --scene plummer --n 50000 --backend cuda --dt 0.001 --t-end 0.05 --every 25 --out g2 2>&1 | tail -4
for p in fp32 fp64; do
  /usr/bin/time -f "sim N=262144 $p, 20 leapfrog steps on the GPU: wall %e s" \
    $O sim --scene plummer --n 262144 --backend cuda --precision $p --dt 0.001 --t-end 0.02 --every 20 --out big-$p --quiet
done
ls -la "$OUT"
