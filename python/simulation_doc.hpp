// SPDX-License-Identifier: MIT
// The docstrings of orrery.Simulation (what help() shows), apart from the binding code.
#pragma once

namespace orrery::python {

inline constexpr const char* kSimulationDoc = R"(An N-body system, stepped as `orrery sim` steps it.

Made from a scene, from arrays, or from a particle file or run:

    sim = orrery.Simulation.scene("plummer", n=1000, seed=1, integrator="leapfrog")
    sim = orrery.Simulation(G=1.0, softening=0.01, dt=1e-3)
    sim.add(mass=m, position=x, velocity=v)          # arrays (N,), (N, 3), (N, 3)
    sim = orrery.Simulation.load("run")              # a run's newest snapshot, or a file

Settings (keywords of the constructors, and properties): engine ('direct', 'tree'), theta,
multipole, integrator, dt, tolerance, block_eta, block_length, precision ('fp64', 'fp32',
'fp128'), threads, backend ('cpu', 'cuda', 'auto'), devices, cpu_kernel -- the flags of
`orrery sim` with '-' written '_', refused with the CLI's message (ValueError).

sim.step() takes one step of sim.dt, sim.integrate(t) steps to time t and lands on it exactly
(as a run to --t-end does). Both run without the GIL; Ctrl-C stops integrate() between two steps
with KeyboardInterrupt, and the simulation can go on from the step it had reached.

sim.position, sim.velocity (N, 3) and sim.mass (N,) are numpy views of the simulation's own
memory (fp64: float64, fp32: float32) where the engine keeps it on the host: writing through one
changes the next step (the integrator then starts afresh from the written state), and a view
keeps the memory alive after the Simulation is gone. A GPU engine's state, or an fp128 one,
comes as a read-only float64 copy; assigning (sim.position = x) writes the state on any engine.
After add() or a changed setting the simulation is made anew: views taken before show the old
one.)";

inline constexpr const char* kSimulationInitDoc =
    "Simulation(G=1.0, softening=0.0, **settings): no particles yet; add them with add().";

inline constexpr const char* kSceneDoc =
    R"(Simulation.scene(name, **parameters): a scene of `orrery sim --list` ('two-galaxies',
'plummer', 'disk', 'figure-eight', 'pythagorean', 'kepler', ...) with its parameters (n, seed,
softening, ...) and settings (integrator, dt, engine, ...) as keywords. dt defaults to the
scene's step, t_end is the scene's suggested end time.)";

inline constexpr const char* kLoadDoc =
    R"(Simulation.load(path, **settings): particles from a file (CSV or HDF5), a snapshot (which
goes on from its time with its run's dt; sim.save() writes one) or a run folder (its newest
snapshot).)";

inline constexpr const char* kAddDoc =
    R"(add(mass, position=None, velocity=None, softening=None, *, primary=None, **elements): N
bodies more, vectorised: masses (N,), positions and velocities (N, 3) (None: at rest),
per-particle softening (N,) or None. Ids follow those already there. Without a dt, one is
suggested from the system's dynamical time. m= is mass= (REBOUND's name). A mass of 0 is a test
particle: it feels the others and pulls none of them (REBOUND's m = 0); placed after the last
body with mass, its pairs with the other test particles cost nothing.

Or by orbital elements instead of positions, as REBOUND's sim.add() takes them (each one number,
or N numbers; angles in radians):

    sim.add(mass=1.0, position=[0, 0, 0])
    sim.add(mass=1e-3, a=1.0, e=0.05, inc=0.1, Omega=0.3, omega=1.2, f=0.5)
    sim.add(mass=[1e-3, 1e-4], P=[12.0, 30.0], e=0.1, l=[0.0, 2.0])

a (semi-major axis; < 0 with e > 1 for a hyperbola) or P (period); e, inc, Omega (0 where not
given); omega or pomega = Omega + omega (omega = 0 where neither); one of f, M, E (true, mean,
eccentric anomaly), l (mean longitude), theta (true longitude), T (time of pericentre passage;
M = n (t - T) at the simulation's time t), f = 0 where none. Retrograde orbits (inc > pi/2)
measure pomega, theta and l backwards, as REBOUND does. Each body orbits its primary: None
(default, REBOUND's): the barycentre of all bodies before it, with their mass (Jacobi
coordinates; bodies added in one call follow each other); 'barycentre': of all bodies; or the
index of a body. mu = G (M_primary + m). ValueError names the element refused (e = 1, e < 0,
a > 0 with e > 1, a < 0 with e < 1, f beyond a hyperbola's asymptotes, a and P, omega and
pomega, two of f, M, E, l, theta, T). docs/guide/orbits.md has the conventions.)";

inline constexpr const char* kOrbitsDoc =
    R"(orbits(*, primary=None) -> dict of float64 arrays (N - 1,): the orbital elements of every
body after the first, as REBOUND's sim.orbits() gives them: d, v, h, P, n, a, e, inc, Omega,
omega, pomega, f, M, E, l, theta, T. primary: None (default): the Jacobi primary, the barycentre
of the bodies before each one; 'barycentre': of all bodies (REBOUND's primary=sim.com()); an
index: that body (0: heliocentric elements; the primary's own row is NaN). Angles in radians,
in [0, 2 pi); inc in [0, pi]. A hyperbola has a < 0, n < 0, P < 0, and its M, E (the hyperbolic
anomaly) and l are not reduced. Nearly planar orbits (inc < 1e-8) have Omega = 0 and pomega,
theta from the plane; nearly circular ones (e < 1e-8) l = theta - 2 e sin f.)";

inline constexpr const char* kStepDoc =
    "step(n=1): n accepted steps of sim.dt (an adaptive method's rejections are retried).";

inline constexpr const char* kIntegrateDoc =
    R"(integrate(t, heartbeat=None) -> steps: steps to time t, the last step shortened to land on
t exactly, as a run of `orrery sim` to --t-end does. heartbeat(sim), where given, is called after
every step (REBOUND's heartbeat): it may read the simulation and write its arrays in place (the
next step starts from what it wrote), and what it raises ends the integration. After each step
the collisions are resolved and the exits checked (collisions, exit_min_distance,
exit_max_distance): orrery.Collision, orrery.Encounter or orrery.Escape is raised with the
bodies and the time, the state being that of the step. Ctrl-C raises KeyboardInterrupt within a
fraction of a second, leaving the state of the last whole step.)";

inline constexpr const char* kEnergyDoc = "energy() -> E = K + W, the total energy.";

inline constexpr const char* kDiagnosticsDoc =
    R"(diagnostics() -> dict: time, mass, energy_kinetic, energy_potential, energy_total,
virial_ratio, momentum, angular_momentum, com_position, com_velocity and the drifts since the
particles were set (drift_energy = |E - E0| / |E0|, ...), as in a run's diagnostics.h5.)";

inline constexpr const char* kForcesDoc =
    "forces() -> (acceleration (N, 3), potential (N,)) of the present state, by the engine.";

inline constexpr const char* kSaveDoc =
    R"(save(path, overwrite=False): the whole simulation (HDF5): the state in its own precision,
the clock, the integrator's own state (IAS15's predictor, whfast's Jacobi coordinates, ...), the
energy merges took and the settings. Simulation.load(path) continues it bit for bit as this one
would; orrery.load(path) reads its arrays, and `orrery sim --input path` starts a run from it
(fp32 and fp64).)";

inline constexpr const char* kCopyDoc =
    R"(copy() -> Simulation: another simulation with these settings and this state, the
integrator's own included: it continues bit for bit as this one would.)";

inline constexpr const char* kRemoveDoc =
    R"(remove(index): removes the body at index (negative: from the end); the integrator starts
afresh from the state left.)";

inline constexpr const char* kMoveToComDoc =
    R"(move_to_com(): moves the bodies to the centre-of-mass frame (its position and velocity
become 0), as REBOUND's move_to_com; the integrator starts afresh and the drifts are measured
from here.)";

inline constexpr const char* kPositionDoc =
    R"(positions, (N, 3): a writable view of the simulation's memory on the host (fp64, fp32);
a read-only float64 copy on a GPU engine or in fp128. Assign to write on any engine.)";

}  // namespace orrery::python
