// SPDX-License-Identifier: MIT
#include "orrery/jobs/section_indicator.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/ensemble_over_ranks.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/chaos_job.hpp"

namespace orrery {

namespace {

constexpr std::int64_t kDefaultEvery = 10;  // orrery chaos's --every

// The one integrator the section runs (the ensemble's default where none is named).
std::string section_integrator(const EnsembleJob& job, int problem) {
  if (!job.integrators.empty()) return job.integrators;
  return ensemble_problems()[static_cast<std::size_t>(problem)].second_order ? "leapfrog" : "rk4";
}

}  // namespace

const std::vector<std::string>& section_colourings() {
  static const std::vector<std::string> names{"orbit", "sali", "megno", "lyapunov", "fli"};
  return names;
}

void check_section_colouring(const EnsembleJob& job, int problem) {
  if (job.section_colour == "orbit") return;
  const auto& names = section_colourings();
  if (std::find(names.begin(), names.end(), job.section_colour) == names.end())
    throw ParameterError("--section-colour-by", job.section_colour,
                         fmt::format("one of: {}", fmt::join(names, ", ")));
  const auto refuse = [&](const std::string& why) {
    throw ParameterError("--section-colour-by", job.section_colour, why);
  };
  if (job.section.empty()) refuse("orbit without --section (the colours are the crossings')");
  const std::string integrator = section_integrator(job, problem);
  const auto chaos = chaos_integrator_names();
  if (std::find(chaos.begin(), chaos.end(), integrator) == chaos.end())
    refuse(fmt::format("orbit with --integrator {}: an indicator needs one integrator of {}",
                       integrator, fmt::join(chaos, ", ")));
  if (job.precisions != "fp64")
    refuse(fmt::format("orbit with --precision {}: an indicator is computed in fp64",
                       job.precisions));
  if (job.tolerance > 0)
    refuse("orbit with --tolerance: the chaos lanes take fixed steps");
}

std::int64_t section_indicator_every(std::int64_t steps) {
  return std::gcd(steps, kDefaultEvery);
}

SectionIndicator section_indicator_of(const EnsembleJob& job, const EnsembleJobOutcome& outcome,
                                      const EnsembleRunOptions& options) {
  SectionIndicator out;
  const ChaosIndicatorInfo& info = chaos_indicator_info(job.section_colour);
  ChaosSetup setup;
  setup.ensemble.problem = outcome.starts.problem;
  setup.ensemble.integrator =
      ensemble_integrator_index(section_integrator(job, outcome.starts.problem));
  setup.ensemble.dt = job.dt;
  setup.ensemble.steps = outcome.steps;
  setup.ensemble.trajectories = outcome.starts.trajectories;
  setup.ensemble.starts = outcome.starts.starts;
  setup.ensemble.data = outcome.starts.data.get();
  setup.kernel = info.kernel;
  setup.every = section_indicator_every(outcome.steps);
  setup.samples = 1;
  const ChaosOutcome run = dist::chaos_over_ranks(setup, options);
  if (!dist::writes()) return out;
  out.name = job.section_colour;
  out.every = setup.every;
  out.info = run.info;
  const auto n = static_cast<std::size_t>(run.trajectories);
  const auto first = run.values.begin() + static_cast<std::ptrdiff_t>(info.output) *
                                              static_cast<std::ptrdiff_t>(n);
  out.values.assign(first, first + static_cast<std::ptrdiff_t>(n));
  out.threshold = default_chaos_threshold(info.indicator);
  if (out.threshold) {
    std::int64_t finite = 0, chaotic = 0;
    for (double v : out.values)
      if (std::isfinite(v)) {
        ++finite;
        chaotic += chaotic_below(info.indicator) ? v < *out.threshold : v > *out.threshold;
      }
    if (finite > 0) out.chaotic_fraction = static_cast<double>(chaotic) / static_cast<double>(finite);
  }
  return out;
}

std::string describe_section_indicator(const SectionIndicator& s) {
  std::string line = fmt::format("{} of every orbit in {:.3f} s on {} ({})", s.name,
                                 s.info.seconds, s.info.backend, s.info.kernel);
  if (s.chaotic_fraction)
    line += fmt::format("; chaotic ({} {} {:g}): {:.1f}% of {} orbits", s.name,
                        chaotic_below(chaos_indicator_info(s.name).indicator) ? "<" : ">",
                        *s.threshold, 100.0 * *s.chaotic_fraction, s.values.size());
  return line;
}

}  // namespace orrery
