// SPDX-License-Identifier: MIT
// run_simulation() (jobs/sim_job.hpp): a new run started in its folder, or a run resumed from its
// checkpoint, and what run.h5 records of either. Its steps are taken by sim_snapshot_loop.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/version.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/broadcast_values.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/engine_fields.hpp"
#include "orrery/jobs/run_limits.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "jobs/sim_settings.hpp"

namespace orrery {

namespace {

// Where the engine computes and how it gives W, for run.h5 and the outcome.
struct EngineFacts {
  std::string backend, note, potential_method;
};

template <class Real>
EngineFacts facts_of(ForceEngine<Real>& engine, const EngineOptions& eo) {
  return {engine.backend(), resolve_backend<Real>(eo).note,
          engine.potential_energy_method()};
}

struct Plan : SimStart {
  std::int64_t every = 0, checkpoint_every = 0;
};

// Root attributes of run.h5: the job's stored parameters, the scene's parameters, and what the
// numbers mean.
void describe_run(hid_t root, const SimJob& job, const Plan& plan, const EngineFacts& facts) {
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
  if (!job.input.empty()) {  // the file itself, which --resume compares with its --input
    std::error_code ec;
    const auto path = std::filesystem::canonical(job.input, ec);
    if (!ec) h5::write_attribute(root, "input_path", path.string());
  }
  h5::write_attribute(root, "every-time", job.every_time);
  h5::write_attribute(root, "start_time", plan.start_time);
  h5::write_attribute(root, "G", plan.ic.g);
  h5::write_attribute(root, "softening", plan.ic.softening);
  h5::write_attribute(root, "units", plan.ic.units);
  h5::write_attribute(root, "frame", plan.ic.frame);
  h5::write_attribute(root, "backend", facts.backend);
  if (!facts.note.empty()) h5::write_attribute(root, "backend_note", facts.note);
  h5::write_attribute(root, "energy_potential_method", facts.potential_method);
  h5::write_attribute(root, "N", static_cast<std::int64_t>(plan.ic.particles.size()));
  h5::write_attribute(root, "format", std::string("orrery run"));
  h5::write_attribute(root, "orrery_version", version());
  h5::write_attribute(root, "git_hash", git_hash());
}

SimCadence cadence_of(const SimJob& job, const RunSettings& s) {
  return SimCadence{s.t_end,          s.every,         s.every_time,
                    s.checkpoint_every, job.stop_after, job.max_drift,
                    job.stop_on_drift,  step_events_of(job)};
}

template <class Real>
SimOutcome start(const SimJob& given_job, const Plan& given_plan, const SimObserver& observer) {
  std::string tree_setting;
  const SimJob job = with_tree_setting<Real>(given_job, given_plan, tree_setting);
  // Snapshots fall either every k steps or every T in time (checked in run_simulation):
  // --every-time turns the count off.
  Plan plan = given_plan;
  if (job.every_time > 0) plan.every = 0;
  const EngineOptions eo = engine_options_of(job, plan.ic.g, plan.ic.softening);
  // Over ranks every rank makes its slice and reads the whole system through collectives;
  // rank 0 alone has the store and writes.
  Simulation<Real> sim = make_simulation<Real>(job, plan);
  check_step_events_where(job, sim.engine().backend());
  const Diagnostics initial = sim.diagnostics();
  const RunSettings settings{plan.t_end, plan.every, job.every_time, plan.checkpoint_every};
  // Made in a hidden folder, which appears under its name only with all three files in it, and
  // is removed where it does not get there.
  std::optional<RunStore> store;
  if (dist::writes()) store.emplace(RunStore::create(job.out));
  struct Unpublished {
    std::optional<RunStore>& store;
    ~Unpublished() {
      if (store) store->discard_unpublished();
    }
  } unpublished{store};
  const EngineFacts facts = facts_of(sim.engine(), eo);
  if (store)
    store->write_description(
        [&](hid_t root) {
          describe_run(root, job, plan, facts);
          if (!tree_setting.empty()) {
            h5::write_attribute(root, "accuracy", job.accuracy);
            h5::write_attribute(root, "tree_setting", tree_setting);
          }
        },
        initial);
  const Particles<Real> first = sim.particles();
  Checkpoint<Real> checkpoint{sim.particles(), sim.clock(), sim.stepper_state(), 1, settings, {}};
  checkpoint.ranks = ranks_of_job();
  if (store) {
    store->write_snapshot(0, first, sim.clock(), initial, Drift{}, plan.t_end, {});
    store->write_checkpoint(checkpoint);
    store->publish();
  }
  if (observer.snapshot) observer.snapshot(0, initial, Drift{});
  SimOutcome out = run_loop(sim, store ? &*store : nullptr, initial, 1, cadence_of(job, settings),
                            {}, observer);
  out.backend = facts.backend, out.note = facts.note, out.potential_method = facts.potential_method;
  out.tree_setting = tree_setting;
  return out;
}

// `job` is the run's stored job with what this invocation gave (t-end, cadence, threads, ...).
// A checkpoint written by `written_by` ranks (0: one process) continued by this job's.
std::string resumed_ranks_note(std::int64_t written_by) {
  auto words = [](std::int64_t ranks) {
    return ranks > 1 ? fmt::format("{} MPI ranks", ranks) : std::string("one process");
  };
  return fmt::format("--resume: the checkpoint was written by {} and is continued by {} (it "
                     "holds the whole system in its global order, which any number of ranks "
                     "continues bit for bit)",
                     words(written_by), words(ranks_of_job()));
}

// Over ranks, `store` is rank 0's (null on the others): it reads the checkpoint and the run's
// description, and every rank gets what they hold.
template <class Real>
SimOutcome resume(const SimJob& job, RunStore* store, const SimObserver& observer) {
  std::vector<std::string> notes;
  Checkpoint<Real> checkpoint;
  dist::check_on_every_rank([&] {
      if (store) checkpoint = store->read_checkpoint<Real>(notes);
  });
  dist::broadcast_checkpoint(checkpoint);
  for (const auto& note : notes)
    if (observer.warning) observer.warning(note);
  if (observer.note && checkpoint.ranks != ranks_of_job())
    observer.note(resumed_ranks_note(checkpoint.ranks));
  const double now = checkpoint.clock.time();
  RunSettings s = checkpoint.settings;
  const bool new_end = !std::isnan(job.t_end) && job.t_end != s.t_end;
  if (new_end) s.t_end = job.t_end;
  if (!(s.t_end > now)) {
    if (new_end)
      throw ParameterError("--t-end", fmt::format("{}", s.t_end),
                           fmt::format("a time after the checkpoint's t = {}", now));
    SimOutcome done;  // the run has reached its end already: nothing to do
    done.time = now;
    if (store) done.snapshots = static_cast<std::int64_t>(store->snapshots().size());
    done.drift_warning = checkpoint.drift_warning.raised();
    return done;
  }
  // The output cadence kept unless given again: a new --every-time or --every replaces the other.
  if (job.every_time > 0) {
    s.every_time = job.every_time;
    s.every = 0;
  } else if (job.every > 0) {
    s.every_time = 0;
    s.every = job.every;
  }
  if (job.checkpoint_every > 0) s.checkpoint_every = job.checkpoint_every;
  // A new end or cadence is held to the limits of a new run before anything in the run changes.
  dist::check_on_every_rank([&] {
      check_run_limits(job, std::ssize(checkpoint.particles.mass), now, checkpoint.clock.dt,
                       s.t_end, s.every_time > 0 ? 0 : s.every);
      check_simulation_over_ranks(job, checkpoint.particles.mass.size());
  });
  std::array<double, 2> g_and_softening{};
  Diagnostics initial;
  if (store) {
    store->remove_snapshots_from(checkpoint.next_snapshot);
    h5::Handle description = store->description();
    g_and_softening = {h5::read_attribute(description.id(), "G").reals.at(0),
                       h5::read_attribute(description.id(), "softening").reals.at(0)};
    initial = store->initial_diagnostics();
  }
  dist::broadcast_values(g_and_softening);
  dist::broadcast_diagnostics(initial);
  const EngineOptions eo = engine_options_of(job, g_and_softening[0], g_and_softening[1]);
  Simulation<Real> sim =
      make_simulation(job, std::move(checkpoint.particles), eo.g, eo.softening, checkpoint.clock);
  sim.load_stepper_state(checkpoint.stepper);
  sim.set_energy_offset(checkpoint.energy_offset);
  check_step_events_where(job, sim.engine().backend());
  const EngineFacts facts = facts_of(sim.engine(), eo);
  SimOutcome out = run_loop(sim, store, initial, checkpoint.next_snapshot, cadence_of(job, s),
                            checkpoint.drift_warning, observer);
  out.backend = facts.backend, out.note = facts.note, out.potential_method = facts.potential_method;
  return out;
}

template <class F>
SimOutcome dispatch(Precision p, F&& f) {
  switch (p) {
    case Precision::fp32: return f(float{});
    case Precision::fp128: return f(float128{});
    case Precision::fp64: return f(double{});
    case Precision::mixed:
    case Precision::dd: break;  // refused by check_simulation_choices
  }
  throw ParameterError("--precision", to_string(p), "one of: fp32, fp64, fp128");
}


SimOutcome described(SimOutcome outcome, const SimJob& job) {
  outcome.cpu_kernel = job.cpu_kernel;
  outcome.threads_note = cpu_threads_note(static_cast<int>(job.threads));
  return outcome;
}

std::int64_t default_every(double span, double dt) {
  const double steps = std::ceil(span / dt);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(steps / 100));
}

// Rank 0's stored parameters (read from the run) on every rank.
void broadcast_stored_fields(SimJob& stored) {
  std::vector<ParamValue> values;
  for (const auto& f : sim_job_fields())
    if (is_stored_sim_field(f.name)) values.push_back(f.get(stored));
  dist::broadcast_param_values(values);
  std::size_t k = 0;
  for (const auto& f : sim_job_fields())
    if (is_stored_sim_field(f.name)) f.set(stored, values[k++]);
}

// Over ranks, rank 0 alone speaks; every rank is asked to stop (and they agree: run_loop).
SimObserver observer_of_this_rank(const SimObserver& given) {
  if (dist::writes()) return given;
  SimObserver quiet;
  quiet.stop_signal = given.stop_signal;
  return quiet;
}

}  // namespace

SimOutcome run_simulation(const SimJob& given, const SimObserver& given_observer) {
  const SimJob& job = given;
  const SimObserver observer = observer_of_this_rank(given_observer);
  // Over ranks, every check is met by every rank alike (dist/check_on_every_rank.hpp).
  dist::check_on_every_rank([&] {
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
    if (!(job.max_drift >= 0) || std::isinf(job.max_drift))
      throw ParameterError("--max-drift", fmt::format("{}", job.max_drift), "a finite number >= 0");
    if (job.every < 0 || job.checkpoint_every < 0 || job.threads < 0 || job.stop_after < 0)
      throw ParameterError("--every/--checkpoint-every/--threads/--stop-after", "a negative count",
                           "counts >= 1");
    check_simulation_choices(job);
  });
  Plan plan;

  if (job.resume) {
    std::optional<RunStore> store;  // over ranks, rank 0's: it reads the run and writes
    SimJob stored = job;
    dist::check_on_every_rank([&] {
      if (!dist::writes()) return;
      // The lock first: what is read below must not change under this run.
      store.emplace(RunStore::open(job.out));
      h5::Handle description = store->description();
      const hid_t root = description.id();
      const std::string format =
          h5::has_attribute(root, "format") ? h5::read_attribute(root, "format").text : "";
      if (format != "orrery run")
        throw InputError(fmt::format("--resume: '{}' is not an orrery run", job.out));
      const std::string made_by = h5::read_attribute(root, "orrery_version").text;
      if (made_by != version())
        throw InputError(fmt::format("--resume: '{}' was written by orrery {}; this is orrery "
                                     "{}, whose checkpoints may not continue it bit for bit",
                                     job.out, made_by, version()));
      stored = stored_sim_job(root, job);
    });
    broadcast_stored_fields(stored);
    return described(dispatch(stored.precision,
                              [&](auto real) {
                                return resume<decltype(real)>(stored, store ? &*store : nullptr,
                                                              observer);
                              }),
                     stored);
  }

  // A new run: initial conditions, then every check, then the run.
  SimJob resolved;
  dist::check_on_every_rank([&] {
    static_cast<SimStart&>(plan) = plan_sim_start(job);
    plan.every = job.every > 0 ? job.every : default_every(plan.t_end - plan.start_time, plan.dt);
    plan.checkpoint_every = job.checkpoint_every > 0 ? job.checkpoint_every : plan.every;
    check_run_limits(job, std::ssize(plan.ic.particles.mass), plan.start_time, plan.dt, plan.t_end,
                     job.every_time > 0 ? 0 : plan.every);
    std::error_code ec;
    if (std::filesystem::exists(job.out, ec))
      throw ParameterError("--out", job.out,
                           "a name that does not exist yet (add --resume to continue the run)");
    check_output_path("--out", job.out);
    // The variant used is the one recorded: "" becomes the widest this CPU runs.
    resolved = resolved_simulation_choices(job, plan.ic.softening);
    check_simulation_over_ranks(resolved, plan.ic.particles.size());
  });
  return described(dispatch(resolved.precision,
                            [&](auto real) {
                              return start<decltype(real)>(resolved, plan, observer);
                            }),
                   resolved);
}

}  // namespace orrery
