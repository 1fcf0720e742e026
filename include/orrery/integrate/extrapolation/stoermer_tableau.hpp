// SPDX-License-Identifier: MIT
// The extrapolation tableau of a basic step H on a large system x'' = a(x) whose state lives on
// the system's device. Line j is the Störmer rule (Hairer, Nørsett & Wanner I, §II.14) with n_j
// substeps of h = H/n_j, written in its one-step (velocity) form, which is leapfrog:
//
//   v ← v + (h/2) a(x),   then n_j − 1 times { x ← x + h v,  v ← v + h a(x) },
//   then x ← x + h v,  v ← v + (h/2) a(x)
//
// so T_{j,1} = (x, v) after n_j substeps, a(x₀) shared by all lines; then the Aitken–Neville
// recursion of extrapolation_tables.hpp, in place: after line j, slot 1 holds T_{j,j} and slot 2
// T_{j,j−1}. Every update is one ArrayDevice::combine (a recursion step is
// fma(w, T_{j,l} − T_{j−1,l}, T_{j,l}), w rounded once in Real), so it runs on any device; the
// buffers are allocated once per line used.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "orrery/integrate/extrapolation/extrapolation_tables.hpp"
#include "orrery/integrate/second_order_system.hpp"

namespace orrery {

template <ExtrapolationTable Table, class Real>
class StoermerTableau {
 public:
  // a(x₀), for the lines of the step from x.
  void start(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x) {
    prepare(system.device(), x.size(), 1);
    system.accelerations(x, start_a_);
  }

  // Line j of the step of H from (x, v), and its extrapolation with the lines before it.
  void line(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x,
            const DeviceBuffer<Real>& v, Real H, int j) {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size(), j);
    const int n = substeps<Table>(j);
    const Real h = H / Real(n);
    DeviceBuffer<Real>& X = x_[static_cast<std::size_t>(j - 1)];
    DeviceBuffer<Real>& V = v_[static_cast<std::size_t>(j - 1)];
    update(device, V, v, h, 0.5, start_a_);
    for (int i = 1; i < n; ++i) {
      update(device, X, i == 1 ? x : X, h, 1.0, V);
      system.accelerations(X, a_);
      update(device, V, V, h, 1.0, a_);
    }
    update(device, X, n == 1 ? x : X, h, 1.0, V);
    system.accelerations(X, a_);
    update(device, V, V, h, 0.5, a_);
    extrapolate(device, x_, j);
    extrapolate(device, v_, j);
  }

  // T_{j,j} after line j: the step's result.
  const DeviceBuffer<Real>& x() const { return x_[0]; }
  const DeviceBuffer<Real>& v() const { return v_[0]; }
  // T_{j,j} − T_{j,j−1} of positions (which = 0) or velocities (1), after line j ≥ 2.
  const DeviceBuffer<Real>& difference(ArrayDevice<Real>& device, int which) {
    const std::vector<DeviceBuffer<Real>>& t = which == 0 ? x_ : v_;
    const double c[2] = {1.0, -1.0};
    const DeviceBuffer<Real>* k[2] = {&t[0], &t[1]};
    device.combine(difference_, zero_, Real(1), c, k);
    return difference_;
  }

 private:
  // out = y + c h k.
  static void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& out,
                     const DeviceBuffer<Real>& y, Real h, double c, const DeviceBuffer<Real>& k) {
    const double coefficient[1] = {c};
    const DeviceBuffer<Real>* term[1] = {&k};
    device.combine(out, y, h, coefficient, term);
  }

  // Slots 1 … j − 1 hold T_{j−1,j−1} … T_{j−1,1} and slot j the new T_{j,1}; afterwards slot l
  // holds T_{j,j−l+1}.
  void extrapolate(ArrayDevice<Real>& device, std::vector<DeviceBuffer<Real>>& t, int j) {
    const double c[2] = {1.0, -1.0};
    for (int l = j; l >= 2; --l) {
      DeviceBuffer<Real>& newer = t[static_cast<std::size_t>(l - 1)];
      DeviceBuffer<Real>& older = t[static_cast<std::size_t>(l - 2)];
      const Ratio w = extrapolation_weight<Table>(j, j - l + 1);
      const DeviceBuffer<Real>* k[2] = {&newer, &older};
      device.combine(scratch_, newer, Real(w.numerator) / Real(w.denominator), c, k);
      std::swap(scratch_, older);
    }
  }

  void prepare(ArrayDevice<Real>& device, std::size_t n, int lines) {
    if (device_ != &device || size_ != n) {
      x_.clear();
      v_.clear();
      start_a_ = device.allocate(n);
      a_ = device.allocate(n);
      scratch_ = device.allocate(n);
      difference_ = device.allocate(n);
      zero_ = device.allocate(n);  // allocate() gives zeros
      device_ = &device;
      size_ = n;
    }
    while (static_cast<int>(x_.size()) < lines) {
      x_.push_back(device.allocate(n));
      v_.push_back(device.allocate(n));
    }
  }

  const ArrayDevice<Real>* device_ = nullptr;
  std::size_t size_ = 0;
  DeviceBuffer<Real> start_a_, a_, scratch_, difference_, zero_;
  std::vector<DeviceBuffer<Real>> x_, v_;  // slot l − 1 holds T_{·,l} as above
};

}  // namespace orrery
