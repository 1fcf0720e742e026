// SPDX-License-Identifier: MIT
// IAS15's entry in the list of integrators (integrate/integrator_tables.hpp): its name, order
// and family, and the defaults of its step control. The method's coefficients are derived from
// the Gauss–Radau spacings (ias15/gauss_radau.hpp), host-only like its array stepper
// (ias15/array_stepper.hpp); this header stays free of them, as the GPU map includes the list.
#pragma once

#include <string_view>

#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

struct Ias15 {
  static constexpr std::string_view name = "ias15";
  static constexpr std::string_view description =
      "Gauss–Radau predictor–corrector with step control (Everhart 1985; Rein & Spiegel 2015)";
  static constexpr int order = 15;
  static constexpr IntegratorFamily family = IntegratorFamily::ias15;
  // Force evaluations of a step whose predictor–corrector iteration converges in two passes
  // (one at the start, seven per pass); a hard step takes more.
  static constexpr int typical_force_evaluations = 1 + 7 * 2;
  // ε_b of Rein & Spiegel (2015, §3.3), when --tolerance is not given.
  static constexpr double default_tolerance = 1e-9;
  // Not in fp32: the step control weighs b₆ against the acceleration, and fp32's rounding of the
  // divided differences alone makes b₆/a ~10⁻⁵, so no ε_b that fp32 can resolve keeps the
  // Pythagorean problem's encounters (docs/guide/integrators.md, "IAS15").
  static constexpr bool fp32 = false;
};

}  // namespace orrery
