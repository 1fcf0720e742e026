// SPDX-License-Identifier: MIT
#include "orrery/nbody/collisions.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

// Where body k sweeps along x during the step, widened by its radius.
struct ContactSweep {
  double lo, hi;
  std::size_t k;
};

template <class Real>
bool contact_touches(const Particles<Real>& p, std::size_t i, std::size_t j, CollisionSearch search,
             double h) {
  const Real dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
  const Real dvx = p.vx[i] - p.vx[j], dvy = p.vy[i] - p.vy[j], dvz = p.vz[i] - p.vz[j];
  const Real sum = p.radius[i] + p.radius[j];
  const Real end2 = dx * dx + dy * dy + dz * dz;
  if (search == CollisionSearch::direct)
    return end2 < sum * sum && dvx * dx + dvy * dy + dvz * dz <= 0;
  // The lines run back from the end: x_ij(s) = x_ij − s v_ij for 0 ≤ s ≤ h.
  const Real hh = static_cast<Real>(h);
  const Real bx = dx - hh * dvx, by = dy - hh * dvy, bz = dz - hh * dvz;
  Real least = std::min(end2, bx * bx + by * by + bz * bz);
  const Real vv = dvx * dvx + dvy * dvy + dvz * dvz;
  if (vv > 0) {
    const Real s = (dx * dvx + dy * dvy + dz * dvz) / vv;
    if (s >= 0 && s <= hh) {
      const Real cx = dx - s * dvx, cy = dy - s * dvy, cz = dz - s * dvz;
      least = std::min(least, cx * cx + cy * cy + cz * cz);
    }
  }
  return least < sum * sum;
}

template <class Real>
Real cube_root(Real x) {
  if constexpr (std::is_same_v<Real, float128>)
    return cbrtq(x);
  else
    return std::cbrt(x);
}

}  // namespace

template <class Real>
std::vector<Contact> find_contacts(const Particles<Real>& p, CollisionSearch search, double h) {
  std::vector<Contact> found;
  if (p.radius.empty()) return found;
  const std::size_t n = p.size();
  std::vector<ContactSweep> sweeps(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double x = static_cast<double>(p.x[k]), r = static_cast<double>(p.radius[k]);
    double lo = x, hi = x;
    if (search == CollisionSearch::line) {
      const double back = x - h * static_cast<double>(p.vx[k]);
      lo = std::min(lo, back);
      hi = std::max(hi, back);
    }
    // Widened by a relative 1e-12 so a pair the exact test finds is never lost to the rounding
    // of these doubles.
    const double pad = r + 1e-12 * (std::abs(lo) + std::abs(hi) + r);
    sweeps[k] = {lo - pad, hi + pad, k};
  }
  std::sort(sweeps.begin(), sweeps.end(), [](const ContactSweep& a, const ContactSweep& b) {
    return a.lo < b.lo || (a.lo == b.lo && a.k < b.k);
  });
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n && sweeps[b].lo <= sweeps[a].hi; ++b) {
      const std::size_t i = std::min(sweeps[a].k, sweeps[b].k);
      const std::size_t j = std::max(sweeps[a].k, sweeps[b].k);
      if (contact_touches(p, i, j, search, h)) found.push_back({i, j});
    }
  std::sort(found.begin(), found.end(), [](const Contact& a, const Contact& b) {
    return a.i < b.i || (a.i == b.i && a.j < b.j);
  });
  return found;
}

template <class Real>
void merge_bodies(Particles<Real>& p, std::size_t i, std::size_t j) {
  const Real mi = p.mass[i], mj = p.mass[j], m = mi + mj;
  // Weights of the centre of mass; two test particles meet halfway.
  const Real wi = m > 0 ? mi / m : Real(0.5), wj = m > 0 ? mj / m : Real(0.5);
  auto mix = [&](std::vector<Real>& a) { a[i] = wi * a[i] + wj * a[j]; };
  if (m > 0) {
    // Momentum summed first and divided once: m v is then m_i v_i + m_j v_j to one rounding.
    auto weigh = [&](std::vector<Real>& a) { a[i] = (mi * a[i] + mj * a[j]) / m; };
    for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz}) weigh(*a);
  } else {
    for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz}) mix(*a);
  }
  p.mass[i] = m;
  if (!p.radius.empty()) {
    const Real ri = p.radius[i], rj = p.radius[j];
    p.radius[i] = cube_root(ri * ri * ri + rj * rj * rj);
  }
  if (!p.softening.empty()) p.softening[i] = std::max(p.softening[i], p.softening[j]);
  auto drop = [j](auto& a) {
    if (!a.empty()) a.erase(a.begin() + static_cast<std::ptrdiff_t>(j));
  };
  for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass, &p.softening, &p.radius})
    drop(*a);
  drop(p.id);
}

template <class Real>
bool bounce_bodies(Particles<Real>& p, std::size_t i, std::size_t j, double restitution) {
  const Real dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
  const Real dvx = p.vx[i] - p.vx[j], dvy = p.vy[i] - p.vy[j], dvz = p.vz[i] - p.vz[j];
  const Real d2 = dx * dx + dy * dy + dz * dz;
  const Real approach = dvx * dx + dvy * dy + dvz * dz;
  if (!(d2 > 0) || approach >= 0) return false;
  const Real d = orrery::sqrt(d2);
  const Real nx = dx / d, ny = dy / d, nz = dz / d;
  const Real u = approach / d;  // the normal relative velocity, < 0
  const Real mi = p.mass[i], mj = p.mass[j], m = mi + mj;
  const Real fi = m > 0 ? mj / m : Real(0.5), fj = m > 0 ? mi / m : Real(0.5);
  const Real du = (Real(1) + static_cast<Real>(restitution)) * u;
  p.vx[i] -= fi * du * nx;
  p.vy[i] -= fi * du * ny;
  p.vz[i] -= fi * du * nz;
  p.vx[j] += fj * du * nx;
  p.vy[j] += fj * du * ny;
  p.vz[j] += fj * du * nz;
  return true;
}

#define ORRERY_COLLISIONS(Real)                                                              \
  template std::vector<Contact> find_contacts<Real>(const Particles<Real>&, CollisionSearch, \
                                                    double);                                 \
  template void merge_bodies<Real>(Particles<Real>&, std::size_t, std::size_t);              \
  template bool bounce_bodies<Real>(Particles<Real>&, std::size_t, std::size_t, double);
ORRERY_COLLISIONS(float)
ORRERY_COLLISIONS(double)
ORRERY_COLLISIONS(float128)
#undef ORRERY_COLLISIONS

}  // namespace orrery
