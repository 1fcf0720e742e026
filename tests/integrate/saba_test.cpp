// SPDX-License-Identifier: MIT
// SABA1 … SABA4 (integrate/wisdom_holman/array_stepper.hpp, Laskar & Robutel 2001): on a
// perturbed Kepler problem (two planets of 10⁻⁵ of the star's mass) the error falls as h^{2n},
// and on the outer Solar System each has REBOUND's energy error (its saba, the same map).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "integrate/planetary_run.hpp"
#include "orrery/core/float128.hpp"
#include "physics/orbit_system.hpp"

namespace orrery {
namespace {

using planetary_test::planetary_simulation;

// A star and two planets of mass ε on mildly eccentric, inclined orbits at a = 1 and 1.6 (G = 1:
// the inner one's period is 2π), in float128: the error ε h^{2n} stays far above float128's
// rounding while ε² h², which no SABA_n removes, stays far below it.
Particles<float128> saba_perturbed_kepler(double epsilon) {
  orbit_test::OrbitSystem s;
  s.add(1.0);
  s.add(epsilon, OrbitGiven{.a = 1.0, .e = 0.05, .inc = 0.02, .Omega = 0.3, .omega = 1.0, .M = 0.5});
  s.add(epsilon, OrbitGiven{.a = 1.6, .e = 0.04, .inc = 0.03, .Omega = 2.0, .omega = 0.2, .M = 3.0});
  Particles<float128> p;
  p.resize(s.p.size());
  for (std::size_t i = 0; i < s.p.size(); ++i) {
    p.mass[i] = s.p.mass[i], p.x[i] = s.p.x[i], p.y[i] = s.p.y[i], p.z[i] = s.p.z[i];
    p.vx[i] = s.p.vx[i], p.vy[i] = s.p.vy[i], p.vz[i] = s.p.vz[i], p.id[i] = s.p.id[i];
  }
  return p;
}

// The largest distance between the planets' positions relative to the star in two runs.
double saba_planet_offset(const Particles<float128>& a, const Particles<float128>& b) {
  double worst = 0;
  for (std::size_t i = 1; i < a.size(); ++i)
    worst = std::max(worst, std::hypot(static_cast<double>((a.x[i] - a.x[0]) - (b.x[i] - b.x[0])),
                                       static_cast<double>((a.y[i] - a.y[0]) - (b.y[i] - b.y[0])),
                                       static_cast<double>((a.z[i] - a.z[0]) - (b.z[i] - b.z[0]))));
  return worst;
}

// `steps` steps of t/steps.
Particles<float128> saba_run_to(const std::string& method, double epsilon, int steps, double t) {
  SimClock clock;
  clock.dt = t / steps;
  Simulation<float128> sim(saba_perturbed_kepler(epsilon),
                           make_force_engine<float128>("direct", EngineOptions{.g = 1.0, .threads = 1}),
                           make_array_stepper<float128>(method), clock);
  for (int k = 0; k < steps; ++k) sim.step(clock.dt);
  return sim.particles();
}

TEST(Saba, ConvergesAtOrderTwoNOnAPerturbedKeplerProblem) {
  // Four orbits of the inner planet with `per_orbit` steps an orbit and twice as many, against
  // the same method with 16 times as many. Below these steps a step of a larger part of the
  // orbit is not yet in the regime of the leading term (measured: SABA3 from 20 to 40 steps an
  // orbit falls 2900-fold); the smaller ε of SABA3 and SABA4 keeps ε² h² below their ε h^{2n}.
  // SABA4 reaches its leading term only where float128's rounding and ε² h² come near it
  // (measured: 2.3·10⁻²² at 24 steps an orbit, 6.1·10⁻²⁸ at 48, a slope of 18.6; ε² h² is about
  // 10⁻²⁷ there): for it the slope is asserted to be at least 8, and its coefficients are
  // checked against REBOUND's energy errors below.
  struct Case {
    const char* method;
    double epsilon;
    int per_orbit;
    int order;
    bool at_least = false;
  };
  // The measured slope log₂(error(h)/error(h/2)) within this of 2n: the next term of the error,
  // one power of h² smaller, still moves it at these steps.
  constexpr double kSlopeTolerance = 0.3;
  const double t = 4 * 2 * std::numbers::pi;
  for (const Case c : {Case{"saba1", 1e-9, 64, 2}, Case{"saba2", 1e-9, 32, 4},
                       Case{"saba3", 1e-13, 40, 6}, Case{"saba4", 1e-13, 24, 8, true}}) {
    SCOPED_TRACE(c.method);
    const int n = 4 * c.per_orbit;
    const Particles<float128> reference = saba_run_to(c.method, c.epsilon, 16 * n, t);
    const double coarse = saba_planet_offset(saba_run_to(c.method, c.epsilon, n, t), reference);
    const double fine = saba_planet_offset(saba_run_to(c.method, c.epsilon, 2 * n, t), reference);
    const double slope = std::log2(coarse / fine);
    std::printf("%s: error %.3e at %d steps an orbit, %.3e at %d: slope %.2f\n", c.method,
                coarse, c.per_orbit, fine, 2 * c.per_orbit, slope);
    if (c.at_least)
      EXPECT_GT(slope, c.order - kSlopeTolerance);
    else
      EXPECT_NEAR(slope, c.order, kSlopeTolerance);
  }
}

TEST(Saba, HasReboundsEnergyErrorOnTheOuterSolarSystem) {
  // REBOUND 5.0.0's saba (types 0 … 3, safe_mode = 0, keep_unsynchronized = 1) on its outer
  // Solar System, 10⁴ steps of 3 (1/25 of Jupiter's period), the largest |ΔE/E| at 100 equal
  // intervals: bench/rebound/saba_energy.c, `saba_energy 10000 3`. The same map, rounded in
  // another order: the figures agree to 2 %, where a method of another order or with other
  // coefficients differs by factors (each SABA_n is 15 to 250 times below SABA_{n−1} here).
  constexpr double kAgreement = 0.02;
  struct Case {
    const char* method;
    double rebound;
  };
  for (const Case c : {Case{"saba1", 1.566e-6}, Case{"saba2", 6.171e-9}, Case{"saba3", 1.047e-10},
                       Case{"saba4", 5.633e-11}}) {
    SCOPED_TRACE(c.method);
    constexpr double kDt = 3.0;
    Simulation<double> sim =
        planetary_simulation(planetary_test::rebound_outer_solar_system(), c.method, kDt);
    const double e0 = sim.diagnostics().energy_total;
    double worst = 0;
    for (int s = 1; s <= 100; ++s) {
      planetary_test::steps(sim, 100);
      worst = std::max(worst, std::abs((sim.diagnostics().energy_total - e0) / e0));
    }
    std::printf("%s: largest |dE/E| %.4e (REBOUND %.4e)\n", c.method, worst, c.rebound);
    EXPECT_NEAR(worst / c.rebound, 1.0, kAgreement);
  }
}

}  // namespace
}  // namespace orrery
