# SPDX-License-Identifier: MIT
# Ctrl-C during a long integrate: KeyboardInterrupt within a fraction of a second, and the
# simulation steps on afterwards.
import os
import signal
import threading
import time

import pytest

import orrery

SIGNAL_AFTER = 0.3  # seconds into the integrate
# InterruptPoll looks every 20 ms; a step of 256 bodies takes well under a millisecond.
PROMPT = 0.25


def test_sigint_stops_a_long_integrate_and_the_simulation_goes_on():
    sim = orrery.Simulation.scene("plummer", n=256, seed=1, threads=1)
    timer = threading.Timer(SIGNAL_AFTER, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sim.integrate(1e6 * sim.dt)  # a million steps, within the 1e10 a run may take
    finally:
        timer.cancel()
    late = time.monotonic() - start - SIGNAL_AFTER
    assert late < PROMPT
    reached = sim.steps
    assert reached > 0
    sim.step()
    assert sim.steps == reached + 1
