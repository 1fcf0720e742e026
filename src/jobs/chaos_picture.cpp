// SPDX-License-Identifier: MIT
// The picture of `orrery chaos` over grid starts: each start's indicator at its grid point, the
// plane's ranges recovered from the starts themselves, and the scale each indicator reads best
// in (render/chaos_image.hpp): MEGNO diverging about 2 from 0 to 8 (chaotic orbits reach ⟨Y⟩ ≈
// λt/2 and saturate the red end), SALI logarithmic from 10⁻¹⁶ (rounding: two aligned vectors) to
// √2, a Lyapunov exponent logarithmic over three decades below the largest, FLI linear between
// its smallest and largest; GALI as SALI, from 10⁻¹⁶ to 1; escape by the exit taken (a hue each),
// darker the later it was left (the time on a logarithmic scale to the end of the run), white for
// the starts that stayed.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/chaos_job.hpp"
#include "orrery/render/chaos_image.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery {

namespace {

constexpr double kMegnoTop = 8.0;
constexpr double kSaliFloor = 1e-16;
constexpr double kLyapunovDecades = 3.0;
constexpr double kLatest = 0.999;  // an escape's shade stays within its exit's unit

// The range [from, to) of a plane word over the grid, from two starts of different grid
// columns (u = from + (to − from)·j/r).
std::array<double, 2> grid_range(const std::vector<double>& values, const std::vector<std::int64_t>& at,
                                 std::int64_t r) {
  for (std::size_t i = 1; i < values.size(); ++i)
    if (at[i] != at[0]) {
      const double step = (values[i] - values[0]) / static_cast<double>(at[i] - at[0]);
      const double from = values[0] - step * static_cast<double>(at[0]);
      return {from, from + step * static_cast<double>(r)};
    }
  return {values.empty() ? 0.0 : values[0], (values.empty() ? 0.0 : values[0]) + 1.0};
}

}  // namespace

ChaosScale chaos_scale(ChaosIndicator indicator, std::span<const double> field, int exits) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : field)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(hi >= lo)) lo = 0, hi = 1;
  switch (indicator) {
    case ChaosIndicator::megno:
      return {ChaosScaleKind::diverging_about_two, 0.0, kMegnoTop, "<Y>"};
    case ChaosIndicator::sali:
      return {ChaosScaleKind::logarithmic, kSaliFloor, std::sqrt(2.0), "SALI"};
    case ChaosIndicator::lyapunov:
    case ChaosIndicator::spectrum: {
      const double top = hi > 0 ? std::pow(10.0, std::ceil(std::log10(hi))) : 1.0;
      return {ChaosScaleKind::logarithmic, top * std::pow(10.0, -kLyapunovDecades), top,
              "lambda"};
    }
    case ChaosIndicator::fli:
      return {ChaosScaleKind::linear, lo, hi > lo ? hi : lo + 1, "FLI"};
    case ChaosIndicator::gali:
      return {ChaosScaleKind::logarithmic, kSaliFloor, 1.0, "GALI"};
    case ChaosIndicator::escape:
      return {ChaosScaleKind::exits, 0.0, static_cast<double>(exits), "exit"};
  }
  return {};
}

RgbImage draw_chaos_picture(const ChaosJob& job, const ChaosJobOutcome& o) {
  const EnsembleStartSet& s = o.starts;
  const auto& info = ensemble_problems()[static_cast<std::size_t>(s.problem)];
  const std::int64_t r = job.ensemble.resolution;
  const auto cells = static_cast<std::size_t>(r * r);
  std::vector<double> values(cells, std::numeric_limits<double>::quiet_NaN());
  std::vector<unsigned char> present(cells, 0);
  const auto colon = job.ensemble.plane.find(':');
  const std::string a = job.ensemble.plane.substr(0, colon), b = job.ensemble.plane.substr(colon + 1);
  const auto word = [&](const std::string& name) {
    for (std::size_t w = 0; w < info.state_names.size(); ++w)
      if (info.state_names[w] == name) return static_cast<int>(w);
    return 0;
  };
  const int wa = word(a), wb = word(b);
  const EnsembleStartColumns starts = start_columns(s);
  const double end = job.ensemble.dt * static_cast<double>(o.steps);
  std::vector<double> ua, vb;
  std::vector<std::int64_t> ja, kb;
  for (std::size_t i = 0; i < s.grid_index.size(); ++i) {
    const auto g = static_cast<std::size_t>(s.grid_index[i]);
    values[g] = o.field[i];
    if (!o.escape_time.empty() && o.field[i] >= 0)  // exit c, shaded by when: c + [0, 1)
      values[g] += std::min(kLatest, std::log1p(o.escape_time[i]) / std::log1p(end));
    present[g] = 1;
    ua.push_back(starts.state[i * static_cast<std::size_t>(s.state_words) + static_cast<std::size_t>(wa)]);
    vb.push_back(starts.state[i * static_cast<std::size_t>(s.state_words) + static_cast<std::size_t>(wb)]);
    ja.push_back(s.grid_index[i] % r);
    kb.push_back(s.grid_index[i] / r);
  }
  const auto x = grid_range(ua, ja, r), y = grid_range(vb, kb, r);
  const std::string name = o.indicator.indicator == ChaosIndicator::gali
                               ? fmt::format("GALI_{}", job.gali_k)
                               : std::string(o.indicator.name);
  std::string title = fmt::format("{} of {}, {} h = {} t = {}", name, info.name,
                                  o.integrator, job.ensemble.dt,
                                  job.ensemble.dt * static_cast<double>(o.steps));
  if (info.energy_starts)
    title += fmt::format(", E = {}", job.ensemble.energy.value_or(kEnsembleDefaultEnergy));
  if (o.chaotic_fraction)
    title += fmt::format("; chaotic {:.1f}%", 100.0 * *o.chaotic_fraction);
  if (!o.escape_time.empty()) title += "; exit 0 up, 1 left, 2 right, darker later";
  const ChaosField field{static_cast<int>(r), static_cast<int>(r), values, present};
  return to_rgb_image(draw_chaos_image(field, chaos_scale(o.indicator.indicator, o.field, static_cast<int>(o.escaped.size())), title, a, b, x[0], x[1], y[0], y[1]));
}

}  // namespace orrery
