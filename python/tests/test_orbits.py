# SPDX-License-Identifier: MIT
# Orbital elements at orrery.Simulation's face: REBOUND's own tests of sim.add(a=...) and
# sim.orbits() translated (rebound/tests/test_orbital_elements.py, test_particle.py,
# test_simulation.py; each test names the one it translates, with REBOUND's tolerances), bodies
# added by elements several at a time, the primaries, and an orbit integrated for its period.
# REBOUND's test particles are test particles here too (m=0): they feel the bodies and pull none.
import math

import numpy as np
import pytest

import orrery

D = 1e-12  # REBOUND's `d` (abs error tolerance) in test_orbital_elements.py
TIGHT = 1e-15  # REBOUND's delta in test_particle.py and test_simulation.py


def star(G=1.0, m=1.2354):
    sim = orrery.Simulation(G=G, dt=1e-3)
    sim.add(mass=m, position=[0.0, 0.0, 0.0])
    return sim


def test_add_errors():  # test_orbital_elements.py: test_add_errors
    sim = orrery.Simulation()
    with pytest.raises(ValueError, match="primary"):
        sim.add(mass=1e-3, a=1)  # no body to orbit
    sim.add(mass=1.0, position=[0, 0, 0])
    for bad, name in [(dict(a=1, e=1), "e: 1"), (dict(a=1, e=-2), "e: -2"),
                      (dict(a=1, e=1.2), "a: 1 with e = 1.2"), (dict(a=-1, e=0.2), "a: -1"),
                      (dict(a=-1, e=2.2, f=3.0), "f: 3")]:
        with pytest.raises(ValueError, match=name):
            sim.add(mass=1e-3, **bad)
    assert len(sim) == 1


@pytest.mark.parametrize("inc", [0.14, 2.14])  # and test_retrograde_inclined_eccentric
def test_inclined_eccentric(inc):  # test_orbital_elements.py: test_inclined_eccentric
    sim = star()
    places = ["l", "f", "theta", "M", "T"]
    for k in range(10):
        peri = "omega" if k < 5 else "pomega"
        sim.add(m=0, a=1.24 + k, e=0.123, inc=inc, Omega=0.64,
                **{peri: 0.12, places[k % 5]: 0.632})
    o = sim.orbits()
    np.testing.assert_allclose(o["e"], 0.123, rtol=0, atol=D)
    np.testing.assert_allclose(o["inc"], inc, rtol=0, atol=D)
    np.testing.assert_allclose(o["Omega"], 0.64, rtol=0, atol=D)
    np.testing.assert_allclose(o["a"], 1.24 + np.arange(10), rtol=0, atol=D)
    for k in range(10):
        assert abs(o["omega" if k < 5 else "pomega"][k] - 0.12) < D
        assert abs(o[places[k % 5]][k] - 0.632) < D


@pytest.mark.parametrize("inc", [0.0, math.pi])  # and test_retrorade_planar_eccentric
def test_planar_eccentric(inc):  # test_orbital_elements.py: test_planar_eccentric
    sim = star()
    sim.add(m=0, a=1.0, e=0.123, inc=inc)  # REBOUND's dummy: the Jacobi barycentre moves
    places = ["l", "f", "theta", "M", "T"]
    for k in range(10):
        value = 6.32 if k == 9 else 0.632
        sim.add(m=0, a=1.24 + k, e=0.123, inc=inc, Omega=0.0 if k < 5 else 1.25,
                pomega=0.12, **{places[k % 5]: value})
    o = sim.orbits()
    np.testing.assert_allclose(o["e"], 0.123, rtol=0, atol=D)
    np.testing.assert_allclose(o["inc"][1:], inc, rtol=0, atol=D)
    np.testing.assert_allclose(o["pomega"][1:], 0.12, rtol=0, atol=D)
    for k in range(10):
        assert abs(o["a"][k + 1] - (1.24 + k)) < D
        assert abs(o[places[k % 5]][k + 1] - (6.32 if k == 9 else 0.632)) < D


# test_inclined_circular, test_planar_circular, test_retrograde_inclined_circular,
# test_retrograde_planar_circular
@pytest.mark.parametrize("inc,Omega", [(0.14, 0.64), (0.0, 0.0), (2.14, 0.64), (math.pi, 0.0)])
def test_circular(inc, Omega):
    sim = star()
    sim.add(m=0, a=1.0, inc=inc, Omega=Omega)
    sim.add(m=0, a=1.24, inc=inc, Omega=Omega, l=0.632)
    sim.add(m=0, a=2.24, inc=inc, Omega=Omega, theta=0.632)
    o = sim.orbits()
    np.testing.assert_allclose(o["e"], 0.0, rtol=0, atol=D)
    np.testing.assert_allclose(o["inc"], inc, rtol=0, atol=D)
    if Omega:
        np.testing.assert_allclose(o["Omega"], Omega, rtol=0, atol=D)
    assert abs(o["a"][1] - 1.24) < D and abs(o["l"][1] - 0.632) < D
    assert abs(o["a"][2] - 2.24) < D and abs(o["theta"][2] - 0.632) < D


def test_adding_orbits():  # test_particle.py: test_adding_orbits
    sim = star(m=1.0)
    sim.add(m=0, a=1.0)
    refused = [dict(e=0.1), dict(a=1.0, e=0.1, omega=0.1, pomega=0.1),
               dict(a=2.0, e=0.1, f=0.1, M=0.1), dict(a=2.0, e=0.1, f=0.1, l=0.1),
               dict(a=2.0, e=0.1, f=0.1, theta=0.1), dict(a=3.0, e=1.0), dict(a=3.0, e=1.1),
               dict(a=3.0, P=1.1), dict(a=3.0, e=-0.1), dict(a=-3.0, e=0.9),
               dict(a=-3.0, e=1.4, f=3.1)]
    for kw in refused:
        with pytest.raises(ValueError):
            sim.add(m=0, **kw)
    for inc in (0.1, -0.1):
        for place in ("pomega", "theta", "l"):
            sim.add(m=0, a=2.0, e=0.1, inc=inc, **{place: 0.1})
    for extra in ({}, dict(f=0.2), dict(T=0.2), dict(theta=0.2)):
        sim.add(m=0, P=2.0, e=0.1, inc=-2.1, pomega=0.1, **extra)
    sim.add(m=0, a=-3.0, e=1.4)
    sim.add(m=0, a=-3.0, e=1.4, f=0.1)
    assert len(sim) == 14
    o = sim.orbits()
    assert abs(o["P"][7] - 2.0) < D
    assert abs(o["a"][11] + 3.0) < D and o["n"][11] < 0 and o["P"][11] < 0
    assert abs(o["f"][12] - 0.1) < D


def test_sim_orbits():  # test_particle.py: test_sim_orbits
    sim = star(m=1.0)
    sim.add(mass=1e-3, a=1.0, e=0.2, inc=0.3)
    sim.add(mass=1e-3, a=2.0, e=0.2, inc=0.3)
    o = sim.orbits()
    np.testing.assert_allclose(o["a"], [1.0, 2.0], rtol=0, atol=TIGHT)
    np.testing.assert_allclose(o["e"], 0.2, rtol=0, atol=TIGHT)
    np.testing.assert_allclose(o["inc"], 0.3, rtol=0, atol=TIGHT)


def test_orbits_of_a_simulation():  # test_simulation.py: test_orbits (REBOUND's t = 1.246)
    sim = star(m=1.0)
    sim.integrate(1.246)
    sim.add(mass=1e-3, a=1.0, e=0.01, omega=0.02, M=0.04, inc=0.1)
    for primary in (None, 0):
        o = sim.orbits(primary=primary)
        assert abs(o["a"][0] - 1.0) < TIGHT and abs(o["e"][0] - 0.01) < TIGHT
        assert abs(o["omega"][0] - 0.02) < 1e-12 and abs(o["inc"][0] - 0.1) < TIGHT
        assert abs(o["M"][0] - 0.04) < 1e-12
    assert abs(sim.orbits(primary="barycentre")["a"][0] - 1.0) < 1e-2


def test_orbits_errors():  # test_particle.py: test_orbits_errors2 (and the primary's checks)
    sim = star(m=1.0)
    sim.add(mass=1e-3, a=1.0)
    with pytest.raises(ValueError, match="primary: 5"):
        sim.orbits(primary=5)
    with pytest.raises(ValueError, match="primary: sun"):
        sim.orbits(primary="sun")
    with pytest.raises(ValueError, match="primary"):
        sim.add(mass=1e-3, position=[2, 0, 0], primary=0)  # a primary for elements only
    with pytest.raises(ValueError, match="position: given with orbital elements"):
        sim.add(mass=1e-3, position=[2, 0, 0], a=2.0)
    with pytest.raises(ValueError, match="position: none given"):
        sim.add(mass=1e-3)
    o = sim.orbits(primary=1)  # the primary's own row is NaN
    assert math.isnan(o["a"][0])


def test_bodies_added_at_once_follow_each_other():
    """N bodies by elements in one call are the N bodies added one by one (Jacobi primaries)."""
    one = star(m=1.0)
    for a, l in ((1.0, 0.3), (1.7, 2.0), (2.9, 4.0)):
        one.add(mass=2e-3, a=a, e=0.05, inc=0.02, l=l)
    many = star(m=1.0)
    many.add(mass=[2e-3] * 3, a=[1.0, 1.7, 2.9], e=0.05, inc=0.02, l=[0.3, 2.0, 4.0])
    assert np.array_equal(one.position, many.position)
    assert np.array_equal(one.velocity, many.velocity)
    with pytest.raises(ValueError, match=r"e \(body 1 of those added\)"):
        many.add(mass=[1e-3, 1e-3], a=[3.0, 4.0], e=[0.1, -0.1])
    with pytest.raises(ValueError, match="a: an array of shape"):
        many.add(mass=[1e-3, 1e-3], a=[3.0, 4.0, 5.0])


# IAS15 keeps a Kepler orbit to ~1e-13 over a period; a period or velocity that is off by one
# part in 1e8 moves the body by more than this (tests/physics/orbit_period_test.cpp).
PERIOD_RETURN = 1e-9


def test_an_orbit_returns_after_its_period():
    sim = star(G=0.5, m=1.5)
    sim.integrator = "ias15"
    sim.add(mass=3e-3, a=1.3, e=0.6, inc=0.4, Omega=0.6, omega=1.1, f=2.0)
    start = sim.orbits()
    rel0 = sim.position[1] - sim.position[0]
    period = start["P"][0]
    assert abs(period - 2 * math.pi * math.sqrt(1.3 ** 3 / (0.5 * 1.503))) < 1e-12
    sim.dt = period / 200
    sim.integrate(period)
    rel = sim.position[1] - sim.position[0]
    assert np.max(np.abs(rel - rel0)) < PERIOD_RETURN
    end = sim.orbits()
    for k in ("a", "e", "inc", "Omega", "omega", "f"):
        assert abs(math.remainder(end[k][0] - start[k][0], 2 * math.pi)) < PERIOD_RETURN, k
