// SPDX-License-Identifier: MIT
// The parameters of `orrery sim`, described once (core/parameter.hpp).
#include <limits>

#include "jobs/sim_settings.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/engine_fields.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {

namespace {

using J = SimJob;

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  {
    auto s = text_field("scene", "initial conditions by name (orrery sim --list)", &J::scene);
    s.kind = ParamKind::Choice;
    s.choices = scene_names();
    f.push_back(std::move(s));
  }
  f.push_back(text_field("input", "initial conditions from a particle file (CSV or HDF5)",
                         &J::input));
  f.push_back(text_field("units",
                         "the input's units of length, time and mass, e.g. au,yr,msun "
                         "(REBOUND's names; G from them, 39.4769... for these)",
                         &J::units));
  add_engine_fields(f, &J::engine, &J::theta, &J::multipole, &J::accuracy);
  {
    auto i = text_field("integrator", "time integrator (orrery sim --list)", &J::integrator);
    i.kind = ParamKind::Choice;
    i.choices = integrator_names();
    f.push_back(std::move(i));
  }
  f.push_back(real_field("dt", "time step (default: the scene's); with --tolerance the first one",
                         &J::dt, RealRule::Positive));
  f.push_back(integer_field("corrector",
                            "whfast's symplectic corrector: its order, 3, 5, 7, 11 or 17 "
                            "(Wisdom, Holman & Touma 1996); default 0: none",
                            &J::corrector, 0, 17));
  f.push_back(flag_field("whfast-safe-mode",
                         "whfast (and saba1 … saba4) converts to and from Jacobi coordinates at "
                         "every step and applies its corrector at every step (REBOUND's "
                         "safe_mode = 1); default: "
                         "keeps them between steps, the corrector only where the state is read",
                         &J::whfast_safe_mode));
  {
    auto c = text_field("ias15-criterion",
                        "ias15's step criterion: prs24 (Pham, Rein & Spiegel 2024, REBOUND's "
                        "default) or global (Rein & Spiegel 2015); default prs24",
                        &J::ias15_criterion);
    c.kind = ParamKind::Choice;
    c.choices.assign(kIas15CriterionNames.begin(), kIas15CriterionNames.end());
    f.push_back(std::move(c));
  }
  {
    auto c = text_field("collisions",
                        "what bodies that touch do (radii from the input's r column or "
                        "--radius): none, merge (mass and momentum kept), bounce (hard spheres) "
                        "or stop (after a checkpoint); default none",
                        &J::collisions);
    c.kind = ParamKind::Choice;
    c.choices.assign(std::begin(kCollisionRuleNames), std::end(kCollisionRuleNames));
    f.push_back(std::move(c));
  }
  {
    auto c = text_field("collision-search",
                        "how touching bodies are found after a step: direct (overlapping and "
                        "approaching at its end) or line (closest approach of straight paths "
                        "over it; REBOUND's names); default direct",
                        &J::collision_search);
    c.kind = ParamKind::Choice;
    c.choices.assign(std::begin(kCollisionSearchNames), std::end(kCollisionSearchNames));
    f.push_back(std::move(c));
  }
  f.push_back(real_field("radius",
                         "the radius of every body the initial conditions give none (a scene's, "
                         "a file without an r column); default 0: points",
                         &J::radius, RealRule::NonNegative));
  f.push_back(real_field("exit-min-distance",
                         "stop, after a checkpoint, when two bodies come closer than this "
                         "(REBOUND's exit_min_distance); default 0: never",
                         &J::exit_min_distance, RealRule::NonNegative));
  f.push_back(real_field("exit-max-distance",
                         "stop, after a checkpoint, when a body is farther than this from the "
                         "centre of mass (REBOUND's exit_max_distance); default 0: never",
                         &J::exit_max_distance, RealRule::NonNegative));
  f.push_back(real_field("tolerance",
                         "step-size control: each step's error estimate within this, relative "
                         "and absolute (dopri5, tsit5, cash-karp, …; default 0: fixed steps); "
                         "ias15's ε_b (default 1e-9)",
                         &J::tolerance, RealRule::NonNegative));
  f.push_back(real_field("block-eta",
                         "leapfrog-block: η of each body's step (2 η L / |a|)^(1/2), rounded "
                         "down to dt/2^k",
                         &J::block_eta, RealRule::Positive));
  f.push_back(real_field("block-length",
                         "leapfrog-block: the length L of that step (default 0: the softening; "
                         "needed when it is 0)",
                         &J::block_length, RealRule::NonNegative));
  f.push_back(real_field("t-end", "end time; the last step is shortened to land on it (default: "
                                  "the scene's)",
                         &J::t_end, RealRule::Finite));
  f.push_back(integer_field("every", "steps between snapshots (default: about 100 per run)",
                            &J::every, 1, std::numeric_limits<std::int64_t>::max()));
  f.push_back(real_field("every-time",
                         "time between snapshots, taken at its multiples (the step before one is "
                         "shortened to land on it); replaces --every (default: none)",
                         &J::every_time, RealRule::Positive));
  f.push_back(integer_field("checkpoint-every",
                            "steps between checkpoints (default: at every snapshot)",
                            &J::checkpoint_every, 1, std::numeric_limits<std::int64_t>::max()));
  f.push_back(enum_field("precision", "floating-point type of the state and the arithmetic",
                         &J::precision,
                         precision_words({Precision::fp32, Precision::fp64, Precision::fp128})));
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 1, 4096));
  add_backend_fields(f, &J::backend, &J::devices, &J::cpu_kernel,
                     "where to compute the forces");
  f.push_back(path_field("out", "the run's folder: parameters, snapshots and checkpoints",
                         &J::out));
  f.push_back(flag_field("resume", "continue the run stored in --out from its last checkpoint",
                         &J::resume));
  f.push_back(integer_field("stop-after",
                            "stop after this many steps, with a checkpoint (--resume goes on; "
                            "default: run to t-end)",
                            &J::stop_after, 1, std::numeric_limits<std::int64_t>::max()));
  f.push_back(real_field("max-drift",
                         "warn (and record in the run) when the relative energy drift passes "
                         "this; 0: never",
                         &J::max_drift, RealRule::NonNegative));
  f.push_back(flag_field("stop-on-drift", "stop, after a checkpoint, when --max-drift is passed",
                         &J::stop_on_drift));
  return f;
}

// Parameters that define the run and are stored in its file.
const char* kStored[] = {"scene",     "input",     "engine",       "theta",
                         "multipole", "integrator", "corrector",   "ias15-criterion", "whfast-safe-mode",
                         "dt",        "tolerance", "collisions", "collision-search", "radius",
                         "block-eta", "block-length", "precision", "cpu-kernel"};
}  // namespace

bool is_resumed_sim_setting(const std::string& name) {
  return name == "t-end" || name == "every" || name == "checkpoint-every";
}

const std::vector<ParamField<SimJob>>& sim_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

BlockStepOptions block_step_options_of(const SimJob& job, double softening) {
  BlockStepOptions o;
  o.eta = job.block_eta;
  o.length = job.block_length > 0 ? job.block_length : softening;
  return o;
}

bool is_stored_sim_field(const std::string& name) {
  for (const char* s : kStored)
    if (name == s) return true;
  return false;
}

}  // namespace orrery
