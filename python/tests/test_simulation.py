# SPDX-License-Identifier: MIT
# orrery.Simulation: the same steps as `orrery sim`, physics that holds (the figure-eight closes,
# a Kepler orbit returns), the state as views of the simulation's memory, and errors as the
# CLI's.
import gc

import numpy as np
import pytest

import orrery

PERIOD = 6.32591398  # the figure-eight's (Simó's data), as the scene says
# The figure-eight's published 8-digit data return to within 4.1e-8 after one period (measured in
# tests/integrate/figure_eight_test.cpp); RK4 at 1600 steps adds about 1.3e-9.
FIGURE_EIGHT_RETURN = 1e-7


def test_the_figure_eight_closes_as_the_cli_run_does(cli, tmp_path):
    dt = PERIOD / 1600
    sim = orrery.Simulation.scene("figure-eight", integrator="rk4", dt=dt)
    start = sim.position.copy()
    assert sim.t_end == PERIOD
    sim.integrate(sim.t_end)
    assert sim.time == PERIOD
    assert np.max(np.abs(sim.position - start)) < FIGURE_EIGHT_RETURN
    cli("sim", "--scene", "figure-eight", "--integrator", "rk4", "--dt", repr(dt), "--out", "run",
        "--every", 1600, "--quiet")
    last = orrery.load(str(tmp_path / "run"))[-1]
    assert last["time"] == sim.time
    assert np.array_equal(last["position"], sim.position)  # bit for bit
    assert np.array_equal(last["velocity"], sim.velocity)


# Leapfrog is symplectic: over one orbit of e = 0.5 at 2000 steps its energy error stays at
# (h/T)^2 times a constant of order one.
KEPLER_ENERGY = 1e-5
KEPLER_RETURN = 1e-3  # leapfrog's phase error after one orbit at this step


def test_arrays_added_at_once_make_a_kepler_orbit_that_returns():
    # A test body on an orbit of a = 1, e = 0.5 about a unit mass: at pericentre r = a(1 - e),
    # v = sqrt(G M (1 + e) / (a (1 - e))); the period is 2 pi sqrt(a^3 / (G M)).
    e, m = 0.5, 1.0
    sim = orrery.Simulation(G=1.0, dt=2 * np.pi / 2000)
    sim.add(mass=[m, 1e-12], position=[[0, 0, 0], [1 - e, 0, 0]],
            velocity=[[0, 0, 0], [0, np.sqrt((1 + e) / (1 - e)), 0]])
    assert len(sim) == 2
    start = sim.position.copy()
    e0 = sim.energy()
    assert e0 == pytest.approx(-1e-12 / 2, rel=1e-9)  # E = -G M m / (2a)
    sim.integrate(2 * np.pi)
    assert abs(sim.energy() - e0) / abs(e0) < KEPLER_ENERGY
    assert np.max(np.abs(sim.position - start)) < KEPLER_RETURN


def test_the_particle_arrays_are_views_and_writing_them_changes_the_next_step():
    # Adams-Bashforth keeps the accelerations of earlier steps: a write must restart it, as an
    # assignment does, or the next steps mix the old history into the new state.
    def make():
        sim = orrery.Simulation.scene("figure-eight", integrator="ab4")
        sim.step(8)
        return sim
    view = make()
    x = view.position
    assert x.shape == (3, 3) and x.dtype == np.float64 and not x.flags.owndata
    assert type(x.base).__name__ == "PyCapsule"
    x[2, 0] += 0.01  # written through the view
    assigned = make()
    moved = assigned.position.copy()
    moved[2, 0] += 0.01
    assigned.position = moved  # written through the setter
    untouched = make()
    for s in (view, assigned, untouched):
        s.step(5)
    assert np.array_equal(view.position, assigned.position)
    assert not np.array_equal(view.position, untouched.position)
    assert np.array_equal(x, view.position)  # the view follows the steps


def test_a_mass_written_through_its_view_is_the_mass_the_engine_uses():
    sim = orrery.Simulation.scene("figure-eight")
    sim.mass[1] = 3.0
    x, v, m = sim.position, sim.velocity, sim.mass
    kinetic = 0.5 * np.sum(m * np.sum(v * v, axis=1))
    potential = -sum(m[i] * m[j] / np.linalg.norm(x[i] - x[j])
                     for i in range(3) for j in range(i + 1, 3))
    assert sim.energy() == pytest.approx(kinetic + potential, rel=1e-14)


def test_a_view_keeps_the_simulation_alive():
    sim = orrery.Simulation.scene("plummer", n=64, seed=3)
    x, v, m = sim.position, sim.velocity, sim.mass
    before = x.copy()
    del sim
    gc.collect()
    assert np.array_equal(x, before)
    assert v.shape == (64, 3) and m.shape == (64,)
    x[:] = 0.0  # still writable memory, owned by the capsule


def test_fp32_views_are_float32_and_fp128_gives_read_only_copies():
    single = orrery.Simulation.scene("figure-eight", precision="fp32")
    assert single.position.dtype == np.float32 and not single.position.flags.owndata
    quad = orrery.Simulation.scene("figure-eight", precision="fp128")
    assert quad.position.dtype == np.float64 and not quad.position.flags.writeable


def test_settings_are_properties_checked_as_the_cli_checks_them(cli):
    sim = orrery.Simulation.scene("plummer", n=32, seed=1)
    assert (sim.engine, sim.integrator, sim.backend, sim.precision) == (
        "direct", "leapfrog", "cpu", "fp64")
    sim.integrator = "dopri5"
    sim.tolerance = 1e-8
    sim.dt = 1e-3
    assert (sim.integrator, sim.tolerance, sim.dt) == ("dopri5", 1e-8, 1e-3)
    sim.step()
    with pytest.raises(ValueError) as refused:
        sim.integrator = "rk5"
    said = cli("sim", "--scene", "plummer", "--integrator", "rk5", check=False).stderr.strip()
    assert str(refused.value) == "integrator: " + said[len("orrery sim: --integrator: "):]
    assert sim.integrator == "dopri5"
    fixed = orrery.Simulation.scene("plummer", n=32, seed=1, integrator="rk4")
    with pytest.raises(ValueError) as refused:
        fixed.tolerance = 1e-8
    said = cli("sim", "--scene", "plummer", "--integrator", "rk4", "--tolerance", "1e-8",
               check=False).stderr.strip()
    assert str(refused.value) == "tolerance: " + said[len("orrery sim: --tolerance: "):]
    with pytest.raises(ValueError, match="n"):
        orrery.Simulation.scene("plummer", n=-4)
    with pytest.raises(ValueError, match="scene plummer takes only"):
        orrery.Simulation.scene("plummer", n=8, t_end=3)


def test_saved_state_loads_as_arrays_and_goes_on(tmp_path):
    sim = orrery.Simulation.scene("plummer", n=16, seed=2)
    sim.step(3)
    path = str(tmp_path / "state.h5")
    sim.save(path)
    snap = orrery.load(path)
    assert np.array_equal(snap["position"], sim.position)
    assert np.array_equal(snap["velocity"], sim.velocity)
    assert np.array_equal(snap["mass"], sim.mass)
    assert snap["time"] == sim.time
    again = orrery.Simulation.load(path)
    assert again.time == sim.time and again.dt == sim.dt
    with pytest.raises(ValueError, match="overwrite"):
        sim.save(path)


def test_forces_of_two_bodies_are_newtons():
    # |a_1| = G m_2 / r^2 toward body 2, phi_1 = -G m_2 / r.
    a, phi = orrery.forces(position=[[0, 0, 0], [2, 0, 0]], mass=[1.0, 3.0], G=2.0)
    assert a[0] == pytest.approx([2 * 3 / 4, 0, 0], rel=1e-15)
    assert a[1] == pytest.approx([-2 * 1 / 4, 0, 0], rel=1e-15)
    assert phi == pytest.approx([-2 * 3 / 2, -2 * 1 / 2], rel=1e-15)
