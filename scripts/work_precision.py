#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws docs/images/work-precision.png: the relative energy error at the end of a run against
the force evaluations it took, for every integrator, on the three problems of
bench/work_precision.cpp. Usage:

    build/bin/orrery_work_precision > work-precision.csv      # about 5 minutes on one core
    python3 scripts/work_precision.py work-precision.csv docs/images/work-precision.png
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


def main(source, target):
    runs = defaultdict(list)  # (problem, method, adaptive) -> [(evaluations, error)]
    with open(source) as f:
        for row in csv.DictReader(f):
            adaptive = row["control"] == "tolerance"
            error = max(float(row["energy_error"]), 1e-17)  # exact zero: at the floor
            runs[(row["problem"], row["method"], adaptive)].append(
                (int(row["evaluations"]), error))
    problems = list(TITLES)
    methods = sorted({m for (_, m, _) in runs}, key=lambda m: list(dict.fromkeys(
        m2 for (_, m2, _) in runs)).index(m))
    colours = {m: plt.cm.tab10(i % 10) for i, m in enumerate(methods)}
    fig, axes = plt.subplots(1, 3, figsize=(17, 5.6))
    for ax, problem in zip(axes, problems):
        for (p, method, adaptive), points in runs.items():
            if p != problem:
                continue
            points.sort()
            x = [e for e, _ in points]
            y = [min(err, 10.0) for _, err in points]
            ax.loglog(x, y, "o--" if adaptive else ".-", color=colours[method],
                      label=method + (" --tolerance" if adaptive else ""), ms=4, lw=1.2)
        ax.set_title(TITLES[problem])
        ax.set_xlabel("force evaluations")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("relative energy error |E − E₀| / |E₀| (capped at 10)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
