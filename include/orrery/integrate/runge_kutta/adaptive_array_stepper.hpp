// SPDX-License-Identifier: MIT
// Step-size control for an embedded Runge–Kutta pair (runge_kutta/embedded_pairs.hpp) on a large
// system (Hairer, Nørsett & Wanner, "Solving ODEs I", §II.4): the stages of array_stepper.hpp,
// then the candidate y₁ = y + h Σ b_i k_i and the error estimate e = h Σ (b_i − b̂_i) k_i for
// positions and velocities alike, measured in the maximum norm against atol = rtol = tolerance;
// err ≤ 1 accepts the step (y ← y₁), otherwise x and v stay exactly as they were; either way the
// next step is the control's (runge_kutta/step_control.hpp, shared with the ensembles).
// The stepper keeps nothing between steps: the next step size travels in the run's clock (dt), so
// a checkpoint holds all of it and a resumed run takes the same steps.
#pragma once

#include <algorithm>
#include <cmath>

#include "orrery/integrate/runge_kutta/array_stepper.hpp"
#include "orrery/integrate/runge_kutta/embedded_pair.hpp"
#include "orrery/integrate/runge_kutta/step_control.hpp"

namespace orrery {

namespace detail {

// b and b − b̂ rounded to Real, formed once per pair and precision.
template <EmbeddedPair Tableau, class Real>
struct PairArrays {
  static constexpr int S = Tableau::stages;
  std::array<Real, S> b{}, error{};

  static const PairArrays& get() {
    static const PairArrays arrays = [] {
      PairArrays t;
      t.b = TableauArrays<Tableau, Real>::get().b;
      for (int i = 0; i < S; ++i) {
        if constexpr (requires { Tableau::error_weight(0); })
          t.error[i] = coefficient_as<Real>(as_coefficient(Tableau::error_weight(i)));
        else
          t.error[i] = coefficient_difference<Real>(as_coefficient(Tableau::b(i)),
                                                    as_coefficient(Tableau::b_embedded(i)));
      }
      return t;
    }();
    return arrays;
  }
};

}  // namespace detail

template <EmbeddedPair Tableau, class Real>
class AdaptiveRkArrayStepper final : public ArrayStepper<Real> {
  static constexpr int S = Tableau::stages;
  using Control = EmbeddedStepControl<Tableau>;

 public:
  explicit AdaptiveRkArrayStepper(double tolerance) : tolerance_(tolerance) {}

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
    const auto& weights = detail::PairArrays<Tableau, Real>::get();
    stages_.run(system, x, v, h);
    const auto V = std::span(stages_.V, S);
    const auto A = std::span(stages_.A, S);
    device.combine(new_x_, x, h, weights.b, V);
    device.combine(new_v_, v, h, weights.b, A);
    device.combine(error_, zero_, h, weights.error, V);
    double err = device.max_scaled_error(error_, x, new_x_, tolerance_, tolerance_);
    device.combine(error_, zero_, h, weights.error, A);
    err = std::max(err, device.max_scaled_error(error_, v, new_v_, tolerance_, tolerance_));
    const Real next = h * static_cast<Real>(Control::factor(err));
    if (!Control::accepts(err))  // a NaN error rejects too
      return {.taken = Real(0), .accepted = false, .error = static_cast<Real>(err), .next = next};
    device.copy(new_x_, x);
    device.copy(new_v_, v);
    return {.taken = h, .accepted = true, .error = static_cast<Real>(err), .next = next};
  }

  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override {
    state = StepperState<Real>();
  }
  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override {
    if (!state.empty()) throw InputError("Runge–Kutta stepper: it keeps no state to load");
  }
  void clear() override {}

 private:
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && size_ == n) return;
    new_x_ = device.allocate(n);
    new_v_ = device.allocate(n);
    error_ = device.allocate(n);
    zero_ = device.allocate(n);  // allocate() gives zeros
    device_ = &device;
    size_ = n;
  }

  double tolerance_;
  RkStages<Tableau, Real> stages_;
  const ArrayDevice<Real>* device_ = nullptr;
  std::size_t size_ = 0;
  DeviceBuffer<Real> new_x_, new_v_, error_, zero_;
};

}  // namespace orrery
