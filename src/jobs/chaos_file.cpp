// SPDX-License-Identifier: MIT
// The HDF5 file of `orrery chaos` (format "orrery-chaos"):
//
//   indicator [N]              the chosen indicator of each start at the end of the run
//   values [S][O][N]           every value the kernel reads (O of them: Lyapunov, FLI, MEGNO, exit,
//                              escape time; or SALI; or the spectrum; or GALI_1..GALI_D) at each
//                              of the S samples
//   exit [N], escape_time [N]  escape: the channel each start left by (−1: none) and when (NaN)
//   sample_time [S]            the time of each sample
//   start_state [N][D], parameters [N][P], grid_index [N] (grid starts), final_state [N][D]
//   attributes: every parameter of the run, the indicator and its outputs' names, the threshold
//   and the chaotic fraction (when a threshold applies), the starts' description, the version
//
// Written whole in memory and put in place atomically with the picture (io/output_set.hpp).
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "orrery/core/version.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/jobs/chaos_job.hpp"

namespace orrery {

namespace {

std::string joined(const std::vector<std::string_view>& names) {
  std::string s;
  for (auto n : names) s += (s.empty() ? "" : ",") + std::string(n);
  return s;
}

// The names of the kernel's outputs, in the order of `values`.
std::string output_names(const ChaosJobOutcome& o) {
  if (o.indicator.kernel == ChaosKernel::growth) return "lyapunov,fli,megno,exit,escape_time";
  if (o.indicator.kernel == ChaosKernel::sali) return "sali";
  const char* name = o.indicator.kernel == ChaosKernel::gali ? "gali" : "lambda";
  std::string s;
  for (int i = 1; i <= o.run.outputs; ++i) s += fmt::format("{}{}{}", i > 1 ? "," : "", name, i);
  return s;
}

}  // namespace

std::string encode_chaos_file(const std::string& name, const ChaosJob& job,
                              const ChaosJobOutcome& outcome) {
  const EnsembleStartSet& s = outcome.starts;
  const EnsembleProblemInfo& info = ensemble_problems()[static_cast<std::size_t>(s.problem)];
  const auto n = static_cast<hsize_t>(s.trajectories);
  h5::Handle file = h5::create_memory_file(name);
  const hsize_t field_dims[1] = {n};
  h5::write_dataset<double>(file.id(), "indicator", outcome.field, field_dims);
  const hsize_t value_dims[3] = {static_cast<hsize_t>(outcome.run.samples),
                                 static_cast<hsize_t>(outcome.run.outputs), n};
  h5::write_dataset<double>(file.id(), "values",
                            std::span<const double>(outcome.run.values.data(),
                                                    outcome.run.values.size()),
                            value_dims);
  if (!outcome.escape_time.empty()) {
    std::vector<std::int64_t> exit(outcome.field.size());
    for (std::size_t i = 0; i < exit.size(); ++i) exit[i] = static_cast<std::int64_t>(outcome.field[i]);
    h5::write_dataset<std::int64_t>(file.id(), "exit", exit, field_dims);
    h5::write_dataset<double>(file.id(), "escape_time", outcome.escape_time, field_dims);
    h5::write_attribute(file.id(), "exit_names", std::string("up,left,right"));
  }
  const hsize_t time_dims[1] = {outcome.run.sample_time.size()};
  h5::write_dataset<double>(file.id(), "sample_time", outcome.run.sample_time, time_dims);
  const EnsembleStartColumns starts = start_columns(s);
  const hsize_t state_dims[2] = {n, static_cast<hsize_t>(s.state_words)};
  h5::write_dataset<double>(file.id(), "start_state", starts.state, state_dims);
  h5::write_dataset<double>(file.id(), "final_state",
                            std::span<const double>(outcome.run.ensemble.final_state.data(),
                                                    outcome.run.ensemble.final_state.size()),
                            state_dims);
  if (s.parameter_words > 0) {
    const hsize_t dims[2] = {n, static_cast<hsize_t>(s.parameter_words)};
    h5::write_dataset<double>(file.id(), "parameters", starts.parameters, dims);
  }
  if (!s.grid_index.empty()) {
    const hsize_t dims[1] = {s.grid_index.size()};
    h5::write_dataset<std::int64_t>(file.id(), "grid_index", s.grid_index, dims);
  }
  for (const auto& f : ensemble_job_fields()) {
    if (!f.get || (f.name == "energy" && !info.energy_starts) || f.name == "out" ||
        f.name == "plot" || f.name.starts_with("section") || f.name == "max-crossings")
      continue;
    const ParamValue v = f.get(job.ensemble);
    if (const auto* reals = std::get_if<std::vector<double>>(&v); reals && reals->empty()) continue;
    write_param_attribute(file.id(), f.name, v);
  }
  h5::write_attribute(file.id(), "format", std::string("orrery-chaos"));
  h5::write_attribute(file.id(), "indicator", std::string(outcome.indicator.name));
  h5::write_attribute(file.id(), "indicator_description", std::string(outcome.indicator.description));
  h5::write_attribute(file.id(), "value_names", output_names(outcome));
  h5::write_attribute(file.id(), "integrator_run", outcome.integrator);
  h5::write_attribute(file.id(), "every", job.every);
  h5::write_attribute(file.id(), "exact", std::int64_t{job.exact});
  h5::write_attribute(file.id(), "tangent_precision", job.tangent_precision);
  if (outcome.indicator.indicator == ChaosIndicator::gali)
    h5::write_attribute(file.id(), "gali_k", job.gali_k);
  h5::write_attribute(file.id(), "steps_run", outcome.steps);
  h5::write_attribute(file.id(), "state_names", joined(info.state_names));
  h5::write_attribute(file.id(), "parameter_names", joined(info.parameter_names));
  h5::write_attribute(file.id(), "starts_description", s.description);
  h5::write_attribute(file.id(), "trajectories", s.trajectories);
  h5::write_attribute(file.id(), "non_finite", outcome.non_finite);
  if (outcome.threshold) h5::write_attribute(file.id(), "threshold", *outcome.threshold);
  if (outcome.chaotic_fraction)
    h5::write_attribute(file.id(), "chaotic_fraction", *outcome.chaotic_fraction);
  h5::write_attribute(file.id(), "backend", outcome.run.info.backend);
  h5::write_attribute(file.id(), "kernel", outcome.run.info.kernel);
  h5::write_attribute(file.id(), "seconds", outcome.run.info.seconds);
  h5::write_attribute(file.id(), "orrery_version", version());
  h5::write_attribute(file.id(), "git_hash", git_hash());
  return h5::file_image(file.id());
}

}  // namespace orrery
