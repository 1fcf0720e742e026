// SPDX-License-Identifier: MIT
// ArrayDevice::combine with coefficients in the state's own type: out = y + h Σ_j c_j k_j.
//
// combine takes double coefficients, which would round a float128 coefficient (√15, a Gauss
// node) to 53 bits. A float128 c is instead passed as the sum of three doubles
// hi + mid + lo (hi = c rounded, mid = (c − hi) rounded, lo = c − hi − mid; each difference is
// exact, and 3 × 53 bits hold float128's 113), with k_j repeated for each part, so the device sums
// them in float128 and the coefficient keeps its precision. float and double coefficients are
// doubles exactly and pass as one term.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "orrery/device/array_device.hpp"

namespace orrery {

namespace detail {

// c as a sum of doubles, largest first; fewer parts where they suffice.
template <class Real>
int double_parts(Real c, std::array<double, 3>& parts) {
  if constexpr (std::is_same_v<Real, float> || std::is_same_v<Real, double>) {
    parts[0] = static_cast<double>(c);
    return 1;
  } else {
    int n = 0;
    Real rest = c;
    while (n < 3) {
      parts[n] = static_cast<double>(rest);
      rest -= Real(parts[n]);
      ++n;
      if (rest == Real(0)) break;
    }
    return n;
  }
}

}  // namespace detail

// Holds the expanded term lists between calls, so a step allocates nothing.
template <class Real>
class PreciseCombine {
 public:
  void operator()(ArrayDevice<Real>& device, DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y,
                  Real h, std::span<const Real> c,
                  std::span<const DeviceBuffer<Real>* const> k) {
    coefficients_.clear();
    terms_.clear();
    std::array<double, 3> parts;
    for (std::size_t j = 0; j < c.size(); ++j) {
      const int n = detail::double_parts(c[j], parts);
      for (int p = 0; p < n; ++p) {
        coefficients_.push_back(parts[p]);
        terms_.push_back(k[j]);
      }
    }
    device.combine(out, y, h, coefficients_, terms_);
  }

 private:
  std::vector<double> coefficients_;
  std::vector<const DeviceBuffer<Real>*> terms_;
};

}  // namespace orrery
