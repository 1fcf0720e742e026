#!/usr/bin/env python3
"""Instructions per interaction of the CUDA tree walk, from its own SASS (cuobjdump -sass of
tree_walk.cu.o): for each fp32 tree_walk instantiation with quadrupoles and one softening for
all (per targets per lane, with and without potentials), every loop holding at least 8
reciprocal square roots is listed: the unrolled sums over a batch of cells (the larger, with
the quadrupole's many FFMA) and over a batch of bodies. One reciprocal square root per
interaction, so a loop's instructions over its MUFU.RSQ count are the instructions per
interaction, the loop's own bookkeeping and shared-memory loads included.
Usage: sass_tree_count.py FILE.sass   (one JSON line per loop)
"""
import json
import re
import sys

from sass_loops import functions, loops

text = open(sys.argv[1]).read()
for name, insts in functions(text):
    # tree_walk<float, PerLane, Quadrupole = true, OwnSoftening = false, Potentials>
    m = re.search(r"tree_walkIfLi(\d)ELb1ELb0ELb([01])E", name)
    if not m:
        continue
    for body in loops(insts):
        rsq = sum(1 for o in body if o.startswith("MUFU.RSQ"))
        if rsq < 8:
            continue
        ffma = sum(1 for o in body if o.startswith("FFMA"))
        mix = {}
        for o in body:
            k = o.split(".")[0]
            mix[k] = mix.get(k, 0) + 1
        print(json.dumps({"targets_per_lane": int(m.group(1)), "potentials": m.group(2) == "1",
                          "loop": "cells" if ffma > 16 * rsq / 2 else "bodies",
                          "interactions": rsq,
                          "instructions_per_interaction": round(len(body) / rsq, 2),
                          "mix": dict(sorted(mix.items(), key=lambda kv: -kv[1]))}))
