// SPDX-License-Identifier: MIT
// The implicit collocation step (implicit/nystrom_coefficients.hpp) for a large system whose
// state lives on the system's device:
//
//   X_i = x + h (c_i v + h Σ_j ā_ij A_j),   A_i = a(X_i)       the stage equations
//   x  ← x + h (v + h Σ_j b̄_j A_j),         v ← v + h Σ_j b_j A_j
//
// The stage equations are solved by fixed-point iteration on the stage accelerations (GNI
// §VIII.6): a sweep computes every X_i from the current A and evaluates a(X_i) for all of them
// (Jacobi), until implicit/fixed_point_rule.hpp says the A have converged to rounding; it
// contracts for steps below about one over the system's fastest frequency, as an explicit method
// needs anyway. A stage whose row of ā is zero (the first of the trapezoid and of Lobatto) does not
// depend on A: it is evaluated once per step.
//
// The iteration starts from the previous step's collocation polynomial extrapolated
// (GNI §VIII.6.1): the A_j of the last step at its nodes c_j define the polynomial P of degree
// s − 1 with P(c_j) = A_j, and A_i ← P(1 + θ c_i), θ = h / h_previous, accurate to O(h^s). After a
// much shorter step (|θ| > kMaxExtrapolation, as at an output time) it takes P(1) instead; with no
// previous step (the first, or after clear()) every stage starts from a(x). The last step's A and
// h are therefore the stepper's state: save() writes them ("stage_accelerations", s·3N values,
// stage after stage, and the scalar "previous_step"; both only after a step, with the scalar
// "history" 1, else "history" 0 alone), load() puts them back, so a resumed run starts each
// iteration where the uninterrupted one did and gives its bits.
//
// Every coefficient is in the state's type (ArrayDevice::combine takes them so). Δ needs the maximum of the
// stage accelerations and of their change, taken on the host after copying them out (as the step
// control of the explicit pairs does; a reduction on the device is to come). An iteration that
// fails throws RunError before x, v or the state change. No error estimate; every step that
// converges is accepted.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/implicit/fixed_point_rule.hpp"
#include "orrery/integrate/implicit/nystrom_coefficients.hpp"

namespace orrery {

template <CollocationTable Table, class Real>
class ImplicitArrayStepper final : public ArrayStepper<Real> {
  static constexpr int S = Table::stages;

 public:
  // The predictor extrapolates the last step's polynomial at most this many of its steps ahead;
  // beyond, its error grows like |θ|^s and the prediction is worth less than P(1).
  static constexpr double kMaxExtrapolation = 2.0;

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
    evaluate_explicit_stages(system, x, v, h);
    predict(system, x, h);
    solve_stage_equations(system, x, v, h);
    // x first: it reads v, which the second update overwrites.
    Real position_weights[S + 1], velocity_weights[S];
    const DeviceBuffer<Real>* terms[S + 1];
    position_weights[0] = Real(1);
    terms[0] = &v;
    for (int j = 0; j < S; ++j) {
      position_weights[j + 1] = h * k_.b_bar[j];
      velocity_weights[j] = k_.b[j];
      terms[j + 1] = &values_[j];
    }
    device.combine(x, x, h, position_weights, terms);
    device.combine(v, v, h, velocity_weights, std::span(terms + 1, S));
    for (int j = 0; j < S; ++j) std::swap(values_[j], history_[j]);
    previous_step_ = h;
    has_history_ = true;
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const override {
    state = StepperState<Real>();
    state.set_scalar(kHistory, has_history_ ? Real(1) : Real(0));
    if (!has_history_) return;
    const std::size_t n = history_[0].size();
    std::vector<Real> all(S * n);
    for (int j = 0; j < S; ++j)
      system.device().copy_to_host(history_[j], std::span(all).subspan(j * n, n));
    state.set_array(kStages, std::move(all));
    state.set_scalar(kPreviousStep, previous_step_);
  }

  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) override {
    const bool history = state.scalar(kHistory) != Real(0);
    const std::vector<Real>* all = state.find_array(kStages);
    const std::size_t scalars = history ? 2 : 1;
    if (history != (all != nullptr) || state.arrays().size() != (history ? 1u : 0u) ||
        state.scalars().size() != scalars || (all && all->size() % S != 0))
      throw InputError(fmt::format("{} stepper: not a state it saved", Table::name));
    has_history_ = false;
    if (!history) return;
    const Real previous = state.scalar(kPreviousStep);
    ArrayDevice<Real>& device = system.device();
    const std::size_t n = all->size() / S;
    prepare(device, n);
    for (int j = 0; j < S; ++j)
      device.copy_to_device(std::span(*all).subspan(j * n, n), history_[j]);
    previous_step_ = previous;
    has_history_ = true;
  }

  void clear() override { has_history_ = false; }

 private:
  static constexpr const char* kHistory = "history";
  static constexpr const char* kStages = "stage_accelerations";
  static constexpr const char* kPreviousStep = "previous_step";

  static constexpr int mantissa_bits() {
    if constexpr (std::numeric_limits<Real>::is_specialized)
      return std::numeric_limits<Real>::digits;
    else
      return 113;  // float128, which the library's strict C++ mode gives no numeric_limits
  }

  // X_i = x + c_i h v for the stages that do not depend on A, and their a(X_i).
  void evaluate_explicit_stages(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x,
                                const DeviceBuffer<Real>& v, Real h) {
    for (int i = 0; i < S; ++i) {
      if (!k_.stage_is_explicit(i)) continue;
      if (k_.c[i] == Real(0)) {
        system.accelerations(x, values_[i]);
        continue;
      }
      const Real c[1] = {k_.c[i]};
      const DeviceBuffer<Real>* term[1] = {&v};
      system.device().combine(position_, x, h, c, term);
      system.accelerations(position_, values_[i]);
    }
  }

  // The implicit stages' starting A (see the header).
  void predict(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x, Real h) {
    ArrayDevice<Real>& device = system.device();
    if (!has_history_) {
      const DeviceBuffer<Real>* at_x = nullptr;
      for (int i = 0; i < S && !at_x; ++i)
        if (k_.stage_is_explicit(i) && k_.c[i] == Real(0)) at_x = &values_[i];
      for (int i = 0; i < S; ++i) {
        if (k_.stage_is_explicit(i)) continue;
        if (!at_x) {
          system.accelerations(x, values_[i]);
          at_x = &values_[i];
        } else {
          device.copy(*at_x, values_[i]);
        }
      }
      return;
    }
    Real theta = h / previous_step_;
    if (!(std::abs(static_cast<double>(theta)) <= kMaxExtrapolation)) theta = Real(0);
    const DeviceBuffer<Real>* past[S];
    for (int j = 0; j < S; ++j) past[j] = &history_[j];
    for (int i = 0; i < S; ++i) {
      if (k_.stage_is_explicit(i)) continue;
      // P(τ) = Σ_j ℓ_j(τ) A_j, written as A_1 + Σ_j (ℓ_j(τ) − δ_1j) A_j for combine's form.
      const Real tau = Real(1) + theta * k_.c[i];
      Real weights[S];
      for (int j = 0; j < S; ++j) {
        Real l(1);
        for (int m = 0; m < S; ++m)
          if (m != j) l *= (tau - k_.c[m]) / (k_.c[j] - k_.c[m]);
        weights[j] = j == 0 ? l - Real(1) : l;
      }
      device.combine(values_[i], history_[0], Real(1), weights, past);
    }
  }

  // Sweeps until the rule says converged; throws RunError when it says failed.
  void solve_stage_equations(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x,
                             const DeviceBuffer<Real>& v, Real h) {
    ArrayDevice<Real>& device = system.device();
    FixedPointRule rule(mantissa_bits());
    const DeviceBuffer<Real>* terms[S + 1];
    terms[0] = &v;
    for (int j = 0; j < S; ++j) terms[j + 1] = &values_[j];
    for (;;) {
      Real largest(0), change(0);
      for (int i = 0; i < S; ++i) {
        if (k_.stage_is_explicit(i)) continue;
        Real weights[S + 1];
        weights[0] = k_.c[i];
        for (int j = 0; j < S; ++j) weights[j + 1] = h * k_.a_bar[i][j];
        device.combine(position_, x, h, weights, terms);
        system.accelerations(position_, next_[i]);
        measure(device, next_[i], values_[i], largest, change);
      }
      for (int i = 0; i < S; ++i)
        if (!k_.stage_is_explicit(i)) std::swap(values_[i], next_[i]);
      // Where every acceleration vanishes, a change from nonzero ones is a whole one.
      const double relative = largest > Real(0) ? static_cast<double>(change / largest)
                              : change > Real(0) ? 1.0 : 0.0;
      switch (rule.after_sweep(relative)) {
        case FixedPointRule::Verdict::iterate: continue;
        case FixedPointRule::Verdict::converged: return;
        case FixedPointRule::Verdict::failed:
          throw RunError(fmt::format(
              "{}: the stage equations did not converge at step {} (fixed-point iteration, "
              "{} sweeps, last relative change {:.3g}); take a smaller step",
              Table::name, static_cast<double>(h), rule.sweeps(), rule.last_change()));
      }
    }
  }

  // largest ← max(largest, max |now|), change ← max(change, max |now − before|), on the host.
  void measure(ArrayDevice<Real>& device, const DeviceBuffer<Real>& now,
               const DeviceBuffer<Real>& before, Real& largest, Real& change) {
    device.copy_to_host(now, host_now_);
    device.copy_to_host(before, host_before_);
    for (std::size_t e = 0; e < host_now_.size(); ++e) {
      const Real a = host_now_[e] < Real(0) ? -host_now_[e] : host_now_[e];
      const Real d = host_now_[e] - host_before_[e];
      largest = std::max(largest, a);
      change = std::max(change, d < Real(0) ? -d : d);
    }
  }

  // Buffers for n values on this device; new ones hold no history.
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && position_.size() == n) return;
    for (int j = 0; j < S; ++j) {
      values_[j] = device.allocate(n);
      next_[j] = device.allocate(n);
      history_[j] = device.allocate(n);
    }
    position_ = device.allocate(n);
    host_now_.resize(n);
    host_before_.resize(n);
    has_history_ = false;
    device_ = &device;
  }

  const NystromCoefficients<S, Real> k_ = nystrom_coefficients<Table, Real>();
  const ArrayDevice<Real>* device_ = nullptr;
  std::array<DeviceBuffer<Real>, S> values_, next_, history_;
  DeviceBuffer<Real> position_;
  std::vector<Real> host_now_, host_before_;
  Real previous_step_ = Real(0);
  bool has_history_ = false;
};

}  // namespace orrery
