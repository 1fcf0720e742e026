# SPDX-License-Identifier: MIT
# What a hostile or careless caller gives the module is refused with a Python exception, never a
# crash: each case runs in a child interpreter, so a segmentation fault fails the test instead of
# ending the test run.
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import orrery


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


def test_values_the_cli_refuses_are_refused():
    two = [[0, 0, 0], [1, 0, 0]]
    with pytest.raises(ValueError, match="position: inf"):
        orrery.Simulation().add(mass=[1, 1], position=[[0, 0, 0], [np.inf, 0, 0]])
    with pytest.raises(ValueError, match="velocity: nan"):
        orrery.Simulation().add(mass=[1, 1], position=two, velocity=[[0, 0, 0], [np.nan, 0, 0]])
    with pytest.raises(ValueError, match="softening: -1"):
        orrery.Simulation().add(mass=[1, 1], position=two, softening=[0.1, -1])
    with pytest.raises(ValueError, match="mass: complex numbers"):
        orrery.Simulation().add(mass=np.array([1 + 1j, 1]), position=two)
    sim = orrery.Simulation.scene("figure-eight")
    with pytest.raises(ValueError, match="mass: -3"):
        sim.mass = [1, -3, 1]
    sim.mass[1] = -3.0  # in place, through the view: refused before it is stepped
    with pytest.raises(ValueError, match="mass: -3"):
        sim.step()
    sim.mass[1] = 1.0
    sim.position[0, 0] = np.inf
    with pytest.raises(ValueError, match="position: inf"):
        sim.integrate(sim.time + 1)
    again = orrery.Simulation.scene("figure-eight")
    with pytest.raises(ValueError, match="in at most 1e10 steps"):
        again.integrate(1e300)
    assert again.steps == 0


# Under an address-space limit, so that a refusal that failed would end in a MemoryError of this
# child, not in the machine's memory filling up.
MEMORY = """
import resource
limit = 8 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
for make in (lambda: orrery.Simulation.scene("plummer", n=300_000_000),
             lambda: orrery.Simulation().add(mass=np.broadcast_to(1.0, (10**9,)),
                                             position=np.broadcast_to(np.zeros(3), (10**9, 3)))):
    try:
        make()
        print("accepted")
    except ValueError as e:
        print("refused:", e)
"""


def test_memory_beyond_what_the_process_may_use_is_refused_before_it_is_taken():
    done = child(MEMORY)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stdout
    assert lines[0].startswith("refused: scene plummer") and "needs about" in lines[0], lines[0]
    assert lines[1].startswith("refused: add() of 1000000000 bodies needs about"), lines[1]


# Bodies 1e-170 apart: r² = 1e-340 is 0 in fp64, so the pull between them is infinite. Every
# engine refuses them as one point, as the CLI does (the direct engine returned NaN rows, the
# tree dropped the pair).
@pytest.mark.parametrize("engine", ["direct", "tree"])
def test_bodies_whose_separation_squared_underflows_are_refused_by_every_engine(engine):
    position = [[0, 0, 0], [1e-170, 0, 0], [5, 0, 0]]
    with pytest.raises(ValueError, match="particles 0 and 1"):
        orrery.forces(position=position, mass=[1, 1, 1], engine=engine, backend="cpu")
    with pytest.raises(ValueError, match="particles 0 and 1"):
        sim = orrery.Simulation(engine=engine, backend="cpu", dt=0.01)
        sim.add(mass=[1, 1, 1], position=position, velocity=[[0, 0, 0], [0, 0, 0], [0, 0.3, 0]])
        sim.step()


# θ's one range (nbody/engine_registry.hpp), as every command that takes --theta refuses it.
@pytest.mark.parametrize("theta", [2.0, -0.5, float("nan")])
def test_theta_outside_its_range_is_refused_as_the_cli_refuses_it(theta):
    two = [[0, 0, 0], [1, 0, 0]]
    with pytest.raises(ValueError, match="0 <= theta < 2"):
        orrery.forces(position=two, mass=[1, 1], engine="tree", theta=theta, backend="cpu")
    with pytest.raises(ValueError, match="0 <= theta < 2"):
        orrery.Simulation(engine="tree", theta=theta, backend="cpu")
