// SPDX-License-Identifier: MIT
// Gragg–Bulirsch–Stoer extrapolation for a large system x'' = a(x) (Hairer, Nørsett & Wanner,
// "Solving ODEs I", 2nd ed., §II.9 and §II.14): the lines of stoermer_tableau.hpp, extrapolated to
// T_{k,k} of order 2k.
//
// The basic method is the Störmer rule (leapfrog) rather than Gragg's modified midpoint rule on
// the first-order system (x, v): for x'' = a(x) it is the same kind of method at half the cost in
// storage (x and v, no two-step history), its error expands in powers of h² for every n without
// Gragg's smoothing step (it is a symmetric one-step method, §II.8), and it has no weakly unstable
// parasitic solution to damp (§II.14).
//
// Without a tolerance: Table::fixed_columns lines (or the columns given), every step accepted,
// no error estimate and no state. With one: the order and step control of ODEX
// (order_step_control.hpp), the error of line j measured as
//   err_j = max_i |T_{j,j} − T_{j,j−1}|_i / (tol · (1 + max(|y_i|, |T_{j,j},i|)))
// over positions and velocities (the maximum norm of ArrayDevice::max_scaled_error: the same
// value whatever order a device visits the elements in; the one value copied to the host). A
// rejected step leaves x and v exactly as they were; the control's k and its after-a-rejection
// flag do change (they are what the next try needs). The saved state is the scalars "columns",
// "rejected" and "started"; the next step size travels in the run's clock.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/extrapolation/order_step_control.hpp"
#include "orrery/integrate/extrapolation/stoermer_tableau.hpp"

namespace orrery {

template <ExtrapolationTable Table, class Real>
class ExtrapolationArrayStepper final : public ArrayStepper<Real> {
 public:
  // tolerance > 0: order and step control; 0: `columns` lines at a fixed step.
  explicit ExtrapolationArrayStepper(double tolerance, int columns = Table::fixed_columns)
      : tolerance_(tolerance), columns_(columns), control_(tolerance > 0 ? tolerance : 1.0) {
    if (columns < 1 || columns > Table::max_lines)
      throw ParameterError("columns", std::to_string(columns),
                           "1 to " + std::to_string(Table::max_lines));
  }

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    tableau_.start(system, x);
    if (tolerance_ <= 0) {
      for (int j = 1; j <= columns_; ++j) tableau_.line(system, x, v, h, j);
      accept(system.device(), x, v);
      return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
    }
    return controlled(system, x, v, h);
  }

  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override {
    state = StepperState<Real>();
    if (tolerance_ <= 0) return;
    state.set_scalar(kColumns, Real(control_.columns()));
    state.set_scalar(kRejected, control_.rejected() ? Real(1) : Real(0));
    state.set_scalar(kStarted, control_.started() ? Real(1) : Real(0));
  }

  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override {
    if (tolerance_ <= 0) {
      if (!state.empty()) throw InputError("extrapolation stepper: it keeps no state at a fixed step");
      return;
    }
    auto flag = [&](const char* name) {
      const Real value = state.scalar(name);
      if (value != Real(0) && value != Real(1))
        throw InputError("extrapolation stepper: not a state it saved");
      return value == Real(1);
    };
    const Real columns = state.scalar(kColumns);
    const bool rejected = flag(kRejected), started = flag(kStarted);
    if (!state.arrays().empty() || state.scalars().size() != 3 ||
        columns != Real(static_cast<int>(columns)) ||
        !control_.restore(static_cast<int>(columns), rejected, started))
      throw InputError("extrapolation stepper: not a state it saved");
  }

  void clear() override { control_.clear(); }

 private:
  static constexpr const char* kColumns = "columns";
  static constexpr const char* kRejected = "rejected";
  static constexpr const char* kStarted = "started";
  // ODEX's stability check watches the first substep of the first two lines.
  static constexpr int kCheckedLines = 2;

  // One attempt of ODEX's step (order_step_control.hpp says which lines, when to stop).
  StepReport<Real> controlled(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                              DeviceBuffer<Real>& v, Real h) {
    const double H = static_cast<double>(h);
    const int k = control_.columns();
    double err = 0;
    int kc = 0;
    // Line j; false when it diverges.
    auto line = [&](int j) {
      if (!tableau_.line(system, x, v, h, j, j <= kCheckedLines ? tolerance_ : 0)) return false;
      kc = j;
      if (j == 1) return true;
      err = scaled_error(system.device(), x, v);
      return control_.record(j, err, H);
    };
    auto accepted = [&]() {
      accept(system.device(), x, v);
      return StepReport<Real>{.taken = h, .accepted = true, .error = Real(err),
                              .next = Real(control_.accept(kc, H))};
    };
    auto rejected = [&]() {
      return StepReport<Real>{.taken = Real(0), .accepted = false, .error = Real(err),
                              .next = Real(control_.reject(kc))};
    };
    auto diverged = [&]() {
      return StepReport<Real>{.taken = Real(0), .accepted = false, .error = Real(err),
                              .next = Real(control_.abandon(H))};
    };
    control_.begin();
    if (!control_.started()) {  // the first step: the first line that converges
      for (int j = 1; j <= k; ++j) {
        if (!line(j)) return diverged();
        if (j > 1 && err <= 1) return accepted();
      }
    } else {
      for (int j = 1; j < k; ++j)
        if (!line(j)) return diverged();
      if (k > 2 && !control_.rejected()) {
        if (err <= 1) return accepted();
        if (err > control_.hopeless_before()) return rejected();
      }
      if (!line(k)) return diverged();
      if (err <= 1) return accepted();
    }
    if (err > control_.hopeless_at()) return rejected();
    if (!line(k + 1)) return diverged();
    return err <= 1 ? accepted() : rejected();
  }

  double scaled_error(ArrayDevice<Real>& device, const DeviceBuffer<Real>& x,
                      const DeviceBuffer<Real>& v) {
    const double ex = device.max_scaled_error(tableau_.difference(device, 0), x, tableau_.x(),
                                              tolerance_, tolerance_);
    const double ev = device.max_scaled_error(tableau_.difference(device, 1), v, tableau_.v(),
                                              tolerance_, tolerance_);
    return std::max(ex, ev);
  }

  void accept(ArrayDevice<Real>& device, DeviceBuffer<Real>& x, DeviceBuffer<Real>& v) {
    device.copy(tableau_.x(), x);
    device.copy(tableau_.v(), v);
  }

  double tolerance_;
  int columns_;
  OrderStepControl<Table> control_;
  StoermerTableau<Table, Real> tableau_;
};

}  // namespace orrery
