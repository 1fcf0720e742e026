# SPDX-License-Identifier: MIT
# What a hostile or careless caller gives the module is refused with a Python exception, never a
# crash: each case runs in a child interpreter, so a segmentation fault fails the test instead of
# ending the test run.
import subprocess
import sys
import textwrap

import pytest


def child(code):
    """Runs `code` in a fresh interpreter with orrery imported; returns the completed process."""
    program = "import numpy as np, orrery\n" + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=300)


def refused(code, error, words):
    done = child(f"""
        try:
{textwrap.indent(textwrap.dedent(code), '            ')}
        except {error} as e:
            print("refused:", e)
        else:
            print("accepted")
        """)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    assert done.stdout.startswith("refused:"), done.stdout + done.stderr
    assert words in done.stdout
    return done.stdout


def test_adding_no_bodies_is_refused():
    refused("orrery.Simulation().add(mass=np.zeros(0), position=np.zeros((0, 3)))",
            "ValueError", "mass: an empty array")
    refused("sim = orrery.Simulation.scene('figure-eight')\n"
            "sim.add(mass=[], position=np.zeros((0, 3)))", "ValueError", "one mass or more")


def test_forces_of_no_bodies_are_refused():
    refused("orrery.forces(position=np.zeros((0, 3)), mass=np.zeros(0))", "ValueError",
            "mass: an empty array")


# A thread stepping while another adds bodies: the add must wait or be refused, never free the
# state being stepped. Several rounds, as the crash depended on the moment of the add.
STEP_WHILE_ADDING = """
import threading
outcomes = []
for round in range(4):
    sim = orrery.Simulation.scene('plummer', n=2000, seed=1)
    started = threading.Event()
    def run():
        started.set()
        sim.{call}
    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    for k in range(200):
        try:
            sim.add(mass=[1e-3], position=[[10.0 + k, 0, 0]])
            outcomes.append('added')
        except RuntimeError as e:
            assert 'stepping in another thread' in str(e), e
            outcomes.append('refused')
    worker.join()
    sim.step()
print(sorted(set(outcomes)))
"""


@pytest.mark.parametrize("call", ["step(20)", "integrate(sim.time + 20 * sim.dt)"])
def test_a_thread_stepping_while_another_adds_bodies_does_not_crash(call):
    done = child(STEP_WHILE_ADDING.format(call=call))
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    assert done.stdout.strip() in ("['added']", "['added', 'refused']", "['refused']")
