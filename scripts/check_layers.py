#!/usr/bin/env python3
"""Checks the house's rule that layers include one way (docs/internals/design.md): a file of one layer
includes headers of its own layer and of lower ones only. And that the headers which dispatch to
the backends are included by source files only (and by each other): a header that needs the
options or the results includes their own header, so that its users do not parse the
dispatcher. Prints every offending include and exits 1 if there is one. Run by the test suite
(ctest: HouseLayers)."""
import pathlib
import re
import sys

# Rank of each layer; a layer may include its own and lower ranks, and of equal rank only itself.
RANK = {"core": 0, "device": 1, "physics": 1, "integrate": 2, "nbody": 3, "ensemble": 3,
        "scenes": 4, "render": 4, "io": 5, "dist": 6, "jobs": 7, "apps": 8, "python": 8}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:orrery/)?([a-z_]+)/')
# The dispatchers, and the headers beside them that hold their option and result types.
DISPATCHERS = {
    "ensemble/divergence_map.hpp": "ensemble/map_run_options.hpp, ensemble/divergence_counts.hpp",
    "nbody/engines.hpp": "nbody/engine_options.hpp, nbody/engine_registry.hpp",
    "jobs/map_job.hpp": "jobs/map_job_options.hpp, jobs/map_job_outcome.hpp",
}
DISPATCHER_INCLUDE = re.compile(r'^\s*#\s*include\s+"orrery/([a-z_/]+\.hpp)"')


def layer_of(path: pathlib.Path, root: pathlib.Path) -> str | None:
    parts = path.relative_to(root).parts
    if parts[0] == "include":
        return parts[2]
    if parts[0] == "src":
        return parts[1]
    if parts[0] in ("apps", "python"):
        return parts[0]
    return None


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    bad = []
    for folder in ("include", "src", "apps", "python"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in {".hpp", ".cpp", ".cu", ".cuh", ".h"}:
                continue
            own = layer_of(path, root)
            if own not in RANK:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m or m.group(1) not in RANK:
                    continue
                other = m.group(1)
                if other != own and RANK[other] >= RANK[own]:
                    bad.append(f"{path.relative_to(root)}:{n}: layer '{own}' includes '{other}'")
                d = DISPATCHER_INCLUDE.match(line)
                own_name = "/".join(path.relative_to(root).parts[2:]) if folder == "include" else ""
                if (d and d.group(1) in DISPATCHERS and path.suffix in {".hpp", ".cuh", ".h"}
                        and own_name not in DISPATCHERS):
                    bad.append(f"{path.relative_to(root)}:{n}: a header includes the dispatcher "
                               f"'{d.group(1)}' (its types: {DISPATCHERS[d.group(1)]})")
    for b in bad:
        print(b)
    print(f"{len(bad)} upward or sideways includes, or dispatchers included by headers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
