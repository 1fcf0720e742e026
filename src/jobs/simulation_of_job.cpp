// SPDX-License-Identifier: MIT
#include "orrery/jobs/simulation_of_job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/engine_fields.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/tree_accuracy.hpp"

namespace orrery {

namespace {

// An embedded pair's error estimate is the difference of two solutions, each rounded by about
// the unit roundoff u at every stage: a tolerance below ~100 u is met by rounding alone and
// controls nothing (dop853 at 1e-14 in fp64 drifted more than at 1e-13). ias15's tolerance is
// ε_b, a bound on the relative size of its last coefficient, not an error per step.
constexpr double kLeastTolerancePerRoundoff = 100;

double unit_roundoff(Precision p) {
  switch (p) {
    case Precision::fp32: return 0x1p-24;
    case Precision::fp128: return 0x1p-113;
    case Precision::dd: return 0x1p-106;
    case Precision::fp64:
    case Precision::mixed: return 0x1p-53;
  }
  return 0x1p-53;
}

void check_tolerance_for_precision(const SimJob& job) {
  if (!(job.tolerance > 0) || job.integrator == "ias15") return;
  const double least = kLeastTolerancePerRoundoff * unit_roundoff(job.precision);
  if (job.tolerance < least)
    throw ParameterError("--tolerance", fmt::format("{}", job.tolerance),
                         fmt::format("a tolerance >= {:.2g} in {} (100 times its unit roundoff: "
                                     "below that the error estimate measures rounding, not the "
                                     "step's error)",
                                     least, to_string(job.precision)));
}

// The families whose array stepper updates each body alone (combine) and decides a step only
// from a maximum norm (ArrayDevice::max_scaled_error, taken over the ranks): over ranks they
// step every slice as one process steps the whole. The others do arithmetic over the whole
// system on the host (ias15's predictor, the implicit methods' convergence test), a global
// transformation (whfast's Jacobi coordinates) or steps of their own per body (block steps).
bool steps_body_by_body(IntegratorFamily family) {
  switch (family) {
    case IntegratorFamily::explicit_runge_kutta:
    case IntegratorFamily::splitting:
    case IntegratorFamily::multistep:
    case IntegratorFamily::extrapolation: return true;
    case IntegratorFamily::block_steps:
    case IntegratorFamily::ias15:
    case IntegratorFamily::implicit_runge_kutta:
    case IntegratorFamily::wisdom_holman: return false;
  }
  return false;
}

}  // namespace

void check_simulation_choices(const SimJob& job) {
  check_precision(*find_field(sim_job_fields(), "precision"), job.precision);
  check_engine_choice(job);
}

SimJob resolved_simulation_choices(const SimJob& job, double softening) {
  find_integrator(job.integrator);
  try {  // a tolerance only for a method that can control its step, block-step options in range
    make_array_stepper<double>(job.integrator, job.tolerance,
                               block_step_options_of(job, softening),
                               static_cast<int>(job.corrector), job.ias15_criterion,
                               job.whfast_safe_mode);
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
  if (job.whfast_safe_mode &&
      find_integrator(job.integrator).family != IntegratorFamily::wisdom_holman)
    throw ParameterError("--whfast-safe-mode", "given",
                         fmt::format("only with --integrator whfast or saba1 … saba4 (not {})",
                                     job.integrator));
  if (job.precision == Precision::fp32) {
    try {  // not every method runs in fp32
      make_array_stepper<float>(job.integrator, job.tolerance);
    } catch (const ParameterError& e) {
      throw e.renamed("--" + e.parameter());
    }
  }
  check_tolerance_for_precision(job);
  SimJob resolved = job;
  try {
    resolved.cpu_kernel = resolve_cpu_kernel(job.cpu_kernel);
  } catch (const ParameterError& e) {
    throw e.renamed("--cpu-kernel");
  }
  return resolved;
}

template <class Real>
Simulation<Real> make_simulation(const SimJob& job, Particles<Real> particles, double g,
                                 double softening, SimClock clock) {
  const EngineOptions eo = engine_options_of(job, g, softening);
  auto stepper = make_array_stepper<Real>(job.integrator, job.tolerance,
                                          block_step_options_of(job, softening),
                                          static_cast<int>(job.corrector), job.ias15_criterion,
                                          job.whfast_safe_mode);
  if (!dist::distributed())
    return Simulation<Real>(std::move(particles), make_force_engine<Real>(job.engine, eo),
                            std::move(stepper), clock);
  // Over ranks: this rank's slice, its engine computing the slice from every rank's positions.
  const std::size_t n = particles.size();
  auto engine =
      job.engine == "tree"
          ? dist::tree_over_ranks<Real>(dist::for_this_rank(eo), n)
          : dist::engine_over_ranks(make_force_engine<Real>(job.engine, dist::for_this_rank(eo)),
                                    n);
  Simulation<Real> sim(dist::particles_of(particles, dist::my_body_slice(n)), std::move(engine),
                       std::move(stepper), clock);
  sim.share_bodies(dist::body_share_over_ranks<Real>(n));
  return sim;
}

void check_simulation_over_ranks(const SimJob& job, std::size_t bodies) {
  if (!dist::distributed()) return;
  const int ranks = dist::layout().size;
  if (job.engine == "tree" && job.backend == Backend::cuda)
    throw ParameterError("--backend", to_string(Backend::cuda),
                         fmt::format("{} or {} with --engine tree over the ranks of an MPI job "
                                     "({} ranks): the tree over ranks computes on each rank's "
                                     "CPUs (--engine direct runs over ranks on GPUs)",
                                     to_string(Backend::cpu), to_string(Backend::automatic),
                                     ranks));
  const IntegratorInfo& method = find_integrator(job.integrator);
  if (!steps_body_by_body(method.family)) {
    std::vector<std::string> fit;
    for (const IntegratorInfo& i : integrators())
      if (steps_body_by_body(i.family)) fit.emplace_back(i.name);
    throw ParameterError(
        "--integrator", job.integrator,
        fmt::format("over the ranks of an MPI job, a method whose step is body by body or "
                    "controlled by a maximum norm ({}); {}'s step needs the whole system on one "
                    "process (start it without mpirun)",
                    fmt::join(fit, ", "), job.integrator));
  }
  if (bodies < static_cast<std::size_t>(ranks))
    throw InputError(fmt::format("{} bodies over {} ranks: at least one body a rank is needed "
                                 "(start at most {} ranks)",
                                 bodies, ranks, bodies));
}

template <class Real>
Simulation<Real> make_simulation(const SimJob& job, const SimStart& start) {
  SimClock clock;
  clock.t = start.start_time;
  clock.dt = start.dt;
  return make_simulation(job, convert_particles<Real>(start.ic.particles), start.ic.g,
                         start.ic.softening, clock);
}

template <class Real>
SimJob with_tree_setting(const SimJob& given, const SimStart& start, std::string& described) {
  SimJob job = given;
  if (job.accuracy <= 0) return job;
  const Particles<Real> p = convert_particles<Real>(start.ic.particles);
  std::vector<Real> x(p.x.begin(), p.x.end());
  x.insert(x.end(), p.y.begin(), p.y.end());
  x.insert(x.end(), p.z.begin(), p.z.end());
  const TreeAccuracyChoice c = choose_tree_setting<Real>(
      job.accuracy, engine_options_of(job, start.ic.g, start.ic.softening), x, p.mass,
      p.softening);
  job.theta = c.chosen.theta;
  job.multipole = multipole_names()[static_cast<std::size_t>(c.chosen.multipole)];
  described = describe(c);
  return job;
}

template SimJob with_tree_setting<float>(const SimJob&, const SimStart&, std::string&);
template SimJob with_tree_setting<double>(const SimJob&, const SimStart&, std::string&);
template SimJob with_tree_setting<float128>(const SimJob&, const SimStart&, std::string&);
template Simulation<float> make_simulation<float>(const SimJob&, const SimStart&);
template Simulation<double> make_simulation<double>(const SimJob&, const SimStart&);
template Simulation<float128> make_simulation<float128>(const SimJob&, const SimStart&);
template Simulation<float> make_simulation(const SimJob&, Particles<float>, double, double,
                                           SimClock);
template Simulation<double> make_simulation(const SimJob&, Particles<double>, double, double,
                                            SimClock);
template Simulation<float128> make_simulation(const SimJob&, Particles<float128>, double, double,
                                              SimClock);

}  // namespace orrery
