// SPDX-License-Identifier: MIT
#include "orrery/jobs/ensemble_plot.hpp"

#include <fmt/format.h>

#include "orrery/jobs/ensemble_file.hpp"
#include "orrery/render/line_plot.hpp"

namespace orrery {

namespace {

// Distinct colours for up to eight runs (Tableau's), then again.
constexpr Rgb8 kColours[] = {{31, 119, 180}, {214, 39, 40},  {44, 160, 44},  {255, 127, 14},
                             {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};

}  // namespace

RgbImage draw_ensemble_drift(const EnsembleJob& job, const EnsembleJobOutcome& outcome) {
  require_text_drawing();
  std::vector<PlotSeries> series;
  for (const EnsembleRunResult& r : outcome.runs) {
    if (r.drift_median.empty()) continue;
    series.push_back({ensemble_run_name(r), r.sample_time, r.drift_median,
                      kColours[series.size() % std::size(kColours)]});
  }
  const PlotAxes axes{fmt::format("{}: median |E - E0| / |E0| of {} trajectories, dt = {}",
                                  job.problem, outcome.starts.trajectories, job.dt),
                      "time", "median relative energy error", true};
  return to_rgb_image(draw_line_plot(axes, series, 1200, 800));
}

}  // namespace orrery
