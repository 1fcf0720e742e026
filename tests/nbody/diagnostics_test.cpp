// SPDX-License-Identifier: MIT
// Conserved quantities of configurations worked out by hand, their drifts, the table, and the
// compensated sums against naive ones.
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/potential_sum.hpp"
#include "orrery/nbody/engines.hpp"

namespace orrery {
namespace {

// Hand values are a handful of correctly rounded operations away from the computed ones.
constexpr double kRoundingTolerance = 1e-15;

template <class Real>
Particles<Real> two_bodies() {
  // Masses 1 and 2 at x = 1 and x = −1/2 (centre of mass at 0), moving along ±y with momenta
  // +1 and −1: P = 0, K = ½(1·1 + 2·¼) = 3/4, W = −1·2/(3/2) = −4/3, L_z = 1·1·1 + 2·½·½ = 3/2.
  Particles<Real> p;
  p.resize(2);
  p.x = {Real(1), Real(-0.5)};
  p.y = {Real(0), Real(0)};
  p.z = {Real(0), Real(0)};
  p.vx = {Real(0), Real(0)};
  p.vy = {Real(1), Real(-0.5)};
  p.vz = {Real(0), Real(0)};
  p.mass = {Real(1), Real(2)};
  p.id = {0, 1};
  return p;
}

TEST(Diagnostics, TwoBodiesByHand) {
  const auto p = two_bodies<double>();
  auto engine = make_force_engine<double>("direct", EngineOptions{.g = 1.0, .softening = 0.0, .threads = 1});
  const Diagnostics d = diagnostics_of(p, *engine, 2.5);
  EXPECT_EQ(d.time, 2.5);
  EXPECT_EQ(d.mass, 3.0);
  EXPECT_EQ(d.energy_kinetic, 0.75);
  EXPECT_NEAR(d.energy_potential, -4.0 / 3.0, kRoundingTolerance);
  EXPECT_NEAR(d.energy_total, 0.75 - 4.0 / 3.0, kRoundingTolerance);
  EXPECT_EQ(d.momentum.x, 0.0);
  EXPECT_EQ(d.momentum.y, 0.0);
  EXPECT_EQ(d.angular_momentum.z, 1.5);
  EXPECT_EQ(d.angular_momentum.x, 0.0);
  EXPECT_EQ(d.com_position.x, 0.0);
  EXPECT_EQ(d.com_velocity.y, 0.0);
  EXPECT_EQ(d.momentum_scale, 2.0);                               // 1·1 + 2·½
  EXPECT_EQ(d.angular_momentum_scale, 1.5);                       // 1·1·1 + 2·½·½
  EXPECT_NEAR(d.rms_radius, std::sqrt(0.5), kRoundingTolerance);  // √((1 + 2·¼)/3)
  EXPECT_NEAR(d.virial_ratio(), 0.75 / (4.0 / 3.0), kRoundingTolerance);
}

TEST(Diagnostics, MovingCentreOfMass) {
  // A uniform velocity (1, 2, 3) adds M·(1, 2, 3) to P and moves the centre at that speed.
  auto p = two_bodies<double>();
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.vx[i] += 1.0;
    p.vy[i] += 2.0;
    p.vz[i] += 3.0;
  }
  const Diagnostics start = diagnostics_of(p, -4.0 / 3.0, 0.0);
  EXPECT_EQ(start.momentum.x, 3.0);
  EXPECT_EQ(start.momentum.y, 6.0);
  EXPECT_EQ(start.momentum.z, 9.0);
  EXPECT_EQ(start.com_velocity.z, 3.0);
  // Translate the system by V t for t = 0.5: energy and momentum unchanged, the centre where
  // X0 + V0 t puts it.
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] += 0.5;
    p.y[i] += 1.0;
    p.z[i] += 1.5;
  }
  const Diagnostics now = diagnostics_of(p, -4.0 / 3.0, 0.5);
  const Drift d = drift_since(start, now);
  EXPECT_EQ(d.energy, 0.0);
  EXPECT_EQ(d.momentum, 0.0);
  EXPECT_LE(d.centre_of_mass, kRoundingTolerance);
  // Moved elsewhere than V0 t, the centre's drift shows it.
  p.x[0] += 0.3;
  EXPECT_GT(drift_since(start, diagnostics_of(p, -4.0 / 3.0, 0.5)).centre_of_mass, 0.05);
}

TEST(Diagnostics, DriftsAreRelativeToTheirScales) {
  Diagnostics start;
  start.energy_kinetic = 1.0;
  start.energy_potential = -2.0;
  start.energy_total = -1.0;
  start.momentum_scale = 4.0;
  start.angular_momentum_scale = 8.0;
  start.rms_radius = 2.0;
  Diagnostics now = start;
  now.energy_total = -1.001;
  now.momentum = {0.0, 0.004, 0.0};
  now.angular_momentum = {0.0, 0.0, -0.008};
  now.com_position = {0.02, 0.0, 0.0};
  const Drift d = drift_since(start, now);
  EXPECT_NEAR(d.energy, 1e-3, 1e-15);
  EXPECT_NEAR(d.momentum, 1e-3, 1e-15);
  EXPECT_NEAR(d.angular_momentum, 1e-3, 1e-15);
  EXPECT_NEAR(d.centre_of_mass, 1e-2, 1e-15);

  // E0 = 0 (a parabolic pair): measured against K0 + |W0|.
  start.energy_kinetic = 2.0;
  start.energy_total = 0.0;
  now = start;
  now.energy_total = 0.004;
  EXPECT_NEAR(drift_since(start, now).energy, 1e-3, 1e-15);

  // Nothing moves and nothing changed: 0, not 0/0.
  const Diagnostics rest;
  const Drift none = drift_since(rest, rest);
  EXPECT_EQ(none.energy, 0.0);
  EXPECT_EQ(none.momentum, 0.0);
  EXPECT_EQ(none.angular_momentum, 0.0);
  EXPECT_EQ(none.centre_of_mass, 0.0);
}

TEST(Diagnostics, SamePhysicsInEveryPrecision) {
  // The configuration is exact in float, and the sums run in double (float128 for float128):
  // the three precisions give the same diagnostics.
  const auto pd = two_bodies<double>();
  const Diagnostics d = diagnostics_of(pd, 0.0, 0.0);
  const Diagnostics f = diagnostics_of(two_bodies<float>(), 0.0, 0.0);
  const Diagnostics q = diagnostics_of(two_bodies<float128>(), 0.0, 0.0);
  for (const Diagnostics* x : {&f, &q}) {
    EXPECT_EQ(x->energy_kinetic, d.energy_kinetic);
    EXPECT_EQ(x->angular_momentum.z, d.angular_momentum.z);
    EXPECT_EQ(x->momentum_scale, d.momentum_scale);
    EXPECT_EQ(x->rms_radius, d.rms_radius);
  }
  auto engine = make_force_engine<float128>("direct", EngineOptions{.g = 1.0, .softening = 0.0, .threads = 1});
  EXPECT_NEAR(potential_energy(two_bodies<float128>(), *engine), -4.0 / 3.0, kRoundingTolerance);
}

TEST(Diagnostics, EngineLayoutGivesTheSameAsParticles) {
  const auto p = two_bodies<double>();
  std::vector<double> x, v;
  for (const auto* a : {&p.x, &p.y, &p.z}) x.insert(x.end(), a->begin(), a->end());
  for (const auto* a : {&p.vx, &p.vy, &p.vz}) v.insert(v.end(), a->begin(), a->end());
  const Diagnostics a = diagnostics_of(p, -1.0, 3.0);
  const Diagnostics b = diagnostics_of<double>(x, v, p.mass, -1.0, 3.0);
  EXPECT_EQ(a.energy_kinetic, b.energy_kinetic);
  EXPECT_EQ(a.angular_momentum.z, b.angular_momentum.z);
  EXPECT_EQ(a.rms_radius, b.rms_radius);
  EXPECT_THROW(diagnostics_of<double>(std::span<const double>(x).first(5), v, p.mass, -1.0, 3.0),
               RunError);
}

TEST(Diagnostics, CompensatedSumBeatsNaiveSummation) {
  // One star with m v² = 1 and a million with m v² = 2⁻⁶⁰ each: every naive addition of a small
  // term to ~1 rounds it away, while the true sum exceeds 1 by 10⁶·2⁻⁶⁰ ≈ 8.7·10⁻¹³.
  constexpr std::size_t kSmall = 1'000'000;
  Particles<double> p;
  p.resize(kSmall + 1);
  p.mass.assign(kSmall + 1, 1.0);
  p.vx.assign(kSmall + 1, 0x1.0p-30);  // v² = 2⁻⁶⁰
  p.vx[0] = 1.0;
  const double exact_twice_kinetic = 1.0 + static_cast<double>(kSmall) * 0x1.0p-60;

  double naive = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) naive += p.mass[i] * p.vx[i] * p.vx[i];
  EXPECT_EQ(naive, 1.0) << "the constructed case no longer defeats naive summation";

  const Diagnostics d = diagnostics_of(p, -1.0, 0.0);
  EXPECT_EQ(2.0 * d.energy_kinetic, exact_twice_kinetic);
  EXPECT_NE(2.0 * d.energy_kinetic, naive);
}

// The same case for every other sum: the mass, the momentum and its scale Σ m|v|, the angular
// momentum's scale Σ m|x||v|, and W = ½ Σ m φ from potentials (as the tree engines sum it).
// Each term is 1 once and 2⁻⁶⁰ a million times, so a sum that is not compensated reads 1.
TEST(Diagnostics, EverySumIsCompensated) {
  constexpr std::size_t kSmall = 1'000'000;
  constexpr double kTiny = 0x1.0p-60;
  Particles<double> p;
  p.resize(kSmall + 1);
  p.mass.assign(kSmall + 1, kTiny);
  p.mass[0] = 1.0;
  p.x.assign(kSmall + 1, 1.0);
  p.vx.assign(kSmall + 1, 1.0);
  const double exact = 1.0 + static_cast<double>(kSmall) * kTiny;
  double naive = 0.0;
  for (const double m : p.mass) naive += m;
  ASSERT_EQ(naive, 1.0) << "the constructed case no longer defeats naive summation";

  const Diagnostics d = diagnostics_of(p, -1.0, 0.0);
  EXPECT_EQ(d.mass, exact);
  EXPECT_EQ(d.momentum.x, exact);
  EXPECT_EQ(d.momentum_scale, exact);
  EXPECT_EQ(d.angular_momentum_scale, exact);
  EXPECT_EQ(2.0 * d.energy_kinetic, exact);
  const std::vector<double> phi(kSmall + 1, -2.0);  // m φ = −2, and −2·2⁻⁶⁰ a million times
  EXPECT_EQ(potential_energy_from_potentials<double>(p.mass, phi), -exact);
}

TEST(Diagnostics, TableRowsLineUpWithTheHeader) {
  const std::string header = diagnostics_table_header();
  Diagnostics d = diagnostics_of(two_bodies<double>(), -4.0 / 3.0, 1234.5);
  const std::string row = diagnostics_table_row(d, Drift{1e-12, 2e-15, 3e-14, 0.0});
  EXPECT_EQ(row.size(), header.size());
  for (const char* name : {"time", "energy", "K/|W|", "drift E", "drift P", "drift L"})
    EXPECT_NE(header.find(name), std::string::npos) << name;
  EXPECT_NE(row.find("1.234500e+03"), std::string::npos) << row;
  EXPECT_NE(row.find("1.00e-12"), std::string::npos) << row;
  // Large SI values and infinities keep the width.
  d.time = 3.15576e16;
  d.energy_total = -1.2345e52;
  EXPECT_EQ(
      diagnostics_table_row(d, Drift{std::numeric_limits<double>::infinity(), 0, 0, 0}).size(),
      header.size());
}

// An unbound system (E > 0, K/|W| in the millions) and the widest values a column can hold:
// every column keeps its width and a space apart from the next, so the row splits back into
// its seven numbers.
TEST(Diagnostics, TableColumnsStayApartForExtremeValues) {
  const std::string header = diagnostics_table_header();
  Diagnostics d = diagnostics_of(two_bodies<double>(), -4.0 / 3.0, 0.0);
  d.time = -1.5e300;
  d.energy_total = -1.0965357e305;
  d.energy_kinetic = 2.3392397e7;
  d.energy_potential = -1.0;
  for (const Drift drift : {Drift{-1e-300, -2e300, 3e-300, -4e300}, Drift{}}) {
    const std::string row = diagnostics_table_row(d, drift);
    EXPECT_EQ(row.size(), header.size()) << row;
    std::istringstream words(row);
    int count = 0;
    for (std::string w; words >> w;) ++count;
    EXPECT_EQ(count, 7) << row;
  }
  d.energy_total = 1.0965357e5;  // the reported case: a positive energy beside K/|W| = 2.3e7
  const std::string row = diagnostics_table_row(d, Drift{});
  EXPECT_NE(row.find("1.0965357e+05 "), std::string::npos) << row;
}

TEST(Diagnostics, NamedQuantitiesForSnapshots) {
  const Diagnostics d = diagnostics_of(two_bodies<double>(), -4.0 / 3.0, 0.0);
  const auto q = diagnostics_quantities(d, Drift{});
  std::set<std::string> names;
  for (const auto& x : q) {
    EXPECT_TRUE(names.insert(x.name).second) << x.name << " twice";
    EXPECT_FALSE(x.value.empty());
  }
  for (const char* name : {"energy_kinetic", "energy_potential", "energy_total", "momentum",
                           "angular_momentum", "com_position", "com_velocity", "drift_energy"})
    EXPECT_TRUE(names.count(name)) << name;
}

}  // namespace
}  // namespace orrery
