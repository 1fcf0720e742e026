// SPDX-License-Identifier: MIT
// The splitting step of integrate/splitting/register_stepper.hpp for a large system whose state
// lives on a force engine's device:
//
//   for each operation of the table, in order:
//     drift c:  x ← x + c h v          kick d:  v ← v + d h a(x)
//
// Every update is one ForceEngine::combine with one term, which is the register stepper's
// arithmetic, so the two steppers agree bit for bit when the engine's accelerations do.
//
// First same as last: a(x) is evaluated before a kick only when a drift moved x since the last
// evaluation, and kept between steps, so a table ending with a kick (leapfrog, Yoshida) hands its
// accelerations to the next step's first kick. reset() drops them; since a(x) is a function of x
// alone, a step gives the same bits with or without reset(), which makes a resumed run equal an
// uninterrupted one.
#pragma once

#include <cstddef>

#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <SplittingTable Table, class Real>
class SplittingArrayStepper final : public ArrayStepper<Real> {
 public:
  void step(ForceEngine<Real>& engine, DeviceBuffer<Real>& x, DeviceBuffer<Real>& v,
            Real h) override {
    prepare(engine, x);
    for (const SplitOp& op : Table::ops) {
      if (op.coefficient == 0.0) continue;
      if (op.kind == SplitKind::drift) {
        update(engine, x, h, op.coefficient, v);
        accel_current_ = false;
      } else {
        if (!accel_current_) engine.accelerations(x, accel_);
        accel_current_ = true;
        update(engine, v, h, op.coefficient, accel_);
      }
    }
  }

  void reset() override { accel_current_ = false; }

 private:
  // y ← y + c h k.
  static void update(ForceEngine<Real>& engine, DeviceBuffer<Real>& y, Real h, double c,
                     const DeviceBuffer<Real>& k) {
    const double coefficient[1] = {c};
    const DeviceBuffer<Real>* term[1] = {&k};
    engine.combine(y, y, h, coefficient, term);
  }

  // The acceleration buffer on this engine's device; the kept a(x) belongs to one engine and one
  // position buffer, and is dropped when either changes.
  void prepare(ForceEngine<Real>& engine, const DeviceBuffer<Real>& x) {
    if (engine_ != &engine || accel_.size() != x.size()) {
      accel_ = engine.allocate(x.size());
      accel_current_ = false;
    }
    if (x_ != &x || x_data_ != x.data()) accel_current_ = false;
    engine_ = &engine;
    x_ = &x;
    x_data_ = x.data();
  }

  const ForceEngine<Real>* engine_ = nullptr;
  const DeviceBuffer<Real>* x_ = nullptr;
  const Real* x_data_ = nullptr;
  DeviceBuffer<Real> accel_;
  bool accel_current_ = false;
};

}  // namespace orrery
