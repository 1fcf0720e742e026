# SPDX-License-Identifier: MIT
# orrery.chaos and orrery.section: the runs `orrery chaos` and `orrery section` make for the same
# parameters, as numpy arrays; the indicators against what theory fixes (MEGNO -> 2 on a torus,
# ~lambda t / 2 on the chaotic orbit; GALI_1 = 1; mirrored starts leave by mirrored exits);
# section crossings on the plane and at the orbit's energy; Ctrl-C; refusals.
import os
import re
import signal
import threading
import time

import numpy as np
import pytest

import orrery

# Skokos & Gerlach's chaotic orbit C and a torus of the large island (tests/cli/chaos_cli_test.cpp).
CHAOTIC = [0.0, -0.25, 0.42081, 0.0]
REGULAR = [0.0, 0.15, 0.47932, 0.0]


def hh_energy(s):
    x, y, px, py = s[..., 0], s[..., 1], s[..., 2], s[..., 3]
    return 0.5 * (px**2 + py**2) + 0.5 * (x**2 + y**2) + x**2 * y - y**3 / 3


def test_megno_of_chosen_starts_tends_to_two_on_a_torus_and_grows_on_the_chaotic_orbit():
    r = orrery.chaos(problem="henon-heiles", starts=np.array([CHAOTIC, REGULAR]),
                     indicator="megno", dt=0.01, t_end=2000, threshold=4, samples=8,
                     backend="cpu")
    megno = r["indicator"]
    assert megno.shape == (2,)
    # <Y> ~ lambda t / 2 with lambda ~ 0.05 on the chaotic orbit; within 0.2 of 2 on the torus at
    # t = 2000 (its oscillation decays like 1/t).
    assert megno[0] > 10
    assert abs(megno[1] - 2) < 0.2
    assert r["chaotic_fraction"] == 0.5 and r["threshold"] == 4
    assert r["values"].shape == (8, 5, 2)  # lyapunov, fli, megno, exit, escape_time
    assert np.array_equal(r["values"][-1, 2], megno)
    assert r["sample_time"][-1] == pytest.approx(2000)
    assert np.array_equal(r["start_state"], np.array([CHAOTIC, REGULAR]))
    assert r["final_state"].shape == (2, 4)
    # The energy the yoshida4 run keeps, to its error at h = 0.01.
    assert np.allclose(hh_energy(r["final_state"]), hh_energy(r["start_state"]), atol=1e-7)


def test_a_grid_gives_the_values_the_command_line_prints(cli):
    common = ["--energy", "0.125", "--resolution", "12", "--indicator", "sali", "--t-end", "300",
              "--samples", "3", "--backend", "cpu"]
    done = cli("chaos", *common, "--data", "s.h5")
    m = re.search(r"chaotic \(sali < 1e-08\): ([0-9.]+)% of (\d+) starts", done.stdout)
    assert m, done.stdout
    r = orrery.chaos(energy=0.125, resolution=12, indicator="sali", t_end=300, samples=3,
                     backend="cpu")
    assert r["indicator"].shape == (int(m.group(2)),)
    assert f"{100 * r['chaotic_fraction']:.2f}" == m.group(1)
    assert r["grid_index"].shape == r["indicator"].shape
    assert np.all(r["values"][-1, 0] == r["indicator"])


def test_gali_keeps_every_volume_and_returns_the_one_asked_for():
    r = orrery.chaos(energy=0.125, resolution=6, indicator="gali", gali_k=4, t_end=100,
                     samples=2, backend="cpu")
    v = r["values"]
    assert v.shape[:2] == (2, 4)
    assert np.allclose(v[:, 0], 1.0, rtol=0, atol=1e-15)  # one unit vector's volume, to ulps
    assert np.array_equal(r["indicator"], v[-1, 3])
    # Volumes of unit vectors only shrink as vectors are added (to Gram-Schmidt's rounding).
    assert np.all(np.diff(v[-1], axis=0) <= 1e-14)


def test_mirrored_starts_leave_by_mirrored_exits_at_the_same_time():
    rng = np.random.default_rng(3)
    y, py = rng.uniform(-0.4, 0.4, 64), rng.uniform(-0.4, 0.4, 64)
    px2 = 2 * (0.25 - (y**2 / 2 - y**3 / 3)) - py**2
    keep = px2 > 0
    starts = np.stack([np.zeros(keep.sum()), y[keep], np.sqrt(px2[keep]), py[keep]], axis=1)
    mirrored = starts * np.array([-1.0, 1.0, -1.0, 1.0])
    a = orrery.chaos(starts=starts, indicator="escape", t_end=200, samples=1,
                     backend="cpu")
    b = orrery.chaos(starts=mirrored, indicator="escape", t_end=200, samples=1,
                     backend="cpu")
    mirror = np.array([-1, 0, 2, 1])[a["exit"] + 1]  # stayed, up, left <-> right
    assert np.array_equal(b["exit"], mirror)
    assert np.array_equal(a["escape_time"], b["escape_time"], equal_nan=True)
    assert np.array_equal(np.isnan(a["escape_time"]), a["exit"] < 0)
    assert sum(a["escaped"]) == np.count_nonzero(a["exit"] >= 0) > len(starts) // 2


def test_section_crossings_lie_on_the_plane_at_the_orbits_energy():
    s = orrery.section(section="x=0", direction="+", problem="henon-heiles", energy=0.125,
                       resolution=6, integrator="yoshida4", dt=0.01, steps=20000, samples=400,
                       max_crossings=64, backend="cpu")
    n, k, d = s["points"].shape
    assert (d, k) == (4, 64) and s["count"].shape == (n,) and len(s["orbits"]) == n
    total = 0
    for i, xs in enumerate(s["orbits"]):
        assert xs.shape == (min(s["count"][i], k), 4)
        total += len(xs)
        assert np.all(np.abs(xs[:, 0]) <= 1e-12)  # on the plane
        assert np.all(xs[:, 2] > 0)  # upwards
        # At the energy to the integrator's error: the orbit's largest sampled |dE/E| (a peak
        # between samples may exceed it a little) plus the locating RK4 step's O(h^5).
        err = np.abs(hh_energy(xs) - 0.125) / 0.125
        assert np.all(err <= 2 * s["energy_error_max"][i] + 1e-10)
    assert total > 10 * n
    assert np.all(np.isnan(s["time"][s["count"] == 0]))


def test_section_coloured_by_sali_gives_each_orbit_the_chaos_indicator(tmp_path):
    # A torus of the central island and the literature's chaotic orbit at E = 1/8: the section's
    # indicator is orrery.chaos's value for the same start, integrator, step and time.
    starts = tmp_path / "starts.csv"
    starts.write_text("x,y,px,py\n0,0.15,0.47932,0\n0,-0.25,0.42081,0\n")
    common = dict(problem="henon-heiles", starts=str(starts), integrator="yoshida4", dt=0.01,
                  t_end=1000, backend="cpu")
    s = orrery.section(colour_by="sali", max_crossings=100, **common)
    assert s["indicator_name"] == "sali" and s["indicator"].shape == (2,)
    assert s["indicator"][0] > 1e-4 and s["indicator"][1] < 1e-8
    c = orrery.chaos(indicator="sali", **common)
    assert np.array_equal(c["indicator"], s["indicator"])
    with pytest.raises(TypeError, match="colour_by"):
        orrery.section(section_colour_by="sali", **common)


def test_sigint_stops_a_long_chaos_run():
    # InterruptPoll is asked between blocks, at most every 250 ms (the progress interval); a block
    # of 8 orbits of 10^4 steps takes a few ms: the KeyboardInterrupt comes within half a second.
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            orrery.chaos(energy=0.125, resolution=400, indicator="megno", t_end=100, threads=1,
                         backend="cpu")
    finally:
        timer.cancel()
    assert time.monotonic() - start - 0.3 < 0.5


def test_refused_parameters_raise_value_error():
    with pytest.raises(ValueError, match="gali_k"):
        orrery.chaos(indicator="gali", gali_k=5, resolution=4, steps=100)
    with pytest.raises(ValueError, match="indicator"):
        orrery.chaos(indicator="entropy", resolution=4, steps=100)
    with pytest.raises(ValueError, match="starts"):
        orrery.chaos(starts=np.zeros((3, 5)), steps=100)
    with pytest.raises(TypeError):
        orrery.chaos(bogus=1)
    with pytest.raises(ValueError, match="integrator"):
        orrery.section(integrator="leapfrog,rk4", resolution=4, steps=100)


def test_exact_is_a_flag_and_numbers_are_not_flags():
    # On the CPU the pair factor is always exact: the flag changes nothing there.
    kw = dict(problem="henon-heiles", starts=np.array([CHAOTIC, REGULAR]), indicator="megno",
              steps=200, samples=1, backend="cpu")
    assert np.array_equal(orrery.chaos(exact=True, **kw)["values"],
                          orrery.chaos(**kw)["values"], equal_nan=True)  # escape outputs: NaN
    with pytest.raises(TypeError, match="exact: expected bool"):
        orrery.chaos(exact=1, **kw)
    with pytest.raises(TypeError, match="every: expected int"):
        orrery.chaos(every=True, **kw)
