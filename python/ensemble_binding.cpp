// SPDX-License-Identifier: MIT
// orrery.ensemble(**parameters): the runs `orrery ensemble` makes (jobs/ensemble_job.hpp), every
// flag a keyword, returned as numpy arrays that own their values (the job's vectors move into the
// arrays' bases, nothing is copied): a dict with the starts and, under "runs", one dict per
// integrator and precision.
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.hpp"
#include "orrery/jobs/ensemble_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery::python {

namespace {

std::vector<std::string> ensemble_keywords() {
  std::vector<std::string> k;
  for (const auto& f : ensemble_job_fields())
    if (f.name != "quiet") k.push_back(keyword_of(f.name));
  return k;
}

EnsembleJob python_defaults() {
  EnsembleJob job;
  job.out = "";  // no file unless asked for
  job.quiet = true;
  job.in_memory = true;
  return job;
}

py::array_t<double> vector_array(std::vector<double>&& v) {
  const auto n = static_cast<py::ssize_t>(v.size());
  return owned_array(std::move(v), {n});
}

py::dict ensemble(const py::kwargs& kwargs) {
  EnsembleJob job = python_defaults();
  const auto keywords = ensemble_keywords();
  py::dict given;
  for (auto [key, value] : kwargs) {
    const std::string k = key.cast<std::string>();
    if (std::find(keywords.begin(), keywords.end(), k) == keywords.end())
      throw py::type_error("ensemble() got an unexpected keyword argument '" + k + "'");
    if (!value.is_none()) given[key] = value;
  }
  check_exclusive(ensemble_job_fields(), given);
  for (auto [key, value] : given)
    set_field(job, ensemble_job_fields(), key.cast<std::string>(), value);
  EnsembleJobOutcome outcome;
  {
    py::gil_scoped_release computing;
    outcome = run_ensemble_job(job);
  }
  EnsembleStartSet& s = outcome.starts;
  const auto n = static_cast<py::ssize_t>(s.trajectories);
  EnsembleStartColumns starts = start_columns(s);
  py::dict out;
  out["start_state"] = owned_array(std::move(starts.state), {n, s.state_words});
  if (s.parameter_words > 0)
    out["parameters"] = owned_array(std::move(starts.parameters), {n, s.parameter_words});
  if (!s.grid_index.empty()) {
    const auto g = static_cast<py::ssize_t>(s.grid_index.size());
    out["grid_index"] = owned_array(std::move(s.grid_index), {g});
  }
  out["steps"] = outcome.steps;
  out["description"] = s.description;
  py::dict runs;
  for (EnsembleRunResult& r : outcome.runs) {
    py::dict d;
    const std::string name = ensemble_run_name(r);
    d["final_state"] = owned_array(std::move(r.outcome.final_state), {n, s.state_words});
    if (!r.final_drift.empty()) {
      d["energy_error_final"] = vector_array(std::move(r.final_drift));
      d["energy_error_max"] = vector_array(std::move(r.largest_drift));
      d["sample_time"] = vector_array(std::move(r.sample_time));
      d["energy_error_median"] = vector_array(std::move(r.drift_median));
      d["energy_error_p99"] = vector_array(std::move(r.drift_p99));
      d["energy_error_max_over_trajectories"] = vector_array(std::move(r.drift_max));
    }
    if (!r.outcome.status.empty()) {
      d["steps_accepted"] = owned_array(std::move(r.outcome.steps_accepted), {n});
      d["steps_rejected"] = owned_array(std::move(r.outcome.steps_rejected), {n});
      d["status"] = owned_array(std::move(r.outcome.status), {n});
      d["steps_min"] = r.steps_min;
      d["steps_median"] = r.steps_median;
      d["steps_max"] = r.steps_max;
      d["failed"] = r.outcome.failed;
    }
    if (outcome.section.word >= 0) {
      // section_points [N, K, D] and section_time [N, K] (NaN past a trajectory's count), and
      // section_count [N]: every crossing, those beyond max_crossings included.
      const auto K = static_cast<py::ssize_t>(outcome.section.capacity);
      const auto D = static_cast<py::ssize_t>(s.state_words);
      std::vector<double> points(static_cast<std::size_t>(n * K * D)),
          time(static_cast<std::size_t>(n * K));
      for (std::size_t k = 0; k < time.size(); ++k) {
        const auto d = static_cast<std::size_t>(D);
        const double* slot = r.outcome.section_points.data() + k * (d + 1);
        std::copy_n(slot, d, points.begin() + static_cast<std::ptrdiff_t>(k * d));
        time[k] = slot[D];
      }
      d["section_points"] = owned_array(std::move(points), {n, K, D});
      d["section_time"] = owned_array(std::move(time), {n, K});
      d["section_count"] = owned_array(std::move(r.outcome.section_count), {n});
      d["crossings"] = r.crossings;
      d["crossings_beyond"] = r.crossings_beyond;
    }
    d["backend"] = r.outcome.info.backend;
    d["seconds"] = r.outcome.info.seconds;
    d["trajectory_steps"] = r.outcome.trajectory_steps;
    runs[py::str(name)] = d;
  }
  out["runs"] = runs;
  if (!outcome.section_indicator.name.empty()) {
    out["section_indicator"] = vector_array(std::move(outcome.section_indicator.values));
    out["section_indicator_name"] = outcome.section_indicator.name;
  }
  return out;
}

std::string ensemble_doc() {
  return "ensemble(**parameters) -> dict\n\n"
         "Many trajectories of a small system at once, as `orrery ensemble` runs them: "
         "start_state [N, D]\n(and parameters [N, P], grid_index [N]) and, under 'runs', for "
         "each 'integrator-precision' a dict\nwith final_state [N, D], the energy error of each "
         "trajectory at the end and its largest\n(energy_error_final, energy_error_max), and at "
         "the sample times (sample_time) the ensemble's\nmedian, 99th percentile and largest "
         "|dE/E|. With `tolerance` each run also has steps_accepted, steps_rejected and status [N]\n(0 finished, 1 step underflow, 2 non-finite, 3 too many steps), steps_min/_median/_max and\nfailed. With `section` ('x=0'), each run also has section_points [N, K, D] and\nsection_time [N, K] (the first K = max_crossings crossings, NaN past a trajectory's count),\nsection_count [N] (every crossing), crossings and crossings_beyond; with\n`section_colour_by` an indicator, section_indicator [N] and section_indicator_name. With `out` (HDF5) and\n`plot` (PNG) the files are written too. Refused "
         "parameters raise ValueError with the CLI's message.\n\n"
         "Keywords (the flags of `orrery ensemble`, '-' written '_'), with their defaults:\n" +
         describe_fields(ensemble_job_fields(), python_defaults(), ensemble_keywords()) +
         "\nExample:\n"
         "    r = orrery.ensemble(problem='henon-heiles', energy=0.125, plane='y:py', "
         "resolution=64,\n                        integrator='leapfrog,rk4', steps=10000)\n"
         "    r['runs']['leapfrog-fp64']['energy_error_max']\n";
}

}  // namespace

void bind_ensemble(py::module_& m) {
  static const std::string doc = ensemble_doc();
  m.def("ensemble", &ensemble, doc.c_str());
}

}  // namespace orrery::python
