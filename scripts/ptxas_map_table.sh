#!/usr/bin/env bash
# ptxas's registers, stack frame and spills for the map kernels that matter most (ab4 in fp64,
# the kernel nearest its register limit; the canonical Euler map in fp64 fast and exact, fp32
# and mixed; rk4 and yoshida4 in fp64), two compilations at a time.
# Usage: scripts/ptxas_map_table.sh SOURCE_ROOT OUT_DIR
set -uo pipefail
here=$(dirname "$0")
root=$1; out=$2
mkdir -p "$out"
one() { "$here/ptxas_map_kernel.sh" "$root" "$out" "$@" > "$out/$1.line" 2> "$out/$1.err"; }
one ab4-fp64-fast 7 double InverseCubeFast 0 & one euler-fp64-fast 0 double InverseCubeFast 0 & wait
one euler-fp64-exact 0 double InverseCubeExact 0 & one euler-fp32-fast 0 float InverseCubeFast 0 & wait
one euler-mixed-fast 0 double "InverseCubeIn<float, InverseCubeFast>" 0 &
one ab4-fp64-exact 7 double InverseCubeExact 0 & wait
one rk4-fp64-fast 2 double InverseCubeFast 0 & one yoshida4-fp64-fast 5 double InverseCubeFast 0 & wait
one ab4-fp32-fast 7 float InverseCubeFast 0 & one ab4-mixed-fast 7 double "InverseCubeIn<float, InverseCubeFast>" 0 & wait
cat "$out"/*.line
