#!/usr/bin/env python3
"""Checks the house's rules of things written once (docs/internals/design.md), each as a pattern
that would mark a copy: the seconds since a time point (core/seconds_since.hpp), a backend's name
(core/backend.hpp), θ's range (kMaxTheta and check_theta(), nbody/engine_registry.hpp), and the
divergence kernel's counters, which are named fields (ParkingCounters, TwinStats), never indices
explained in a comment; and that no file takes back a name that did not tell it apart from its
neighbours. Prints every copy and name with its file and line and exits 1 if there is one. Run
by the test suite (ctest: HouseRules), and against tests/data/house_rules, whose copies and
name it must find (HouseRulesFindsCopies)."""
import pathlib
import re
import sys

SOURCES = {".hpp", ".cpp", ".cu", ".cuh", ".h"}
CODE = ("include", "src", "apps", "python")

# (what a copy is, pattern of one, the folders searched, the files exempt)
RULES = [
    ("the seconds since a time point written again (seconds_since(), core/seconds_since.hpp)",
     re.compile(r"duration<double>\(\s*std::chrono::steady_clock::now\(\)\s*-"),
     CODE + ("bench", "tests"), {"include/orrery/core/seconds_since.hpp"}),
    ("a backend's name typed as a word (to_string(Backend), backend_names(): core/backend.hpp)",
     re.compile(r'"(cpu|cuda|auto)(:|")|"(cpu|cuda|auto) or '),
     CODE, {"include/orrery/core/backend.hpp", "python/orrery/_orrery.pyi"}),
    ("theta's range written again (kMaxTheta, check_theta(): nbody/engine_registry.hpp)",
     re.compile(r"\btheta\s*(<|<=|>|>=)\s*[0-9]|[0-9.]\s*(<|<=|>|>=)\s*theta\b|theta < 2"),
     CODE, {"src/nbody/engines.cpp"}),  # where check_theta() and the range's text are
    ("a kernel counter by index (name it: a field of ParkingCounters or TwinStats)",
     re.compile(r"\b(counters|stats)\[\s*[0-9]+\s*\]"), CODE, set()),
]

# Names that did not tell their files apart, and the names their contents took.
RETIRED = {
    "src/jobs/sim_run.cpp": "sim_new_or_resumed.cpp",
    "src/jobs/sim_loop.cpp": "sim_snapshot_loop.cpp",
    "src/jobs/sim_start.cpp": "sim_initial_conditions.cpp",
    "src/jobs/sim_setup.cpp": "simulation_of_job.cpp",
    "include/orrery/jobs/sim_setup.hpp": "simulation_of_job.hpp",
    "python/simulation.cpp": "simulation_core.cpp",
    "python/simulation.hpp": "simulation_core.hpp",
    "python/py_simulation.cpp": "simulation_settings.cpp",
    "python/py_simulation.hpp": "simulation_settings.hpp",
}


def code_of(line: str) -> str:
    """The line without its // comment (a // inside a string literal is kept)."""
    in_string = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
    return line


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    copies = []
    for message, pattern, folders, exempt in RULES:
        for folder in folders:
            for path in sorted((root / folder).rglob("*")):
                name = path.relative_to(root).as_posix()
                # tests/data holds this check's own copies, for the test that it finds them.
                if path.suffix not in SOURCES or name in exempt or name.startswith("tests/data/"):
                    continue
                lines = path.read_text(encoding="utf-8").splitlines()
                code = "\n".join(code_of(line) for line in lines)
                for m in pattern.finditer(code):
                    n = code.count("\n", 0, m.start()) + 1
                    copies.append(f"{name}:{n}: {message}")
    for name, now in RETIRED.items():
        if (root / name).exists():
            copies.append(f"{name}: a name that does not tell its file apart (named {now} now)")
    for c in copies:
        print(c)
    print(f"{len(copies)} copies of what is written once, or names taken back")
    return 1 if copies else 0


if __name__ == "__main__":
    sys.exit(main())
