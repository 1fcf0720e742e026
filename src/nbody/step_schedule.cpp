// SPDX-License-Identifier: MIT
#include "orrery/nbody/step_schedule.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

// Rejections in a row after which a run stops: a stepper that cannot find an acceptable step
// from its own suggestions this many times has failed, not hit a hard patch.
constexpr int kMaxRejectionsInARow = 64;
// A step-size control that asks for steps below this fraction of the run's time scale is not
// following the motion any more (two bodies falling onto each other): the clock itself can barely
// resolve such steps, and the run would crawl without end.
constexpr double kSmallestStep = 1e-13;
// Times this close, relative to the larger of t_end and the step, are one time.
constexpr double kRelativeSlack = 1e-12;

}  // namespace

StepSchedule StepSchedule::to(double t_end, const SimClock& clock) {
  return {t_end, 0.0, kRelativeSlack * std::max(std::abs(t_end), std::abs(clock.dt))};
}

double StepSchedule::next_target(double t) const {
  if (every_time <= 0) return t_end;
  double k = std::floor((t + slack) / every_time) + 1;
  while (k * every_time <= t + slack) ++k;
  while (k > 1 && (k - 1) * every_time > t + slack) --k;
  const double out = k * every_time;
  return out < t_end - slack ? out : t_end;
}

StepMove next_move(const SimClock& c, const StepSchedule& s) {
  // Backwards (dt < 0) the same comparisons hold for the negated times.
  const bool back = c.dt < 0;
  const double target = back ? s.t_end : s.next_target(c.time());
  const double r = c.remaining(target);
  const double ahead = back ? -r : r, step = back ? -c.dt : c.dt;
  if (ahead > step + s.slack) return {c.dt, false, target};
  if (ahead >= step - s.slack) return {c.dt, true, target};
  return {r, true, target};
}

// Without output times all but the last are regular steps, so their number follows from the
// time left: an adaptive method's small first step (ias15 from the Pythagorean scene's 2⁻¹⁶)
// would otherwise be counted out millions of times before the run begins.
std::int64_t planned_steps(SimClock c, const StepSchedule& s) {
  if (s.every_time <= 0) {
    const double left = c.remaining(s.t_end) - s.slack;
    if (left <= 0) return 0;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(left / c.dt)));
  }
  std::int64_t n = 0;
  while (!s.finished(c)) {
    const StepMove m = next_move(c, s);
    if (m.lands)
      c.land(m.target);
    else
      c.advance(m.h);
    ++n;
  }
  return n;
}

std::string where_nonfinite(const NonFinite& bad, const SimClock& clock) {
  return fmt::format("the state became non-finite at step {} (t = {}): particle {} (id {}) has "
                     "{} component {}",
                     clock.steps, clock.time(), bad.particle, bad.id, bad.what, bad.value);
}

template <class Real>
StepMove step_on_schedule(Simulation<Real>& sim, const StepSchedule& s) {
  for (int rejected = 0;;) {
    const StepMove move = next_move(sim.clock(), s);
    const StepReport<Real> report =
        move.lands ? sim.step_onto(move.target, move.h) : sim.step(move.h);
    const double end = std::isfinite(s.t_end) ? std::abs(s.t_end) : 0.0;
    const double scale = std::max(end, std::abs(sim.clock().time()));
    if (std::abs(sim.clock().dt) < kSmallestStep * scale)
      throw RunError(fmt::format("the step size fell to {:.3g} at t = {} (below {:g} of the "
                                 "run's time scale): the integrator cannot follow the motion "
                                 "here — a close encounter (softening helps), or a tolerance "
                                 "below what rounding lets its error estimate reach (a looser "
                                 "one helps)",
                                 sim.clock().dt, sim.clock().time(), kSmallestStep));
    if (report.accepted) return move;
    if (++rejected == kMaxRejectionsInARow)
      throw RunError(fmt::format("the integrator rejected {} steps in a row at t = {}", rejected,
                                 sim.clock().time()));
  }
}

template StepMove step_on_schedule(Simulation<float>&, const StepSchedule&);
template StepMove step_on_schedule(Simulation<double>&, const StepSchedule&);
template StepMove step_on_schedule(Simulation<float128>&, const StepSchedule&);

}  // namespace orrery
