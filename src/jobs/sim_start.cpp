// SPDX-License-Identifier: MIT
// The beginning of a new run, shared by `orrery sim` (which writes it to a run) and `orrery
// view` (which shows it live): initial conditions, step, end time and integrator, each checked
// before any work.
#include <cmath>

#include <fmt/format.h>

#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/engine_fields.hpp"
#include "orrery/jobs/memory_estimate.hpp"
#include "orrery/nbody/coinciding_particles.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/dynamical_time.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {

void check_run_choices(const SimJob& job) {
  check_precision(*find_field(sim_job_fields(), "precision"), job.precision);
  check_engine_choice(job);
}

SimStart plan_sim_start(const SimJob& job) {
  if (job.scene.empty() == job.input.empty())
    throw ParameterError("--scene/--input", job.scene.empty() ? "neither" : "both",
                         "exactly one of --scene NAME and --input FILE");
  check_sim_memory(job);  // before a scene allocates its particles
  SimStart start;
  if (job.input.empty()) {
    start.ic = make_scene(job.scene, job.scene_settings);
    start.dt = job.dt > 0 ? job.dt : start.ic.dt;
    start.t_end = std::isnan(job.t_end) ? start.ic.t_end : job.t_end;
  } else {
    SimInput in = read_sim_input(job);
    start.ic = std::move(in.ic);
    start.start_time = in.start_time;
    start.dt = job.dt > 0 ? job.dt : in.dt;
    start.t_end = std::isnan(job.t_end) ? in.t_end : job.t_end;
  }
  check_no_coinciding_particles(start.ic.particles, start.ic.softening, job.precision,
                                job.input.empty() ? "scene " + job.scene : "'" + job.input + "'");
  if (!(start.dt > 0))  // job.dt is 0 (not given) or was refused before
    throw InputError(fmt::format("--dt: none given, and {}; give --dt",
                                 no_time_scale_reason(start.ic.particles, start.ic.g)));
  if (!(start.t_end > start.start_time))
    throw ParameterError("--t-end", fmt::format("{}", start.t_end),
                         fmt::format("a time after the start, t = {}", start.start_time));
  return start;
}

SimJob checked_sim_method(const SimJob& job, double softening) {
  find_integrator(job.integrator);
  try {  // a tolerance only for a method that can control its step, block-step options in
         // range: refused before any work
    make_array_stepper<double>(job.integrator, job.tolerance,
                               block_step_options_of(job, softening));
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
  if (job.precision == Precision::fp32) {
    try {  // not every method runs in fp32
      make_array_stepper<float>(job.integrator, job.tolerance);
    } catch (const ParameterError& e) {
      throw e.renamed("--" + e.parameter());
    }
  }
  // The variant used is the one recorded: "" becomes the widest this CPU runs.
  SimJob resolved = job;
  try {
    resolved.cpu_kernel = resolve_cpu_kernel(job.cpu_kernel);
  } catch (const ParameterError& e) {
    throw e.renamed("--cpu-kernel");
  }
  return resolved;
}

template <class Real>
Simulation<Real> make_simulation(const SimJob& job, const SimStart& start) {
  const EngineOptions eo = engine_options_of(job, start.ic.g, start.ic.softening);
  SimClock clock;
  clock.t = start.start_time;
  clock.dt = start.dt;
  return Simulation<Real>(convert_particles<Real>(start.ic.particles),
                          make_force_engine<Real>(job.engine, eo),
                          make_array_stepper<Real>(job.integrator, job.tolerance,
                                                   block_step_options_of(job, start.ic.softening)),
                          clock);
}

template Simulation<float> make_simulation<float>(const SimJob&, const SimStart&);
template Simulation<double> make_simulation<double>(const SimJob&, const SimStart&);
template Simulation<float128> make_simulation<float128>(const SimJob&, const SimStart&);

}  // namespace orrery
