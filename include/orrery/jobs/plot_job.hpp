// SPDX-License-Identifier: MIT
// `orrery plot RUN`: a run's time series as pictures (PNG): the relative drifts of energy and
// angular momentum against time (from NAME/diagnostics.h5, or from the snapshots' own
// diagnostics for a run without it), and for clusters the Lagrangian radii holding 10, 50 and
// 90 % of the mass against time (from the snapshots).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"

namespace orrery {

struct PlotJob {
  std::string run;
  std::string out;  // prefix of the pictures; "" for the run's own name
  bool lagrangian = false;  // the Lagrangian radii also for a run whose scene is not a cluster
  std::int64_t width = 1000, height = 600;
  bool overwrite = false;  // replace pictures that exist
  bool quiet = false;      // no summary
};

const std::vector<ParamField<PlotJob>>& plot_job_fields();

struct PlotOutcome {
  std::vector<std::string> written;
  std::size_t rows = 0;  // points per curve
};

// InputError/ParameterError for bad input before any file is written (a picture that exists is
// refused without `overwrite`, and one that would land in the run always); each picture is
// written whole (io/png_file.hpp).
PlotOutcome run_plot_job(const PlotJob& job);

}  // namespace orrery
