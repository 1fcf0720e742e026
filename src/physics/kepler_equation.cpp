// SPDX-License-Identifier: MIT
// Kepler's equation solved by safeguarded Newton iteration (Numerical Recipes' rtsafe: a Newton
// step that would leave the bracket of the root, or that shrinks the step less than bisection
// would, is replaced by bisection). The bracket comes from the equation itself:
//   ellipse, M in [0, π]:  M ≤ E ≤ min(π, M + e, M/(1 − e))   (E − M = e sin E ∈ [0, e E])
//   hyperbola, M > 0:      0 ≤ F ≤ min(asinh(M/(e − 1)), ∛(6M))
// (e sinh F − F ≥ (e − 1) sinh F and ≥ sinh F − F ≥ F³/6). The residual and its derivative are
// written without cancellation near pericentre of orbits with e → 1:
//   E − e sin E = (1 − e) E + e (E − sin E),   1 − e cos E = (1 − e) + 2e sin²(E/2),
// with E − sin E (and sinh F − F) summed as a series for |E| < 1, so that E of M ~ 10⁻¹⁰ with
// e = 0.999999 keeps its relative precision.
#include "orrery/physics/kepler_equation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// What bisection alone needs to close any bracket within [0, 710] down to adjacent doubles,
// however small the root (1075 halvings take 710 to below the smallest subnormal); Newton's
// steps end it in a handful.
constexpr int kMaxIterations = 1200;
// A Newton step this small relative to the iterate is the last one needed.
constexpr double kStepTolerance = 2.0 * std::numeric_limits<double>::epsilon();

// x − sin x (hyperbolic: sinh x − x) without cancellation: the series x³/3! ∓ x⁵/5! + ... for
// |x| < 1, whose terms fall below 10⁻¹⁷ of the first by the ninth.
double odd_remainder(double x, bool hyperbolic) {
  if (std::abs(x) >= 1.0) return hyperbolic ? std::sinh(x) - x : x - std::sin(x);
  const double x2 = x * x;
  double term = x * x2 / 6.0, sum = 0.0;
  for (int k = 2; k < 12; ++k) {
    sum += term;
    term *= (hyperbolic ? x2 : -x2) / ((2.0 * k) * (2.0 * k + 1.0));
  }
  return sum;
}

// The residual of Kepler's equation and its derivative at E (F).
struct Residual {
  double value, slope;
};
Residual kepler_residual(double e, double x, double mean) {
  if (e < 1.0) {
    const double s = std::sin(0.5 * x);
    return {(1.0 - e) * x + e * odd_remainder(x, false) - mean, (1.0 - e) + 2.0 * e * s * s};
  }
  const double s = std::sinh(0.5 * x);
  return {(e - 1.0) * x + e * odd_remainder(x, true) - mean, (e - 1.0) + 2.0 * e * s * s};
}

void require_eccentricity(double e) {
  if (!std::isfinite(e) || e < 0.0 || e == 1.0)
    throw ParameterError("e", fmt::format("{}", e),
                         "a finite eccentricity >= 0 other than 1 (an ellipse has e < 1, a "
                         "hyperbola e > 1; a parabola has none of the anomalies)");
}

// The root of the residual in [lo, hi] (residual ≤ 0 at lo, ≥ 0 at hi), from x.
double safeguarded_newton(double e, double mean, double lo, double hi, double x) {
  if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
  double last_step = hi - lo, step = last_step;
  for (int i = 0; i < kMaxIterations; ++i) {
    const Residual r = kepler_residual(e, x, mean);
    if (r.value == 0.0) return x;
    if (r.value < 0.0)
      lo = x;
    else
      hi = x;
    const double newton = x - r.value / r.slope;
    const bool inside = newton > lo && newton < hi;
    last_step = step;
    if (!inside || std::abs(2.0 * r.value) > std::abs(last_step * r.slope)) {
      step = 0.5 * (hi - lo);
      x = lo + step;
    } else {
      step = x - newton;
      x = newton;
    }
    if (std::abs(step) <= kStepTolerance * std::abs(x) || hi - lo <= kStepTolerance * hi)
      return x;
  }
  throw RunError(fmt::format("Kepler's equation: no convergence in {} iterations for e = {}, "
                             "M = {}",
                             kMaxIterations, e, mean));
}

}  // namespace

double wrap_two_pi(double x) {
  const double r = std::fmod(x, kTwoPi);
  const double w = r < 0.0 ? r + kTwoPi : r;
  return w < kTwoPi ? w : 0.0;  // r + 2π rounds up to 2π for r just below 0
}

double eccentric_anomaly(double e, double mean_anomaly) {
  require_eccentricity(e);
  if (!std::isfinite(mean_anomaly))
    throw ParameterError("M", fmt::format("{}", mean_anomaly), "a finite mean anomaly");
  if (e < 1.0) {
    // The half M in [π, 2π) mirrors the half in [0, π]: E(2π − M) = 2π − E(M).
    const double m = wrap_two_pi(mean_anomaly);
    const bool mirrored = m > std::numbers::pi;
    const double half = mirrored ? kTwoPi - m : m;
    if (half == 0.0) return 0.0;
    const double hi = std::min({std::numbers::pi, half + e, half / (1.0 - e)});
    // Danby's start E₀ = M + 0.85 e (sin M ≥ 0 on this half).
    const double root = safeguarded_newton(e, half, half, hi, half + 0.85 * e);
    return mirrored ? wrap_two_pi(kTwoPi - root) : root;
  }
  // F(−M) = −F(M).
  const double m = std::abs(mean_anomaly);
  if (m == 0.0) return 0.0;
  const double hi = std::min(std::asinh(m / (e - 1.0)), std::cbrt(6.0 * m));
  const double root = safeguarded_newton(e, m, 0.0, hi, std::log(2.0 * m / e + 1.8));
  return std::copysign(root, mean_anomaly);
}

double true_anomaly_of_eccentric(double e, double eccentric) {
  require_eccentricity(e);
  if (e < 1.0)
    return wrap_two_pi(2.0 * std::atan2(std::sqrt(1.0 + e) * std::sin(0.5 * eccentric),
                                        std::sqrt(1.0 - e) * std::cos(0.5 * eccentric)));
  return 2.0 * std::atan(std::sqrt((e + 1.0) / (e - 1.0)) * std::tanh(0.5 * eccentric));
}

double eccentric_anomaly_of_true(double e, double true_anomaly) {
  require_eccentricity(e);
  if (e < 1.0)
    return wrap_two_pi(2.0 * std::atan2(std::sqrt(1.0 - e) * std::sin(0.5 * true_anomaly),
                                        std::sqrt(1.0 + e) * std::cos(0.5 * true_anomaly)));
  if (!(1.0 + e * std::cos(true_anomaly) > 0.0))
    throw ParameterError("f", fmt::format("{}", true_anomaly),
                         fmt::format("a true anomaly within the asymptotes of a hyperbola of "
                                     "e = {}: |f| < acos(-1/e) = {}",
                                     e, std::acos(-1.0 / e)));
  // f within the asymptotes, reduced to (−π, π], has |tan(f/2)| < √((e + 1)/(e − 1)).
  const double f = std::remainder(true_anomaly, kTwoPi);
  return 2.0 * std::atanh(std::sqrt((e - 1.0) / (e + 1.0)) * std::tan(0.5 * f));
}

double mean_anomaly_of_eccentric(double e, double eccentric) {
  require_eccentricity(e);
  if (e < 1.0) return wrap_two_pi(kepler_residual(e, wrap_two_pi(eccentric), 0.0).value);
  return kepler_residual(e, eccentric, 0.0).value;
}

}  // namespace orrery
