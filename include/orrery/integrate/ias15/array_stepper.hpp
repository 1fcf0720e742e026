// SPDX-License-Identifier: MIT
// IAS15 for a large system x'' = a(x) (H. Rein & D. S. Spiegel, MNRAS 446, 1424, 2015, §§2–3;
// E. Everhart, IAU Colloq. 83, 1985): the acceleration over a step is the polynomial of
// ias15/gauss_radau.hpp, found by a predictor–corrector iteration on the Gauss–Radau spacings.
//
//   start   a₀ = a(x); b from the last step's b re-expanded for this step's size (e → b, with
//           the last step's correction b − e added), g = M⁻¹ b
//   sweep   for n = 1 … 7: x_n = x(h_n) from a₀, v₀ and b; a_n = a(x_n); g_{n−1} from the
//           divided difference of a_n; b += M (the change of g_{n−1})
//   repeat  until max|Δb₆|/max|a_n| is below the unit roundoff, stops falling, or 12 sweeps ran
//   control the next step Δt' by one of two criteria (Ias15Criterion):
//           prs24 (Pham, Rein & Spiegel, Open J. Astrophys. 7, 1, 2024; REBOUND's default):
//             for each body with a ≠ 0, from the polynomial of the step, in units of Δt,
//               y₂ = |a(Δt)|², y₃ = |Δt ȧ(Δt)|², y₄ = |Δt² ä(Δt)|²,
//               τ² = 2 y₂ / (y₃ + √(y₂ y₄)),
//             Δt' = Δt · min τ · (7! ε_b)^{1/7} (REBOUND's factor, chosen so that the default
//             ε_b takes steps like those of the global criterion);
//           global (Rein & Spiegel 2015, §3.3): ε = max|b₆| / max|a(h₇)|,
//             Δt' = Δt (ε_b/ε)^{1/7};
//           a Δt' below Δt/4 rejects the step (x, v and the state stay as they were), and Δt' is
//           at most 4 Δt
//   update  x += Δt v₀ + Δt² (a₀/2 + Σ b_k/((k+2)(k+3))), v += Δt (a₀ + Σ b_k/(k+2)), each sum
//           compensated (Kahan–Babuška, TwoSum): x + c_x is the position carried to 2× precision
//
// The arithmetic is the host's: on a device whose memory the host reaches (the CPU engines) in
// place; on another through copies of x_n and a_n per force evaluation. The state a run must
// keep — the last step's b and its prediction e, the compensations c_x, c_v and the last step's
// size — saves and loads value for value; a₀ is a(x), recomputed after a load or clear().
// ε_b = 0 takes fixed steps (every step accepted as given, no estimate reported).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/static_for.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/ias15/gauss_radau.hpp"
#include "orrery/integrate/ias15/ias15_criterion.hpp"

namespace orrery {

template <class Real>
class Ias15ArrayStepper final : public ArrayStepper<Real> {
  static constexpr const GaussRadau15<Real>& R = kGaussRadau15<Real>;
  static constexpr int kTerms = GaussRadau15<Real>::kTerms;
  static constexpr int kSpacings = GaussRadau15<Real>::kSpacings;
  // Rein & Spiegel's bound on how fast the step may change, and on the sweeps of one step.
  static constexpr double kSafety = 0.25;
  static constexpr int kMostSweeps = 12;
  // A step this many times the last is predicted from nothing (REBOUND's choice): the
  // re-expansion would multiply b by q⁷.
  static constexpr double kLargestPredictedRatio = 20.0;

  // 2^−p, p the significand's bits (quadruple precision: 113).
  static Real unit_roundoff() {
    constexpr int bits = std::is_same_v<Real, float128> ? 113 : std::numeric_limits<Real>::digits;
    return static_cast<Real>(std::ldexp(1.0, -bits));
  }

 public:
  // tolerance: ε_b (> 0), or 0 for fixed steps.
  explicit Ias15ArrayStepper(double tolerance,
                             Ias15Criterion criterion = Ias15Criterion::prs24)
      : tolerance_(tolerance), criterion_(criterion) {}

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
    Real* X = host_view(device, x, x_mirror_);
    Real* V = host_view(device, v, v_mirror_);
    if (!a0_current_) {
      system.accelerations(x, a0_);
      a0_host_ = host_view(device, a0_, a0_mirror_);
      a0_current_ = true;
    }
    const bool predicted = predict(h);
    const Real estimate = iterate(system, X, V, h);
    if (tolerance_ == 0) {
      update(device, x, v, X, V, h, predicted);
      return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
    }
    // Δt'/Δt ≥ 1/4 accepts: the report's error is (1/4 ÷ Δt'/Δt)⁷, ≤ 1 when accepted (for the
    // global criterion ε/(4⁷ ε_b)).
    const double factor =
        criterion_ == Ias15Criterion::prs24 ? prs24_factor() : global_factor(estimate);
    const Real error = static_cast<Real>(std::pow(kSafety / factor, 7.0));
    if (!(factor >= kSafety))  // a NaN estimate rejects too
      return {.taken = Real(0), .accepted = false, .error = error,
              .next = h * static_cast<Real>(std::isnan(factor) ? kSafety : factor)};
    update(device, x, v, X, V, h, predicted);
    return {.taken = h, .accepted = true, .error = error,
            .next = h * static_cast<Real>(std::min(factor, 1 / kSafety))};
  }

  Ias15Criterion criterion() const { return criterion_; }

  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override {
    state = StepperState<Real>();
    state.set_array("b", b_last_);
    state.set_array("e", e_last_);
    state.set_array("position_carry", cx_);
    state.set_array("velocity_carry", cv_);
    state.set_scalar("last_step", h_last_);
  }

  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override {
    const Real last = state.scalar("last_step");
    const auto* b = state.find_array("b");
    const auto* e = state.find_array("e");
    const auto* cx = state.find_array("position_carry");
    const auto* cv = state.find_array("velocity_carry");
    if (!b || !e || !cx || !cv || b->size() != e->size() || cx->size() != cv->size() ||
        b->size() != kTerms * cx->size())
      throw InputError("ias15 stepper: the state to load is not one it saved");
    b_last_ = *b, e_last_ = *e, cx_ = *cx, cv_ = *cv, h_last_ = last;
    a0_current_ = false;
  }

  void clear() override {
    b_last_.clear(), e_last_.clear(), cx_.clear(), cv_.clear();
    h_last_ = Real(0);
    a0_current_ = false;
  }

 private:
  Real* term(std::vector<Real>& a, int k) { return a.data() + k * n3_; }

  void prepare(ArrayDevice<Real>& device, std::size_t n3) {
    if (cx_.empty() && n3 > 0) {  // a fresh start
      b_last_.assign(kTerms * n3, Real(0)), e_last_.assign(kTerms * n3, Real(0));
      cx_.assign(n3, Real(0)), cv_.assign(n3, Real(0));
      h_last_ = Real(0);
    } else if (cx_.size() != n3) {
      throw InputError("ias15 stepper: its state holds " + std::to_string(cx_.size()) +
                       " values per array, the system " + std::to_string(n3));
    }
    if (device_ == &device && n3_ == n3) return;
    device_ = &device;
    n3_ = n3;
    host_ = device.host_accessible();
    a0_ = device.allocate(n3), xs_ = device.allocate(n3), as_ = device.allocate(n3);
    if (!host_)
      for (auto* m : {&x_mirror_, &v_mirror_, &a0_mirror_, &xs_mirror_, &as_mirror_})
        m->assign(n3, Real(0));
    b_.assign(kTerms * n3, Real(0)), e_.assign(kTerms * n3, Real(0));
    g_.assign(kTerms * n3, Real(0));
    xs_host_ = host_ ? xs_.data() : xs_mirror_.data();
    as_host_ = host_ ? as_.data() : as_mirror_.data();
    a0_current_ = false;
  }

  // The buffer's values where the host reaches them: the buffer itself, or a mirror filled now.
  Real* host_view(ArrayDevice<Real>& device, DeviceBuffer<Real>& buffer,
                  std::vector<Real>& mirror) {
    if (host_) return buffer.data();
    device.copy_to_host(buffer, mirror);
    return mirror.data();
  }

  // b and e for a step of h from the last step's (e → b). False: no prediction (first step, or
  // a step too much longer than the last), b = 0.
  bool predict(Real h) {
    const bool from_last = h_last_ != Real(0) && h / h_last_ <= Real(kLargestPredictedRatio);
    if (!from_last) {
      std::fill(b_.begin(), b_.end(), Real(0));
    } else {
      const Real q = h / h_last_;
      Real qp[kTerms];
      qp[0] = q;
      for (int j = 1; j < kTerms; ++j) qp[j] = qp[j - 1] * q;
      for (int j = 0; j < kTerms; ++j) {
        Real* e = term(e_, j);
        Real* b = term(b_, j);
        const Real* bl = term(b_last_, j);
        const Real* el = term(e_last_, j);
        for (std::size_t i = 0; i < n3_; ++i) {
          Real s = Real(0);
          for (int k = kTerms - 1; k >= j; --k) s = s + R.binomial[j][k] * b_last_[k * n3_ + i];
          e[i] = qp[j] * s;
          b[i] = e[i] + (bl[i] - el[i]);
        }
      }
    }
    for (int j = 0; j < kTerms; ++j) {
      Real* g = term(g_, j);
      for (std::size_t i = 0; i < n3_; ++i) {
        Real s = Real(0);
        for (int k = kTerms - 1; k >= j; --k) s = s + R.to_g[j][k] * b_[k * n3_ + i];
        g[i] = s;
      }
    }
    return from_last;
  }

  // Δt'/Δt by the global criterion from its estimate ε; 1/kSafety (the most growth) when ε = 0.
  double global_factor(Real estimate) const {
    const double ratio = static_cast<double>(estimate) / tolerance_;
    return ratio == 0 ? 1 / kSafety : std::pow(ratio, -1.0 / 7.0);
  }

  // Δt'/Δt by PRS24 from a₀ and the converged b (REBOUND's integrator_ias15.c, adaptive_mode 2):
  // per body, a(Δt) = a₀ + Σ b_k, Δt ȧ(Δt) = Σ (k+1) b_k, Δt² ä(Δt) = Σ (k+1) k b_k. Bodies
  // without acceleration take no part; where no body gives a finite τ (no forces), the step
  // grows by the most allowed, 1/kSafety.
  double prs24_factor() const {
    const std::size_t n = n3_ / 3;
    const Real* a0 = a0_host_;
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      double a0i = 0, y2 = 0, y3 = 0, y4 = 0;
      for (std::size_t c = 0; c < 3; ++c) {
        const std::size_t m = c * n + i;
        const double a = static_cast<double>(a0[m]);
        double end = a, jerk = 0, snap = 0;
        for (int k = 0; k < kTerms; ++k) {
          const double b = static_cast<double>(b_[k * n3_ + m]);
          end += b;
          jerk += (k + 1) * b;
          snap += (k + 1) * k * b;
        }
        a0i += a * a, y2 += end * end, y3 += jerk * jerk, y4 += snap * snap;
      }
      if (!std::isnormal(a0i)) continue;
      const double tau2 = 2 * y2 / (y3 + std::sqrt(y4 * y2));
      if (std::isnormal(tau2) && tau2 < least) least = tau2;
    }
    if (!std::isnormal(least)) return 1 / kSafety;
    return std::sqrt(least) * std::pow(tolerance_ * 5040.0, 1.0 / 7.0);
  }

  // Sweeps until converged; returns the step-control estimate max|b₆|/max|a(h₇)|.
  Real iterate(SecondOrderSystem<Real>& system, const Real* X, const Real* V, Real h) {
    Real change = Real(0);
    for (int sweep = 1;; ++sweep) {
      const Real previous = change;
      change = sweep_once(system, X, V, h);
      if (change < unit_roundoff() || sweep >= kMostSweeps || (sweep > 2 && change >= previous))
        break;
    }
    Real b6 = 0, a = 0;
    const Real* last = term(b_, kTerms - 1);
    for (std::size_t i = 0; i < n3_; ++i) {
      b6 = largest(b6, last[i]);
      a = largest(a, as_host_[i]);
    }
    return ratio_of(b6, a);
  }

  // max(m, |x|), where a NaN, once seen, stays.
  static Real largest(Real m, Real x) {
    const Real size = x < Real(0) ? -x : x;
    return size > m || size != size ? size : m;
  }
  // num/den, with 0/0 = 0: a system without forces has nothing to resolve.
  static Real ratio_of(Real num, Real den) {
    return den == Real(0) && num == Real(0) ? Real(0) : num / den;
  }

  // One pass over the seven spacings; returns max|Δb₆|/max|a(h₇)|.
  Real sweep_once(SecondOrderSystem<Real>& system, const Real* X, const Real* V, Real h) {
    Real change = 0, size = 0;
    const Real* a0 = a0_host_;
    static_for<1, kSpacings>([&](auto spacing) {
      constexpr int n = decltype(spacing)::value;
      const Real t = h * R.h[n];
      const Real half(0.5);
      for (std::size_t i = 0; i < n3_; ++i) {
        Real s = Real(0);
        for (int k = kTerms - 1; k >= 0; --k) s = s + R.x_weight_at[n][k] * b_[k * n3_ + i];
        s = s + half * a0[i];
        xs_host_[i] = X[i] + (cx_[i] + t * (V[i] + t * s));
      }
      evaluate(system);
      Real* g = g_.data();
      Real* b = b_.data();
      const std::size_t m = n3_;
      for (std::size_t i = 0; i < m; ++i) {
        Real d = (as_host_[i] - a0[i]) * R.inverse_gap[n][0];
        for (int j = 0; j < n - 1; ++j) d = (d - g[j * m + i]) * R.inverse_gap[n][j + 1];
        const Real delta = d - g[(n - 1) * m + i];
        g[(n - 1) * m + i] = d;
        for (int j = 0; j < n - 1; ++j) b[j * m + i] = b[j * m + i] + R.to_b[j][n - 1] * delta;
        b[(n - 1) * m + i] = b[(n - 1) * m + i] + delta;
        if constexpr (n == kSpacings - 1) {
          change = largest(change, delta);
          size = largest(size, as_host_[i]);
        }
      }
    });
    return ratio_of(change, size);
  }

  void evaluate(SecondOrderSystem<Real>& system) {
    ArrayDevice<Real>& device = system.device();
    if (!host_) device.copy_to_device(xs_mirror_, xs_);
    system.accelerations(xs_, as_);
    if (!host_) device.copy_to_host(as_, as_mirror_);
  }

  // x and v to the end of the accepted step, compensated; the step becomes the last one.
  void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& x, DeviceBuffer<Real>& v, Real* X,
              Real* V, Real h, bool predicted) {
    const Real* a0 = a0_host_;
    const Real half(0.5);
    for (std::size_t i = 0; i < n3_; ++i) {
      Real sx = Real(0), sv = Real(0);
      for (int k = kTerms - 1; k >= 0; --k) {
        const Real bk = b_[k * n3_ + i];
        sx = sx + R.x_weight[k] * bk;
        sv = sv + R.v_weight[k] * bk;
      }
      sx = sx + half * a0[i];
      sv = sv + a0[i];
      X[i] = two_sum(X[i], h * (V[i] + h * sx) + cx_[i], cx_[i]);
      V[i] = two_sum(V[i], h * sv + cv_[i], cv_[i]);
    }
    if (!host_) {
      device.copy_to_device(x_mirror_, x);
      device.copy_to_device(v_mirror_, v);
    }
    std::swap(b_last_, b_);
    if (predicted)
      std::swap(e_last_, e_);
    else
      e_last_ = b_last_;  // no prediction, so no correction to carry
    h_last_ = h;
    a0_current_ = false;
  }

  double tolerance_;
  Ias15Criterion criterion_;
  // The saved state.
  std::vector<Real> b_last_, e_last_, cx_, cv_;
  Real h_last_ = Real(0);
  // The step's working arrays (kTerms × n3, term k at k·n3) and buffers.
  std::vector<Real> b_, e_, g_;
  const ArrayDevice<Real>* device_ = nullptr;
  std::size_t n3_ = 0;
  bool host_ = true;
  bool a0_current_ = false;
  DeviceBuffer<Real> a0_, xs_, as_;
  std::vector<Real> x_mirror_, v_mirror_, a0_mirror_, xs_mirror_, as_mirror_;
  Real* a0_host_ = nullptr;
  Real* xs_host_ = nullptr;
  Real* as_host_ = nullptr;
};

}  // namespace orrery
