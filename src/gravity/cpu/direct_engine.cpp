// SPDX-License-Identifier: MIT
#include "direct_engine.hpp"

#include <omp.h>

#include <cmath>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/gravity/softened_pair.hpp"

namespace orrery::cpu {

template <class Real>
DirectEngine<Real>::DirectEngine(const EngineOptions& options)
    : HostForceEngine<Real>(options.threads), options_(options) {}

template <class Real>
void DirectEngine<Real>::set_bodies(std::span<const Real> mass, std::span<const Real> softening) {
  mass_.assign(mass.begin(), mass.end());
  eps2_.resize(mass.size());
  const Real global = static_cast<Real>(options_.softening);
  for (std::size_t i = 0; i < mass.size(); ++i)
    eps2_[i] = softening.empty() ? global * global : softening[i] * softening[i];
}

template <class Real>
void DirectEngine<Real>::accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) {
  const std::size_t n = mass_.size();
  const Real* px = x.data();
  const Real* py = px + n;
  const Real* pz = py + n;
  Real* ax = a.data();
  Real* ay = ax + n;
  Real* az = ay + n;
  const Real g = static_cast<Real>(options_.g);
  const int threads = this->threads() > 0 ? this->threads() : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    const Vec3<Real> target{px[i], py[i], pz[i]};
    Vec3<Real> acc{Real(0), Real(0), Real(0)};
    for (std::size_t j = 0; j < n; ++j) {
      if (j == static_cast<std::size_t>(i)) continue;
      const Real eps2 = (eps2_[i] + eps2_[j]) * Real(0.5);
      accumulate_softened_pull(target, Vec3<Real>{px[j], py[j], pz[j]}, mass_[j], eps2, acc);
    }
    ax[i] = g * acc.x;
    ay[i] = g * acc.y;
    az[i] = g * acc.z;
  }
}

template <class Real>
double DirectEngine<Real>::potential_energy(const DeviceBuffer<Real>& x) {
  const std::size_t n = mass_.size();
  const Real* px = x.data();
  const Real* py = px + n;
  const Real* pz = py + n;
  // Each target's row in its own compensated sum, the rows added in order: the same bits for
  // any thread count.
  std::vector<double> rows(n);
  const int threads = this->threads() > 0 ? this->threads() : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    CompensatedSum<Real> row;
    for (std::size_t j = static_cast<std::size_t>(i) + 1; j < n; ++j) {
      const Real dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
      const Real eps2 = (eps2_[i] + eps2_[j]) * Real(0.5);
      const Real r2 = mul_add(dz, dz, mul_add(dy, dy, mul_add(dx, dx, eps2)));
      row.add(mass_[i] * mass_[j] / sqrt(r2));
    }
    rows[static_cast<std::size_t>(i)] = static_cast<double>(row.value());
  }
  CompensatedSum<double> total;
  for (double r : rows) total.add(r);
  return -options_.g * total.value();
}

template class DirectEngine<float>;
template class DirectEngine<double>;
template class DirectEngine<float128>;

}  // namespace orrery::cpu
