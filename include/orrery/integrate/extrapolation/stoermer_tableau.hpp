// SPDX-License-Identifier: MIT
// The extrapolation tableau of a basic step H on a large system x'' = a(x) whose state lives on
// the system's device. Line j is the Störmer rule (Hairer, Nørsett & Wanner I, §II.14) with n_j
// substeps of h = H/n_j in its one-step (velocity, leapfrog) form, carried as the increments
// Δx = x_i − x₀, Δv = v_i − v₀ (the book's summed form):
//
//   Δv ← (h/2) a(x₀),   then n_j − 1 times { Δx ← Δx + h (v₀ + Δv),  Δv ← Δv + h a(x₀ + Δx) },
//   then Δx ← Δx + h (v₀ + Δv),  Δv ← Δv + (h/2) a(x₀ + Δx)
//
// so T_{j,1} = (Δx, Δv) after n_j substeps, a(x₀) shared by all lines; then the Aitken–Neville
// recursion of extrapolation_tables.hpp, in place: after line j, slot 1 holds T_{j,j} and slot 2
// T_{j,j−1}; the candidate is (x₀ + Δx, v₀ + Δv) of T_{j,j}. Increments, because the recursion
// amplifies the rounding of what it extrapolates (by Σ|c_j| of its implied weights, about 120 at
// 8 columns of n = 2j) and a body's increment over a step is far smaller than its position; and
// the substeps then round Δx, not x₀, so their rounding does not grow with the distance from
// the origin. Every update is one ArrayDevice::combine (a recursion step is
// fma(w, T_{j,l} − T_{j−1,l}, T_{j,l}), w rounded once in Real), so it runs on any device; the
// buffers are allocated once per line used.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
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

  // Line j of the step of H from (x, v), its extrapolation with the lines before it and the
  // candidate (x(), v()). With a tolerance > 0, first the stability check of ODEX (§II.9): false,
  // and the line abandoned, when a(x) changes over the first substep by more than twice its size,
  // both measured as max_i |·|_i / (tol · (1 + |v_i|)): the step is far too long for the lines
  // to converge.
  bool line(SecondOrderSystem<Real>& system, const DeviceBuffer<Real>& x,
            const DeviceBuffer<Real>& v, Real H, int j, double check_tolerance = 0) {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size(), j);
    const int n = substeps<Table>(j);
    const Real h = H / Real(n);
    DeviceBuffer<Real>& dx = x_[static_cast<std::size_t>(j - 1)];
    DeviceBuffer<Real>& dv = v_[static_cast<std::size_t>(j - 1)];
    update(device, dv, zero_, h, {0.5}, {&start_a_});
    for (int i = 1; i <= n; ++i) {
      update(device, dx, i == 1 ? zero_ : dx, h, {1.0, 1.0}, {&v, &dv});
      update(device, point_, x, Real(1), {1.0}, {&dx});
      system.accelerations(point_, a_);
      if (i == 1 && check_tolerance > 0 && !stable(device, v, check_tolerance)) return false;
      update(device, dv, dv, h, {i < n ? Real(1) : Real(0.5)}, {&a_});
    }
    extrapolate(device, x_, j);
    extrapolate(device, v_, j);
    update(device, candidate_x_, x, Real(1), {1.0}, {&x_[0]});
    update(device, candidate_v_, v, Real(1), {1.0}, {&v_[0]});
    return true;
  }

  // x₀ + Δx and v₀ + Δv of T_{j,j} after line j: the step's result.
  const DeviceBuffer<Real>& x() const { return candidate_x_; }
  const DeviceBuffer<Real>& v() const { return candidate_v_; }

  // T_{j,j} − T_{j,j−1} of positions (which = 0) or velocities (1), after line j ≥ 2.
  const DeviceBuffer<Real>& difference(ArrayDevice<Real>& device, int which) {
    const std::vector<DeviceBuffer<Real>>& t = which == 0 ? x_ : v_;
    return subtract(device, t[0], t[1]);
  }

 private:
  // ODEX's bound on QUOT = (|Δf| / |f|)², as a ratio of norms.
  static constexpr double kMostChange = 2.0;

  bool stable(ArrayDevice<Real>& device, const DeviceBuffer<Real>& v, double tolerance) {
    const double change =
        device.max_scaled_error(subtract(device, a_, start_a_), v, v, tolerance, tolerance);
    const double size = device.max_scaled_error(start_a_, v, v, tolerance, tolerance);
    return change <= kMostChange * size;
  }

  // a − b, into difference_.
  const DeviceBuffer<Real>& subtract(ArrayDevice<Real>& device, const DeviceBuffer<Real>& a,
                                     const DeviceBuffer<Real>& b) {
    update(device, difference_, zero_, Real(1), {1.0, -1.0}, {&a, &b});
    return difference_;
  }

  // out = y + h Σ c_i k_i.
  static void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& out,
                     const DeviceBuffer<Real>& y, Real h, std::initializer_list<Real> c,
                     std::initializer_list<const DeviceBuffer<Real>*> k) {
    device.combine(out, y, h, std::span(c.begin(), c.size()), std::span(k.begin(), k.size()));
  }

  // Slots 1 … j − 1 hold T_{j−1,j−1} … T_{j−1,1} and slot j the new T_{j,1}; afterwards slot l
  // holds T_{j,j−l+1}.
  void extrapolate(ArrayDevice<Real>& device, std::vector<DeviceBuffer<Real>>& t, int j) {
    for (int l = j; l >= 2; --l) {
      DeviceBuffer<Real>& newer = t[static_cast<std::size_t>(l - 1)];
      DeviceBuffer<Real>& older = t[static_cast<std::size_t>(l - 2)];
      const Ratio w = extrapolation_weight<Table>(j, j - l + 1);
      update(device, scratch_, newer, Real(w.numerator) / Real(w.denominator), {1.0, -1.0},
             {&newer, &older});
      std::swap(scratch_, older);
    }
  }

  void prepare(ArrayDevice<Real>& device, std::size_t n, int lines) {
    if (device_ != &device || size_ != n) {
      x_.clear();
      v_.clear();
      for (DeviceBuffer<Real>* b : {&start_a_, &a_, &point_, &scratch_, &difference_,
                                    &candidate_x_, &candidate_v_, &zero_})
        *b = device.allocate(n);  // allocate() gives zeros
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
  DeviceBuffer<Real> start_a_, a_, point_, scratch_, difference_, candidate_x_, candidate_v_,
      zero_;
  std::vector<DeviceBuffer<Real>> x_, v_;  // slot l − 1 holds T_{·,l} as above
};

}  // namespace orrery
