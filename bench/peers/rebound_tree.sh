#!/usr/bin/env bash
# REBOUND's Barnes–Hut tree on the same Plummer sphere as orrery's CPU tree benchmark, on the
# same machine in the same run: the peer figure of bench/README.md ("Barnes–Hut tree on the CPU").
# Usage: bench/peers/rebound_tree.sh REBOUND_SOURCE [N] [steps]
#   REBOUND_SOURCE: a checkout of github.com/hannorein/rebound (nothing is downloaded here);
#   REBOUND_COMMIT names its commit where the folder is not a git checkout.
# Prints one JSON line per variant (quadrupole on/off), OpenMP on 2 threads unless
# OMP_NUM_THREADS says otherwise. REBOUND's leapfrog makes one force evaluation per step.
set -euo pipefail
src=$(realpath "$1"); n=${2:-100000}; steps=${3:-5}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for quad in 1 0; do
  cp -r "$src" "$work/rebound-$quad"
  d="$work/rebound-$quad/examples/orrery_compare"; mkdir -p "$d"
  cp "$here/rebound_tree_step.c" "$d/problem.c"
  printf 'export OPENGL=0\nexport SERVER=0\nexport OPENMP=1\nexport QUADRUPOLE=%s\ninclude ../../src/Makefile.defs\nall: problem.c librebound\n\t$(CCPROBLEM)\nlibrebound:\n\t$(MAKE) -C ../../src/\n\t@-$(RM) $(LIBREBOUND)\n\t@$(LINKORCOPYLIBREBOUND)\n' "$quad" > "$d/Makefile"
  make -s -C "$d" > "$work/build-$quad.log" 2>&1 || { tail -20 "$work/build-$quad.log"; exit 1; }
  (cd "$d" && OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} ./rebound "$n" "$steps" 2>/dev/null | grep '"code"' | sed "s/}\$/,\"quadrupole\":$quad,\"git\":\"${REBOUND_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)}\"}/")
done
