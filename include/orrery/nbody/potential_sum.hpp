// SPDX-License-Identifier: MIT
// The potential energy from per-particle potentials, W = ½ Σ_i m_i φ_i (φ_i already holds −G),
// summed with compensation in double (or wider, for float128 particles) so the sum's rounding is
// far below the approximation of the engine that gave φ. Approximate engines (trees) use it for
// ForceEngine::potential_energy.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

template <class Real>
double potential_energy_from_potentials(std::span<const Real> mass, std::span<const Real> phi) {
  using A = std::conditional_t<(sizeof(Real) > sizeof(double)), Real, double>;
  CompensatedSum<A> sum;
  for (std::size_t i = 0; i < mass.size(); ++i)
    sum.add(static_cast<A>(mass[i]) * static_cast<A>(phi[i]));
  return static_cast<double>(sum.value() / A(2));
}

// W from the potentials `engine` computes where its particles are: accelerations and potentials
// into `a` and `phi` (buffers on its device, grown to 3N and N values as needed), φ copied to
// the host and summed as above.
template <class Real>
double potential_energy_from_engine(ForceEngine<Real>& engine, const DeviceBuffer<Real>& x,
                                    DeviceBuffer<Real>& a, DeviceBuffer<Real>& phi,
                                    std::span<const Real> mass) {
  const std::size_t n = mass.size();
  ArrayDevice<Real>& device = engine.device();
  if (a.size() < 3 * n) a = device.allocate(3 * n);
  if (phi.size() < n) phi = device.allocate(n);
  engine.accelerations_and_potentials(x, a, phi);
  std::vector<Real> host(n);
  device.copy_to_host(phi, host);
  return potential_energy_from_potentials<Real>(mass, host);
}

}  // namespace orrery
