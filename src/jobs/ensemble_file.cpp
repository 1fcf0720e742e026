// SPDX-License-Identifier: MIT
#include "orrery/jobs/ensemble_file.hpp"

#include <algorithm>
#include <array>
#include <span>

#include <fmt/format.h>

#include "orrery/core/version.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/jobs/ensemble_section.hpp"

namespace orrery {

namespace {

constexpr const char* kFormat = "orrery-ensemble";

std::string joined(const std::vector<std::string_view>& names) {
  std::string s;
  for (auto n : names) {
    if (!s.empty()) s += ',';
    s += n;
  }
  return s;
}

void write_columns(hid_t group, const std::string& name, std::span<const double> values,
                   std::int64_t rows, int columns) {
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(columns)};
  h5::write_dataset<double>(group, name, values, dims);
}

void write_vector(hid_t group, const std::string& name, const std::vector<double>& values) {
  const hsize_t dims[1] = {static_cast<hsize_t>(values.size())};
  h5::write_dataset<double>(group, name, values, dims);
}

// A run's crossings: section/count [N] (every crossing, those beyond the capacity included),
// section/points [N][K][D] and section/time [N][K] (slots past a trajectory's count NaN), and
// attributes saying what the section is.
void write_section(hid_t run, const EnsembleJobOutcome& outcome, const EnsembleRunResult& r) {
  const EnsembleSection& sec = outcome.section;
  const EnsembleProblemInfo& info =
      ensemble_problems()[static_cast<std::size_t>(outcome.starts.problem)];
  const auto n = static_cast<std::size_t>(outcome.starts.trajectories);
  const auto K = static_cast<std::size_t>(sec.capacity);
  const auto D = static_cast<std::size_t>(info.state_words);
  std::vector<double> points(n * K * D), time(n * K);
  for (std::size_t s = 0; s < n * K; ++s) {
    const double* slot = r.outcome.section_points.data() + s * (D + 1);
    std::copy_n(slot, D, points.begin() + static_cast<std::ptrdiff_t>(s * D));
    time[s] = slot[D];
  }
  h5::Handle g = h5::create_group(run, "section");
  const hsize_t count_dims[1] = {n}, point_dims[3] = {n, K, D}, time_dims[2] = {n, K};
  h5::write_dataset<std::int64_t>(g.id(), "count", r.outcome.section_count, count_dims);
  h5::write_dataset<double>(g.id(), "points", points, point_dims);
  h5::write_dataset<double>(g.id(), "time", time, time_dims);
  const std::array<int, 2> plane = section_plane(info, sec.word);
  const auto name = [&](int w) {
    return w < info.state_words ? std::string(info.state_names[static_cast<std::size_t>(w)])
                                : std::string("t");
  };
  h5::write_attribute(g.id(), "word", name(sec.word));
  h5::write_attribute(g.id(), "value", sec.value);
  h5::write_attribute(g.id(), "direction",
                      std::string(sec.direction > 0 ? "up" : sec.direction < 0 ? "down" : "both"));
  h5::write_attribute(g.id(), "capacity", std::int64_t{sec.capacity});
  h5::write_attribute(g.id(), "state_names", joined(info.state_names));
  h5::write_attribute(g.id(), "plane", name(plane[0]) + ":" + name(plane[1]));
  h5::write_attribute(g.id(), "description", describe_section(sec, info));
  h5::write_attribute(g.id(), "crossings", r.crossings);
  h5::write_attribute(g.id(), "crossings_beyond_capacity", r.crossings_beyond);
  h5::write_attribute(g.id(), "trajectories_beyond_capacity", r.trajectories_beyond);
  const SectionIndicator& ind = outcome.section_indicator;
  if (ind.name.empty()) return;
  // --section-colour-by: section/indicator [N], each orbit's value at the end of the run.
  write_vector(g.id(), "indicator", ind.values);
  h5::write_attribute(g.id(), "indicator_name", ind.name);
  h5::write_attribute(g.id(), "indicator_every", ind.every);
  h5::write_attribute(g.id(), "indicator_kernel", ind.info.kernel);
  h5::write_attribute(g.id(), "indicator_seconds", ind.info.seconds);
  if (ind.threshold) h5::write_attribute(g.id(), "indicator_threshold", *ind.threshold);
  if (ind.chaotic_fraction)
    h5::write_attribute(g.id(), "indicator_chaotic_fraction", *ind.chaotic_fraction);
}

}  // namespace

std::string ensemble_run_name(const EnsembleRunResult& run) {
  return fmt::format("{}-{}", run.integrator, to_string(run.precision));
}

std::string encode_ensemble_file(const std::string& name, const EnsembleJob& job,
                                 const EnsembleJobOutcome& outcome) {
  const EnsembleStartSet& s = outcome.starts;
  const EnsembleProblemInfo& info = ensemble_problems()[static_cast<std::size_t>(s.problem)];
  const std::int64_t n = s.trajectories;
  h5::Handle file = h5::create_memory_file(name);

  const EnsembleStartColumns starts = start_columns(s);
  write_columns(file.id(), "start_state", starts.state, n, s.state_words);
  if (s.parameter_words > 0)
    write_columns(file.id(), "parameters", starts.parameters, n, s.parameter_words);
  if (!s.grid_index.empty()) {
    const hsize_t dims[1] = {s.grid_index.size()};
    h5::write_dataset<std::int64_t>(file.id(), "grid_index", s.grid_index, dims);
  }

  // Every parameter but the ranges not given (an empty array is no HDF5 attribute) and the energy
  // of a problem whose starts take none.
  for (const auto& f : ensemble_job_fields()) {
    if (!f.get || (f.name == "energy" && !info.energy_starts)) continue;
    const ParamValue v = f.get(job);
    if (const auto* reals = std::get_if<std::vector<double>>(&v); reals && reals->empty()) continue;
    write_param_attribute(file.id(), f.name, v);
  }
  h5::write_attribute(file.id(), "format", kFormat);
  h5::write_attribute(file.id(), "state_names", joined(info.state_names));
  h5::write_attribute(file.id(), "parameter_names", joined(info.parameter_names));
  h5::write_attribute(file.id(), "starts_description", s.description);
  h5::write_attribute(file.id(), "trajectories", n);
  h5::write_attribute(file.id(), "steps_run", outcome.steps);
  h5::write_attribute(file.id(), "orrery_version", version());
  h5::write_attribute(file.id(), "git_hash", git_hash());

  h5::Handle runs = h5::create_group(file.id(), "runs");
  for (const EnsembleRunResult& r : outcome.runs) {
    h5::Handle g = h5::create_group(runs.id(), ensemble_run_name(r));
    write_columns(g.id(), "final_state", r.outcome.final_state, n, s.state_words);
    if (!r.final_drift.empty()) {
      write_vector(g.id(), "energy_error_final", r.final_drift);
      write_vector(g.id(), "energy_error_max", r.largest_drift);
      write_vector(g.id(), "sample_time", r.sample_time);
      write_vector(g.id(), "energy_error_median", r.drift_median);
      write_vector(g.id(), "energy_error_p99", r.drift_p99);
      write_vector(g.id(), "energy_error_max_over_trajectories", r.drift_max);
    }
    if (!r.outcome.status.empty()) {
      const hsize_t dims[1] = {static_cast<hsize_t>(n)};
      h5::write_dataset<std::uint32_t>(g.id(), "steps_accepted", r.outcome.steps_accepted, dims);
      h5::write_dataset<std::uint32_t>(g.id(), "steps_rejected", r.outcome.steps_rejected, dims);
      h5::write_dataset<std::uint8_t>(g.id(), "status", r.outcome.status, dims);
      h5::write_attribute(g.id(), "trajectories_failed", r.outcome.failed);
      h5::write_attribute(g.id(), "steps_accepted_min", r.steps_min);
      h5::write_attribute(g.id(), "steps_accepted_median", r.steps_median);
      h5::write_attribute(g.id(), "steps_accepted_max", r.steps_max);
    }
    if (outcome.section.word >= 0) write_section(g.id(), outcome, r);
    const EnsembleRunInfo& i = r.outcome.info;
    h5::write_attribute(g.id(), "integrator", r.integrator);
    h5::write_attribute(g.id(), "precision", to_string(r.precision));
    h5::write_attribute(g.id(), "backend", i.backend);
    h5::write_attribute(g.id(), "kernel", i.kernel);
    h5::write_attribute(g.id(), "threads", std::int64_t{i.threads});
    h5::write_attribute(g.id(), "seconds", i.seconds);
    h5::write_attribute(g.id(), "trajectory_steps", r.outcome.trajectory_steps);
    h5::write_attribute(g.id(), "trajectory_steps_per_s",
                        i.seconds > 0 ? static_cast<double>(r.outcome.trajectory_steps) / i.seconds
                                      : 0.0);
  }
  return h5::file_image(file.id());
}

}  // namespace orrery
