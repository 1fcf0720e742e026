// SPDX-License-Identifier: MIT
#include "orrery/jobs/ensemble_section.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/jobs/ensemble_file.hpp"
#include "orrery/jobs/chaos_job.hpp"
#include "orrery/render/chaos_image.hpp"
#include "orrery/render/line_plot.hpp"

namespace orrery {

namespace {

// A colour per trajectory: hues a golden angle apart, so that neighbouring trajectories (rows of
// a grid) differ most.
Rgb8 trajectory_colour(std::int64_t i) {
  const double h = std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0) * 6.0;
  const double s = 0.8, v = 0.85, f = h - std::floor(h);
  const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double r = v, g = t, b = p;
  switch (static_cast<int>(h)) {
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    case 5: r = v, g = p, b = q; break;
    default: break;
  }
  const auto byte = [](double c) { return static_cast<std::uint8_t>(std::lround(255.0 * c)); };
  return {byte(r), byte(g), byte(b)};
}

std::string word_name(const EnsembleProblemInfo& info, int w) {
  return w < info.state_words ? std::string(info.state_names[static_cast<std::size_t>(w)]) : "t";
}

}  // namespace

EnsembleSection ensemble_section_of(const EnsembleJob& job, int problem) {
  EnsembleSection s;
  if (job.section.empty()) {
    if (!job.section_plot.empty())
      throw ParameterError("--section-plot", job.section_plot, "none without --section");
    return s;
  }
  const EnsembleProblemInfo& info = ensemble_problems()[static_cast<std::size_t>(problem)];
  const std::string accepted =
      fmt::format("NAME=VALUE, NAME a state word of {} ({}) and VALUE a finite number, e.g. {}=0",
                  info.name, fmt::join(info.state_names, ", "), info.state_names.front());
  const auto at = job.section.find('=');
  if (at == std::string::npos) throw ParameterError("--section", job.section, accepted);
  const std::string name = job.section.substr(0, at), value = job.section.substr(at + 1);
  for (std::size_t w = 0; w < info.state_names.size(); ++w)
    if (info.state_names[w] == name) s.word = static_cast<int>(w);
  if (s.word < 0) throw ParameterError("--section", job.section, accepted);
  errno = 0;
  char* end = nullptr;
  s.value = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || errno != 0 ||
      !std::isfinite(s.value))
    throw ParameterError("--section", job.section, accepted);
  s.direction = job.section_direction == "down" ? -1 : job.section_direction == "both" ? 0 : 1;
  s.capacity = static_cast<int>(job.max_crossings);
  return s;
}

std::string describe_section(const EnsembleSection& s, const EnsembleProblemInfo& info) {
  return fmt::format("{} = {} ({})", word_name(info, s.word), s.value,
                     s.direction > 0 ? "up" : s.direction < 0 ? "down" : "both ways");
}

std::array<int, 2> section_plane(const EnsembleProblemInfo& info, int word) {
  if (info.second_order && word < info.coordinates && info.coordinates >= 2) {
    const int q = word == 0 ? 1 : 0;
    return {q, info.coordinates + q};
  }
  std::array<int, 2> plane{info.state_words, info.state_words};
  int k = 0;
  for (int w = 0; w < info.state_words && k < 2; ++w)
    if (w != word) plane[static_cast<std::size_t>(k++)] = w;
  return plane;
}

void summarise_section(EnsembleRunResult& r, int capacity) {
  for (const std::int64_t c : r.outcome.section_count) {
    r.crossings += c;
    if (c > capacity) {
      r.crossings_beyond += c - capacity;
      ++r.trajectories_beyond;
    }
  }
}

RgbImage draw_ensemble_section(const EnsembleJob& job, const EnsembleJobOutcome& outcome) {
  require_text_drawing();
  const EnsembleSection& sec = outcome.section;
  const EnsembleProblemInfo& info =
      ensemble_problems()[static_cast<std::size_t>(outcome.starts.problem)];
  const EnsembleRunResult& run = outcome.runs.front();
  const std::array<int, 2> plane = section_plane(info, sec.word);
  const int row = info.state_words + 1;
  const auto K = static_cast<std::size_t>(sec.capacity);
  // Coloured by an indicator: on the scale orrery chaos draws it in, the most chaotic orbits
  // first, so that the regular orbits' curves stay visible where a chaotic orbit's dots pass
  // close to them (a NaN, an orbit that went non-finite, first of all).
  const SectionIndicator& ind = outcome.section_indicator;
  const bool by_indicator = !ind.name.empty();
  const ChaosIndicator indicator =
      by_indicator ? chaos_indicator_info(ind.name).indicator : ChaosIndicator::megno;
  const ChaosScale scale =
      by_indicator ? chaos_scale(indicator, ind.values) : ChaosScale{};
  std::vector<std::int64_t> order(static_cast<std::size_t>(outcome.starts.trajectories));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  if (by_indicator) {
    const double sign = chaotic_below(indicator) ? 1.0 : -1.0;
    const auto key = [&](std::int64_t i) {
      const double v = ind.values[static_cast<std::size_t>(i)];
      return std::isnan(v) ? -INFINITY : sign * v;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return key(a) < key(b); });
  }
  std::vector<PlotSeries> series;
  for (const std::int64_t i : order) {
    const Rgb8 colour = by_indicator ? chaos_colour(scale, ind.values[static_cast<std::size_t>(i)])
                                     : trajectory_colour(i);
    PlotSeries s{"", {}, {}, colour, true};
    const auto kept = static_cast<std::size_t>(std::min<std::int64_t>(
        run.outcome.section_count[static_cast<std::size_t>(i)], sec.capacity));
    for (std::size_t c = 0; c < kept; ++c) {
      const double* slot =
          run.outcome.section_points.data() + (static_cast<std::size_t>(i) * K + c) * row;
      s.x.push_back(slot[plane[0]]);
      s.y.push_back(slot[plane[1]]);
    }
    if (!s.x.empty()) series.push_back(std::move(s));
  }
  if (series.empty())
    throw InputError(fmt::format("--section-plot: no trajectory crossed {}",
                                 describe_section(sec, info)));
  // Short enough to fit above the square: the counts are in the summary line and the file.
  // Coloured by an indicator the run is fp64 (check_section_colouring): the integrator and the
  // indicator's name take the place of the run's name.
  const PlotAxes axes{by_indicator ? fmt::format("{}: {}, {}; {}", job.problem,
                                                 describe_section(sec, info), run.integrator,
                                                 scale.label)
                                   : fmt::format("{}: {}, {}", job.problem,
                                                 describe_section(sec, info),
                                                 ensemble_run_name(run)),
                      word_name(info, plane[0]), word_name(info, plane[1]), false};
  constexpr int kSide = 1000;
  const FrameImage plot = draw_line_plot(axes, series, kSide, kSide);
  if (!by_indicator) return to_rgb_image(plot);
  const auto rows = line_plot_frame_rows(kSide);
  return to_rgb_image(with_chaos_bar(plot, scale, static_cast<int>(std::lround(rows[0])),
                                     static_cast<int>(std::lround(rows[1]))));
}

}  // namespace orrery
