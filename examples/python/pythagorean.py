#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Burrau's Pythagorean three-body problem integrated with IAS15 to t = 70, drawn as orbits.

    PYTHONPATH=build/python python3 examples/python/pythagorean.py [picture.png]
"""
import sys

try:
    import matplotlib
except ModuleNotFoundError:
    sys.exit(f"{__file__}: this example draws with matplotlib, which {sys.executable} lacks "
             "(Debian: apt install python3-matplotlib, as scripts/setup --python does)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import orrery

sim = orrery.Simulation.scene("pythagorean", integrator="ias15", tolerance=1e-9)
path = [sim.position.copy()]
for t in np.linspace(0.0, 70.0, 7001)[1:]:
    sim.integrate(t)
    path.append(sim.position.copy())
path = np.array(path)  # [time, body, xyz]

fig, ax = plt.subplots(figsize=(6.5, 6.5))
for body, (mass, colour) in enumerate(zip(sim.mass, ("tab:red", "tab:green", "tab:blue"))):
    ax.plot(path[:, body, 0], path[:, body, 1], lw=0.6, color=colour, label=f"m = {mass:g}")
    ax.plot(*path[0, body, :2], "o", color=colour)
ax.set_aspect("equal")
ax.set_xlim(-5, 5)
ax.set_ylim(-6, 6)
ax.legend(loc="upper right")
drift = sim.diagnostics()["drift_energy"]
ax.set_title(f"Pythagorean problem to t = 70 (IAS15, energy drift {drift:.1e})")
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "pythagorean.png", dpi=110)
