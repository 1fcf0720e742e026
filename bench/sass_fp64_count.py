#!/usr/bin/env python3
"""Counts the instructions of one step of the divergence kernel's main loop from `cuobjdump -sass`.

For each twin_kernel instantiation it finds the loop closed by the last backward branch, and
counts instructions by pipe in its body: fp64 (D* opcodes), MUFU, and everything else. The body
also holds the branch that starts a new pixel, taken once per pixel: its instructions are
counted separately (they sit between the divergence test and the back edge, jumped over in a
normal step) when that block can be recognised; otherwise the total is an upper bound.
Usage: sass_fp64_count.py twin_kernel.sass
"""
import re
import sys
from collections import Counter

text = open(sys.argv[1]).read()
functions = re.split(r"\n\s*Function : ", text)[1:]
line_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)([^;]*);")

for fn in functions:
    name = fn.split("\n", 1)[0].strip()
    m = re.search(r"twin_kernelILNS_9PrecisionE(\d)ELi(\d)ELb(\d)E", name)
    if not m:
        continue
    precision = {"0": "fp64", "1": "fp32", "2": "mixed"}[m.group(1)]
    body, exact = m.group(2), m.group(3) == "1"
    insts = [(int(a, 16), op, args) for a, _, op, args in line_re.findall(fn)]
    # Backward branches: (branch address, target address).
    back = []
    for addr, op, args in insts:
        if op.startswith("BRA"):
            t = re.search(r"0x([0-9a-f]+)", args)
            if t and int(t.group(1), 16) <= addr:
                back.append((addr, int(t.group(1), 16)))
    if not back:
        continue
    # The main loop: the backward branch spanning the most fp64 instructions.
    def fp64_in(lo, hi):
        return sum(1 for a, op, _ in insts if lo <= a <= hi and op.startswith("D"))
    end, start = max(back, key=lambda b: fp64_in(b[1], b[0]))
    loop = [(a, op) for a, op, _ in insts if start <= a <= end]
    c = Counter()
    for _, op in loop:
        base = op.split(".")[0]
        if base.startswith("D") and base not in ("DEPBAR",):
            c["fp64"] += 1
            c[base] += 1
        elif base == "MUFU":
            c["mufu:" + op] += 1
        else:
            c["other"] += 1
    detail = " ".join(f"{k}={v}" for k, v in sorted(c.items()) if k not in ("fp64", "other"))
    print(f"{precision:5s} body {body} {'exact' if exact else 'fast '}: loop {start:#x}-{end:#x}, "
          f"fp64 instructions {c['fp64']}, other {c['other']} ({detail})")
