#!/usr/bin/env python3
"""The tree's work-precision diagram (docs/internals/gravity-tree.md, "At a given accuracy"):
seconds per evaluation against the median and 99th-percentile relative error of |a|, one curve per
backend, N and multipole order, from the `tree_theta` rows of orrery_bench's JSON output:

    orrery_bench --benchmark_filter=tree_theta --benchmark_out=theta.json --benchmark_out_format=json
    scripts/tree_work_precision.py theta.json docs/images/tree-work-precision.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The promise of issue 29: median <= 3e-4 and p99 <= 3e-3 against a direct sum.
MEDIAN_BOUND, P99_BOUND = 3e-4, 3e-3


def rows(path):
    curves = {}
    for b in json.load(open(path))["benchmarks"]:
        parts = b["name"].split("/")
        if parts[0] != "tree_theta" or b.get("error_occurred"):
            continue
        backend, n, theta, multipole = parts[1], int(parts[3]), int(parts[4]) / 1000, parts[5]
        leaf, group = (parts[6], parts[7]) if len(parts) > 8 else ("0", "0")
        if (leaf, group) != ("0", "0"):
            continue  # the leaf and group trials at one θ are a table, not a curve
        key = (backend, n, "monopole" if multipole == "0" else "quadrupole")
        curves.setdefault(key, []).append(
            (theta, b["seconds_median"], b["error_median"], b["error_p99"]))
    return curves


def main(source, target):
    curves = rows(source)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    styles = {"monopole": "o-", "quadrupole": "s--"}
    for (backend, n, multipole), points in sorted(curves.items()):
        points.sort()
        label = f"{backend}, N = {n:.0e}, {multipole}"
        for ax, column in zip(axes, (2, 3)):
            ax.plot([p[column] for p in points], [p[1] * 1e3 for p in points],
                    styles[multipole], label=label, ms=4)
            for p in points:
                ax.annotate(f"{p[0]:.1f}", (p[column], p[1] * 1e3), fontsize=6,
                            textcoords="offset points", xytext=(3, 3))
    for ax, bound, name in zip(axes, (MEDIAN_BOUND, P99_BOUND),
                               ("median", "99th percentile")):
        ax.axvline(bound, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"{name} relative error of |a| (against a long-double direct sum)")
        ax.grid(True, which="both", lw=0.3)
    axes[0].set_ylabel("ms per evaluation (build, walk, potentials)")
    axes[0].legend(fontsize=7)
    fig.suptitle("Barnes-Hut tree, Plummer sphere, fp32: time against accuracy "
                 "(labels: theta; dotted: the promised bound)", fontsize=10)
    fig.tight_layout()
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
