// SPDX-License-Identifier: MIT
// The order and step-size control of ODEX (Hairer, Nørsett & Wanner, "Solving ODEs I", 2nd ed.,
// §II.9, "Order and step size control"), for one attempted step at a time. With err_j the scaled
// difference T_{j,j} − T_{j,j−1} of line j (an estimate of the error of T_{j,j−1}, O(H^{2j−1})):
//
//   H_j = H / min(4/f_j, max(f_j, (err_j/0.65)^{1/(2j−1)} / 0.94)),   f_j = 0.02^{1/(2j−1)}
//   W_j = A_j / H_j                          (work per unit time, A_j = extrapolation_cost(j))
//
// A step aims at k columns. It computes lines 1 … k−1 and accepts T_{k−1,k−1} if err_{k−1} ≤ 1,
// gives up if err_{k−1} > (n_{k+1} n_k / n_1²)² (convergence at line k+1 is then hopeless);
// otherwise line k, accepted if err_k ≤ 1, given up if err_k > (n_{k+1}/n_1)²; otherwise line
// k + 1, accepted if err_{k+1} ≤ 1. After a step the next k is the one of least W among k_c − 1,
// k_c, k_c + 1 (k_c the line accepted or last computed; −1 when W_{k_c−1} < 0.8 W_{k_c}, +1 when
// W_{k_c} < 0.9 W_{k_c−1}), within 2 … max_lines − 1; the next step is H_k, stretched by
// A_{k+1}/A_k when the order goes up. After a rejection neither the order nor the step may grow
// in the next accepted step. A line whose error grows from the previous one's, or is beyond
// rounding, abandons the step at half its size. The very first step, whose H is the user's
// guess, accepts the first line from 2 on that converges.
//
// What travels from step to step is k and whether the last attempt was rejected (and whether
// there was one at all): the stepper's saved state. H travels in the run's clock.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "orrery/integrate/extrapolation/extrapolation_tables.hpp"

namespace orrery {

template <ExtrapolationTable Table>
class OrderStepControl {
  static constexpr int L = Table::max_lines;
  // ODEX's defaults: FAC1, FAC2 bound the step change, FAC3, FAC4 bias the order choice, SAFE1,
  // SAFE2 the step prediction, SAFE3 the cut after a diverging line.
  static constexpr double kFac1 = 0.02, kFac2 = 4.0, kFac3 = 0.8, kFac4 = 0.9;
  static constexpr double kSafe1 = 0.65, kSafe2 = 0.94, kSafe3 = 0.5;
  // An error this many times the tolerance is beyond the unit roundoff of fp64, the precision
  // the control computes in: the lines disagree in every digit.
  static constexpr double kHopeless = 1.0 / 2.3e-16;

 public:
  // The first k: about 0.6 decimal digits of tolerance per column, as ODEX.
  static int first_columns(double tolerance) {
    const int guess = static_cast<int>(-std::log10(tolerance + 1e-40) * 0.6 + 1.5);
    return std::max(2, std::min(L - 1, guess));
  }

  explicit OrderStepControl(double tolerance) : tolerance_(tolerance) { clear(); }

  void clear() {
    columns_ = first_columns(tolerance_);
    rejected_ = false;
    started_ = false;
  }

  int columns() const { return columns_; }
  bool rejected() const { return rejected_; }
  bool started() const { return started_; }
  // A state saved from these three; false when they are not one this control can have.
  bool restore(int columns, bool rejected, bool started) {
    if (columns < 2 || columns > L - 1) return false;
    columns_ = columns;
    rejected_ = rejected;
    started_ = started;
    return true;
  }

  // Thresholds of the convergence monitor for lines k − 1 and k (k = columns()).
  double hopeless_before() const {
    const double q = double(substeps<Table>(columns_ + 1)) * substeps<Table>(columns_) /
                     (double(substeps<Table>(1)) * substeps<Table>(1));
    return q * q;
  }
  double hopeless_at() const {
    const double q = double(substeps<Table>(columns_ + 1)) / substeps<Table>(1);
    return q * q;
  }

  // Records line j's error for a step of h; false when the line diverges (the step is abandoned:
  // abandon()).
  bool record(int j, double err, double h) {
    const std::size_t i = static_cast<std::size_t>(j - 1);
    if (!std::isfinite(err) || err >= kHopeless || (j > 2 && err >= previous_)) return false;
    previous_ = std::max(4 * err, 1.0);
    const double exponent = 1.0 / (2 * j - 1);
    const double least = std::pow(kFac1, exponent);
    const double factor =
        std::min(kFac2 / least, std::max(least, std::pow(err / kSafe1, exponent) / kSafe2));
    step_[i] = h / factor;
    work_[i] = extrapolation_cost<Table>(j) / step_[i];
    return true;
  }
  void begin() { previous_ = 1e10; }

  // The next step after line kc was accepted from a step of h.
  double accept(int kc, double h) {
    int next;
    if (kc == 2) {
      next = rejected_ ? 2 : std::min(3, L - 1);
    } else if (kc <= columns_) {
      next = kc;
      if (work(kc - 1) < work(kc) * kFac3) next = kc - 1;
      if (work(kc) < work(kc - 1) * kFac4) next = std::min(kc + 1, L - 1);
    } else {
      next = kc - 1;
      if (kc > 3 && work(kc - 2) < work(kc - 1) * kFac3) next = kc - 2;
      if (work(kc) < work(next) * kFac4) next = std::min(kc, L - 1);
    }
    double h_next;
    if (rejected_) {
      next = std::min(next, kc);
      h_next = std::min(h, step(next));
    } else if (next <= kc) {
      h_next = step(next);
    } else {
      const int base = kc < columns_ && work(kc) < work(kc - 1) * kFac4 ? next + 1 : next;
      h_next = step(kc) * extrapolation_cost<Table>(base) / extrapolation_cost<Table>(kc);
    }
    columns_ = next;
    rejected_ = false;
    started_ = true;
    return h_next;
  }

  // The next try after the step was given up with line kc the last computed.
  double reject(int kc) {
    columns_ = std::min({columns_, kc, L - 1});
    if (columns_ > 2 && work(columns_ - 1) < work(columns_) * kFac3) --columns_;
    rejected_ = true;
    started_ = true;
    return step(columns_);
  }

  // The next try after a diverging line.
  double abandon(double h) {
    rejected_ = true;
    started_ = true;
    return h * kSafe3;
  }

 private:
  double step(int j) const { return step_[static_cast<std::size_t>(j - 1)]; }
  double work(int j) const { return work_[static_cast<std::size_t>(j - 1)]; }

  double tolerance_;
  int columns_ = 2;
  bool rejected_ = false, started_ = false;
  double previous_ = 1e10;
  std::array<double, L> step_{}, work_{};
};

}  // namespace orrery
