# SPDX-License-Identifier: MIT
"""orrery: gravitational and Hamiltonian dynamics from Python.

Divergence maps of the three-body problem (divergence_map, zoom), ensembles of small systems
(ensemble: Hénon–Heiles, Lorenz) and N-body simulation (Simulation, forces, load), computed by the same jobs as the `orrery` command line, with numpy
arrays that are not copied. help(orrery.divergence_map) and help(orrery.Simulation) say more.
"""

from . import _orrery
from ._orrery import (Simulation, __version__, divergence_map, ensemble, forces, load, load_map,
                      zoom_width)

__all__ = ["Simulation", "divergence_map", "ensemble", "forces", "load", "load_map", "zoom",
           "zoom_width", "__version__"]


def zoom(**parameters):
    """Yield (window, counts) for each frame of a zoom into the divergence map, as `orrery zoom`
    computes its frames.

    The windows are centred on `center` = (x, y) and their widths shrink (or grow) geometrically
    from `from_width` to `to_width` over `frames` frames, W_k = W0 (W1/W0)^(k/(K-1))
    (zoom_width); each is W_k wide and W_k * height / width high, so pixels stay square;
    `scale_shift=True` shrinks the twin's shift with the window; `steps_to=S1` makes the steps
    grow from `steps` at the first frame to S1 at the last (`steps_growth="linear"`, as
    published, or "geometric"). window is (x0, x1, y0, y1);
    counts is the map of that window, every other keyword as divergence_map takes it
    (resolution, steps, integrator, ...). Defaults: the published zoom's centre
    (5.30031, -0.45), widths 40 to 0.04, 120 frames. Frames are computed as they are asked for:

        for window, counts in orrery.zoom(frames=30, resolution=256, steps=5000):
            ...
    """
    frames = parameters.get("frames", _orrery._zoom_default_frames)
    if not isinstance(frames, int) or frames < 1:
        _orrery._zoom_frame(0, **parameters)  # refuses them with the CLI's message
    for k in range(frames):
        yield _orrery._zoom_frame(k, **parameters)
