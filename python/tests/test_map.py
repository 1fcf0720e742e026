# SPDX-License-Identifier: MIT
# orrery.divergence_map: the counts `orrery map` computes for the same parameters, returned
# without a copy; refused parameters raise ValueError with the CLI's message.
import tracemalloc

import numpy as np
import pytest

import orrery

# A small map that still has structure: every pixel diverges within a few hundred steps or not.
SMALL = dict(width=24, height=16, steps=400, dt=0.002, integrator="rk4", plane="xz",
             masses=(10, 20, 25), window=(-12.0, 8.0, -6.0, 9.0), shift=0.01)
CLI_FLAGS = ["--width", 24, "--height", 16, "--steps", 400, "--dt", 0.002, "--integrator", "rk4",
             "--plane", "xz", "--masses", "10,20,25", "--x-range", "-12:8", "--y-range", "-6:9",
             "--shift", 0.01]


def test_map_equals_the_cli_counts_pixel_for_pixel(cli, tmp_path):
    counts = orrery.divergence_map(**SMALL)
    cli("map", *CLI_FLAGS, "--data", "map.h5", "--quiet")
    stored = orrery.load_map(str(tmp_path / "map.h5"))
    assert counts.dtype == np.int32
    assert counts.shape == (16, 24)
    assert np.array_equal(counts, stored)
    # The map is not trivial: some pixels diverge and some do not, so equality says something.
    assert counts.min() < 400 and counts.max() == 400


def test_map_writes_the_files_the_cli_writes(tmp_path):
    counts = orrery.divergence_map(**SMALL, out=str(tmp_path / "m.png"),
                                   data=str(tmp_path / "m.h5"))
    assert (tmp_path / "m.png").stat().st_size > 0
    assert np.array_equal(orrery.load_map(str(tmp_path / "m.h5")), counts)


# A copy of a 1024² int32 map would be 4 MiB; numpy reports its allocations to tracemalloc.
NO_COPY_BYTES = 1 << 20


def test_a_large_map_is_returned_without_a_copy():
    orrery.divergence_map(resolution=2, steps=1)  # pybind11 imports numpy's API on first use
    tracemalloc.start()
    try:
        counts = orrery.divergence_map(resolution=1024, steps=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert counts.shape == (1024, 1024)
    assert peak < NO_COPY_BYTES
    assert not counts.flags.owndata
    assert type(counts.base).__name__ == "PyCapsule"
    assert counts.flags.writeable


def test_refused_parameters_raise_value_error_with_the_cli_message(cli):
    for keyword, value, flag, text in [("steps", -1, "--steps", "-1"),
                                       ("x_range", (5, 1), "--x-range", "5:1"),
                                       ("integrator", "rk5", "--integrator", "rk5")]:
        with pytest.raises(ValueError) as refused:
            orrery.divergence_map(**{keyword: value})
        said = cli("map", flag, text, check=False).stderr.strip()
        assert said.startswith(f"orrery map: {flag}: ")
        assert str(refused.value) == keyword + ": " + said[len(f"orrery map: {flag}: "):]


def test_wrong_keywords_and_types_raise_type_error():
    with pytest.raises(TypeError, match="resolutoin"):
        orrery.divergence_map(resolutoin=10)
    with pytest.raises(TypeError, match="steps"):
        orrery.divergence_map(steps=1.5)
    with pytest.raises(ValueError, match="width"):
        orrery.divergence_map(resolution=10, width=10)


def test_help_names_every_parameter():
    doc = orrery.divergence_map.__doc__
    for keyword in ("window", "resolution", "steps", "dt", "shift", "plane", "masses",
                    "integrator", "backend", "devices", "precision", "Example"):
        assert keyword in doc


def test_zoom_frames_shrink_geometrically_around_the_centre():
    frames = list(orrery.zoom(center=(1.0, -2.0), from_width=8.0, to_width=0.5, frames=3,
                              width=8, height=4, steps=20))
    widths = [w[1] - w[0] for w, _ in frames]
    assert widths == pytest.approx([8.0, 2.0, 0.5], rel=1e-15)
    for (x0, x1, y0, y1), counts in frames:
        assert (x0 + x1) / 2 == pytest.approx(1.0) and (y0 + y1) / 2 == pytest.approx(-2.0)
        assert (y1 - y0) == pytest.approx((x1 - x0) / 2)
        assert counts.shape == (4, 8)
    window, counts = frames[1]
    assert np.array_equal(counts, orrery.divergence_map(window=window, width=8, height=4,
                                                        steps=20))
