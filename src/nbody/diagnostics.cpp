// SPDX-License-Identifier: MIT
#include "orrery/nbody/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

// Sums run in double, or wider where the particles are (float128).
template <class Real>
using Accumulator = std::conditional_t<(sizeof(Real) > sizeof(double)), Real, double>;

// A state as seven arrays, whichever layout it came in.
template <class Real>
struct StateArrays {
  const Real *x, *y, *z, *vx, *vy, *vz, *m;
  std::size_t n;
};

template <class A>
struct Sum3 {
  CompensatedSum<A> x, y, z;
  void add(A a, A b, A c) {
    x.add(a);
    y.add(b);
    z.add(c);
  }
  Vec3d value() const {
    return {static_cast<double>(x.value()), static_cast<double>(y.value()),
            static_cast<double>(z.value())};
  }
};

template <class Real>
CentreOfMass centre_of_mass_of(const StateArrays<Real>& s) {
  using A = Accumulator<Real>;
  CompensatedSum<A> mass;
  Sum3<A> mx, mv;
  for (std::size_t i = 0; i < s.n; ++i) {
    const A m = static_cast<A>(s.m[i]);
    mass.add(m);
    mx.add(m * static_cast<A>(s.x[i]), m * static_cast<A>(s.y[i]), m * static_cast<A>(s.z[i]));
    mv.add(m * static_cast<A>(s.vx[i]), m * static_cast<A>(s.vy[i]), m * static_cast<A>(s.vz[i]));
  }
  CentreOfMass c;
  c.mass = static_cast<double>(mass.value());
  if (c.mass == 0.0) return c;
  const Vec3d p = mx.value(), q = mv.value();
  c.position = {p.x / c.mass, p.y / c.mass, p.z / c.mass};
  c.velocity = {q.x / c.mass, q.y / c.mass, q.z / c.mass};
  return c;
}

template <class Real>
Diagnostics diagnostics_of_arrays(const StateArrays<Real>& s, double potential, double time) {
  using A = Accumulator<Real>;
  CompensatedSum<A> twice_kinetic, momentum_scale, angular_scale;
  Sum3<A> momentum, angular;
  for (std::size_t i = 0; i < s.n; ++i) {
    const A m = static_cast<A>(s.m[i]);
    const A x = static_cast<A>(s.x[i]), y = static_cast<A>(s.y[i]), z = static_cast<A>(s.z[i]);
    const A vx = static_cast<A>(s.vx[i]), vy = static_cast<A>(s.vy[i]),
            vz = static_cast<A>(s.vz[i]);
    const A v2 = vx * vx + vy * vy + vz * vz;
    twice_kinetic.add(m * v2);
    momentum.add(m * vx, m * vy, m * vz);
    angular.add(m * (y * vz - z * vy), m * (z * vx - x * vz), m * (x * vy - y * vx));
    const A speed = sqrt(v2);
    momentum_scale.add(m * speed);
    angular_scale.add(m * sqrt(x * x + y * y + z * z) * speed);
  }
  const CentreOfMass com = centre_of_mass_of(s);
  // The spread about the centre of mass, for the centre's drift.
  CompensatedSum<A> spread;
  const A cx = static_cast<A>(com.position.x), cy = static_cast<A>(com.position.y),
          cz = static_cast<A>(com.position.z);
  for (std::size_t i = 0; i < s.n; ++i) {
    const A dx = static_cast<A>(s.x[i]) - cx, dy = static_cast<A>(s.y[i]) - cy,
            dz = static_cast<A>(s.z[i]) - cz;
    spread.add(static_cast<A>(s.m[i]) * (dx * dx + dy * dy + dz * dz));
  }

  Diagnostics d;
  d.time = time;
  d.mass = com.mass;
  d.energy_kinetic = static_cast<double>(twice_kinetic.value() / A(2));
  d.energy_potential = potential;
  d.energy_total = d.energy_kinetic + potential;
  d.momentum = momentum.value();
  d.angular_momentum = angular.value();
  d.com_position = com.position;
  d.com_velocity = com.velocity;
  d.momentum_scale = static_cast<double>(momentum_scale.value());
  d.angular_momentum_scale = static_cast<double>(angular_scale.value());
  d.rms_radius = com.mass > 0.0 ? std::sqrt(static_cast<double>(spread.value()) / com.mass) : 0.0;
  return d;
}

template <class Real>
StateArrays<Real> arrays_of(const Particles<Real>& p) {
  return {p.x.data(),  p.y.data(),  p.z.data(),    p.vx.data(),
          p.vy.data(), p.vz.data(), p.mass.data(), p.size()};
}

template <class Real>
StateArrays<Real> arrays_of(std::span<const Real> x, std::span<const Real> v,
                            std::span<const Real> m) {
  const std::size_t n = m.size();
  if (x.size() != 3 * n || v.size() != 3 * n)
    throw RunError(
        fmt::format("diagnostics: {} positions and {} velocities for {} masses "
                    "(expected 3 per mass)",
                    x.size(), v.size(), n));
  return {x.data(),     x.data() + n,     x.data() + 2 * n, v.data(),
          v.data() + n, v.data() + 2 * n, m.data(),         n};
}

double norm(const Vec3d& a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }

// num / scale, with 0 / 0 = 0 (nothing has moved) and x / 0 = ∞ otherwise.
double relative(double num, double scale) {
  if (scale > 0.0) return num / scale;
  return num == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

}  // namespace

template <class Real>
CentreOfMass centre_of_mass(const Particles<Real>& p) {
  return centre_of_mass_of(arrays_of(p));
}

template <class Real>
Diagnostics diagnostics_of(const Particles<Real>& p, double potential, double time) {
  return diagnostics_of_arrays(arrays_of(p), potential, time);
}

template <class Real>
Diagnostics diagnostics_of(std::span<const Real> positions, std::span<const Real> velocities,
                           std::span<const Real> mass, double potential, double time) {
  return diagnostics_of_arrays(arrays_of(positions, velocities, mass), potential, time);
}

template <class Real>
double potential_energy(const Particles<Real>& p, ForceEngine<Real>& engine) {
  const std::size_t n = p.size();
  std::vector<Real> host(3 * n);
  std::copy(p.x.begin(), p.x.end(), host.begin());
  std::copy(p.y.begin(), p.y.end(), host.begin() + static_cast<std::ptrdiff_t>(n));
  std::copy(p.z.begin(), p.z.end(), host.begin() + static_cast<std::ptrdiff_t>(2 * n));
  DeviceBuffer<Real> x = engine.device().allocate(3 * n);
  engine.device().copy_to_device(host, x);
  engine.set_bodies(p.mass, p.softening);
  return engine.potential_energy(x);
}

template <class Real>
Diagnostics diagnostics_of(const Particles<Real>& p, ForceEngine<Real>& engine, double time) {
  return diagnostics_of(p, potential_energy(p, engine), time);
}

Drift drift_since(const Diagnostics& start, const Diagnostics& now) {
  Drift d;
  const double energy_scale = start.energy_total != 0.0
                                  ? std::abs(start.energy_total)
                                  : start.energy_kinetic + std::abs(start.energy_potential);
  d.energy = relative(std::abs(now.energy_total - start.energy_total), energy_scale);
  d.momentum = relative(norm(now.momentum - start.momentum),
                        std::max(now.momentum_scale, start.momentum_scale));
  d.angular_momentum = relative(norm(now.angular_momentum - start.angular_momentum),
                                std::max(now.angular_momentum_scale, start.angular_momentum_scale));
  const double t = now.time - start.time;
  const Vec3d expected = mul_add(t, start.com_velocity, start.com_position);
  d.centre_of_mass =
      relative(norm(now.com_position - expected), std::max(now.rms_radius, start.rms_radius));
  return d;
}

// Each column is as wide as the widest value its format writes, sign and three-digit exponent
// included ("-1.0000000e+300"), and a space stands before each: columns never run together.
std::string diagnostics_table_header() {
  return fmt::format(" {:>14} {:>15} {:>11} {:>10} {:>10} {:>10} {:>10}", "time", "energy",
                     "K/|W|", "drift E", "drift P", "drift L", "drift CoM");
}

std::string diagnostics_table_row(const Diagnostics& now, const Drift& drift) {
  return fmt::format(" {:>14.6e} {:>15.7e} {:>11.4g} {:>10.2e} {:>10.2e} {:>10.2e} {:>10.2e}",
                     now.time, now.energy_total, now.virial_ratio(), drift.energy,
                     drift.momentum, drift.angular_momentum, drift.centre_of_mass);
}

std::vector<NamedQuantity> diagnostics_quantities(const Diagnostics& now, const Drift& drift) {
  auto vec = [](const Vec3d& a) { return std::vector<double>{a.x, a.y, a.z}; };
  return {
      {"time", {now.time}, "time of the diagnostics"},
      {"mass", {now.mass}, "total mass"},
      {"energy_kinetic", {now.energy_kinetic}, "K = 1/2 sum m v^2"},
      {"energy_potential", {now.energy_potential}, "W = -G sum_{i<j} m_i m_j / r_ij (softened)"},
      {"energy_total", {now.energy_total}, "E = K + W"},
      {"virial_ratio", {now.virial_ratio()}, "K / |W|"},
      {"momentum", vec(now.momentum), "P = sum m v"},
      {"angular_momentum", vec(now.angular_momentum), "L = sum m x cross v, about the origin"},
      {"com_position", vec(now.com_position), "centre of mass"},
      {"com_velocity", vec(now.com_velocity), "velocity of the centre of mass"},
      {"drift_energy", {drift.energy}, "|E - E0| / |E0|"},
      {"drift_momentum", {drift.momentum}, "|P - P0| / sum m|v|"},
      {"drift_angular_momentum", {drift.angular_momentum}, "|L - L0| / sum m|x||v|"},
      {"drift_centre_of_mass",
       {drift.centre_of_mass},
       "|X - X0 - V0 t| / rms radius about the centre of mass"},
  };
}

#define ORRERY_DIAGNOSTICS(Real)                                                          \
  template CentreOfMass centre_of_mass<Real>(const Particles<Real>&);                     \
  template Diagnostics diagnostics_of<Real>(const Particles<Real>&, double, double);      \
  template Diagnostics diagnostics_of<Real>(std::span<const Real>, std::span<const Real>, \
                                            std::span<const Real>, double, double);       \
  template double potential_energy<Real>(const Particles<Real>&, ForceEngine<Real>&);     \
  template Diagnostics diagnostics_of<Real>(const Particles<Real>&, ForceEngine<Real>&, double);
ORRERY_DIAGNOSTICS(float)
ORRERY_DIAGNOSTICS(double)
ORRERY_DIAGNOSTICS(float128)
#undef ORRERY_DIAGNOSTICS

}  // namespace orrery
