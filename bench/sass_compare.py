#!/usr/bin/env python3
"""Compares the machine code of two builds' kernels, function by function, from `cuobjdump -sass`
listings: for each kernel of the first listing, its instruction count in both, whether the two
are the same instructions, and otherwise how many differ (opcode and operands, in order).
Kernels are matched by their names after the anonymous namespace (whose name depends on the
file's path). Usage: sass_compare.py base.sass new.sass
"""
import difflib
import re
import sys

from sass_loops import functions


_JUMPS = ("BRA", "BSSY", "CALL", "JMP", "BRX", "JMX")


def kernels(path):
    out = {}
    for name, insts in functions(open(path).read()):
        key = re.sub(r"^.*?_GLOBAL__N__\w*?_cu_[0-9a-f]+_?\d*", "", name)
        # Branch targets are addresses: one instruction more shifts every later one.
        out[key] = [op + (re.sub(r"0x[0-9a-f]+", "@", args) if op.startswith(_JUMPS) else args)
                    for _, op, args in insts]
    return out


base, new = kernels(sys.argv[1]), kernels(sys.argv[2])
same = 0
for key, a in base.items():
    b = new.get(key)
    if b is None:
        print(f"{key[:100]}: missing in the second listing")
        continue
    if a == b:
        same += 1
        verdict = "identical"
    else:
        m = difflib.SequenceMatcher(None, a, b, autojunk=False)
        differ = sum(max(i2 - i1, j2 - j1)
                     for tag, i1, i2, j1, j2 in m.get_opcodes() if tag != "equal")
        verdict = f"{differ} instructions differ"
    print(f"{key[-90:]}: {len(a)} vs {len(b)} instructions, {verdict}")
print(f"{same} of {len(base)} kernels identical")
