#!/usr/bin/env bash
# ptxas's registers, stack frame and spills for every kernel of the divergence map: each map
# integrator's file as src/CMakeLists.txt generates it (every precision mode, varied body and
# pair factor), device code only, two integrators at a time. Prints one line per kernel, by its
# template arguments. Usage: scripts/ptxas_map_all.sh SOURCE_ROOT OUT_DIR
set -uo pipefail
root=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
count=$(sed -n 's/^set(ORRERY_MAP_INTEGRATOR_COUNT \([0-9]*\).*/\1/p' "$root/src/CMakeLists.txt")
one() {
  local i=$1
  printf '#include "ensemble/cuda/twin_kernel.cuh"\ntemplate orrery::cuda::TwinKernelFn orrery::cuda::twin_kernel_for<%s>(orrery::Precision, int, bool);\n' \
    "$i" > "$out/twin_kernel_$i.cu"
  /usr/local/cuda/bin/nvcc -I"$root/include" -I"$root/src" -DNDEBUG -DFMT_SHARED \
    -DORRERY_ENSEMBLE_PROBLEM_COUNT=7 -DORRERY_MAP_INTEGRATOR_COUNT=$count -O3 -arch=sm_90 \
    --fmad=false --expt-relaxed-constexpr -lineinfo -std=c++20 -ptx "$out/twin_kernel_$i.cu" \
    -o "$out/twin_kernel_$i.ptx" &&
  /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 -lineinfo -v "$out/twin_kernel_$i.ptx" \
    -o "$out/twin_kernel_$i.cubin" 2> "$out/twin_kernel_$i.ptxas"
}
for ((i = 0; i < count; i += 2)); do
  one $i & { ((i + 1 < count)) && one $((i + 1)); } & wait
done
# One line per kernel: its TwinDivergence arguments, registers, stack frame, spill stores, loads.
for ((i = 0; i < count; ++i)); do
  awk '/Compiling entry function/ {
         k = $0; sub(/.*TwinDivergenceI/, "", k); sub(/EEEEvNS_15DivergenceSetup.*/, "", k) }
       /bytes stack frame/ {f = $1; st = $5; ld = $9}
       /Used [0-9]+ registers/ {printf "%-60s regs %3d  stack %4d  spill st %5d  ld %5d\n", k, $5, f, st, ld}' \
    "$out/twin_kernel_$i.ptxas"
done
