// SPDX-License-Identifier: MIT
// `orrery chaos`: its checks and its run (the file: chaos_file.cpp; the picture: chaos_picture.cpp).
#include "orrery/jobs/chaos_job.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/ensemble_over_ranks.hpp"
#include "orrery/ensemble/chaos/lyapunov_spectrum.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery {

namespace {

// The ensemble job as the chaos job runs it: no files of its own.
EnsembleJob quiet_ensemble(const ChaosJob& job) {
  EnsembleJob e = job.ensemble;
  e.out.clear();
  e.plot.clear();
  e.section_plot.clear();
  e.in_memory = true;
  return e;
}

std::int64_t steps_of(const EnsembleJob& job) {
  return job.t_end > 0 ? static_cast<std::int64_t>(std::llround(job.t_end / job.dt)) : job.steps;
}

// Whether value v of an indicator is beyond the threshold (chaotic): the alignment indices
// (SALI, GALI) below it, the others above.
bool beyond(ChaosIndicator indicator, double v, double threshold) {
  return chaotic_below(indicator) ? v < threshold : v > threshold;
}

}  // namespace

const std::vector<ParamField<EnsembleJob>>& chaos_ensemble_fields() {
  static const std::vector<ParamField<EnsembleJob>> fields = [] {
    constexpr std::string_view dropped[] = {"out",           "plot",          "section",
                                            "section-direction", "max-crossings", "section-plot",
                                            "precision",     "tolerance", "section-colour-by"};
    std::vector<ParamField<EnsembleJob>> kept;
    for (const auto& f : ensemble_job_fields())
      if (std::find(std::begin(dropped), std::end(dropped), f.name) == std::end(dropped))
        kept.push_back(f);
    return kept;
  }();
  return fields;
}

// Hénon–Heiles, V = (x² + y²)/2 + x²y − y³/3, is symmetric under rotations by 120°, so one
// channel's bound serves all three. Along n = (0, 1): the force is y² − y − x², and where the
// energy E reaches with y ≥ 2, x²(1/2 + y) ≤ E − y²/2 + y³/3; so the force is positive there
// whenever (y² − y)(1/2 + y) > E − y²/2 + y³/3, i.e. (2/3)y³ − y/2 > E, which holds for y ≥ 2
// and E < 13/3. A trajectory reaching y = 2 (from inside, so moving outwards) keeps going.
ChaosExits chaos_exits_of(int problem) {
  ChaosExits e;
  if (ensemble_problems()[static_cast<std::size_t>(problem)].name != "henon-heiles") return e;
  const double s = std::sqrt(3.0) / 2;
  e.count = 3;
  const double normals[3][2] = {{0.0, 1.0}, {-s, -0.5}, {s, -0.5}};
  for (int c = 0; c < 3; ++c) {
    e.normal[c][0] = normals[c][0];
    e.normal[c][1] = normals[c][1];
  }
  e.distance = 2.0;
  return e;
}

bool chaotic_below(ChaosIndicator indicator) {
  return indicator == ChaosIndicator::sali || indicator == ChaosIndicator::gali;
}

std::optional<double> default_chaos_threshold(ChaosIndicator indicator) {
  if (indicator == ChaosIndicator::sali) return 1e-8;
  return std::nullopt;
}

void validate(const ChaosJob& job) {
  const ChaosIndicatorInfo& info = [&]() -> const ChaosIndicatorInfo& {
    try {
      return chaos_indicator_info(job.indicator);
    } catch (const ParameterError& e) {
      throw e.renamed("--indicator");
    }
  }();
  if (job.ensemble.precisions != "fp64")
    throw ParameterError("--precision", job.ensemble.precisions,
                         "fp64 (an indicator sums logarithms over thousands of intervals)");
  if (job.ensemble.tolerance > 0)
    throw ParameterError("--tolerance", fmt::format("{}", job.ensemble.tolerance),
                         "none: the chaos lanes take fixed steps");
  if (!job.ensemble.section.empty())
    throw ParameterError("--section", job.ensemble.section, "none (orrery ensemble --section)");
  const EnsembleJob e = quiet_ensemble(job);
  validate(e);
  const int problem = resolve_ensemble_problem(e).index;
  const auto& pinfo = ensemble_problems()[static_cast<std::size_t>(problem)];
  const auto names = chaos_integrator_names();
  const std::string integrator = !e.integrators.empty() ? e.integrators
                                 : pinfo.second_order   ? "yoshida4"
                                                        : "rk4";
  if (std::find(names.begin(), names.end(), integrator) == names.end())
    throw ParameterError("--integrator", integrator,
                         fmt::format("one of: {} (one integrator; a one-step method)",
                                     fmt::join(names, ", ")));
  if (compiled_chaos_kernel(info.kernel) == ChaosKernel::spectrum &&
      pinfo.state_words > kMaxSpectrumWords)
    throw ParameterError("--indicator", job.indicator,
                         fmt::format("not {} for {}: {} state words, at most {}", job.indicator,
                                     pinfo.name, pinfo.state_words, kMaxSpectrumWords));
  if (info.indicator == ChaosIndicator::gali &&
      (job.gali_k < 2 || job.gali_k > pinfo.state_words))
    throw ParameterError("--gali-k", fmt::format("{}", job.gali_k),
                         fmt::format("from 2 to the state words of {} ({})", pinfo.name,
                                     pinfo.state_words));
  if (job.tangent_precision != "fp64" && job.tangent_precision != "dd")
    throw ParameterError("--tangent-precision", job.tangent_precision,
                         "fp64 or dd (double-double deviation vectors)");
  if (job.tangent_precision == "dd") {
    if (info.indicator != ChaosIndicator::sali)
      throw ParameterError("--tangent-precision", job.tangent_precision,
                           fmt::format("fp64 with --indicator {}: double-double vectors are built "
                                       "for sali, whose chaotic floor is fp64's rounding",
                                       job.indicator));
    if (e.backend == Backend::cuda)
      throw ParameterError("--tangent-precision", job.tangent_precision,
                           "fp64 with --backend cuda: double-double vectors run on the CPU only");
    if (!chaos_double_double_applies(problem, ensemble_integrator_index(integrator)))
      throw ParameterError(
          "--tangent-precision", job.tangent_precision,
          fmt::format("fp64 for {} with {}: double-double vectors are compiled for Hamiltonian "
                      "problems of at most 6 state words with an inline field (henon-heiles, "
                      "small polynomials) and the splitting integrators (leapfrog, yoshida4, "
                      "yoshida6)",
                      pinfo.name, integrator));
  }
  if (info.indicator == ChaosIndicator::escape && chaos_exits_of(problem).count == 0)
    throw ParameterError("--indicator", job.indicator,
                         fmt::format("a problem with exits (henon-heiles), not {}", pinfo.name));
  if (info.indicator == ChaosIndicator::escape && job.threshold)
    throw ParameterError("--threshold", fmt::format("{}", *job.threshold),
                         "none with escape (each start has an exit, not a value to compare)");
  const std::int64_t steps = steps_of(e);
  if (job.every < 1 || job.every > steps || steps % job.every != 0)
    throw ParameterError("--every", fmt::format("{}", job.every),
                         fmt::format("a divisor of the steps ({}): every interval the same time",
                                     steps));
  if (e.samples > steps / job.every)
    throw ParameterError("--samples", fmt::format("{}", e.samples),
                         fmt::format("at most steps/every ({})", steps / job.every));
  if (job.threshold) {
    const double t = *job.threshold;
    if (!std::isfinite(t) || (info.indicator == ChaosIndicator::sali && !(t > 0 && t < 1.5)))
      throw ParameterError("--threshold", fmt::format("{}", t),
                           info.indicator == ChaosIndicator::sali
                               ? "a SALI between 0 and sqrt(2), e.g. 1e-8"
                               : "a finite number");
  }
  if (job.out.empty() && job.data.empty() && !job.in_memory)
    throw ParameterError("--out", "", "a file to write (a PNG with --out, HDF5 with --data)");
  const bool file_starts = e.starts != "grid" && e.starts != "random";
  if (!job.out.empty() && e.starts != "grid")
    throw ParameterError("--out", job.out,
                         "a picture of grid starts only (--starts grid); --data keeps any starts");
  for (const auto& [flag, path] : {std::pair{"--out", &job.out}, std::pair{"--data", &job.data}})
    if (!path->empty())
      check_output(flag, *path, job.overwrite,
                   {{"--config", e.config},
                    {"--starts", file_starts ? std::filesystem::path(e.starts) : ""}});
  if (!job.out.empty() && !job.data.empty() && same_file(job.out, job.data))
    throw ParameterError("--data", job.data, "a path other than --out");
}

ChaosJobOutcome run_chaos_job(const ChaosJob& job,
                              const std::function<void(const EnsembleProgress&)>& progress) {
  const EnsembleJob e = quiet_ensemble(job);
  ChaosJobOutcome outcome;
  dist::check_on_every_rank([&] {
    validate(job);
    try {
      outcome.starts = make_ensemble_starts(e);
    } catch (const ParameterError& err) {
      if (err.parameter().starts_with("--")) throw;
      throw err.renamed("--" + err.parameter());
    }
    // After every flag is checked, so bad input is named as such on a build without Cairo too.
    if (!job.out.empty()) require_text_drawing();
  });
  outcome.indicator = chaos_indicator_info(job.indicator);
  outcome.steps = steps_of(e);
  const auto& pinfo = ensemble_problems()[static_cast<std::size_t>(outcome.starts.problem)];
  outcome.integrator = !e.integrators.empty() ? e.integrators
                       : pinfo.second_order   ? "yoshida4"
                                              : "rk4";
  ChaosSetup setup;
  setup.ensemble.problem = outcome.starts.problem;
  setup.ensemble.integrator = ensemble_integrator_index(outcome.integrator);
  setup.ensemble.dt = e.dt;
  setup.ensemble.steps = outcome.steps;
  setup.ensemble.trajectories = outcome.starts.trajectories;
  setup.ensemble.starts = outcome.starts.starts;
  setup.ensemble.data = outcome.starts.data.get();
  setup.kernel = outcome.indicator.kernel;
  setup.every = job.every;
  setup.samples = static_cast<int>(e.samples);
  setup.exact_gpu = job.exact;
  setup.double_double_vectors = job.tangent_precision == "dd";
  if (outcome.indicator.indicator == ChaosIndicator::escape)
    setup.exits = chaos_exits_of(outcome.starts.problem);
  if (outcome.indicator.indicator == ChaosIndicator::gali)
    outcome.indicator.output = static_cast<int>(job.gali_k) - 1;
  EnsembleRunOptions options;
  options.backend = e.backend;
  options.threads = static_cast<int>(e.threads);
  options.cpu_kernel = e.cpu_kernel;
  options.devices = e.devices;
  options.progress = progress;
  outcome.run = dist::chaos_over_ranks(setup, options);
  if (!dist::writes()) return outcome;  // rank 0 alone has every trajectory, and writes

  const auto n = static_cast<std::size_t>(outcome.run.trajectories);
  const std::size_t last =
      (static_cast<std::size_t>(outcome.run.samples - 1) * outcome.run.outputs +
       static_cast<std::size_t>(outcome.indicator.output)) * n;
  outcome.field.assign(outcome.run.values.begin() + static_cast<std::ptrdiff_t>(last),
                       outcome.run.values.begin() + static_cast<std::ptrdiff_t>(last + n));
  if (outcome.indicator.indicator == ChaosIndicator::escape) {
    const std::size_t at = last + n;  // escape_time follows exit among the outputs
    outcome.escape_time.assign(outcome.run.values.begin() + static_cast<std::ptrdiff_t>(at),
                               outcome.run.values.begin() + static_cast<std::ptrdiff_t>(at + n));
    outcome.escaped.assign(static_cast<std::size_t>(setup.exits.count), 0);
    for (double c : outcome.field)
      if (c >= 0) ++outcome.escaped[static_cast<std::size_t>(c)];
  }
  outcome.threshold = job.threshold ? job.threshold : default_chaos_threshold(outcome.indicator.indicator);
  std::int64_t finite = 0, chaotic = 0;
  for (double v : outcome.field) {
    if (!std::isfinite(v)) {
      ++outcome.non_finite;
      continue;
    }
    ++finite;
    if (outcome.threshold) chaotic += beyond(outcome.indicator.indicator, v, *outcome.threshold);
  }
  if (outcome.threshold && finite > 0)
    outcome.chaotic_fraction = static_cast<double>(chaotic) / static_cast<double>(finite);

  // The data first and the picture last: a new picture always has its data beside it.
  OutputSet outputs(job.overwrite ? IfExists::replace : IfExists::refuse);
  if (!job.data.empty()) outputs.add(job.data, encode_chaos_file(job.data, job, outcome));
  if (!job.out.empty()) outputs.add(job.out, encode_png(draw_chaos_picture(job, outcome)));
  outputs.commit();
  return outcome;
}

}  // namespace orrery
