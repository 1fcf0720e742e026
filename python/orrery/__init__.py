# SPDX-License-Identifier: MIT
"""orrery: gravitational and Hamiltonian dynamics from Python.

Divergence maps of the three-body problem (divergence_map, zoom), ensembles of small systems
(ensemble: Hénon–Heiles, Lorenz), their indicators of chaos and Poincaré sections (chaos,
section) and N-body simulation (Simulation, forces, load), computed by the same jobs as the
`orrery` command line, with numpy arrays that are not copied. help(orrery.divergence_map) and
help(orrery.Simulation) say more.
"""

from . import _orrery
from typing import Any

from ._orrery import (Collision, Encounter, Escape, Simulation, __version__, chaos,
                      divergence_map, ensemble, forces, load, load_map, zoom_width)

__all__ = ["Collision", "Encounter", "Escape", "Simulation", "chaos", "divergence_map",
           "ensemble", "forces", "load", "load_map", "section", "zoom", "zoom_width",
           "__version__"]


def section(section: str = "x=0", direction: str = "up", colour_by: str = "orbit",
            **parameters: Any) -> dict[str, Any]:
    """Poincaré surfaces of section, as `orrery section` computes them: the crossings of the
    plane `section` ("NAME=VALUE", a state word through a value) in `direction` ("up", "down",
    "both"; "+" and "-" for the first two) of every orbit of an ensemble, located by Hénon's
    trick to the integrator's accuracy. A thin face over orrery.ensemble(section=...): every
    other keyword as ensemble takes it (problem, energy, plane, resolution or starts, integrator
    -- one --, dt, steps or t_end, max_crossings, backend, threads, out, section_plot, ...).
    `colour_by` ("orbit", "sali", "megno", "lyapunov", "fli") colours section_plot's crossings
    by each orbit's indicator of chaos, computed as orrery.chaos computes it with this run's
    integrator, step and time.

    Returns a dict: points [N, K, D] and time [N, K] (the first K = max_crossings crossings of
    each orbit, NaN past its count), count [N] (every crossing, those beyond K included),
    orbits (a list of N arrays [count_i, D]: each orbit's kept crossings), start_state [N, D],
    energy_error_max [N] (each orbit's largest |dE/E| over the run's samples, for a problem with
    an energy), and the run's integrator, backend and seconds; with `colour_by` an indicator,
    indicator [N] (each orbit's value at the end of the run) and indicator_name.

        s = orrery.section(problem="henon-heiles", energy=0.125, starts="random", n=64,
                           t_end=2000, max_crossings=400)
        for xs in s["orbits"]: plt.plot(xs[:, 1], xs[:, 3], ",")
    """
    direction = {"+": "up", "-": "down"}.get(direction, direction)
    for bad, own in (("section_direction", "direction"), ("section_colour_by", "colour_by")):
        if bad in parameters:
            raise TypeError(f"section() got an unexpected keyword argument '{bad}' ({own})")
    r = ensemble(section=section, section_direction=direction, section_colour_by=colour_by,
                 **parameters)
    if len(r["runs"]) != 1:
        raise ValueError(f"integrator/precision: one pair for a section, not {list(r['runs'])}")
    name, run = next(iter(r["runs"].items()))
    count = run["section_count"]
    points = run["section_points"]
    kept = [points[i, :min(int(c), points.shape[1])] for i, c in enumerate(count)]
    out = {"points": points, "time": run["section_time"], "count": count, "orbits": kept,
           "start_state": r["start_state"], "integrator": name, "backend": run["backend"],
           "seconds": run["seconds"], "description": r["description"]}
    if "energy_error_max" in run:
        out["energy_error_max"] = run["energy_error_max"]
    if "grid_index" in r:
        out["grid_index"] = r["grid_index"]
    if "section_indicator" in r:
        out["indicator"] = r["section_indicator"]
        out["indicator_name"] = r["section_indicator_name"]
    return out


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
