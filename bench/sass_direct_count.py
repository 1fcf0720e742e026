#!/usr/bin/env python3
"""The limit of the CUDA direct kernel from its own instructions (cuobjdump -sass of
direct_cuda_kernel.cu.o): for each direct_tiles instantiation without potentials or own
softening (each precision and number of targets per thread), the shortest loop holding at least
8 reciprocal square roots (the unrolled sweep of a full tile) is found; its instructions per
interaction, by pipe, give the cycles one warp scheduler spends per 32 interactions: issue (every instruction, one per cycle), fp64 (D* opcodes, two cycles each on a
scheduler's 16 fp64 lanes) and MUFU (eight cycles each on its 4 lanes). The limit is
  SMs x 4 schedulers x clock x 32 / max(issue, fp64, mufu) interactions/s.
Usage: sass_direct_count.py FILE.sass SMS CLOCK_HZ   (one JSON line per precision and variant)
"""
import json
import re
import sys

from sass_loops import functions, loops

text = open(sys.argv[1]).read()
sms, clock = int(sys.argv[2]), float(sys.argv[3])
for name, insts in functions(text):
    m = re.search(r"direct_tiles(If|Id)Li(\d+)ELb0ELb0E", name)
    if not m:
        continue
    precision = "fp32" if m.group(1) == "If" else "fp64"
    best = None
    for body in loops(insts):
        rsq = sum(1 for o in body if o.startswith("MUFU.RSQ"))
        # The innermost loop of the unrolled sweep: the shortest that holds many interactions.
        if rsq >= 8 and (best is None or len(body) < len(best[1])):
            best = (rsq, body)
    if not best:
        continue
    rsq, body = best
    issue = len(body) / rsq
    fp64 = 2 * sum(1 for o in body if re.match(r"D(FMA|ADD|MUL|SETP|MNMX)", o)) / rsq
    mufu = 8 * sum(1 for o in body if o.startswith("MUFU")) / rsq
    limit = sms * 4 * clock * 32 / max(issue, fp64, mufu)
    print(json.dumps({"precision": precision, "targets_per_thread": int(m.group(2)),
                      "instructions_per_interaction": round(issue, 2),
                      "fp64_cycles": round(fp64, 2), "mufu_cycles": round(mufu, 2),
                      "limit_interactions_per_second": limit}))
