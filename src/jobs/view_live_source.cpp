// SPDX-License-Identifier: MIT
// A live simulation for `orrery view`: the new run `orrery sim` would start (the same checks and
// the same Simulation), stepped by regular steps of its clock's dt, the last shortened to land
// on t-end, and nothing written. The energy drift is measured at most every
// kDriftInterval seconds: the potential energy costs as much as a force evaluation.
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "jobs/sim_settings.hpp"
#include "jobs/view_sources.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/nbody/step_schedule.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {

namespace {

constexpr double kDriftInterval = 1.0;

using Clock = std::chrono::steady_clock;

template <class Real>
class LiveSource final : public FrameSource {
 public:
  LiveSource(const SimJob& job, const SimStart& start, ColourBy by, double extent)
      : sim_(make_simulation<Real>(with_tree_setting<Real>(job, start, tree_setting_), start)),
        colour_by_(by),
        t_end_(start.t_end) {
    initial_ = sim_.diagnostics();
    live = true;
    units = start.ic.units;
    t_end = start.t_end;
    look = frame_look_of(start.ic.particles, extent, scene_n(start.ic));
  }

  void advance(std::int64_t moves) override {
    const auto t0 = Clock::now();
    std::int64_t taken = 0;
    // The run loop's steps: the same rejections tried again, the same refusal of a step size
    // that collapses, the last step landing on t_end.
    const StepSchedule schedule = StepSchedule::to(t_end_, sim_.clock());
    while (taken < moves && !schedule.finished(sim_.clock())) {
      step_on_schedule(sim_, schedule);
      ++taken;
    }
    if (auto bad = sim_.first_nonfinite()) throw RunError(where_nonfinite(*bad, sim_.clock()));
    const double seconds = seconds_since(t0);
    if (taken > 0 && seconds > 0) rate_ = static_cast<double>(taken) / seconds;
  }

  void capture(ViewFrame& out) override {
    fill_frame_bodies(convert_particles<double>(sim_.particles()), colour_by_, look, out);
    // Measured again once the state has left the start (a drift of the start alone is 0 and
    // says nothing), then at most every kDriftInterval.
    const bool only_the_start = measured_ && drift_steps_ == 0 && sim_.clock().steps > 0;
    if (!measured_ || only_the_start || seconds_since(drift_measured_) > kDriftInterval) {
      drift_ = drift_since(initial_, sim_.diagnostics()).energy;
      drift_time_ = sim_.clock().time();
      drift_steps_ = sim_.clock().steps;
      drift_measured_ = Clock::now();
      measured_ = true;
    }
    out.time = sim_.clock().time();
    out.index = sim_.clock().steps;
    out.energy_drift = drift_;
    out.energy_drift_time = drift_time_;
    out.steps_per_second = rate_;
    out.at_end = at_end();
  }

  bool at_end() const override {
    return StepSchedule::to(t_end_, sim_.clock()).finished(sim_.clock());
  }

 private:
  static std::int64_t scene_n(const InitialConditions& ic) {
    for (const auto& [name, value] : ic.parameters)
      if (name == "n" && std::holds_alternative<std::int64_t>(value))
        return std::get<std::int64_t>(value);
    return 0;
  }

  std::string tree_setting_;  // with --accuracy; before sim_, which is made with it
  Simulation<Real> sim_;
  ColourBy colour_by_;
  double t_end_;
  Diagnostics initial_;
  double drift_ = 0, rate_ = 0, drift_time_ = 0;
  std::int64_t drift_steps_ = 0;
  bool measured_ = false;
  Clock::time_point drift_measured_;
};

}  // namespace

std::unique_ptr<FrameSource> make_live_source(const ViewJob& job) {
  const SimJob& given = job.sim;
  check_simulation_choices(given);
  check_colour_by(job.colour_by, given.scene);
  const SimStart start = plan_sim_start(given);
  const SimJob sim = resolved_simulation_choices(given, start.ic.softening);
  switch (sim.precision) {
    case Precision::fp32:
      return std::make_unique<LiveSource<float>>(sim, start, job.colour_by, job.extent);
    case Precision::fp128:
      return std::make_unique<LiveSource<float128>>(sim, start, job.colour_by, job.extent);
    case Precision::fp64:
    case Precision::mixed:
    case Precision::dd: break;  // refused by check_simulation_choices
  }
  return std::make_unique<LiveSource<double>>(sim, start, job.colour_by, job.extent);
}

}  // namespace orrery
