#!/usr/bin/env python3
"""Compares the machine code of two compilations of the same kernels without a disassembler:
the .text section of each kernel in two cubins (or two folders of them, by file name), read
with readelf, kernels matched by their names after the anonymous namespace (whose name depends
on the file's path). Prints each kernel's code size in both and how many 16-byte instructions
differ (SASS comparison on the device: bench/sass_compare.py).
Usage: cubin_text_compare.py BASE NEW   (two .cubin files, or two folders of them)
"""
import os
import re
import subprocess
import sys


def texts(cubin):
    out = subprocess.run(["readelf", "-S", "-W", cubin], capture_output=True, text=True,
                         check=True).stdout
    data = open(cubin, "rb").read()
    found = {}
    for line in out.splitlines():
        parts = line.replace("[", " ").replace("]", " ").split()
        if len(parts) > 5 and parts[1].startswith(".text."):
            offset, size = int(parts[4], 16), int(parts[5], 16)
            key = re.sub(r"^.*?_GLOBAL__N__\w*?_cu_[0-9a-f]+_?\d*", "", parts[1][len(".text."):])
            found[key] = data[offset:offset + size]
    return found


def compare(a, b):
    same = total = 0
    ta, tb = texts(a), texts(b)
    for key, x in sorted(ta.items()):
        y = tb.get(key)
        total += 1
        if y is None:
            print(f"{key[-80:]}: missing in {b}")
            continue
        differ = sum(x[i:i + 16] != y[i:i + 16] for i in range(0, max(len(x), len(y)), 16))
        same += differ == 0
        print(f"{key[-80:]}: {len(x) // 16} vs {len(y) // 16} instructions, "
              + ("identical" if differ == 0 else f"{differ} differ"))
    return same, total


base, new = sys.argv[1], sys.argv[2]
pairs = [(base, new)] if os.path.isfile(base) else [
    (os.path.join(base, f), os.path.join(new, f)) for f in sorted(os.listdir(base))
    if f.endswith(".cubin") and os.path.exists(os.path.join(new, f))]
same = total = 0
for a, b in pairs:
    s, t = compare(a, b)
    same, total = same + s, total + t
print(f"{same} of {total} kernels identical")
