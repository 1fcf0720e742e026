#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws docs/images/work-precision.png: the relative energy error at the end of a run against
the force evaluations it took, for every integrator, on the three problems of
bench/work_precision.cpp (columns), one row per kind of method:

  1. step control: the embedded Runge-Kutta pairs, bulirsch-stoer (--tolerance 1e-4 ... 1e-12)
     and ias15 (its own control, one point);
  2. fixed steps, not symplectic: the explicit Runge-Kutta methods without an error estimate
     and the Adams multistep methods;
  3. fixed steps, symplectic or symmetric: the splitting (composition) methods and the
     implicit collocation methods.

The embedded pairs and bulirsch-stoer were also run at fixed steps; those points are in the CSV,
not in the picture. Runs stopped by the program's cap of evaluations before their end time are
left out, as are runs an implicit method could not make (named on the program's stderr). Usage (about an hour on one core, most of it the Plummer sphere):

    build/bin/orrery_work_precision > work-precision.csv
    python3 scripts/work_precision.py work-precision.csv docs/images/work-precision.png

Several CSV files (e.g. one per problem: orrery_work_precision pythagorean > p.csv) may be
given before the picture's name.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TITLES = {
    "kepler-e0.9": "Kepler, e = 0.9, 10 periods",
    "pythagorean": "Pythagorean three-body, t = 70",
    "plummer-1000": "Plummer sphere, N = 1000, ε = 0.01, t = 1",
}

ROWS = [
    ("step control (--tolerance)",
     ["fehlberg45", "cash-karp", "dopri5", "verner65", "fehlberg78", "dop853", "feagin10",
      "feagin12", "feagin14", "bulirsch-stoer", "ias15"], True),
    ("fixed steps: Runge–Kutta and Adams",
     ["euler", "midpoint", "kutta3", "rk4", "ab1", "ab2", "ab3", "ab4", "ab5", "abm4"], False),
    ("fixed steps: symplectic and implicit",
     ["symplectic-euler", "leapfrog", "yoshida4", "yoshida6", "yoshida8", "trapezoid",
      "gauss-legendre4", "gauss-legendre6", "gauss-legendre8", "lobatto3ab4"], False),
]
FLOOR = 1e-17  # an exact zero is drawn at the floor
CAP = 10.0     # errors beyond are drawn at the cap


def read(sources):
    runs = defaultdict(list)  # (problem, method, adaptive) -> [(evaluations, error)]
    for source in sources:
        with open(source) as f:
            for row in csv.DictReader(f):
                # Stopped by the program's cap of evaluations before the end: no point.
                if row.get("finished", "1") == "0" or int(row["evaluations"]) >= 20000000:
                    continue
                adaptive = row["control"] == "tolerance" or row["method"] == "ias15"
                error = max(float(row["energy_error"]), FLOOR)
                runs[(row["problem"], row["method"], adaptive)].append(
                    (int(row["evaluations"]), error))
    return runs


def main(sources, target):
    runs = read(sources)
    fig, axes = plt.subplots(len(ROWS), len(TITLES), figsize=(18, 15), sharey=True)
    markers = "os^vD<>ph*X"
    for r, (label, methods, adaptive) in enumerate(ROWS):
        colours = plt.cm.tab20.colors if len(methods) > 10 else plt.cm.tab10.colors
        for c, problem in enumerate(TITLES):
            ax = axes[r][c]
            for k, method in enumerate(methods):
                points = sorted(runs.get((problem, method, adaptive), []))
                if not points:
                    continue
                x = [e for e, _ in points]
                y = [min(err, CAP) for _, err in points]
                ax.loglog(x, y, "-", marker=markers[k % len(markers)], ms=4, lw=1.1,
                          color=colours[(2 * k) % 20 + (2 * k) // 20 if len(methods) > 10 else k],
                          label=method)
            ax.grid(True, which="major", alpha=0.3)
            if r == 0:
                ax.set_title(TITLES[problem])
            if r == len(ROWS) - 1:
                ax.set_xlabel("force evaluations")
            if c == 0:
                ax.set_ylabel(f"{label}\n|E − E₀| / |E₀|")
        shown = {}
        for ax in axes[r]:
            for handle, name in zip(*ax.get_legend_handles_labels()):
                shown.setdefault(name, handle)
        axes[r][-1].legend(shown.values(), shown.keys(), loc="center left",
                           bbox_to_anchor=(1.02, 0.5), fontsize=9, frameon=False)
    fig.tight_layout()
    fig.savefig(target, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:-1], sys.argv[-1])
