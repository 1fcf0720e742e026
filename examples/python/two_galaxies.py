#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two colliding disk galaxies: the bodies at four times and the relative energy drift of the run.

    PYTHONPATH=build/python python3 examples/python/two_galaxies.py [picture.png]
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

sim = orrery.Simulation.scene("two-galaxies", n=400, units="nbody", integrator="leapfrog")
sim.dt = sim.dt / 4  # the scene's step lets close passes by the central bodies cost 1e-2 in E
e0 = sim.energy()
end = sim.t_end
times, drift, shots = [0.0], [0.0], [(0.0, sim.position.copy())]
for k in range(1, 201):
    sim.integrate(end * k / 200)
    times.append(sim.time)
    drift.append(abs(sim.energy() - e0) / abs(e0))
    if k in (67, 134, 200):
        shots.append((sim.time, sim.position.copy()))

fig = plt.figure(figsize=(11, 6))
for i, (t, x) in enumerate(shots):
    ax = fig.add_subplot(2, 4, i + 1)
    ax.scatter(x[:, 0], x[:, 1], s=0.5, c=np.arange(len(x)) < len(x) // 2, cmap="coolwarm")
    ax.set_aspect("equal")
    ax.set_title(f"t = {t:.3g}", fontsize=9)
    ax.tick_params(labelsize=7)
ax = fig.add_subplot(2, 1, 2)
ax.semilogy(times[1:], drift[1:])
ax.set_xlabel("time (N-body units)")
ax.set_ylabel("|E − E0| / |E0|")
ax.set_title(f"Energy drift: leapfrog, dt = {sim.dt:.3g}, {len(sim)} bodies, direct forces")
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "two-galaxies.png", dpi=100)
