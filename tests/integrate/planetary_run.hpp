// SPDX-License-Identifier: MIT
// A planetary system run as REBOUND's tests run one: bodies with G, an integrator by name, a
// fixed step, and integrate(t) landing on t exactly (REBOUND's exact_finish_time); the outer
// Solar System with REBOUND's own initial conditions (its src/tools.c, from NASA Horizons: the
// Sun, Jupiter, Saturn, Uranus and Neptune in au, M_sun and yr/2π, G = 1).
#pragma once

#include <string>

#include "orrery/core/particles.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery::planetary_test {

inline Particles<double> rebound_outer_solar_system() {
  struct Row {
    double m, x, y, z, vx, vy, vz;
  };
  constexpr Row rows[] = {
      {1.0, -0.00583761661678666201, 0.00660036108188146939, 0.00008090699630593683,
       -0.00043778026915688127, -0.00027688340567327781, 0.00001289781032896905},
      {0.00095479191521124043, 2.31793441229397512160, -4.57278216881576948794,
       -0.03288979300198136002, 0.38587103958050272823, 0.21916457142972819994,
       -0.00954142828183331820},
      {0.00028588567272224167, 4.97984063350991323915, -8.66630842281542435046,
       -0.04756566088166765821, 0.26314427785251254255, 0.16073015466677914587,
       -0.01327326395768535505},
      {0.00004366243735831270, 15.62435177921100226683, 12.13892823277256738379,
       -0.15733112984491792741, -0.14195568334904265506, 0.16989920313154410758,
       0.00247006450290807337},
      {0.00005151383772628674, 29.39189844361883885426, -5.57834279640134234057,
       -0.56249012217889071685, 0.03281663353639149155, 0.18036894277947276843,
       -0.00447061619870956460}};
  Particles<double> p;
  p.resize(std::size(rows));
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    const Row& r = rows[i];
    p.mass[i] = r.m, p.x[i] = r.x, p.y[i] = r.y, p.z[i] = r.z;
    p.vx[i] = r.vx, p.vy[i] = r.vy, p.vz[i] = r.vz, p.id[i] = i;
  }
  return p;
}

inline Simulation<double> planetary_simulation(const Particles<double>& p, const std::string& name,
                                               double dt, double g = 1.0) {
  SimClock clock;
  clock.dt = dt;
  return Simulation<double>(p, make_force_engine<double>("direct", EngineOptions{.g = g, .threads = 1}),
                            make_array_stepper<double>(name), clock);
}

// Steps of dt, the last one shortened to land on t.
inline void integrate_to(Simulation<double>& sim, double t) {
  while (sim.clock().remaining(t) > 0.0) {
    const double left = sim.clock().remaining(t);
    if (left <= sim.clock().dt)
      sim.step_onto(t, left);
    else
      sim.step(sim.clock().dt);
  }
}

inline void steps(Simulation<double>& sim, int n) {
  for (int k = 0; k < n; ++k) sim.step(sim.clock().dt);
}

}  // namespace orrery::planetary_test
