#!/usr/bin/env bash
# Compiles one instantiation of the divergence map's CUDA kernel (src/ensemble/cuda/twin_kernel.cuh)
# with the library's flags for the map objects, and prints ptxas's registers, stack frame and
# spills for it; the SASS listing is kept beside the object. No GPU needed.
# Usage: scripts/ptxas_map_kernel.sh SOURCE_ROOT OUT_DIR NAME INTEGRATOR REAL INVERSE_CUBE BODY
#   e.g. scripts/ptxas_map_kernel.sh . /tmp/ptx ab4-fp64-fast 7 double InverseCubeFast 0
# (INVERSE_CUBE: InverseCubeFast, InverseCubeExact, or "InverseCubeIn<float, InverseCubeFast>"
# with REAL double for the mixed mode).
set -euo pipefail
root=$(cd "$1" && pwd); out=$2; name=$3; i=$4; real=$5; cube=$6; body=$7
mkdir -p "$out"
cat > "$out/$name.cu" <<CU
#include "ensemble/cuda/twin_kernel.cuh"
namespace orrery::cuda {
TwinKernelFn ptxas_probe() {
  return twin_kernel<TwinDivergence<map_integrator_t<$i>, $real, $cube, $body>>;
}
}  // namespace orrery::cuda
CU
# The map objects' flags (build.ninja of the release preset), device code for sm_90 only: the
# PTX, then ptxas on it as nvcc runs it (no host compilation). No disassembler is installed
# here: two PTX listings that match give the same machine code.
/usr/local/cuda/bin/nvcc -I"$root/include" -I"$root/src" -DNDEBUG -DFMT_SHARED \
  -DORRERY_ENSEMBLE_PROBLEM_COUNT=7 -DORRERY_MAP_INTEGRATOR_COUNT=8 -O3 -arch=sm_90 \
  --fmad=false --expt-relaxed-constexpr -lineinfo -std=c++20 -ptx "$out/$name.cu" -o "$out/$name.ptx"
/usr/local/cuda/bin/ptxas -arch=sm_90 -O3 -lineinfo -v "$out/$name.ptx" -o "$out/$name.cubin" \
  2> "$out/$name.ptxas"
if command -v cuobjdump > /dev/null; then cuobjdump -sass "$out/$name.cubin" > "$out/$name.sass"; fi
# One line: registers, stack frame, spill stores, spill loads.
awk -v n="$name" '/bytes stack frame/ {f=$1; st=$5; ld=$9} /Used [0-9]+ registers/ {r=$5}
  END {printf "%-22s regs %3d  stack %4d  spill st %5d  ld %5d\n", n, r, f, st, ld}' "$out/$name.ptxas"
