// SPDX-License-Identifier: MIT
// The beginning of a new run (jobs/simulation_of_job.hpp), shared by `orrery sim` (which writes
// it to a run), `orrery view` (which shows it live) and the Python module.
#include <cmath>

#include <fmt/format.h>

#include "orrery/jobs/simulation_of_job.hpp"
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

SimStart plan_sim_start(const SimJob& job) {
  if (job.scene.empty() == job.input.empty())
    throw ParameterError("--scene/--input", job.scene.empty() ? "neither" : "both",
                         "exactly one of --scene NAME and --input FILE");
  check_sim_memory(job);  // before a scene allocates its particles
  SimStart start;
  if (job.input.empty()) {
    if (!job.units.empty())
      throw ParameterError("--units", job.units,
                           "no --units with --scene (a scene sets its own units); --units with "
                           "--input");
    start.ic = make_scene(job.scene, job.scene_settings);
    start.dt = job.dt > 0 ? job.dt : start.ic.dt;
    start.t_end = std::isnan(job.t_end) ? start.ic.t_end : job.t_end;
  } else {
    SimStart in = read_sim_input(job);
    start.ic = std::move(in.ic);

    start.start_time = in.start_time;
    start.dt = job.dt > 0 ? job.dt : in.dt;
    start.t_end = std::isnan(job.t_end) ? in.t_end : job.t_end;
  }
  const std::string source = job.input.empty() ? "scene " + job.scene : "'" + job.input + "'";
  check_no_coinciding_particles(start.ic.particles, start.ic.softening, job.precision, source);
  apply_job_radii(job, start.ic.particles, source);
  if (!(start.dt > 0))  // job.dt is 0 (not given) or was refused before
    throw InputError(fmt::format("--dt: none given, and {}; give --dt",
                                 no_time_scale_reason(start.ic.particles, start.ic.g)));
  if (!(start.t_end > start.start_time))
    throw ParameterError("--t-end", fmt::format("{}", start.t_end),
                         fmt::format("a time after the start, t = {}", start.start_time));
  return start;
}

}  // namespace orrery
