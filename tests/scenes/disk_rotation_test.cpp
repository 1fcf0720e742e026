// SPDX-License-Identifier: MIT
// The disks of the disk and two-galaxies scenes rotate at the circular speed of the mass they
// enclose, measured here from the particles: for a star at distance R from its galaxy's central
// body, M(<R) = the central mass plus the stars closer in, and in softened gravity
//   v_c(R)² = G M(<R) R² / (R² + ε²)^{3/2}
// (→ G M(<R)/R for ε → 0; the monopole approximation the construction states). The tangential
// speed relative to the central body must match it within what sampling allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "orrery/scenes/disk.hpp"
#include "orrery/scenes/two_galaxies.hpp"

namespace orrery {
namespace {

// M(<R) from the sample differs from the smooth M(<R) the stars were set on by the binomial
// scatter of the count inside R, at most m √N / 2 (p(1 − p) ≤ 1/4), and by the star itself;
// v_c moves by half the relative change. The scatter over R is a Brownian bridge B(p) times
// m √N; 4 × m √N/2 allows |B| ≤ 2 everywhere, exceeded with probability 2e⁻⁸ ≈ 7·10⁻⁴
// (Kolmogorov's distribution).
constexpr double kSigmas = 4.0;
// Heights up to thickness/2 = R_out/200 against R ≥ R_out/10 change R by at most 1.3·10⁻³.
constexpr double kHeightTolerance = 2e-3;

struct Galaxy {
  std::size_t begin, end;  // the central body first
};

// The worst |v_t/v_c − 1| over the galaxy's stars in units of each star's tolerance (so at
// most 1), and the mean of v_t/v_c.
struct Fit {
  double worst = 0, mean_ratio = 0;
};

Fit fit(const Particles<double>& p, Galaxy g, double grav, double eps) {
  const std::size_t c = g.begin;
  struct Star {
    double r, v_t, mass;
  };
  std::vector<Star> s;
  for (std::size_t i = g.begin + 1; i < g.end; ++i) {
    const double dx = p.x[i] - p.x[c], dy = p.y[i] - p.y[c], dz = p.z[i] - p.z[c];
    const double dvx = p.vx[i] - p.vx[c], dvy = p.vy[i] - p.vy[c], dvz = p.vz[i] - p.vz[c];
    const double r = std::hypot(dx, dy, dz);
    // |v × r̂|: the speed across the line to the centre.
    const double v_t =
        std::hypot(dvy * dz - dvz * dy, dvz * dx - dvx * dz, dvx * dy - dvy * dx) / r;
    s.push_back({r, v_t, p.mass[i]});
  }
  std::sort(s.begin(), s.end(), [](const Star& a, const Star& b) { return a.r < b.r; });
  const double star_mass = s.front().mass;
  const double scatter = star_mass * std::sqrt(static_cast<double>(s.size())) / 2.0;
  Fit f;
  double enclosed = p.mass[c];
  for (const Star& x : s) {
    const double m = enclosed + x.mass / 2.0;  // the star itself: half in, half out
    const double soft2 = x.r * x.r + eps * eps;
    const double v_c = std::sqrt(grav * m * x.r * x.r / (soft2 * std::sqrt(soft2)));
    const double tolerance = 0.5 * (kSigmas * scatter + x.mass) / m + kHeightTolerance;
    f.worst = std::max(f.worst, std::abs(x.v_t / v_c - 1.0) / tolerance);
    f.mean_ratio += x.v_t / v_c / static_cast<double>(s.size());
    enclosed += x.mass;
  }
  return f;
}

TEST(DiskRotation, DiskStarsCircleAtTheEnclosedMassesSpeed) {
  for (double softening : {0.0, 0.01, 0.05}) {
    DiskParams params;
    params.n = 2000;
    params.softening = softening;
    const InitialConditions ic = make_disk(params);
    const Fit f = fit(ic.particles, {0, ic.particles.size()}, 1.0, softening);
    std::cout << "disk, softening " << softening << ": mean v_t/v_c " << f.mean_ratio
              << ", worst deviation " << f.worst << " of its tolerance\n";
    EXPECT_LE(f.worst, 1.0) << "softening " << softening;
  }
}

TEST(DiskRotation, TwoGalaxiesStarsCircleAtTheEnclosedMassesSpeed) {
  TwoGalaxiesParams params;
  params.n = 4000;
  const InitialConditions ic = make_two_galaxies(params);
  const std::size_t half = (ic.particles.size() + 1) / 2;
  for (const Galaxy g : {Galaxy{0, half}, Galaxy{half, ic.particles.size()}}) {
    const Fit f = fit(ic.particles, g, kCourseG, params.softening);
    std::cout << "galaxy from particle " << g.begin << ": mean v_t/v_c " << f.mean_ratio
              << ", worst deviation " << f.worst << " of its tolerance\n";
    EXPECT_LE(f.worst, 1.0) << "galaxy from particle " << g.begin;
  }
}

}  // namespace
}  // namespace orrery
