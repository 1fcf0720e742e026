# SPDX-License-Identifier: MIT
# Collisions, exits and the whole state at orrery.Simulation's face (docs/guide/planetary.md,
# docs/guide/python.md): merges keep mass and momentum, REBOUND's Escape, Encounter and
# Collision exceptions (rebound/tests/test_simulation.py: test_escape, test_encounter), save()
# and load() and copy() continuing bit for bit (IAS15 with its predictor, whfast with its Jacobi
# coordinates), remove(), move_to_com(), integrate(t, heartbeat) and the integrators' settings.
import numpy as np
import pytest

import orrery

# Momentum is kept by the merge to a few ulps (tests/nbody/collisions_test.cpp) and by the
# IAS15 steps around it to their rounding (velocities of a few units).
MOMENTUM_KEPT = 1e-12


def head_on(collisions="merge", integrator="ias15"):
    sim = orrery.Simulation(integrator=integrator, dt=1e-3, collisions=collisions)
    # G (m0 + m1) = 0.75 from 2 apart: they touch at r = 0.1 near t = 3.61.
    sim.add(m=[0.5, 0.25], position=[[-1, 0, 0], [1, 0.01, 0]], r=[0.05, 0.05])
    sim.add(m=1e-3, position=[0, 30, 0], velocity=[0.1, 0, 0])  # no radius: a point
    return sim


def test_a_merge_keeps_mass_and_momentum():
    sim = head_on()
    p0 = (sim.mass[:, None] * sim.velocity).sum(axis=0)
    sim.integrate(4.0)
    assert len(sim) == 2 and sim.merged == 1
    assert sim.mass[0] == 0.75
    assert list(sim.radius) == pytest.approx([0.05 * 2 ** (1 / 3), 0.0])
    p1 = (sim.mass[:, None] * sim.velocity).sum(axis=0)
    assert np.abs(p1 - p0).max() <= MOMENTUM_KEPT
    # The energy the merge took is booked in the total, which stays conserved.
    assert sim.diagnostics()["drift_energy"] < 1e-9  # IAS15's error through the fall


def test_collision_stop_raises_collision():  # REBOUND's default resolve, halt
    sim = head_on("stop")
    with pytest.raises(orrery.Collision, match="bodies 0 and 1 touch"):
        sim.integrate(4.0)
    assert len(sim) == 3 and 3.5 < sim.time < 3.7


def rebound_set_up():  # rebound/tests/test_simulation.py, TestSimulation.setUp
    sim = orrery.Simulation(integrator="ias15", dt=1e-3)
    sim.add(m=1.0, position=[0, 0, 0])
    sim.add(m=1e-3, a=1.0, e=0.01, omega=0.02, M=0.04, inc=0.1)
    return sim


def test_escape():  # test_simulation.py: test_escape
    sim = rebound_set_up()
    sim.exit_max_distance = 0.1
    with pytest.raises(orrery.Escape, match="escape: body 1"):
        sim.integrate(1.0)


def test_encounter():  # test_simulation.py: test_encounter
    sim = rebound_set_up()
    sim.exit_min_distance = 1.0
    with pytest.raises(orrery.Encounter, match="bodies 0 and 1"):
        sim.integrate(1.0)


def planets(integrator, **settings):
    sim = orrery.Simulation(integrator=integrator, dt=0.05, **settings)
    sim.units = ("au", "yr", "msun")
    sim.add(m=1.0, position=[0, 0, 0])
    sim.add(m=9.54e-4, a=5.2, e=0.048)
    sim.add(m=2.86e-4, a=9.58, e=0.056, inc=0.04)
    return sim


def same(a, b):
    return (np.array_equal(a.position, b.position) and np.array_equal(a.velocity, b.velocity)
            and a.time == b.time and a.dt == b.dt)


@pytest.mark.parametrize("integrator,settings", [("ias15", {}), ("whfast", {"corrector": 11}),
                                                 ("leapfrog", {})])
def test_save_load_and_copy_continue_bit_for_bit(tmp_path, integrator, settings):
    sim = planets(integrator, **settings)
    sim.integrate(10.3)
    sim.save(str(tmp_path / "sim.h5"))
    loaded = orrery.Simulation.load(str(tmp_path / "sim.h5"))
    twin = sim.copy()
    assert loaded.integrator == integrator and twin.integrator == integrator
    assert same(sim, loaded) and same(sim, twin)
    for s in (sim, loaded, twin):
        s.integrate(25.0)
    assert same(sim, loaded) and same(sim, twin)
    # Made again from the arrays alone, IAS15 starts its predictor afresh and differs.
    if integrator == "ias15":
        again = planets(integrator)
        again.integrate(10.3)
        fresh = orrery.Simulation(integrator="ias15", dt=again.dt, G=again.G)
        fresh.add(m=again.mass, position=again.position, velocity=again.velocity)
        fresh.integrate(25.0 - 10.3)
        assert not np.array_equal(fresh.position, sim.position)


def test_settings_are_saved(tmp_path):
    sim = planets("ias15", ias15_criterion="global")
    sim.exit_max_distance = 100.0
    sim.save(str(tmp_path / "s.h5"))
    back = orrery.Simulation.load(str(tmp_path / "s.h5"))
    assert back.ias15_criterion == "global" and back.exit_max_distance == 100.0
    assert back.units == "au, yr, msun" and back.G == sim.G
    w = planets("whfast", whfast_safe_mode=True)
    assert w.whfast_safe_mode
    with pytest.raises(ValueError, match="whfast_safe_mode"):
        planets("ias15", whfast_safe_mode=True)
    with pytest.raises(ValueError, match="ias15_criterion"):
        planets("ias15", ias15_criterion="newest")


def test_remove_and_move_to_com():
    sim = planets("leapfrog")
    sim.move_to_com()
    com = (sim.mass[:, None] * sim.position).sum(axis=0) / sim.mass.sum()
    vcom = (sim.mass[:, None] * sim.velocity).sum(axis=0) / sim.mass.sum()
    # Rounding of positions of ~10 au and velocities of ~6 au/yr, summed over three bodies.
    assert np.abs(com).max() < 1e-13 and np.abs(vcom).max() < 1e-13
    m = sim.mass.copy()
    sim.remove(1)
    assert len(sim) == 2 and list(sim.mass) == [m[0], m[2]]
    sim.remove(-1)
    assert len(sim) == 1
    with pytest.raises(ValueError, match="index"):
        sim.remove(3)


def test_heartbeat_is_called_after_every_step():
    sim = planets("leapfrog")
    seen = []
    steps = sim.integrate(1.0, heartbeat=lambda s: seen.append((s.time, s.position[1, 0])))
    assert len(seen) == steps == 20
    assert seen[-1][0] == 1.0 and seen[-1][1] == sim.position[1, 0]

    def stop(s):
        if s.time > 1.5:
            raise KeyError("enough")

    with pytest.raises(KeyError, match="enough"):
        sim.integrate(3.0, heartbeat=stop)
    assert 1.5 < sim.time < 1.6

    def change(s):
        s.dt = 0.1

    with pytest.raises(RuntimeError, match="heartbeat may read"):
        sim.integrate(4.0, heartbeat=change)


# Back to the start: leapfrog and whfast are time-symmetric maps, so they come back to their
# rounding; IAS15 to its accuracy (epsilon_b = 1e-9 over a few orbits).
@pytest.mark.parametrize("integrator,back", [("leapfrog", 1e-12), ("whfast", 1e-11),
                                             ("ias15", 1e-9)])
def test_integrate_backwards(integrator, back):
    sim = planets(integrator)
    x0, v0 = sim.position.copy(), sim.velocity.copy()
    sim.integrate(30.0)
    assert sim.dt > 0
    sim.integrate(0.0)
    assert sim.time == 0.0 and sim.dt < 0
    assert np.abs(sim.position - x0).max() < back * 10
    assert np.abs(sim.velocity - v0).max() < back * 10
    sim.integrate(1.0)
    assert sim.dt > 0 and sim.time == 1.0
