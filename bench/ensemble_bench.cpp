// SPDX-License-Identifier: MIT
// Ensembles at scale, one JSON line per run: the published Hénon–Heiles experiment (2²⁰
// trajectories × 10⁵ steps of 0.01, fp64, leapfrog / rk4 / yoshida4) and the GPU ensemble
// solvers' Lorenz benchmark (2²³ trajectories, t ∈ [0, 1], dt = 10⁻³, fp32, ρ = linspace(0, 21),
// u0 = (1, 0, 0); rk4, tsit5, dopri5) on the GPU, and Hénon–Heiles leapfrog on one CPU core against a plain scalar
// loop of the same arithmetic in the same process. Measurements, not tests.
//
//   orrery_ensemble_bench [gpu-henon-heiles] [gpu-polynomial-henon-heiles] [gpu-lorenz]
//                         [gpu-lorenz-adaptive] [cpu-henon-heiles] [--repeat K] [--devices 0,1]
//
// gpu-polynomial-henon-heiles runs the leapfrog case of gpu-henon-heiles twice, built in and as
// the user's polynomial (--problem polynomial --potential "0.5*(x^2+y^2) + x^2*y - y^3/3"), and
// prints the polynomial's kernel time relative to the built-in's.
// gpu-lorenz-adaptive: the same Lorenz sweep with tsit5 and each trajectory's own step control
// (fp64 at tolerance 10⁻⁸, fp32 at the smallest tolerance it honours), with the steps taken and
// the fraction of the GPU's issue limit those steps' operations make (gpu-lorenz prints the same
// fraction for its fixed steps).
//
// "seconds" is the whole run_ensemble call (in-process: device set-up, copies, kernel, results
// gathered), "kernel_seconds" the kernel alone (CUDA events), each the median of K runs.
//
// --devices: the CUDA devices of the GPU cases (default all the machine has), to set one GPU
// against several on one machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/ensemble/ensemble.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/problems/polynomial/polynomial_choice.hpp"
#include "orrery/integrate/runge_kutta/embedded_register_step.hpp"
#include "orrery/physics/henon_heiles.hpp"

namespace orrery {
namespace bench {
double scalar_henon_heiles_leapfrog(const std::vector<double>& rows, std::int64_t n,
                                    std::int64_t steps, double dt);
}
namespace {

struct Case {
  std::string problem, integrator;
  Precision precision;
  std::int64_t n, steps;
  double dt;
  Backend backend;
  int threads = 0;
  double tolerance = 0;  // > 0: each trajectory controls its step, to t = steps·dt
  std::string potential = "";  // problem "polynomial": V(q)
  double operations_per_step = 0;  // > 0: a fixed step's operations, for the issue-limit fraction
};

// The issue-rate limit of one H100 or H200 (132 SMs at 1.98 GHz; 128 fp32 or 64 fp64 lanes an SM
// each issuing one operation a cycle, a fused multiply-add counted as one).
double operations_per_second_limit(Precision p) {
  return 132.0 * (p == Precision::fp32 ? 128.0 : 64.0) * 1.98e9;
}

// Lorenz's field: σ(y − x) 2, x(ρ − z) − y 2, xy − βz 2 (the negations ride on the fused
// multiply-adds: the SASS of the fp32 kernels has two FADD, two FMUL and two FFMA an evaluation).
constexpr int kLorenzFieldOperations = 6;

// Floating-point operations of one fixed step, counted from the table: a fused multiply-add per
// component for each nonzero a_ij of a stage the step evaluates and each nonzero b_j (the
// products h·c_j are loop invariants), and the field once per evaluated stage (a stage whose K
// no weight and no later evaluated stage uses is never evaluated: tsit5's and dopri5's seventh,
// the next step's first).
template <class Table>
double fixed_step_operations(int words, int field_operations) {
  bool needed[Table::stages] = {};
  int terms = 0, evaluations = 0;
  for (int j = Table::stages - 1; j >= 0; --j) {
    needed[j] = as_coefficient(Table::b(j)).value != 0.0;
    for (int i = j + 1; i < Table::stages; ++i)
      needed[j] = needed[j] || (needed[i] && as_coefficient(Table::a(i, j)).value != 0.0);
  }
  for (int i = 0; i < Table::stages; ++i) {
    if (!needed[i]) continue;
    ++evaluations;
    for (int j = 0; j < i; ++j) terms += as_coefficient(Table::a(i, j)).value != 0.0;
  }
  for (int j = 0; j < Table::stages; ++j) terms += as_coefficient(Table::b(j)).value != 0.0;
  return static_cast<double>(terms * words + evaluations * field_operations);
}

// Floating-point operations of one controlled tsit5 step of Lorenz, counted from the tables: each
// nonzero a_ij, b_j and b_j − b̂_j one fused multiply-add per component (and the products h·c_j
// once each), kLorenzFieldOperations per field evaluation, per
// component of the error norm 7 (two |·|, the larger, a multiply, an add, a divide, the running
// maximum), and 30 for the control (the clamps, selects, the time update and the factor's power,
// taken in single precision).
template <class Table>
double controlled_step_operations(int words, int field_operations) {
  int nonzero = 0;
  for (int i = 0; i < Table::stages; ++i)
    for (int j = 0; j < i; ++j) nonzero += as_coefficient(Table::a(i, j)).value != 0.0;
  for (int j = 0; j < Table::stages; ++j)
    nonzero += (as_coefficient(Table::b(j)).value != 0.0) +
               (detail::ErrorRow<Table>::at(j) != 0.0);
  constexpr int kNormPerWord = 7, kControl = 30;
  // A first-same-as-last pair evaluates its first stage only once, at the trajectory's start.
  const int evaluations = Table::stages - (detail::last_stage_at_candidate<Table>() ? 1 : 0);
  return static_cast<double>(nonzero * (words + 1) + evaluations * field_operations +
                             words * kNormPerWord + kControl);
}

EnsembleSetup setup_of(const Case& c, std::vector<double>& rows,
                       std::shared_ptr<const void>& data) {
  EnsembleSetup s;
  s.problem = ensemble_problem_index(c.problem);
  if (!c.potential.empty()) {
    const PolynomialProblemChoice choice =
        choose_polynomial_problem(parse_ensemble_potential(c.potential, "potential"));
    s.problem = choice.problem;
    data = choice.data;
    s.data = data.get();
  }
  s.integrator = ensemble_integrator_index(c.integrator);
  s.precision = c.precision;
  s.dt = c.dt;
  s.steps = c.steps;
  s.samples = 1;
  s.trajectories = c.n;
  s.tolerance = c.tolerance;
  if (c.problem == "lorenz") {
    s.starts.base[0] = 1.0;
    s.starts.base[3] = 10.0;
    s.starts.base[5] = 8.0 / 3.0;
    s.starts.swept = 4;
    s.starts.to = 21.0;
  } else {
    // Starts on the section x = 0 at E = 1/8 with px from the energy (orrery ensemble's grid).
    rows.resize(static_cast<std::size_t>(c.n) * 4);
    for (std::int64_t i = 0; i < c.n; ++i) {
      const double y = -0.3 + 0.6 * static_cast<double>(i % 1024) / 1024;
      const double py = -0.2 + 0.4 * static_cast<double>(i / 1024 % 1024) / 1024;
      const double v = henon_heiles_potential(0.0, y);
      const double r = 2 * (0.125 - v) - py * py;
      rows[i * 4 + 0] = 0, rows[i * 4 + 1] = y, rows[i * 4 + 2] = std::sqrt(std::max(r, 0.0)),
      rows[i * 4 + 3] = py;
    }
    s.starts.rows = rows.data();
  }
  return s;
}

// The median kernel seconds.
// The CUDA devices of every GPU case (`--devices 0,1`); empty: all the machine has.
std::vector<int> g_devices;

double run_case(const Case& c, int repeat) {
  std::vector<double> rows;
  std::shared_ptr<const void> data;
  const EnsembleSetup s = setup_of(c, rows, data);
  EnsembleRunOptions o;
  o.backend = c.backend;
  o.threads = c.threads;
  if (c.backend == Backend::cuda) o.devices = g_devices;
  std::vector<double> seconds, kernel;
  EnsembleRunInfo info;
  std::int64_t attempted = 0, failed = 0;
  UninitialisedVector<std::uint32_t> accepted;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    EnsembleOutcome out = run_ensemble(s, o);
    seconds.push_back(seconds_since(t0));
    kernel.push_back(out.info.kernel_seconds);
    info = out.info;
    attempted = out.trajectory_steps;
    failed = out.failed;
    accepted = std::move(out.steps_accepted);
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(kernel.begin(), kernel.end());
  const double work = c.tolerance > 0 ? static_cast<double>(attempted)
                                      : static_cast<double>(c.n) * static_cast<double>(c.steps);
  const double median = seconds[seconds.size() / 2], kmedian = kernel[kernel.size() / 2];
  std::string adaptive;
  if (c.tolerance <= 0 && c.operations_per_step > 0)
    adaptive = fmt::format(
        "\"operations_per_step\": {}, \"fraction_of_h100_issue_limit\": {:.3f}, ",
        c.operations_per_step,
        kmedian > 0 ? work * c.operations_per_step / kmedian /
                          operations_per_second_limit(c.precision)
                    : 0.0);
  if (c.tolerance > 0) {
    std::sort(accepted.begin(), accepted.end());
    const double ops = controlled_step_operations<Tsitouras5>(3, kLorenzFieldOperations);
    adaptive = fmt::format(
        "\"tolerance\": {}, \"t_end\": {}, \"steps_accepted_median\": {}, "
        "\"steps_accepted_max\": {}, \"steps_attempted\": {}, \"failed\": {}, "
        "\"operations_per_step\": {}, \"fraction_of_h100_issue_limit\": {:.3f}, ",
        c.tolerance, c.dt * static_cast<double>(c.steps), accepted[accepted.size() / 2],
        accepted.back(), attempted, failed, ops,
        kmedian > 0 ? work * ops / kmedian / operations_per_second_limit(c.precision) : 0.0);
  }
  fmt::print(
      "{{\"bench\": \"ensemble\", \"problem\": \"{}\", \"integrator\": \"{}\", \"precision\": "
      "\"{}\", \"trajectories\": {}, \"steps\": {}, \"dt\": {}, {}\"backend\": \"{}\", "
      "\"device\": \"{}\", \"devices\": \"{}\", \"threads\": {}, \"repeat\": {}, \"seconds\": {:.6f}, "
      "\"kernel_seconds\": {:.6f}, \"trajectory_steps_per_s\": {:.4g}, "
      "\"kernel_trajectory_steps_per_s\": {:.4g}, {}\"git\": \"{}\"}}\n",
      c.problem, c.integrator, to_string(c.precision), c.n, c.steps, c.dt, adaptive, info.backend,
      info.kernel, c.backend == Backend::cuda ? (g_devices.empty() ? std::string("all") : fmt::format("{}", fmt::join(g_devices, ","))) : std::string("-"),
      info.threads, repeat, median, kmedian, work / median,
      kmedian > 0 ? work / kmedian : 0.0,
      c.potential.empty() ? "" : fmt::format("\"potential\": \"{}\", ", c.potential), git_hash());
  std::fflush(stdout);
  return kmedian;
}

// The plain scalar loop (bench/ensemble_scalar_loop.cpp) over the same starts.
void scalar_baseline(std::int64_t n, std::int64_t steps, double dt) {
  std::vector<double> rows;
  std::shared_ptr<const void> none;
  setup_of({"henon-heiles", "leapfrog", Precision::fp64, n, steps, dt, Backend::cpu}, rows, none);
  const auto t0 = std::chrono::steady_clock::now();
  const double checksum = bench::scalar_henon_heiles_leapfrog(rows, n, steps, dt);
  const double sec = seconds_since(t0);
  fmt::print(
      "{{\"bench\": \"ensemble-scalar-loop\", \"problem\": \"henon-heiles\", \"integrator\": "
      "\"leapfrog\", \"precision\": \"fp64\", \"trajectories\": {}, \"steps\": {}, \"threads\": 1, "
      "\"seconds\": {:.6f}, \"trajectory_steps_per_s\": {:.4g}, \"checksum\": {:.17g}}}\n",
      n, steps, sec, static_cast<double>(n * steps) / sec, checksum);
}

}  // namespace
}  // namespace orrery

int main(int argc, char** argv) {
  using namespace orrery;
  std::vector<std::string> which;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--devices" && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      for (std::string d; std::getline(list, d, ',');) g_devices.push_back(std::stoi(d));
    } else {
      which.push_back(a);
    }
  }
  if (which.empty()) which = {"cpu-henon-heiles"};
  for (const std::string& w : which) {
    if (w == "gpu-henon-heiles") {
      for (const char* m : {"leapfrog", "rk4", "yoshida4"})
        run_case({"henon-heiles", m, Precision::fp64, 1 << 20, 100000, 0.01, Backend::cuda},
                 repeat);
    } else if (w == "gpu-polynomial-henon-heiles") {
      const Case builtin{"henon-heiles", "leapfrog", Precision::fp64, 1 << 20, 100000, 0.01,
                         Backend::cuda};
      Case text = builtin;
      text.problem = "polynomial";
      text.potential = "0.5*(x^2+y^2) + x^2*y - y^3/3";
      const double a = run_case(builtin, repeat), b = run_case(text, repeat);
      fmt::print(
          "{{\"bench\": \"ensemble-polynomial-relative\", \"integrator\": \"leapfrog\", "
          "\"precision\": \"fp64\", \"builtin_kernel_seconds\": {:.6f}, "
          "\"polynomial_kernel_seconds\": {:.6f}, \"polynomial_over_builtin\": {:.3f}}}\n",
          a, b, a > 0 ? b / a : 0.0);
    } else if (w == "gpu-lorenz") {
      const std::pair<const char*, double> methods[] = {
          {"rk4", fixed_step_operations<ClassicRK4>(3, kLorenzFieldOperations)},
          {"tsit5", fixed_step_operations<Tsitouras5>(3, kLorenzFieldOperations)},
          {"dopri5", fixed_step_operations<DormandPrince5>(3, kLorenzFieldOperations)}};
      for (const auto& [m, ops] : methods) {
        Case c{"lorenz", m, Precision::fp32, 1 << 23, 1000, 1e-3, Backend::cuda};
        c.operations_per_step = ops;
        run_case(c, repeat);
      }
    } else if (w == "gpu-lorenz-adaptive") {
      // The published adaptive runs (DiffEqGPU's GPUTsit5 and MPGOS's RKCK45) are fp32 with
      // abstol = reltol = 10⁻⁸ and a first step of 10⁻³: a tolerance below fp32's rounding, which
      // orrery refuses. The same tolerance in fp64 takes the steps it asks for; fp32 runs at the
      // smallest tolerance it honours.
      run_case({"lorenz", "tsit5", Precision::fp64, 1 << 23, 1000, 1e-3, Backend::cuda, 0, 1e-8},
               repeat);
      run_case({"lorenz", "tsit5", Precision::fp32, 1 << 23, 1000, 1e-3, Backend::cuda, 0,
                smallest_ensemble_tolerance(Precision::fp32)},
               repeat);
    } else if (w == "cpu-henon-heiles") {
      scalar_baseline(64, 200000, 0.01);
      run_case({"henon-heiles", "leapfrog", Precision::fp64, 64, 200000, 0.01, Backend::cpu, 1},
               repeat);
    } else {
      std::fprintf(stderr,
                   "unknown case '%s' (gpu-henon-heiles, gpu-polynomial-henon-heiles, "
                   "gpu-lorenz, gpu-lorenz-adaptive, cpu-henon-heiles)\n",
                   w.c_str());
      return 2;
    }
  }
  return 0;
}
