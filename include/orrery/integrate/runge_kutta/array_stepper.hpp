// SPDX-License-Identifier: MIT
// The explicit Runge–Kutta step of integrate/runge_kutta/register_stepper.hpp for a large system whose
// state lives on the system's device:
//
//   X_i = x + h Σ_{j<i} a_ij V_j,   V_i = v + h Σ_{j<i} a_ij A_j,   A_i = a(X_i)
//   x  ← x + h Σ_i b_i V_i,        v  ← v + h Σ_i b_i A_i
//
// Every sum is one ArrayDevice::combine, whose evaluation order is the register stepper's, so a
// system that computes the accelerations of a small system with the register right-hand side's
// bits makes the two steppers agree bit for bit. A stage whose row of a is zero uses x and v
// themselves (no copy). Stage buffers are allocated once, on the system's device; nothing is read
// back to the host. The method keeps nothing between steps (its state is empty) and has no error
// estimate; every step is accepted.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"

namespace orrery {

namespace detail {

// The tableau's coefficients rounded to Real (runge_kutta/coefficient.hpp), the form
// ArrayDevice::combine takes; formed once per tableau and precision.
template <ButcherTableau Tableau, class Real>
struct TableauArrays {
  static constexpr int S = Tableau::stages;
  std::array<std::array<Real, S>, S> a{};
  std::array<Real, S> b{};

  static const TableauArrays& get() {
    static const TableauArrays arrays = [] {
      TableauArrays t;
      for (int i = 0; i < S; ++i) {
        for (int j = 0; j < i; ++j) t.a[i][j] = coefficient_as<Real>(as_coefficient(Tableau::a(i, j)));
        t.b[i] = coefficient_as<Real>(as_coefficient(Tableau::b(i)));
      }
      return t;
    }();
    return arrays;
  }
  static constexpr bool row_is_zero(int i) {
    for (int j = 0; j < i; ++j)
      if (as_coefficient(Tableau::a(i, j)).value != 0.0) return false;
    return true;
  }
};

}  // namespace detail

// The stages of one step: X_i, V_i and A_i = a(X_i) on the system's device, in buffers
// allocated once. After run(), V[i] and A[i] point at the stages' velocities and accelerations
// (V[i] is v itself where row i of a is zero).
template <ButcherTableau Tableau, class Real>
class RkStages {
  using Arrays = detail::TableauArrays<Tableau, Real>;
  static constexpr int S = Tableau::stages;
  static_assert(S <= kMaxCombineTerms, "more stages than ArrayDevice::combine takes");

 public:
  const DeviceBuffer<Real>* V[S];
  const DeviceBuffer<Real>* A[S];

  void run(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x,
           const DeviceBuffer<Real>& v, Real h) {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
    const auto& a = Arrays::get().a;
    for (int i = 0; i < S; ++i) {
      const auto earlier = static_cast<std::size_t>(i);
      const DeviceBuffer<Real>* X = &x;
      V[i] = &v;
      if (!Arrays::row_is_zero(i)) {
        const std::span<const Real> row(a[i].data(), earlier);
        device.combine(stage_x_, x, h, row, std::span(V, earlier));
        device.combine(stage_v_[i], v, h, row, std::span(A, earlier));
        X = &stage_x_;
        V[i] = &stage_v_[i];
      }
      system.accelerations(*X, stage_a_[i]);
      A[i] = &stage_a_[i];
    }
  }

 private:
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && size_ == n) return;
    bool any_combined_stage = false;
    for (int i = 0; i < S; ++i) {
      if (!Arrays::row_is_zero(i)) {
        any_combined_stage = true;
        stage_v_[i] = device.allocate(n);
      }
      stage_a_[i] = device.allocate(n);
    }
    stage_x_ = any_combined_stage ? device.allocate(n) : DeviceBuffer<Real>();
    device_ = &device;
    size_ = n;
  }

  const ArrayDevice<Real>* device_ = nullptr;
  std::size_t size_ = 0;
  DeviceBuffer<Real> stage_x_;
  std::array<DeviceBuffer<Real>, S> stage_v_;
  std::array<DeviceBuffer<Real>, S> stage_a_;
};

template <ButcherTableau Tableau, class Real>
class RkArrayStepper final : public ArrayStepper<Real> {
  static constexpr int S = Tableau::stages;

 public:
  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    const auto& b = detail::TableauArrays<Tableau, Real>::get().b;
    stages_.run(system, x, v, h);
    // x first: it may read v itself (as V_1), which the second update then overwrites.
    device.combine(x, x, h, b, std::span(stages_.V, S));
    device.combine(v, v, h, b, std::span(stages_.A, S));
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override {
    state = StepperState<Real>();
  }
  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override {
    if (!state.empty()) throw InputError("Runge–Kutta stepper: it keeps no state to load");
  }
  void clear() override {}

 private:
  RkStages<Tableau, Real> stages_;
};

}  // namespace orrery
