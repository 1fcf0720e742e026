// SPDX-License-Identifier: MIT
#include "orrery/nbody/tree_accuracy.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/engines.hpp"

namespace orrery {

namespace {

// Bodies compared: enough that the sample's median is within a few per cent of the system's.
constexpr std::size_t kSample = 512;
// The sample's median must be within this fraction of the target: the margin for the sample.
constexpr double kMedianMargin = 0.9;
constexpr double kThetaLowest = 0.2, kThetaStep = 0.05;
constexpr int kLadder = 21;  // 0.20 … 1.20

double theta_at(int k) { return kThetaLowest + kThetaStep * k; }

template <class Real>
class Trial {
 public:
  Trial(const EngineOptions& base, std::span<const Real> x, std::span<const Real> mass,
        std::span<const Real> softening)
      : base_(base), x_(x), mass_(mass), softening_(softening), n_(mass.size()) {
    const std::size_t k = std::min(kSample, n_);
    for (std::size_t s = 0; s < k; ++s) target_.push_back(static_cast<std::uint32_t>(s * n_ / k));
    reference_ = direct_reference();
  }

  std::size_t sample() const { return target_.size(); }

  TreeSetting measure(double theta, Multipole multipole, double target) {
    EngineOptions o = base_;
    o.theta = theta;
    o.multipole = multipole;
    auto engine = make_force_engine<Real>("tree", o);
    ArrayDevice<Real>& d = engine->device();
    auto xd = d.allocate(3 * n_), ad = d.allocate(3 * n_);
    d.copy_to_device(std::vector<Real>(x_.begin(), x_.end()), xd);
    engine->set_bodies(mass_, softening_);
    engine->accelerations(xd, ad);
    std::vector<Real> a(3 * n_);
    d.copy_to_host(ad, a);
    std::vector<double> err;
    for (std::size_t s = 0; s < target_.size(); ++s) {
      const std::size_t i = target_[s];
      double diff2 = 0, ref2 = 0;
      for (std::size_t c = 0; c < 3; ++c) {
        const double r = reference_[3 * s + c];
        const double e = static_cast<double>(a[c * n_ + i]) - r;
        diff2 += e * e, ref2 += r * r;
      }
      // A body feeling no force (alone, or balanced exactly) has no relative error to count.
      if (ref2 > 0) err.push_back(std::sqrt(diff2 / ref2));
    }
    std::sort(err.begin(), err.end());
    TreeSetting t;
    t.theta = theta, t.multipole = multipole;
    if (!err.empty()) t.error_median = err[err.size() / 2], t.error_p99 = err[err.size() * 99 / 100];
    t.meets = t.error_median <= kMedianMargin * target && t.error_p99 <= kTreeAccuracyTail * target;
    return t;
  }

 private:
  // The sample's accelerations by the CPU direct engine in double: work ∝ sample × N.
  std::vector<double> direct_reference() const {
    EngineOptions o = base_;
    o.backend = Backend::cpu;
    o.devices.clear();
    auto direct = make_force_engine<double>("direct", o);
    std::vector<double> x(x_.begin(), x_.end()), m(mass_.begin(), mass_.end()),
        eps(softening_.begin(), softening_.end());
    ArrayDevice<double>& d = direct->device();
    auto xd = d.allocate(3 * n_), ad = d.allocate(3 * n_);
    d.copy_to_device(x, xd);
    direct->set_bodies(m, eps);
    direct->accelerations_of(xd, ad, target_);
    std::vector<double> a(3 * n_), out;
    d.copy_to_host(ad, a);
    for (const std::uint32_t i : target_)
      for (std::size_t c = 0; c < 3; ++c) out.push_back(a[c * n_ + i]);
    return out;
  }

  EngineOptions base_;
  std::span<const Real> x_, mass_, softening_;
  std::size_t n_;
  std::vector<std::uint32_t> target_;
  std::vector<double> reference_;
};

}  // namespace

void check_tree_accuracy(double target) {
  if (!(target >= kTreeAccuracyLowest && target <= kTreeAccuracyHighest))
    throw ParameterError("--accuracy", fmt::format("{}", target),
                         fmt::format("a median relative force error from {:g} to {:g}",
                                     kTreeAccuracyLowest, kTreeAccuracyHighest));
}

template <class Real>
TreeAccuracyChoice choose_tree_setting(double target, const EngineOptions& base,
                                       std::span<const Real> x, std::span<const Real> mass,
                                       std::span<const Real> softening) {
  check_tree_accuracy(target);
  const auto t0 = std::chrono::steady_clock::now();
  TreeAccuracyChoice c;
  Trial<Real> trial(base, x, mass, softening);
  c.sample = trial.sample();
  double least_work = INFINITY;
  for (const Multipole m : {Multipole::monopole, Multipole::quadrupole}) {
    // The largest k whose θ meets the target, by bisection over [lo, hi): lo meets, hi does not.
    int lo = -1, hi = kLadder;
    TreeSetting best;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      const TreeSetting t = trial.measure(theta_at(mid), m, target);
      c.tried.push_back(t);
      if (t.meets)
        lo = mid, best = t;
      else
        hi = mid;
    }
    if (lo < 0) continue;
    const double cost =
        m == Multipole::quadrupole ? quadrupole_cell_cost(resolve_backend<Real>(base).backend)
                                   : 1.0;
    const double work = cost / (best.theta * best.theta * best.theta);
    if (work < least_work) least_work = work, c.chosen = best;
  }
  if (!c.chosen.meets) {
    const TreeSetting& finest = c.tried.back();
    throw ParameterError(
        "--accuracy", fmt::format("{}", target),
        fmt::format("a target this system's tree reaches (theta {:.2f} with quadrupoles gives a "
                    "median error of {:.2g}, p99 {:.2g}); --engine direct is exact",
                    finest.theta, finest.error_median, finest.error_p99));
  }
  c.seconds = seconds_since(t0);
  return c;
}

std::string describe(const TreeAccuracyChoice& c) {
  return fmt::format("theta {:.2f}, {} (median {:.1e}, p99 {:.1e} on {} bodies)", c.chosen.theta,
                     multipole_names()[static_cast<std::size_t>(c.chosen.multipole)],
                     c.chosen.error_median, c.chosen.error_p99, c.sample);
}

template TreeAccuracyChoice choose_tree_setting<float>(double, const EngineOptions&,
                                                       std::span<const float>,
                                                       std::span<const float>,
                                                       std::span<const float>);
template TreeAccuracyChoice choose_tree_setting<double>(double, const EngineOptions&,
                                                        std::span<const double>,
                                                        std::span<const double>,
                                                        std::span<const double>);
template TreeAccuracyChoice choose_tree_setting<float128>(double, const EngineOptions&,
                                                          std::span<const float128>,
                                                          std::span<const float128>,
                                                          std::span<const float128>);

}  // namespace orrery
