// SPDX-License-Identifier: MIT
// What an array stepper says about the step it was asked to take.
#pragma once

#include <optional>

namespace orrery {

template <class Real>
struct StepReport {
  // The step the state advanced by: the h the stepper was given when accepted, 0 when rejected.
  Real taken = Real(0);
  // Whether x and v moved. A rejected step leaves them exactly as they were (and the stepper's own
  // state too), so the caller may try again with `next`.
  bool accepted = true;
  // The method's estimate of the step's local error, in its own norm scaled by its tolerance
  // (≤ 1: acceptable). std::nullopt: the method has no estimate (every fixed-step method).
  std::optional<Real> error;
  // The step size the stepper suggests next: h itself for a fixed-step method.
  Real next = Real(0);
};

}  // namespace orrery
