"""The loops of a cuobjdump -sass listing, for the scripts that count a kernel's instructions per
interaction from its own SASS (sass_direct_count.py, sass_tree_count.py)."""
import re

_LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)([^;]*);")


def functions(text):
    """(mangled name, [(address, opcode, operands)]) for each function of the listing."""
    for fn in re.split(r"\n\s*Function : ", text)[1:]:
        name = fn.split("\n", 1)[0].strip()
        yield name, [(int(a, 16), op, args) for a, _, op, args in _LINE.findall(fn)]


def loops(insts):
    """The opcodes of every loop, one list per backward branch (its target to the branch)."""
    seen = set()
    for addr, op, args in insts:
        if not op.startswith("BRA"):
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        if not t or int(t.group(1), 16) > addr or (t.group(1), addr) in seen:
            continue
        seen.add((t.group(1), addr))
        yield [o for a, o, _ in insts if int(t.group(1), 16) <= a <= addr]
