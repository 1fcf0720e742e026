// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/version.hpp"
#include "orrery/nbody/coinciding_particles.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_file.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/memory_estimate.hpp"
#include "orrery/jobs/run_limits.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/scenes/dynamical_time.hpp"
#include "orrery/scenes/scene_registry.hpp"
#include "jobs/sim_settings.hpp"

namespace orrery {

namespace {

// Where `auto` computes the forces, and why.
const char* const kAutoNote = "there is no CUDA force engine yet; computed on the CPU";

struct Plan {
  InitialConditions ic;  // for a new run
  double dt = 0, t_end = 0;
  std::int64_t every = 0, checkpoint_every = 0;
};

// Root attributes of the run file: the job's stored parameters, the scene's parameters, and
// what the numbers mean.
void describe_run(hid_t root, const SimJob& job, const Plan& plan) {
  SimJob stored = job;
  stored.dt = plan.dt;
  stored.t_end = plan.t_end;
  stored.every = plan.every;
  stored.checkpoint_every = plan.checkpoint_every;
  for (const auto& f : sim_job_fields())
    if (is_stored_sim_field(f.name) || is_resumed_sim_setting(f.name))
      write_param_attribute(root, f.name, f.get(stored));
  for (const auto& [name, value] : plan.ic.parameters)
    write_param_attribute(root, "scene." + name, value);
  h5::write_attribute(root, "G", plan.ic.g);
  h5::write_attribute(root, "softening", plan.ic.softening);
  h5::write_attribute(root, "units", plan.ic.units);
  h5::write_attribute(root, "frame", plan.ic.frame);
  h5::write_attribute(root, "backend", std::string("cpu"));
  if (job.backend == Backend::automatic)
    h5::write_attribute(root, "backend_note", std::string(kAutoNote));
  h5::write_attribute(root, "N", static_cast<std::int64_t>(plan.ic.particles.size()));
  h5::write_attribute(root, "format", std::string("orrery run"));
  h5::write_attribute(root, "orrery_version", version());
  h5::write_attribute(root, "git_hash", git_hash());
}


template <class Real>
SimOutcome start(const SimJob& job, const Plan& given_plan, const SimObserver& observer) {
  // Snapshots fall either every k steps or every T in time (checked in run_simulation):
  // --every-time turns the count off.
  Plan plan = given_plan;
  if (job.every_time > 0) plan.every = 0;
  EngineOptions eo;
  eo.g = plan.ic.g;
  eo.softening = plan.ic.softening;
  eo.threads = static_cast<int>(job.threads);
  eo.cpu_kernel = job.cpu_kernel;
  SimClock clock;
  clock.dt = plan.dt;
  Simulation<Real> sim(convert_particles<Real>(plan.ic.particles), make_force_engine<Real>(job.engine, eo),
                       make_array_stepper<Real>(job.integrator), clock);
  const Diagnostics initial = sim.diagnostics();
  RunFile::create(job.out, [&](hid_t root) {
    describe_run(root, job, plan);
    h5::write_attribute(root, "every-time", job.every_time);
  }, initial);
  RunFile file(job.out);
  file.write_snapshot(0, sim.particles(), sim.clock(), initial, Drift{});
  if (observer.snapshot) observer.snapshot(0, initial, Drift{});
  file.write_checkpoint(Checkpoint<Real>{sim.particles(), sim.clock(), sim.stepper_state(), 1});
  const SimCadence cadence{plan.t_end, plan.every, job.every_time, plan.checkpoint_every,
                           job.stop_after};
  return run_loop(sim, file, initial, 1, cadence, observer);
}

template <class Real>
SimOutcome resume(const SimJob& job, RunFile& file, const Plan& plan, const SimObserver& observer) {
  auto checkpoint = file.read_checkpoint<Real>();
  if (!checkpoint)
    throw InputError(fmt::format("--resume: '{}' holds no complete checkpoint", job.out));
  if (!(plan.t_end > checkpoint->clock.time()))
    throw ParameterError("--t-end", fmt::format("{}", plan.t_end),
                         fmt::format("a time after the checkpoint's t = {}",
                                     checkpoint->clock.time()));
  // The output cadence kept unless given again: a new --every-time or --every replaces the other.
  const double stored_every_time = h5::has_attribute(file.root(), "every-time")
                                       ? h5::read_attribute(file.root(), "every-time").reals.at(0)
                                       : 0.0;
  const double every_time = job.every_time > 0 ? job.every_time
                            : job.every > 0    ? 0.0
                                               : stored_every_time;
  const std::int64_t every = every_time > 0 ? 0 : plan.every;
  file.remove_snapshots_from(checkpoint->next_snapshot);
  h5::write_attribute(file.root(), "t-end", plan.t_end);
  h5::write_attribute(file.root(), "every", every);
  h5::write_attribute(file.root(), "every-time", every_time);
  h5::write_attribute(file.root(), "checkpoint-every", plan.checkpoint_every);
  EngineOptions eo;
  eo.g = h5::read_attribute(file.root(), "G").reals.at(0);
  eo.softening = h5::read_attribute(file.root(), "softening").reals.at(0);
  eo.threads = static_cast<int>(job.threads);
  eo.cpu_kernel = job.cpu_kernel;
  Simulation<Real> sim(std::move(checkpoint->particles), make_force_engine<Real>(job.engine, eo),
                       make_array_stepper<Real>(job.integrator), checkpoint->clock);
  sim.load_stepper_state(checkpoint->stepper);
  const SimCadence cadence{plan.t_end, every, every_time, plan.checkpoint_every, job.stop_after};
  return run_loop(sim, file, file.initial_diagnostics(), checkpoint->next_snapshot, cadence,
                  observer);
}

template <class F>
SimOutcome dispatch(Precision p, F&& f) {
  switch (p) {
    case Precision::fp32: return f(float{});
    case Precision::fp128: return f(float128{});
    case Precision::fp64: return f(double{});
    case Precision::mixed: break;  // refused by check_run_choices
  }
  throw ParameterError("--precision", to_string(p), "one of: fp32, fp64, fp128");
}

// The sim's precision, backend and device choices, checked before any work.
void check_run_choices(const SimJob& job) {
  check_precision(*find_field(sim_job_fields(), "precision"), job.precision);
  if (job.backend == Backend::cuda)
    throw ParameterError("--backend", "cuda",
                         "cpu or auto: there is no CUDA force engine yet; the direct engine runs "
                         "on the CPU");
  try {
    check_devices_for_backend(job.backend, job.devices);
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
}

// A run file records the CPU kernel variant it was computed with, and this CPU must run that
// variant: another would not continue the run bit for bit.
void check_recorded_cpu_kernel(const RunFile& file) {
  if (!h5::has_attribute(file.root(), "cpu-kernel"))
    throw InputError(fmt::format("--resume: '{}' does not record its CPU kernel variant, so it "
                                 "cannot be continued bit for bit",
                                 file.path().string()));
  const std::string kernel = h5::read_attribute(file.root(), "cpu-kernel").text;
  if (!cpu_runs_kernel(kernel))
    throw InputError(fmt::format("--resume: '{}' was computed with the '{}' CPU kernel, which "
                                 "this CPU cannot run (it runs: {}); another variant would not "
                                 "continue it bit for bit",
                                 file.path().string(), kernel,
                                 fmt::join(supported_cpu_kernel_names(), ", ")));
}

SimOutcome described(SimOutcome outcome, const SimJob& job) {
  outcome.backend = "cpu";
  outcome.cpu_kernel = job.cpu_kernel;
  if (job.backend == Backend::automatic) outcome.note = kAutoNote;
  return outcome;
}

std::int64_t default_every(double span, double dt) {
  const double steps = std::ceil(span / dt);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(steps / 100));
}

}  // namespace

SimOutcome run_simulation(const SimJob& given, const SimObserver& observer) {
  const SimJob& job = given;
  // Snapshots fall every k steps or every T in time, not both.
  if (job.every_time != 0 && !(job.every_time > 0 && std::isfinite(job.every_time)))
    throw ParameterError("--every-time", fmt::format("{}", job.every_time),
                         "a finite time > 0");
  if (job.every_time > 0 && job.every > 0)
    throw ParameterError("--every-time", fmt::format("{}", job.every_time),
                         "no --every with it (snapshots fall every k steps or every T in time)");
  if (!(job.dt >= 0) || !std::isfinite(job.dt))
    throw ParameterError("--dt", fmt::format("{}", job.dt), "a finite number > 0");
  if (std::isinf(job.t_end))
    throw ParameterError("--t-end", fmt::format("{}", job.t_end), "a finite time");
  if (job.every < 0 || job.checkpoint_every < 0 || job.threads < 0 || job.stop_after < 0)
    throw ParameterError("--every/--checkpoint-every/--threads/--stop-after", "a negative count",
                         "counts >= 1");
  check_run_choices(job);
  Plan plan;

  if (job.resume) {
    std::error_code ec;
    if (!std::filesystem::exists(job.out, ec))
      throw ParameterError("--out", job.out, "an existing run file to --resume");
    RunFile file(job.out);
    const std::string format = h5::has_attribute(file.root(), "format")
                                   ? h5::read_attribute(file.root(), "format").text
                                   : "";
    if (format != "orrery run")
      throw InputError(fmt::format("--resume: '{}' is not an orrery run file", job.out));
    const std::string made_by = h5::read_attribute(file.root(), "orrery_version").text;
    if (made_by != version())
      throw InputError(fmt::format("--resume: '{}' was written by orrery {}; this is orrery {}, "
                                   "whose checkpoints may not continue it bit for bit",
                                   job.out, made_by, version()));
    check_recorded_cpu_kernel(file);
    // The run's own parameters; any the user gave again must agree.
    SimJob stored = job;
    for (const auto& f : sim_job_fields()) {
      if (!is_stored_sim_field(f.name)) continue;
      const ParamValue in_file = read_param_attribute(file.root(), f);
      const bool given_now = std::find(job.given.begin(), job.given.end(), f.name) != job.given.end();
      if (given_now && f.get(job) != in_file)
        throw ParameterError("--" + f.name, format_param_value(f.get(job)),
                             fmt::format("the run's own {} ({}), or nothing: --resume continues "
                                         "the run as it was made",
                                         f.name, format_param_value(in_file)));
      f.set(stored, in_file);
    }
    if (!job.scene_settings.empty())
      throw ParameterError("--" + job.scene_settings.front().first,
                           format_param_value(job.scene_settings.front().second),
                           "no scene parameter with --resume (the run's are in its file)");
    plan.dt = stored.dt;
    plan.t_end = std::isnan(job.t_end) ? h5::read_attribute(file.root(), "t-end").reals.at(0)
                                       : job.t_end;
    plan.every = job.every > 0 ? job.every : h5::read_attribute(file.root(), "every").integer;
    plan.checkpoint_every = job.checkpoint_every > 0
                                ? job.checkpoint_every
                                : h5::read_attribute(file.root(), "checkpoint-every").integer;
    return described(dispatch(stored.precision,
                              [&](auto real) {
                                return resume<decltype(real)>(stored, file, plan, observer);
                              }),
                     stored);
  }

  // A new run: initial conditions, then every check, then the file.
  if (job.scene.empty() == job.input.empty())
    throw ParameterError("--scene/--input", job.scene.empty() ? "neither" : "both",
                         "exactly one of --scene NAME and --input FILE");
  if (!job.input.empty() && !job.scene_settings.empty())
    throw ParameterError("--" + job.scene_settings.front().first,
                         format_param_value(job.scene_settings.front().second),
                         "no scene parameter with --input (the file holds the particles)");
  check_sim_memory(job);
  plan.ic = job.input.empty() ? make_scene(job.scene, job.scene_settings)
                              : read_particle_file(job.input);
  check_no_coinciding_particles(plan.ic.particles, plan.ic.softening, job.precision,
                                job.input.empty() ? "scene " + job.scene : "'" + job.input + "'");
  plan.dt = job.dt > 0 ? job.dt : plan.ic.dt;
  plan.t_end = std::isnan(job.t_end) ? plan.ic.t_end : job.t_end;
  if (!(plan.dt > 0))  // job.dt is 0 (not given) or was refused above
    throw InputError(fmt::format("--dt: none given, and {}; give --dt",
                                 no_time_scale_reason(plan.ic.particles, plan.ic.g)));
  if (!(plan.t_end > 0))
    throw ParameterError("--t-end", fmt::format("{}", plan.t_end),
                         "a time after the start, t = 0");
  plan.every = job.every > 0 ? job.every : default_every(plan.t_end, plan.dt);
  plan.checkpoint_every = job.checkpoint_every > 0 ? job.checkpoint_every : plan.every;
  check_run_limits(job, std::ssize(plan.ic.particles.mass), 0.0, plan.dt, plan.t_end,
                   job.every_time > 0 ? 0 : plan.every);
  check_output_path("--out", job.out);
  std::error_code ec;
  if (std::filesystem::exists(job.out, ec))
    throw ParameterError("--out", job.out,
                         "a file that does not exist yet (add --resume to continue it)");
  find_integrator(job.integrator);
  // The variant used is the one recorded: "" becomes the widest this CPU runs.
  SimJob resolved = job;
  try {
    resolved.cpu_kernel = resolve_cpu_kernel(job.cpu_kernel);
  } catch (const ParameterError& e) {
    throw e.renamed("--cpu-kernel");
  }
  return described(dispatch(resolved.precision,
                            [&](auto real) {
                              return start<decltype(real)>(resolved, plan, observer);
                            }),
                   resolved);
}

}  // namespace orrery