# SPDX-License-Identifier: MIT
# Planetary systems at orrery.Simulation's face (docs/guide/planetary.md): the whfast
# integrator, test particles (m = 0, REBOUND's), REBOUND's m= for mass=, and units that set G
# as REBOUND's sim.units does (rebound/tests/test_units.py translated).
import math

import numpy as np
import pytest

import orrery

# REBOUND's units.py in Python: G_SI * M * T**2 / L**3; ours may differ in the last bits.
SAME_G = 1e-15


def test_units_set_g_as_rebound():  # test_units.py: test_units_no_particle
    sim = orrery.Simulation()
    sim.units = ("AU", "yr", "Msun")
    assert sim.units == "au, yr, msun"
    assert abs(sim.G / 39.476926421373 - 1) < SAME_G
    sim.units = "au, yr2pi, msun"
    assert abs(sim.G - 1) < SAME_G
    sim.add(m=1.0, position=[0, 0, 0])
    with pytest.raises(ValueError, match="units"):  # REBOUND: AttributeError once bodies exist
        sim.units = ("au", "kg", "yr2pi")


def test_wrong_units():  # test_units.py: test_wrong_units
    sim = orrery.Simulation()
    with pytest.raises(ValueError, match="units"):
        sim.units = ("au", "yr2pi")
    with pytest.raises(ValueError, match="'bogusunit' is none of them"):
        sim.units = ("au", "bogusunit", "yr2pi")


def planets(mass_of_test_particles=None, integrator="whfast"):
    sim = orrery.Simulation(integrator=integrator, dt=0.05)
    sim.units = ("au", "yr", "msun")
    sim.add(m=1.0, position=[0, 0, 0])
    sim.add(m=9.54e-4, a=5.2, e=0.048)
    sim.add(m=2.86e-4, a=9.58, e=0.056, inc=0.04)
    if mass_of_test_particles is not None:
        sim.add(m=[mass_of_test_particles] * 2, a=[2.5, 3.1], e=0.1, primary=0)
    return sim


@pytest.mark.parametrize("integrator", ["whfast", "leapfrog"])
def test_test_particles_leave_the_planets_bit_for_bit(integrator):
    alone, with_particles = planets(None, integrator), planets(0.0, integrator)
    alone.integrate(100.0)
    with_particles.integrate(100.0)
    assert np.array_equal(alone.position, with_particles.position[:3])
    assert np.array_equal(alone.velocity, with_particles.velocity[:3])
    assert with_particles.mass[3] == 0.0


def test_whfast_keeps_the_energy():
    # A hundredth of Jupiter's period for 1000 years: WH's error is O(mu h^2), ~1e-7 here.
    WH_ENERGY = 1e-6
    sim = planets()
    assert sim.integrator == "whfast"
    e0 = sim.energy()
    sim.integrate(1000.0)
    assert abs((sim.energy() - e0) / e0) < WH_ENERGY
    o = sim.orbits()
    assert abs(o["a"][0] - 5.2) < 0.01  # Jupiter stays where it was put


def test_mass_and_m_are_one():
    sim = orrery.Simulation()
    with pytest.raises(ValueError, match="not both"):
        sim.add(mass=1.0, m=1.0, position=[0, 0, 0])
    with pytest.raises(ValueError, match="mass"):
        sim.add(position=[0, 0, 0])
    with pytest.raises(ValueError, match=">= 0"):
        sim.add(m=-1.0, position=[0, 0, 0])
    sim.add(m=1.0, position=[0, 0, 0])
    sim.add(m=0.0, a=1.0)
    assert len(sim) == 2


def test_the_corrector_lowers_the_energy_error():
    # Jupiter and Saturn at 20 steps a Jupiter orbit: the 11th-order corrector takes the error
    # from ~2e-6 to ~1e-9 (tests/integrate/whfast_test.cpp); here at least tenfold.
    CORRECTOR_GAIN = 0.1

    def worst(corrector):
        sim = planets()
        sim.corrector = corrector
        sim.dt = 11.86 / 20
        e0 = sim.energy()
        err = 0.0
        for t in np.linspace(50.0, 1000.0, 20):
            sim.integrate(t)
            err = max(err, abs((sim.energy() - e0) / e0))
        return err

    assert worst(11) < CORRECTOR_GAIN * worst(0)
    sim = planets()
    with pytest.raises(ValueError, match="corrector"):
        sim.corrector = 4
    with pytest.raises(ValueError, match="corrector"):
        orrery.Simulation(integrator="leapfrog", corrector=11)
