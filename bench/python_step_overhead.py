#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What orrery.Simulation.step() costs from Python over the same step in C++.

The system: the figure-eight scene (three bodies), leapfrog, the direct CPU engine on one thread.
Python: the median over rounds of the mean time of sim.step() in a loop. C++: orrery_bench's
BM_SimulationStepThreeBodies (bench/simulation_step_bench.cpp), the same step as `orrery sim`
takes it. Prints JSON.

    PYTHONPATH=build-cpu/python python3 bench/python_step_overhead.py build-cpu/bin/orrery_bench
"""
import json
import platform
import statistics
import subprocess
import sys
import time

import orrery

ROUNDS = 7
STEPS_PER_ROUND = 100_000


def python_step_seconds():
    sim = orrery.Simulation.scene("figure-eight", threads=1)
    step = sim.step
    for _ in range(1000):  # warm up
        step()
    means = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(STEPS_PER_ROUND):
            step()
        means.append((time.perf_counter() - start) / STEPS_PER_ROUND)
    return statistics.median(means), means


def cpp_step_seconds(bench):
    out = subprocess.run([bench, "--benchmark_filter=BM_SimulationStepThreeBodies$",
                          f"--benchmark_repetitions={ROUNDS}", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    runs = [b for b in report["benchmarks"] if b.get("run_type") == "iteration"]
    seconds = [b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}[b["time_unit"]] for b in runs]
    return statistics.median(seconds), seconds, report.get("context", {})


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else "build-cpu/bin/orrery_bench"
    py, py_rounds = python_step_seconds()
    cpp, cpp_rounds, context = cpp_step_seconds(bench)
    print(json.dumps({
        "benchmark": "python_step_overhead",
        "system": "figure-eight (3 bodies), leapfrog, direct CPU engine, 1 thread",
        "orrery_version": orrery.__version__,
        "git_hash": context.get("git_hash"),
        "cpu": context.get("cpu_model", platform.processor()),
        "python": platform.python_version(),
        "python_step_ns": py * 1e9,
        "cpp_step_ns": cpp * 1e9,
        "overhead_ns": (py - cpp) * 1e9,
        "python_rounds_ns": [s * 1e9 for s in py_rounds],
        "cpp_rounds_ns": [s * 1e9 for s in cpp_rounds],
    }, indent=2))


if __name__ == "__main__":
    main()
