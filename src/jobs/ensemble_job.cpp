// SPDX-License-Identifier: MIT
// `orrery ensemble`: its checks, its runs and their summaries (its parameters:
// ensemble_fields.cpp).
#include "orrery/jobs/ensemble_job.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "jobs/ensemble_text.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/memory_budget.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/ensemble_over_ranks.hpp"
#include "orrery/ensemble/ensemble.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/problems/polynomial/polynomial_choice.hpp"
#include "orrery/jobs/ensemble_file.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/ensemble_plot.hpp"
#include "orrery/jobs/ensemble_section.hpp"
#include "orrery/jobs/section_indicator.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery {

namespace {

using J = EnsembleJob;
constexpr std::int64_t kMaxSteps = kEnsembleMaxSteps;

std::vector<std::string> list_of(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(',', start);
    items.push_back(text.substr(start, at == std::string::npos ? at : at - start));
    if (at == std::string::npos) return items;
    start = at + 1;
  }
}

struct RunChoice {
  int integrator;
  Precision precision;
};

std::vector<RunChoice> run_choices(const EnsembleJob& job, int problem) {
  std::vector<RunChoice> runs;
  std::vector<Precision> precisions;
  for (const auto& word : list_of(job.precisions)) {
    if (word == "fp64")
      precisions.push_back(Precision::fp64);
    else if (word == "fp32")
      precisions.push_back(Precision::fp32);
    else if (word == "mixed")
      precisions.push_back(Precision::mixed);
    else
      throw ParameterError("--precision", job.precisions,
                           "fp64, fp32, mixed or several, comma-separated");
  }
  const bool second_order = ensemble_problems()[static_cast<std::size_t>(problem)].second_order;
  const std::string names = !job.integrators.empty() ? job.integrators
                            : second_order          ? "leapfrog"
                                                    : "rk4";
  for (const auto& name : list_of(names)) {
    int index = 0;
    try {
      index = ensemble_integrator_index(name);
      check_integrator_applies(problem, index);
    } catch (const ParameterError& e) {
      throw e.renamed("--integrator");
    }
    for (Precision p : precisions) {
      for (const RunChoice& r : runs)
        if (r.integrator == index && r.precision == p)
          throw ParameterError("--integrator", job.integrators, "each integrator once");
      runs.push_back({index, p});
    }
  }
  return runs;
}

// The fixed steps of a run (with a tolerance: the steps of dt that --steps gives t_end as, or 0
// with --t-end, whose time needs no whole number of dt).
std::int64_t steps_of(const EnsembleJob& job) {
  if (job.t_end <= 0) return job.steps;
  if (job.tolerance > 0) return 0;
  const double steps = job.t_end / job.dt;
  const double whole = std::round(steps);
  if (whole < 1 || std::abs(steps - whole) > 1e-9 * whole || whole > static_cast<double>(kMaxSteps))
    throw ParameterError("--t-end", fmt::format("{}", job.t_end),
                         fmt::format("a whole number of --dt {} steps, from 1 to {}", job.dt,
                                     kMaxSteps));
  return static_cast<std::int64_t>(whole);
}

// The sorted |x| of the finite values; non-finite ones count as +∞ and sort last.
double percentile(std::vector<double>& sorted_abs, double q) {
  if (sorted_abs.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted_abs.size())));
  return sorted_abs[std::min(sorted_abs.size() - 1, k == 0 ? 0 : k - 1)];
}

void summarise_steps(EnsembleRunResult& r) {
  const EnsembleOutcome& o = r.outcome;
  if (o.steps_accepted.empty()) return;
  std::vector<std::uint32_t> sorted(o.steps_accepted.begin(), o.steps_accepted.end());
  std::sort(sorted.begin(), sorted.end());
  r.steps_min = sorted.front();
  r.steps_median = sorted[sorted.size() / 2];
  r.steps_max = sorted.back();
  for (std::uint32_t k : o.steps_rejected) r.steps_rejected += k;
}

void summarise_drift(EnsembleRunResult& r, const EnsembleSetup& setup) {
  const EnsembleOutcome& o = r.outcome;
  if (o.drift.empty()) return;
  const auto n = static_cast<std::size_t>(o.trajectories);
  r.final_drift.assign(n, 0.0);
  r.largest_drift.assign(n, 0.0);
  r.sample_time = ensemble_sample_times(setup);
  std::vector<double> row(n);
  for (int k = 0; k < setup.samples; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const double d = o.drift[static_cast<std::size_t>(k) * n + i];
      const double a = std::isfinite(d) ? std::abs(d) : INFINITY;
      row[i] = a;
      r.largest_drift[i] = std::max(r.largest_drift[i], a);
      if (k + 1 == setup.samples) r.final_drift[i] = d;
    }
    std::sort(row.begin(), row.end());
    r.drift_median.push_back(percentile(row, 0.5));
    r.drift_p99.push_back(percentile(row, 0.99));
    r.drift_max.push_back(row.back());
  }
}

}  // namespace

EnsembleJobProblem resolve_ensemble_problem(const EnsembleJob& job) {
  EnsembleJobProblem out;
  try {
    out.index = ensemble_problem_index(job.problem);
  } catch (const ParameterError& e) {
    throw e.renamed("--problem");
  }
  const bool polynomial = ensemble_problems()[static_cast<std::size_t>(out.index)].needs_data;
  if (!polynomial) {
    if (!job.potential.empty())
      throw ParameterError("--potential", job.potential, "none unless --problem polynomial");
    return out;
  }
  if (job.potential.empty())
    throw ParameterError("--potential", "",
                         "a polynomial V in x, y, z, e.g. \"0.5*(x^2+y^2) + x^2*y - y^3/3\"");
  const PolynomialProblemChoice choice =
      choose_polynomial_problem(parse_ensemble_potential(job.potential, "--potential"),
                                "--potential");
  out.index = choice.problem;
  out.data = choice.data;
  return out;
}

void validate(const EnsembleJob& job) {
  // Parameters set in code bypass the setters' rules: apply them again to every value that is
  // not the default (some defaults, such as threads = 0 for all cores, are outside the rules)
  // and not an empty path (no file: the Python face's default, refused only when a user types it).
  EnsembleJob copy = job;
  const EnsembleJob defaults;
  for (const auto& field : ensemble_job_fields()) {
    if (!field.get) continue;
    const ParamValue v = field.get(job);
    const auto* text = std::get_if<std::string>(&v);
    if (v != field.get(defaults) && !(text && text->empty())) field.set(copy, v);
  }
  const int problem = resolve_ensemble_problem(job).index;
  const std::int64_t steps = steps_of(job);
  if (job.samples > steps && job.tolerance == 0)
    throw ParameterError("--samples", fmt::format("{}", job.samples),
                         fmt::format("at most --steps ({})", steps));
  const auto choices = run_choices(job, problem);
  const std::size_t runs = choices.size();
  for (const RunChoice& c : choices) {
    try {
      check_ensemble_tolerance(job.tolerance, c.integrator, c.precision);
    } catch (const ParameterError& e) {
      throw e.renamed("--tolerance");
    }
  }
  try {
    check_devices_for_backend(job.backend, job.devices);
    if (!job.cpu_kernel.empty()) resolve_cpu_kernel(job.cpu_kernel);
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
  const EnsembleProblemInfo& info = ensemble_problems()[static_cast<std::size_t>(problem)];
  if (job.energy && !info.energy_starts)
    throw ParameterError(
        "--energy", fmt::format("{}", *job.energy),
        fmt::format("none for {}: {}; give a --NAME-range for both words of --plane", info.name,
                    info.has_energy ? "its energy is not |p|^2/2 + V(q), so it fixes no "
                                      "momentum of a plane"
                                    : "it has no energy"));
  const std::int64_t n = job.sweep.empty() ? (job.starts == "grid" ? job.resolution * job.resolution
                                                                   : job.n)
                                           : job.n;
  // Per trajectory: the start row, the final state of each run and its drift samples in memory
  // at once, and the same again while the file is encoded. (The rows of a file of starts are not
  // known before it is read: counted here as --n.)
  const double per_trajectory =
      8.0 * (info.state_words + info.parameters) +
      static_cast<double>(runs) *
          (2.0 * 8.0 * info.state_words + (info.has_energy ? 4.0 * job.samples + 16.0 : 0.0) +
           (job.tolerance > 0 ? 2.0 * 9.0 : 0.0));
  const EnsembleSection section = ensemble_section_of(job, problem);
  check_section_colouring(job, problem);
  // With a section, each run's K slots of D + 1 doubles and a count, twice (the file's copy).
  const double per_trajectory_section =
      section.word < 0 ? 0.0
                       : static_cast<double>(runs) * 2.0 *
                             (8.0 + 8.0 * static_cast<double>(section.capacity) *
                                        (info.state_words + 1));
  check_memory(fmt::format("{} trajectories{}", n,
                           section.word < 0
                               ? ""
                               : fmt::format(" with --max-crossings {}", job.max_crossings)),
               static_cast<double>(n) * (per_trajectory + per_trajectory_section));

  if (job.out.empty() && job.plot.empty() && !job.in_memory)
    throw ParameterError("--out", "", "a file to write (an HDF5 file, or --plot's PNG)");
  const bool file_starts = job.starts != "grid" && job.starts != "random";
  for (const auto& [flag, path] :
       {std::pair{"--out", &job.out}, std::pair{"--plot", &job.plot},
        std::pair{"--section-plot", &job.section_plot}})
    if (!path->empty())
      check_output(flag, *path, job.overwrite,
                   {{"--config", job.config},
                    {"--starts", file_starts ? std::filesystem::path(job.starts) : ""}});
  if (!job.out.empty() && !job.plot.empty() && same_file(job.out, job.plot))
    throw ParameterError("--plot", job.plot, "a path other than --out");
  if (!job.section_plot.empty())
    for (const auto& [flag, path] : {std::pair{"--out", &job.out}, std::pair{"--plot", &job.plot}})
      if (!path->empty() && same_file(*path, job.section_plot))
        throw ParameterError("--section-plot", job.section_plot,
                             fmt::format("a path other than {}", flag));
  if (!job.section_plot.empty()) require_text_drawing();
  if (!job.plot.empty() && !info.has_energy)
    throw ParameterError("--plot", job.plot,
                         fmt::format("none: {} has no energy to plot", info.name));
  if (!job.plot.empty()) require_text_drawing();  // a build without Cairo says so before work
}

EnsembleJobOutcome run_ensemble_job(const EnsembleJob& job, const EnsembleObserver& observer) {
  EnsembleJobOutcome outcome;
  dist::check_on_every_rank([&] {
    validate(job);
    try {
      outcome.starts = make_ensemble_starts(job);
    } catch (const ParameterError& e) {
      // The starts' options are read here, before any work; named as the flags are.
      if (e.parameter().starts_with("--")) throw;
      throw e.renamed("--" + e.parameter());
    }
  });
  outcome.steps = steps_of(job);
  outcome.section = ensemble_section_of(job, outcome.starts.problem);
  const auto choices = run_choices(job, outcome.starts.problem);

  EnsembleRunOptions options;
  options.backend = job.backend;
  options.threads = static_cast<int>(job.threads);
  options.cpu_kernel = job.cpu_kernel;
  options.devices = job.devices;
  options.progress = observer.progress;
  for (std::size_t c = 0; c < choices.size(); ++c) {
    EnsembleSetup setup;
    setup.problem = outcome.starts.problem;
    setup.integrator = choices[c].integrator;
    setup.precision = choices[c].precision;
    setup.dt = job.dt;
    setup.steps = outcome.steps;
    setup.samples = static_cast<int>(job.samples);
    setup.tolerance = job.tolerance;
    setup.t_end = job.tolerance > 0 ? job.t_end : 0.0;
    setup.trajectories = outcome.starts.trajectories;
    setup.starts = outcome.starts.starts;
    setup.data = outcome.starts.data.get();
    setup.section = outcome.section;
    EnsembleRunResult r;
    r.integrator = ensemble_integrators()[static_cast<std::size_t>(setup.integrator)].name;
    r.precision = setup.precision;
    if (observer.starting) observer.starting(r, static_cast<int>(c), static_cast<int>(choices.size()));
    r.outcome = dist::ensemble_over_ranks(setup, options);
    if (!dist::writes()) continue;  // rank 0 alone has every trajectory, and writes
    summarise_drift(r, setup);
    summarise_steps(r);
    if (outcome.section.word >= 0) summarise_section(r, outcome.section.capacity);
    outcome.runs.push_back(std::move(r));
  }

  if (job.section_colour != "orbit")
    outcome.section_indicator = section_indicator_of(job, outcome, options);

  if (!dist::writes()) return outcome;
  // The data first and the pictures last: a new picture always has its data beside it.
  OutputSet outputs(job.overwrite ? IfExists::replace : IfExists::refuse);
  if (!job.out.empty()) outputs.add(job.out, encode_ensemble_file(job.out, job, outcome));
  if (!job.plot.empty()) outputs.add(job.plot, encode_png(draw_ensemble_drift(job, outcome)));
  if (!job.section_plot.empty())
    outputs.add(job.section_plot, encode_png(draw_ensemble_section(job, outcome)));
  outputs.commit();
  return outcome;
}

}  // namespace orrery
