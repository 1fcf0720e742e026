// SPDX-License-Identifier: MIT
// The Adams methods of multistep/adams_methods.hpp for a large system whose state lives on the
// system's device. A step from (x_n, v_n) with f_j = (V_j, A_j) = (v_j, a(x_j)):
//
//   starting (fewer than k − 1 earlier values held):
//     one step of the Starter tableau (runge_kutta/array_stepper.hpp's stages); its first stage
//     is f_n, kept as the newest history value
//   then:
//     f_n = (v_n, a(x_n));  x ← x + h Σ_j β_j V_{n−j},  v ← v + h Σ_j β_j A_{n−j}   (AB k)
//     with a corrector (PECE): that sum gives (x*, v*); f* = (v*, a(x*));
//     x ← x_n + h (β*_0 v* + Σ_{j≥1} β*_j V_{n+1−j}), v likewise with a(x*) and A   (AM4)
//
// Every sum is one ArrayDevice::combine, so the bits follow the contract of
// docs/guide/integrators.md and do not depend on the device; the history rotates by index, never
// by copying.
//
// The weights hold only for values exactly h apart. A step of another size than the history's
// (the run shortening a step to land on an output time, and the regular step after it)
// therefore starts the method again from the current state: the starter takes that step and the
// next k − 2, and the order of the method holds across the change (what an Adams method with
// variable steps or an interpolated history would also give, at the cost of a few starter steps
// per change instead of new weights every step).
//
// State (save/load): scalars "history_steps" (m, the earlier values held: 0 … k − 1) and
// "history_step_size" (the h they lie apart), arrays "velocity_j" and "acceleration_j"
// (j = 1 … m, the values of j steps before the current state, 3N each). No error estimate;
// every step is accepted.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/multistep/adams_methods.hpp"
#include "orrery/integrate/runge_kutta/array_stepper.hpp"

namespace orrery {

template <StartedAdamsMethod Table, class Real>
class AdamsArrayStepper final : public ArrayStepper<Real> {
  static constexpr int K = Table::steps;
  using Starter = typename Table::Starter;
  static constexpr int S = Starter::stages;
  // The weights rounded to Real once (the Adams weights are the table's doubles, exact for
  // ab1–ab2 and rounded fractions beyond; the starter's come at the run's precision).
  static const std::array<Real, S>& starter_b() { return detail::TableauArrays<Starter, Real>::get().b; }
  template <std::size_t N>
  static std::array<Real, N> in_real(const double (&w)[N]) {
    std::array<Real, N> r{};
    for (std::size_t j = 0; j < N; ++j) r[j] = static_cast<Real>(w[j]);
    return r;
  }
  static const auto& predictor() {
    static const auto weights = in_real(Table::predictor);
    return weights;
  }
  static const auto& corrector() {
    static const auto weights = in_real(Table::corrector);
    return weights;
  }

 public:
  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
    if (h != step_size_) held_ = 0;
    step_size_ = h;
    // The oldest slot takes f_n.
    int oldest = order_[K - 1];
    for (int j = K - 1; j > 0; --j) order_[j] = order_[j - 1];
    order_[0] = oldest;
    if (held_ < K - 1)
      starter_step(system, x, v, h);
    else
      adams_step(system, x, v, h);
    if (held_ < K - 1) ++held_;
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const override {
    state = StepperState<Real>();
    state.set_scalar(kHeld, Real(held_));
    state.set_scalar(kStepSize, step_size_);
    for (int j = 1; j <= held_; ++j) {
      std::vector<Real> host(size_);
      system.device().copy_to_host(velocity_[slot(j)], host);
      state.set_array(velocity_name(j), host);
      system.device().copy_to_host(acceleration_[slot(j)], host);
      state.set_array(acceleration_name(j), std::move(host));
    }
  }

  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) override {
    const Real held = state.scalar(kHeld);
    const Real step_size = state.scalar(kStepSize);
    if (!(held >= Real(0) && held < Real(K))) throw foreign_state();
    const int m = static_cast<int>(held);
    const bool sized = state.scalars().size() == 2 && Real(m) == held &&
                       state.arrays().size() == static_cast<std::size_t>(2 * m);
    const std::vector<Real>* first = m > 0 ? state.find_array(velocity_name(1)) : nullptr;
    if (!sized || (m > 0 && first == nullptr)) throw foreign_state();
    held_ = 0;
    if (m > 0) prepare(system.device(), first->size());
    for (int j = 1; j <= m; ++j) {
      const std::vector<Real>* vj = state.find_array(velocity_name(j));
      const std::vector<Real>* aj = state.find_array(acceleration_name(j));
      if (vj == nullptr || aj == nullptr || vj->size() != size_ || aj->size() != size_)
        throw foreign_state();
      system.device().copy_to_device(*vj, velocity_[slot(j)]);
      system.device().copy_to_device(*aj, acceleration_[slot(j)]);
    }
    held_ = m;
    step_size_ = step_size;
  }

  void clear() override { held_ = 0; }

 private:
  static constexpr const char* kHeld = "history_steps";
  static constexpr const char* kStepSize = "history_step_size";
  static std::string velocity_name(int j) { return "velocity_" + std::to_string(j); }
  static std::string acceleration_name(int j) { return "acceleration_" + std::to_string(j); }
  static InputError foreign_state() {
    return InputError(std::string(Table::name) + " stepper: not a state it saved");
  }

  // Between steps, the value of j steps before the current state (j ≥ 1).
  int slot(int j) const { return order_[static_cast<std::size_t>(j - 1)]; }

  void starter_step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                    DeviceBuffer<Real>& v, Real h) {
    ArrayDevice<Real>& device = system.device();
    starter_.run(system, x, v, h);
    device.copy(v, velocity_[order_[0]]);
    device.copy(*starter_.A[0], acceleration_[order_[0]]);
    // x first: it reads v itself (as V_1), which the second update then overwrites.
    device.combine(x, x, h, starter_b(), std::span(starter_.V, S));
    device.combine(v, v, h, starter_b(), std::span(starter_.A, S));
  }

  void adams_step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                  DeviceBuffer<Real>& v, Real h) {
    ArrayDevice<Real>& device = system.device();
    system.accelerations(x, acceleration_[order_[0]]);
    device.copy(v, velocity_[order_[0]]);
    const DeviceBuffer<Real>* V[K];
    const DeviceBuffer<Real>* A[K];
    for (int j = 0; j < K; ++j) {
      V[j] = &velocity_[order_[j]];
      A[j] = &acceleration_[order_[j]];
    }
    if constexpr (!AdamsPredictorCorrector<Table>) {
      device.combine(x, x, h, predictor(), V);
      device.combine(v, v, h, predictor(), A);
    } else {
      device.combine(predicted_x_, x, h, predictor(), V);
      device.combine(predicted_v_, v, h, predictor(), A);
      system.accelerations(predicted_x_, predicted_a_);
      // The corrector's terms: f* first, then f_n, f_{n−1}, f_{n−2}.
      for (int j = K - 1; j > 0; --j) {
        V[j] = V[j - 1];
        A[j] = A[j - 1];
      }
      V[0] = &predicted_v_;
      A[0] = &predicted_a_;
      device.combine(x, x, h, corrector(), V);
      device.combine(v, v, h, corrector(), A);
    }
  }

  // The history buffers on this device for n values; new ones hold no history.
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && size_ == n) return;
    for (int j = 0; j < K; ++j) {
      velocity_[j] = device.allocate(n);
      acceleration_[j] = device.allocate(n);
      order_[j] = j;
    }
    if constexpr (AdamsPredictorCorrector<Table>) {
      predicted_x_ = device.allocate(n);
      predicted_v_ = device.allocate(n);
      predicted_a_ = device.allocate(n);
    }
    held_ = 0;
    device_ = &device;
    size_ = n;
  }

  RkStages<Starter, Real> starter_;
  const ArrayDevice<Real>* device_ = nullptr;
  std::size_t size_ = 0;
  std::array<DeviceBuffer<Real>, K> velocity_;
  std::array<DeviceBuffer<Real>, K> acceleration_;
  std::array<int, K> order_{};  // order_[j]: the slot of f_{n−j} during a step
  DeviceBuffer<Real> predicted_x_, predicted_v_, predicted_a_;
  int held_ = 0;  // earlier values held, at most K − 1
  Real step_size_ = Real(0);
};

}  // namespace orrery
