# SPDX-License-Identifier: MIT
# orrery.ensemble: the runs `orrery ensemble` makes for the same parameters, as numpy arrays;
# refused parameters raise ValueError with the CLI's message.
import numpy as np
import pytest

import orrery

SMALL = dict(problem="henon-heiles", energy=0.125, plane="y:py", resolution=10,
             integrator="leapfrog,rk4", steps=500, samples=5, backend="cpu")


def test_starts_lie_on_the_section_at_the_energy():
    r = orrery.ensemble(**SMALL)
    s = r["start_state"]
    x, y, px, py = s.T
    energy = 0.5 * (px**2 + py**2) + 0.5 * (x**2 + y**2) + x**2 * y - y**3 / 3
    assert s.shape[1] == 4 and 10 < s.shape[0] < 100
    assert np.all(x == 0) and np.all(px >= 0)
    assert np.allclose(energy, 0.125, rtol=0, atol=1e-15)
    assert r["grid_index"].shape == (s.shape[0],)


def test_each_integrator_has_its_run_and_symplectic_error_is_smaller():
    r = orrery.ensemble(**SMALL)
    assert set(r["runs"]) == {"leapfrog-fp64", "rk4-fp64"}
    lf, rk = r["runs"]["leapfrog-fp64"], r["runs"]["rk4-fp64"]
    assert lf["final_state"].shape == r["start_state"].shape
    assert lf["energy_error_median"].shape == (5,)
    assert np.all(lf["energy_error_max"] >= np.abs(lf["energy_error_final"]))
    assert lf["sample_time"][-1] == pytest.approx(500 * 0.01)


def test_lorenz_sweep_returns_the_swept_parameter():
    r = orrery.ensemble(problem="lorenz", sweep="rho=0:21", n=16, integrator="rk4", dt=0.001,
                        t_end=0.5, backend="cpu")
    # rho_i = 21 i / 15, as numpy's linspace up to its rounding of the step
    assert np.allclose(r["parameters"][:, 1], np.linspace(0, 21, 16), rtol=0, atol=1e-14)
    assert r["parameters"][0, 1] == 0 and r["parameters"][-1, 1] == 21
    assert "energy_error_final" not in r["runs"]["rk4-fp64"]


def test_refused_parameters_raise_value_error():
    with pytest.raises(ValueError, match="--integrator|integrator"):
        orrery.ensemble(problem="lorenz", integrator="leapfrog", sweep="rho=0:1", n=4)
    with pytest.raises(TypeError):
        orrery.ensemble(bogus=1)


def test_a_tolerance_gives_each_trajectory_its_steps():
    r = orrery.ensemble(problem="lorenz", sweep="rho=0:21", n=40, integrator="tsit5", dt=0.001,
                        t_end=1, tolerance=1e-8, backend="cpu")
    run = r["runs"]["tsit5-fp64"]
    assert run["steps_accepted"].shape == (40,) and run["steps_accepted"].dtype == np.uint32
    assert run["status"].dtype == np.uint8 and np.all(run["status"] == 0)
    assert run["failed"] == 0
    assert run["steps_min"] <= run["steps_median"] <= run["steps_max"]
    assert run["steps_min"] == run["steps_accepted"].min()
    with pytest.raises(ValueError, match="tolerance"):
        orrery.ensemble(problem="lorenz", sweep="rho=0:21", n=4, integrator="rk4",
                        tolerance=1e-8, backend="cpu")


def test_polynomial_potential_follows_the_built_in_henon_heiles():
    # the same start for the words the plane leaves (the polynomial's default is the origin)
    same = dict(SMALL, state="0,-0.25,0.42081,0")
    builtin = orrery.ensemble(**same)
    text = orrery.ensemble(**dict(same, problem="polynomial",
                                  potential="0.5*(x^2+y^2) + x^2*y - y^3/3"))
    assert np.allclose(text["start_state"], builtin["start_state"], rtol=0, atol=1e-15)
    for run in ("leapfrog-fp64", "rk4-fp64"):
        assert np.allclose(text["runs"][run]["final_state"], builtin["runs"][run]["final_state"],
                           rtol=0, atol=1e-12)


def test_bad_potential_raises_value_error_pointing_at_the_character():
    with pytest.raises(ValueError, match=r"potential.*column 9") as e:
        orrery.ensemble(problem="polynomial", potential="x^2 + y^^2", backend="cpu")
    assert "x^2 + y^^2\n          ^" in str(e.value)


def test_a_section_returns_each_trajectorys_crossings():
    # The separable oscillator V = (x^2 + y^2)/2: the crossings of x = 0 upwards lie on the
    # circle y^2 + py^2 = 2 E_y of their start, 2 pi apart.
    r = orrery.ensemble(problem="polynomial", potential="0.5*(x^2+y^2)", starts="random", n=8,
                        energy=0.1, plane="y:py", state="-0.2,0,0,0", integrator="rk4",
                        dt=0.01, steps=4000, section="x=0", max_crossings=4, backend="cpu")
    run = r["runs"]["rk4-fp64"]
    pts, t, count = run["section_points"], run["section_time"], run["section_count"]
    assert pts.shape == (8, 4, 4) and t.shape == (8, 4) and count.shape == (8,)
    assert np.all(count >= 6)  # t = 40 holds six or seven crossings: beyond the 4 kept
    assert run["crossings_beyond"] == int(np.sum(count - 4))
    y0, py0 = r["start_state"][:, 1], r["start_state"][:, 3]
    assert np.all(pts[:, :, 0] == 0) and np.all(pts[:, :, 2] > 0)
    assert np.allclose(pts[:, :, 1]**2 + pts[:, :, 3]**2, (y0**2 + py0**2)[:, None], atol=1e-8)
    assert np.allclose(np.diff(t, axis=1), 2 * np.pi, atol=1e-8)


def test_three_body_grid_of_the_maps_plane_keeps_the_canonical_system():
    # planet 1's (x, y) over the map's window; every other word and G m from the map's system
    r = orrery.ensemble(problem="three-body", plane="x1:y1", x1_range=(-20, 20),
                        y1_range=(-20, 20), resolution=4, integrator="leapfrog", dt=0.001,
                        steps=300, samples=3, backend="cpu")
    s = r["start_state"]
    assert s.shape == (16, 18)
    assert np.array_equal(s[:4, 0], -20 + 40 * np.arange(4) / 4)
    assert np.all(s[:, 2] == -11) and np.all(s[:, 15] == 3)
    assert np.array_equal(r["parameters"][0], [98.0, 196.0, 294.0])
    run = r["runs"]["leapfrog-fp64"]
    assert run["final_state"].shape == (16, 18)
    assert np.all(np.isfinite(run["energy_error_final"]))
    with pytest.raises(ValueError, match="--energy|energy"):
        orrery.ensemble(problem="three-body", plane="x1:y1", x1_range=(-1, 1),
                        y1_range=(-1, 1), energy=-50, backend="cpu")
