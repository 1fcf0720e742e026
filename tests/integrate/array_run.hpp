// SPDX-License-Identifier: MIT
// A small system advanced by an array stepper on the "direct" CPU engine, with its state read
// back as a BodyState, so array and register steppers can be compared directly.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "orrery/nbody/engines.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery::test {

template <class Real, int N>
class ArrayRun {
 public:
  // `cpu_kernel` "generic" gives the engine the exact pair factor of the plain loop (the
  // register steppers' arithmetic); "" takes the fastest the CPU runs.
  ArrayRun(std::string_view integrator, const BodyState<Real, N>& s, const Real (&mass)[N],
           double g = 1.0, std::string cpu_kernel = "")
      : engine_(make_force_engine<Real>(
            "direct", EngineOptions{.g = g, .softening = 0.0, .threads = 1,
                                    .cpu_kernel = std::move(cpu_kernel)})),
        stepper_(make_array_stepper<Real>(integrator)) {
    engine_->set_bodies(std::vector<Real>(mass, mass + N), {});
    stepper_->set_gravity(g, std::vector<Real>(mass, mass + N));
    x_ = engine_->device().allocate(3 * N);
    v_ = engine_->device().allocate(3 * N);
    set_state(s);
  }

  void step(Real h) { stepper_->step(*engine_, x_, v_, h); }
  // A step through another system that shares this engine's device (a wrapper around it).
  void step(SecondOrderSystem<Real>& system, Real h) { stepper_->step(system, x_, v_, h); }
  ArrayStepper<Real>& stepper() { return *stepper_; }
  DeviceBuffer<Real>& x() { return x_; }
  DeviceBuffer<Real>& v() { return v_; }
  ForceEngine<Real>& engine() { return *engine_; }

  // Replaces the state, as a resume from a checkpoint does (the stepper is told by load() or
  // clear()).
  void set_state(const BodyState<Real, N>& s) {
    std::vector<Real> x(3 * N), v(3 * N);
    for (int n = 0; n < N; ++n)
      for (int axis = 0; axis < 3; ++axis) {
        x[axis * N + n] = component(s.x[n], axis);
        v[axis * N + n] = component(s.v[n], axis);
      }
    engine_->device().copy_to_device(x, x_);
    engine_->device().copy_to_device(v, v_);
  }

  BodyState<Real, N> state() const {
    std::vector<Real> x(3 * N), v(3 * N);
    engine_->device().copy_to_host(x_, x);
    engine_->device().copy_to_host(v_, v);
    BodyState<Real, N> s;
    for (int n = 0; n < N; ++n)
      for (int axis = 0; axis < 3; ++axis) {
        component(s.x[n], axis) = x[axis * N + n];
        component(s.v[n], axis) = v[axis * N + n];
      }
    return s;
  }

 private:
  std::unique_ptr<ForceEngine<Real>> engine_;
  std::unique_ptr<ArrayStepper<Real>> stepper_;
  DeviceBuffer<Real> x_, v_;
};

}  // namespace orrery::test
