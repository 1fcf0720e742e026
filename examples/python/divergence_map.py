#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The three-body divergence map from Python, drawn with matplotlib.

    PYTHONPATH=build/python python3 examples/python/divergence_map.py [picture.png]
"""
import sys

try:
    import matplotlib
except ModuleNotFoundError:
    sys.exit(f"{__file__}: this example draws with matplotlib, which {sys.executable} lacks "
             "(Debian: apt install python3-matplotlib, as scripts/setup --python does)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import orrery

STEPS = 20000
WINDOW = (-20.0, 20.0, -20.0, 20.0)

counts = orrery.divergence_map(resolution=400, steps=STEPS, window=WINDOW)

fig, ax = plt.subplots(figsize=(6, 5.2))
# Row k holds the k-th smallest y, so origin="lower" puts y upwards.
image = ax.imshow(STEPS - counts, origin="lower", extent=WINDOW, cmap="inferno")
ax.set_xlabel("x of body 1")
ax.set_ylabel("y of body 1")
ax.set_title(f"Divergence map, {STEPS} Euler steps of 0.001")
fig.colorbar(image, ax=ax, label="steps − count (black: never diverged)")
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "divergence-map.png", dpi=110)
