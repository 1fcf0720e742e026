#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A zoom into the divergence map: six frames whose windows shrink geometrically around one point.

    PYTHONPATH=build/python python3 examples/python/zoom.py [picture.png]
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
CENTER = (-5.1, 0.5)  # on the left arc of the map, where its structure goes on at every scale

fig, axes = plt.subplots(2, 3, figsize=(10, 6.8))
frames = orrery.zoom(center=CENTER, from_width=40.0, to_width=0.5, frames=6, resolution=200,
                     steps=STEPS)
for ax, (window, counts) in zip(axes.flat, frames):
    ax.imshow(STEPS - counts, origin="lower", extent=window, cmap="inferno",
              vmin=0, vmax=STEPS)  # one colour scale for every frame
    ax.set_title(f"width {window[1] - window[0]:.3g}")
    ax.tick_params(labelsize=7)
fig.suptitle(f"Zoom towards ({CENTER[0]}, {CENTER[1]}), {STEPS} steps")
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "zoom.png", dpi=100)
