// SPDX-License-Identifier: MIT
// Where an ensemble's trajectories start (jobs/ensemble_job.hpp): a grid or uniform random points
// of a plane through phase space, a word swept over the trajectories, or rows of a file.
//
// On a plane at a fixed energy E of H = |p|²/2 + V(q) (grid and random starts of a problem whose
// energy is that, ensemble_energy_starts) the plane sets two words, --state the others, and one
// momentum not in the plane, the first in order, is taken from the energy with the + sign:
//
//   p_s = +√(2 (E − V(q)) − Σ_{p ≠ p_s} p²)
//
// (the surface of section x = 0, px ≥ 0 of Hénon–Heiles for the plane y:py). Points where the
// radicand is negative are not reached at that energy and are left out; the rows keep the grid
// index of each point they hold.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "jobs/ensemble_text.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

namespace {

// The potential of problem p (its shared data, null: Data{}) at the q words of a row (0 for a
// problem without one).
double potential_of(int problem, const void* data, const double* row, int state_words) {
  return visit_ensemble_problem(problem, [&]<class Problem>() {
    const typename Problem::Data none{};
    return Problem::potential(data ? *static_cast<const typename Problem::Data*>(data) : none,
                              row + state_words, row);
  });
}

struct Plane {
  int a = 0, b = 1;      // the words the plane sets
  int solved = -1;       // the momentum taken from the energy, or −1
  const void* data = nullptr;  // the problem's shared Data
  std::array<double, 2> range_a{}, range_b{};
};

// The radicand of the solved momentum at `row` (plane words set), or +1 when none is solved.
double radicand(const EnsembleProblemInfo& info, int problem, const Plane& plane, double energy,
                const double* row) {
  if (plane.solved < 0) return 1.0;
  double r = 2.0 * (energy - potential_of(problem, plane.data, row, info.state_words));
  for (int c = 0; c < info.coordinates; ++c) {
    const int w = info.coordinates + c;
    if (w != plane.solved) r -= row[w] * row[w];
  }
  return r;
}

// Where along word w (others from `base`) the energy is reached: the interval around base[w].
// Beyond this distance from the start the energy's reach is taken as unbounded.
constexpr double kUnbounded = 1e6;

std::array<double, 2> reached_interval(const EnsembleProblemInfo& info, int problem,
                                       const Plane& plane, double energy,
                                       std::vector<double> base, int w) {
  const double start = base[static_cast<std::size_t>(w)];
  if (radicand(info, problem, plane, energy, base.data()) < 0)
    throw ParameterError("energy", fmt::format("{}", energy),
                         fmt::format("an energy the start --state reaches on the plane (add a "
                                     "--{}-range)",
                                     info.state_names[static_cast<std::size_t>(w)]));
  std::array<double, 2> out{};
  for (int side = 0; side < 2; ++side) {
    const double dir = side == 0 ? -1.0 : 1.0;
    double inside = 0, step = 1e-3;
    const auto reached = [&](double d) {
      base[static_cast<std::size_t>(w)] = start + dir * d;
      return radicand(info, problem, plane, energy, base.data()) >= 0;
    };
    while (reached(inside + step) && inside + step < kUnbounded) inside += step, step *= 1.5;
    if (inside + step >= kUnbounded)  // an open system above its escape energy
      throw ParameterError(fmt::format("{}-range", info.state_names[static_cast<std::size_t>(w)]),
                           "none",
                           fmt::format("a range A:B: at E = {} the energy reaches {} without "
                                       "bound (the orbits can escape)",
                                       energy, info.state_names[static_cast<std::size_t>(w)]));
    double outside = inside + step;
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (inside + outside);
      (reached(mid) ? inside : outside) = mid;
    }
    out[static_cast<std::size_t>(side)] = start + dir * inside;
  }
  return out;
}

Plane make_plane(const EnsembleJob& job, const EnsembleProblemInfo& info, int problem,
                 const void* data, const std::vector<double>& base, bool with_energy,
                 double energy) {
  Plane plane;
  plane.data = data;
  const auto words = split_pair(job.plane, ':', "plane");
  plane.a = word_index(info, words[0], false, "plane");
  plane.b = word_index(info, words[1], false, "plane");
  if (plane.a == plane.b)
    throw ParameterError("plane", job.plane, "two different state words, A:B");
  if (with_energy) {
    for (int c = 0; c < info.coordinates && plane.solved < 0; ++c) {
      const int w = info.coordinates + c;
      if (w != plane.a && w != plane.b) plane.solved = w;
    }
    if (plane.solved < 0)
      throw ParameterError("plane", job.plane,
                           "a plane that leaves a momentum free, to be taken from --energy");
  }
  for (const auto& [name, range] : job.ranges) {
    const int w = word_index(info, name, false, fmt::format("{}-range", name));
    if (w != plane.a && w != plane.b)
      throw ParameterError(fmt::format("{}-range", name),
                           fmt::format("{}:{}", range[0], range[1]),
                           fmt::format("a range of a word of the plane {}", job.plane));
  }
  const auto range_of = [&](int w) {
    const std::string name(info.state_names[static_cast<std::size_t>(w)]);
    if (auto it = job.ranges.find(name); it != job.ranges.end()) return it->second;
    if (!with_energy)
      throw ParameterError(fmt::format("{}-range", name), "none",
                           fmt::format("a range A:B ({} has no energy of the form |p|^2/2 + "
                                       "V(q) to bound the plane)",
                                       info.name));
    return reached_interval(info, problem, plane, energy, base, w);
  };
  plane.range_a = range_of(plane.a);
  plane.range_b = range_of(plane.b);
  return plane;
}

// Sets the plane words of `row` to (u, v) and the solved momentum; false where not reached.
bool place(const EnsembleProblemInfo& info, int problem, const Plane& plane, double energy,
           double u, double v, double* row) {
  row[plane.a] = u;
  row[plane.b] = v;
  if (plane.solved < 0) return true;
  row[plane.solved] = 0;
  const double r = radicand(info, problem, plane, energy, row);
  if (!(r >= 0)) return false;
  row[plane.solved] = std::sqrt(r);
  return true;
}

std::vector<double> read_rows_file(const std::string& path, const EnsembleProblemInfo& info) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw ParameterError("starts", path, "grid, random, or a readable CSV or HDF5 file");
  char magic[8] = {};
  probe.read(magic, 8);
  const int row_words = info.state_words + info.parameters;
  if (std::string_view(magic, 8) == std::string_view("\x89HDF\r\n\x1a\n", 8)) {
    h5::Handle file = h5::open_file(path);
    std::vector<hsize_t> dims;
    const std::vector<double> state = h5::read_dataset<double>(file.id(), "start_state", &dims);
    if (dims.size() != 2 || dims[1] != static_cast<hsize_t>(info.state_words))
      throw InputError(fmt::format("'{}': start_state is not N x {} ({})", path, info.state_words,
                                   info.name));
    std::vector<double> params;
    if (info.parameters > 0 && h5::exists(file.id(), "parameters"))
      params = h5::read_dataset<double>(file.id(), "parameters");
    const std::size_t n = dims[0];
    std::vector<double> rows(n * row_words);
    for (std::size_t i = 0; i < n; ++i)
      for (int w = 0; w < row_words; ++w)
        rows[i * row_words + w] =
            w < info.state_words ? state[i * info.state_words + w]
            : params.empty()     ? info.parameter_defaults[w - info.state_words]
                                 : params[i * info.parameters + (w - info.state_words)];
    return rows;
  }
  return read_csv_rows(path, info);
}

}  // namespace

EnsembleStartSet make_ensemble_starts(const EnsembleJob& job) {
  EnsembleStartSet set;
  EnsembleJobProblem problem = resolve_ensemble_problem(job);
  set.problem = problem.index;
  set.data = std::move(problem.data);
  const EnsembleProblemInfo& info = ensemble_problems()[static_cast<std::size_t>(set.problem)];
  set.state_words = info.state_words;
  set.parameter_words = info.parameters;
  const int row_words = info.state_words + info.parameters;
  const std::vector<double> base = base_row(job, info);

  if (!job.sweep.empty()) {
    const SweptWord s = parse_sweep(job.sweep, info);
    set.trajectories = job.n;
    std::copy(base.begin(), base.end(), set.starts.base);
    set.starts.swept = s.word;
    set.starts.from = s.from;
    set.starts.to = s.to;
    set.description = fmt::format("{} trajectories sweeping {}", job.n, job.sweep);
    return set;
  }
  if (!job.start_rows.empty() || (job.starts != "grid" && job.starts != "random")) {
    set.rows = job.start_rows.empty() ? read_rows_file(job.starts, info) : job.start_rows;
    set.trajectories = static_cast<std::int64_t>(set.rows.size()) / row_words;
    if (set.trajectories == 0) throw InputError(fmt::format("'{}' holds no start", job.starts));
    for (double v : set.rows)
      if (!std::isfinite(v))
        throw InputError(fmt::format("'{}': a start value is not finite ({})", job.starts, v));
    set.starts.rows = set.rows.data();
    set.description = fmt::format("{} starts from {}", set.trajectories, job.starts);
    return set;
  }

  const bool with_energy = info.energy_starts;
  const double energy = job.energy.value_or(kEnsembleDefaultEnergy);
  const Plane plane =
      make_plane(job, info, set.problem, set.data.get(), base, with_energy, energy);
  std::vector<double> row = base;
  const auto keep = [&](std::int64_t index) {
    set.rows.insert(set.rows.end(), row.begin(), row.end());
    if (index >= 0) set.grid_index.push_back(index);
  };
  if (job.starts == "grid") {
    const std::int64_t r = job.resolution;
    for (std::int64_t k = 0; k < r; ++k)
      for (std::int64_t j = 0; j < r; ++j) {
        const double u = plane.range_a[0] + (plane.range_a[1] - plane.range_a[0]) *
                                                 static_cast<double>(j) / static_cast<double>(r);
        const double v = plane.range_b[0] + (plane.range_b[1] - plane.range_b[0]) *
                                                 static_cast<double>(k) / static_cast<double>(r);
        if (place(info, set.problem, plane, energy, u, v, row.data())) keep(k * r + j);
      }
  } else {
    std::mt19937_64 random(job.seed);
    std::uniform_real_distribution<double> ua(plane.range_a[0], plane.range_a[1]);
    std::uniform_real_distribution<double> ub(plane.range_b[0], plane.range_b[1]);
    std::int64_t tries = 0;
    while (static_cast<std::int64_t>(set.rows.size()) / row_words < job.n) {
      if (++tries > 1000 * job.n)
        throw ParameterError("energy", fmt::format("{}", energy),
                             "an energy that reaches at least 1/1000 of the plane's window");
      const double u = ua(random), v = ub(random);
      if (place(info, set.problem, plane, energy, u, v, row.data())) keep(-1);
    }
  }
  set.trajectories = static_cast<std::int64_t>(set.rows.size()) / row_words;
  if (set.trajectories == 0)
    throw ParameterError("energy", fmt::format("{}", energy),
                         "an energy reached somewhere on the grid's window");
  set.starts.rows = set.rows.data();
  const std::string at_energy = with_energy ? fmt::format(" at E = {}", energy) : "";
  set.description =
      job.starts == "grid"
          ? fmt::format("grid {} x {} of {} ({}:{} x {}:{}){}, {} points reached", job.resolution,
                        job.resolution, job.plane, plane.range_a[0], plane.range_a[1],
                        plane.range_b[0], plane.range_b[1], at_energy, set.trajectories)
          : fmt::format("{} random points of {}{} (seed {})", set.trajectories, job.plane,
                        at_energy, job.seed);
  return set;
}

EnsembleStartColumns start_columns(const EnsembleStartSet& s) {
  const std::int64_t n = s.trajectories;
  const int row_words = s.state_words + s.parameter_words;
  EnsembleStartColumns c;
  c.state.resize(static_cast<std::size_t>(n * s.state_words));
  c.parameters.resize(static_cast<std::size_t>(n * s.parameter_words));
  std::vector<double> row(static_cast<std::size_t>(row_words));
  for (std::int64_t i = 0; i < n; ++i) {
    start_row(s.starts, row_words, i, n, row.data());
    std::copy_n(row.begin(), s.state_words, c.state.begin() + i * s.state_words);
    std::copy_n(row.begin() + s.state_words, s.parameter_words,
                c.parameters.begin() + i * s.parameter_words);
  }
  return c;
}

}  // namespace orrery
