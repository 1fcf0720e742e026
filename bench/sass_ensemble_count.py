#!/usr/bin/env python3
"""The instructions of the ensemble kernels' step loops, from `cuobjdump -sass` of one problem's
kernel object: for every instantiation (integrator table and lane type, from the mangled name)
the loop with the most floating-point instructions, counted by opcode. The compiler may unroll
several steps into one loop: divide by the steps per pass (for Hénon–Heiles, one DMUL or FMUL
by -2 per acceleration) to get the instructions per step.
Usage: sass_ensemble_count.py ensemble_kernel_0_false_fp64.sass"""
import re
import sys
from collections import Counter

from sass_loops import functions, loops


def label(name):
    parts = re.findall(r"N6orrery\d+([A-Za-z0-9_]+?)E", name)
    real = "fp32" if re.search(r"fEEvNS", name) else "fp64"
    return " ".join(parts[:2]) + " " + real if parts else name[:80]


for name, insts in functions(open(sys.argv[1]).read()):
    if "ensemble_kernel" not in name and "leapfrog" not in name:
        continue
    best = None
    for body in loops(insts):
        fp = [o for o in body if re.match(r"(D|F)(ADD|MUL|FMA)", o)]
        if best is None or len(fp) > len(best[0]):
            best = (fp, body)
    if best is None:
        continue
    fp, body = best
    kinds = Counter(o.split(".")[0] for o in fp)
    print(f"{label(name)}: loop of {len(body)} instructions, {len(fp)} floating-point "
          f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
