// SPDX-License-Identifier: MIT
// How the Pythagorean three-body problem (Burrau 1913; Szebehely & Peters 1967) ends, read from
// a run's last snapshot: the bodies of masses 4 and 5 a binary — its a and e from their relative
// orbit, a = −μ/(2E), e = √(1 + 2E|r × v|²/μ²) — and the body of mass 3 leaving its centre of
// mass. A 40-digit Taylor integration gives a = 0.5524964 and e = 0.9886991 at t = 70.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"

namespace orrery::test {

inline constexpr double kPythagoreanBinaryA = 0.5524964, kPythagoreanBinaryE = 0.9886991;

struct PythagoreanEnd {
  double time;
  double drift_energy;  // relative, as the snapshot records it
  double a, e;          // the binary of the bodies of masses 4 and 5
  double escaper_distance;  // of the body of mass 3 from the binary's centre of mass
  double escaper_rv;        // (x − c)·(v − c'): > 0 when it moves away
};

inline PythagoreanEnd read_pythagorean_end(const std::filesystem::path& run) {
  const auto last = snapshot_path(run, run_snapshots(run).back());
  h5::Handle f = h5::open_file(last.string());
  const auto x = h5::read_dataset<double>(f.id(), "position");
  const auto v = h5::read_dataset<double>(f.id(), "velocity");
  const auto m = h5::read_dataset<double>(f.id(), "mass");
  PythagoreanEnd out{};
  out.time = h5::read_attribute(f.id(), "time").reals.at(0);
  out.drift_energy = h5::read_attribute(f.id(), "drift_energy").reals.at(0);
  // Bodies in the scene's order: masses 3, 4, 5.
  auto row = [&](const std::vector<double>& a, int i, int k) { return a[3 * i + k]; };
  double r2 = 0, w2 = 0, rr[3], ww[3];
  for (int k = 0; k < 3; ++k) {
    rr[k] = row(x, 1, k) - row(x, 2, k), ww[k] = row(v, 1, k) - row(v, 2, k);
    r2 += rr[k] * rr[k], w2 += ww[k] * ww[k];
  }
  const double h[3] = {rr[1] * ww[2] - rr[2] * ww[1], rr[2] * ww[0] - rr[0] * ww[2],
                       rr[0] * ww[1] - rr[1] * ww[0]};
  const double mu = m[1] + m[2], energy = 0.5 * w2 - mu / std::sqrt(r2);
  out.a = -mu / (2 * energy);
  out.e = std::sqrt(1 + 2 * energy * (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) / (mu * mu));
  double d2 = 0, rv = 0;
  for (int k = 0; k < 3; ++k) {
    const double c = (m[1] * row(x, 1, k) + m[2] * row(x, 2, k)) / mu;
    const double cv = (m[1] * row(v, 1, k) + m[2] * row(v, 2, k)) / mu;
    d2 += (row(x, 0, k) - c) * (row(x, 0, k) - c);
    rv += (row(x, 0, k) - c) * (row(v, 0, k) - cv);
  }
  out.escaper_distance = std::sqrt(d2);
  out.escaper_rv = rv;
  return out;
}

// The end the problem must reach: at t = 70, its energy kept to `energy_bound`, the binary's a and
// e within 10⁻³ of the Taylor values (the bound), the body of mass 3 unbound from the
// binary's centre of mass, far away and leaving.
inline constexpr double kPythagoreanOrbitBound = 1e-3;

inline void expect_pythagorean_end(const std::filesystem::path& run, double energy_bound) {
  const PythagoreanEnd end = read_pythagorean_end(run);
  EXPECT_EQ(end.time, 70.0);
  EXPECT_LT(std::abs(end.drift_energy), energy_bound);
  EXPECT_NEAR(end.a, kPythagoreanBinaryA, kPythagoreanOrbitBound);
  EXPECT_NEAR(end.e, kPythagoreanBinaryE, kPythagoreanOrbitBound);
  EXPECT_GT(end.escaper_distance, 10 * end.a);
  EXPECT_GT(end.escaper_rv, 0);
  std::printf("a %.7f, e %.7f, energy drift %.3e\n", end.a, end.e, end.drift_energy);
}

}  // namespace orrery::test
