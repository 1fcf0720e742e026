# SPDX-License-Identifier: MIT
"""orrery: gravitational and Hamiltonian dynamics from Python.

Divergence maps of the three-body problem (divergence_map, zoom) and N-body simulation
(Simulation, forces, load), computed by the same jobs as the `orrery` command line, with numpy
arrays that are not copied. help(orrery.divergence_map) and help(orrery.Simulation) say more.
"""

from ._orrery import Simulation, __version__, divergence_map, forces, load, load_map

__all__ = ["Simulation", "divergence_map", "forces", "load", "load_map", "zoom", "zoom_width",
           "__version__"]


def zoom_width(from_width, to_width, frames, k):
    """The window width of frame k: from_width for k = 0, to_width for k = frames - 1 (exactly),
    geometric between: W_k = W0 * (W1/W0)**(k/(K-1))."""
    if k == frames - 1:
        return float(to_width)
    if frames == 1 or k == 0:
        return float(from_width)
    return from_width * (to_width / from_width) ** (k / (frames - 1))


def zoom(center=(5.30031, -0.45), from_width=40.0, to_width=0.04, frames=120, **parameters):
    """Yield (window, counts) for each frame of a zoom into the divergence map.

    The windows are centred on `center` and their widths shrink (or grow) geometrically from
    `from_width` to `to_width` over `frames` frames (zoom_width); each window is W_k wide and
    W_k * height / width high, so pixels stay square. window is (x0, x1, y0, y1); counts is
    divergence_map(window=window, **parameters) for that window, every other keyword as
    divergence_map takes it (resolution, steps, integrator, ...). Frames are computed as they
    are asked for:

        for window, counts in orrery.zoom(frames=30, resolution=256, steps=5000):
            ...
    """
    if not isinstance(frames, int) or isinstance(frames, bool) or frames < 1:
        raise ValueError(f"frames: {frames!r} is not accepted (expected an integer >= 1)")
    for name, w in (("from_width", from_width), ("to_width", to_width)):
        if not (w > 0 and w != float("inf")):
            raise ValueError(f"{name}: {w!r} is not accepted (expected a finite width > 0)")
    if "window" in parameters or "x_range" in parameters or "y_range" in parameters:
        raise TypeError("zoom() sets each frame's window itself: no window, x_range or y_range")
    width = parameters.get("width", parameters.get("resolution", 1000))
    height = parameters.get("height", parameters.get("resolution", 1000))
    cx, cy = center
    for k in range(frames):
        w = zoom_width(from_width, to_width, frames, k)
        h = w * height / width
        window = (cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2)
        yield window, divergence_map(window=window, **parameters)
