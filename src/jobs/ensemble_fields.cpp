// SPDX-License-Identifier: MIT
// The parameters of `orrery ensemble`, described once (core/parameter.hpp): the CLI's flags, the
// TOML keys and Python's keywords.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/ensemble/ensemble.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/jobs/section_indicator.hpp"

namespace orrery {

namespace {

using J = EnsembleJob;
constexpr std::int64_t kMaxSteps = kEnsembleMaxSteps;
constexpr std::int64_t kMaxTrajectories = std::int64_t{1} << 31;

// Every state word of every problem, for the --NAME-range options.
std::vector<std::string> plane_words() {
  std::vector<std::string> words;
  for (const auto& p : ensemble_problems())
    for (auto name : p.state_names)
      if (std::find(words.begin(), words.end(), name) == words.end()) words.emplace_back(name);
  return words;
}

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  {
    auto p = text_field("problem", "the system every trajectory integrates", &J::problem);
    p.kind = ParamKind::Choice;
    for (const auto& name : ensemble_problem_names()) p.choices.push_back(name);
    f.push_back(std::move(p));
  }
  {
    auto p = text_field("potential",
                        "--problem polynomial: V(q) of H = |p|^2/2 + V(q), a polynomial in x, y, "
                        "z of degree <= 6, e.g. \"0.5*(x^2+y^2) + x^2*y - y^3/3\"",
                        &J::potential);
    p.placeholder = "V";
    f.push_back(std::move(p));
  }
  auto integrators = text_field(
      "integrator",
      fmt::format("integrators, comma-separated (one run each; default: leapfrog, or rk4 for a "
                  "first-order problem): {}",
                  fmt::join(ensemble_integrator_names(), ", ")),
      &J::integrators);
  integrators.placeholder = "NAME,...";
  f.push_back(std::move(integrators));
  auto precisions = text_field("precision",
                               "precisions, comma-separated (one run each): fp64, fp32, mixed "
                               "(the state and its sums in fp64, the field evaluated in fp32)",
                               &J::precisions);
  precisions.placeholder = "fp64,...";
  f.push_back(std::move(precisions));
  f.push_back(real_field("dt", "time step; with --tolerance the first trial step", &J::dt,
                         RealRule::Positive));
  f.push_back(real_field("tolerance",
                         fmt::format("step-size control of each trajectory: its error per step "
                                     "within this, absolute and relative ({}; default 0: fixed "
                                     "steps)",
                                     fmt::join(adaptive_ensemble_integrator_names(), ", ")),
                         &J::tolerance, RealRule::NonNegative));
  {
    auto s = integer_field("steps", "steps of every trajectory", &J::steps, 1, kMaxSteps);
    s.excludes = {"t-end"};
    f.push_back(std::move(s));
  }
  f.push_back(real_field("t-end",
                         "end time instead of --steps (a whole number of --dt, unless with "
                         "--tolerance)",
                         &J::t_end, RealRule::NonNegative));
  f.push_back(integer_field("samples",
                            "times at which the energy drift is recorded, evenly spaced (with "
                            "--tolerance every trajectory lands on each)",
                            &J::samples, 1, kEnsembleMaxSamples));
  {
    auto s = text_field("starts", "grid, random, or a CSV or HDF5 file of start rows", &J::starts);
    s.placeholder = "grid|random|FILE";
    f.push_back(std::move(s));
  }
  f.push_back(integer_field("resolution", "grid starts: points per side of the plane",
                            &J::resolution, 1, 1 << 15));
  f.push_back(integer_field("n", "random starts and sweeps: trajectories", &J::n, 1,
                            kMaxTrajectories));
  {
    ParamField<J> s{"seed", "random starts: seed of the generator", ParamKind::Integer};
    s.set = [](J& j, const ParamValue& v) {
      j.seed = static_cast<std::uint64_t>(require_integer("seed", v, 0, INT64_MAX));
    };
    s.get = [](const J& j) { return ParamValue{static_cast<std::int64_t>(j.seed)}; };
    f.push_back(std::move(s));
  }
  {
    ParamField<J> e{"energy",
                    fmt::format("grid and random starts: the energy that fixes a free momentum "
                                "(H = |p|^2/2 + V(q) only; default {})",
                                kEnsembleDefaultEnergy),
                    ParamKind::Real};
    e.set = [](J& j, const ParamValue& v) {
      j.energy = require_real("energy", v, RealRule::Finite);
    };
    e.get = [](const J& j) { return ParamValue{j.energy.value_or(kEnsembleDefaultEnergy)}; };
    f.push_back(std::move(e));
  }
  {
    auto p = text_field("plane", "grid and random starts: the plane's two state words, A:B",
                        &J::plane);
    p.placeholder = "A:B";
    f.push_back(std::move(p));
  }
  for (const std::string& word : plane_words()) {
    ParamField<J> r{word + "-range",
                    fmt::format("range of {} on the plane, A:B (default: what --energy reaches)",
                                word),
                    ParamKind::Reals, 2, ':'};
    r.set = [word](J& j, const ParamValue& v) {
      j.ranges[word] = require_interval(word + "-range", v);
    };
    r.get = [word](const J& j) {
      const auto it = j.ranges.find(word);
      return ParamValue{it == j.ranges.end() ? std::vector<double>{}
                                             : std::vector<double>{it->second[0], it->second[1]}};
    };
    f.push_back(std::move(r));
  }
  {
    auto s = text_field("state",
                        "start of the words the starts do not set, comma-separated (default: the "
                        "problem's)",
                        &J::state);
    s.placeholder = "X,...";
    f.push_back(std::move(s));
  }
  {
    auto p = text_field("parameters", "changes to the problem's parameters, e.g. rho=28,beta=2.5",
                        &J::parameters);
    p.placeholder = "NAME=X,...";
    f.push_back(std::move(p));
  }
  {
    auto s = text_field("sweep",
                        "a state word or parameter evenly from A to B over --n trajectories, "
                        "e.g. rho=0:21",
                        &J::sweep);
    s.placeholder = "NAME=A:B";
    f.push_back(std::move(s));
  }
  add_backend_fields(f, &J::backend, &J::devices, &J::cpu_kernel, "where to compute");
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 1, 4096));
  f.push_back(path_field("out", "HDF5 file of the starts, final states and energy drift",
                         &J::out));
  f.push_back(path_field("plot", "PNG of the energy drift against time (default: none)",
                         &J::plot));
  {
    auto p = text_field("section",
                        "a surface of section NAME=VALUE, e.g. x=0: each trajectory records "
                        "where it crosses that state word's value (default: none)",
                        &J::section);
    p.placeholder = "NAME=VALUE";
    f.push_back(std::move(p));
  }
  {
    auto p = text_field("section-direction",
                        "--section: the crossings recorded, by the sign of the word's time "
                        "derivative there",
                        &J::section_direction);
    p.kind = ParamKind::Choice;
    p.choices = {"up", "down", "both"};
    p.set = [choices = p.choices](J& j, const ParamValue& v) {
      j.section_direction = require_choice("section-direction", v, choices);
    };
    f.push_back(std::move(p));
  }
  f.push_back(integer_field("max-crossings",
                            "--section: crossings each trajectory keeps (those beyond are "
                            "counted and reported)",
                            &J::max_crossings, 1, kEnsembleMaxCrossings));
  f.push_back(path_field("section-plot",
                         "PNG of the crossings in the section's plane, a colour per trajectory "
                         "(default: none)",
                         &J::section_plot));
  {
    auto p = text_field("section-colour-by",
                        "--section: colour the crossings by orbit, or by each orbit's indicator "
                        "of chaos (computed as orrery chaos does, with the run's integrator, "
                        "step and time; also written to the HDF5 file)",
                        &J::section_colour);
    p.kind = ParamKind::Choice;
    p.choices = section_colourings();
    p.set = [choices = p.choices](J& j, const ParamValue& v) {
      j.section_colour = require_choice("section-colour-by", v, choices);
    };
    f.push_back(std::move(p));
  }
  f.push_back(flag_field("overwrite",
                         "replace --out, --plot and --section-plot where they exist (without it they are refused)",
                         &J::overwrite));
  f.push_back(flag_field("quiet", "no progress line and no summary", &J::quiet));
  return f;
}

}  // namespace

const std::vector<ParamField<EnsembleJob>>& ensemble_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

}  // namespace orrery
