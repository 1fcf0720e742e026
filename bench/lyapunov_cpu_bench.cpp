// SPDX-License-Identifier: MIT
// The CPU figure: the maximal Lyapunov exponent map per core, orrery's chaos lanes
// (orrery chaos --indicator lyapunov, one thread) against a plain scalar loop
// (bench/lyapunov_scalar_loop.cpp: the variational equations of each substep, the same starts,
// integrator, step and renormalisation interval, compiled -O3 -march=native
// -ffp-contract=fast; Julia's ChaosTools cannot run here). One JSON line, with the CPU's model
// name: both rates in trajectory-steps per second (a start's step with its deviation vector),
// their ratio by the wall clock and by the process's CPU time (the fairer one on a shared
// machine), and how the two λ fields agree (equal up to rounding on the regular starts; a
// chaotic start amplifies the two codes' different roundings over t, so its finite-time λ
// differs by its own fluctuation). A measurement, not a test.
//
//   orrery_lyapunov_bench [--resolution N] [--t-end T] [--every K] [--repeat K]
//
// Hénon–Heiles at E = 1/8 on the section x = 0 (y:py), an N × N grid (default 60, the starts the
// energy reaches), yoshida4, h = 0.01, t = 1000, renormalised every 10 steps; each time the
// median of --repeat runs (default 3).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/chaos/growth_indicators.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery::bench {
std::vector<double> scalar_henon_heiles_lyapunov(const std::vector<double>& rows, std::int64_t n,
                                                 std::int64_t steps, double dt,
                                                 std::int64_t every);
}

namespace {
// The CPU's "model name" (/proc/cpuinfo), so that a result names its machine.
std::string cpu_model() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return "unknown";
  char line[512];
  std::string model = "unknown";
  while (std::fgets(line, sizeof line, f)) {
    const std::string l = line;
    if (l.rfind("model name", 0) == 0) {
      const auto colon = l.find(':');
      model = l.substr(colon + 2);
      while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
      break;
    }
  }
  std::fclose(f);
  return model;
}

// The process's CPU time: on a machine shared with other work the wall clock counts the time
// this process waited for a core, its CPU time does not (both runs use one thread).
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace orrery;
  std::int64_t resolution = 60, every = 10, repeat = 3;
  double t_end = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--resolution")
      resolution = std::atoll(argv[i + 1]);
    else if (flag == "--t-end")
      t_end = std::atof(argv[i + 1]);
    else if (flag == "--every")
      every = std::atoll(argv[i + 1]);
    else if (flag == "--repeat")
      repeat = std::max<std::int64_t>(1, std::atoll(argv[i + 1]));
    else {
      std::fprintf(stderr, "orrery_lyapunov_bench: unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  constexpr double kDt = 0.01;
  EnsembleJob job;
  job.problem = "henon-heiles";
  job.energy = 0.125;
  job.plane = "y:py";
  job.resolution = resolution;
  job.in_memory = true;
  job.out.clear();
  const EnsembleStartSet starts = make_ensemble_starts(job);
  const std::int64_t n = starts.trajectories;
  const auto steps = static_cast<std::int64_t>(std::llround(t_end / kDt));
  if (every < 1 || steps % every != 0) {
    std::fprintf(stderr, "orrery_lyapunov_bench: --every %lld does not divide the %lld steps\n",
                 static_cast<long long>(every), static_cast<long long>(steps));
    return 2;
  }

  ChaosSetup setup;
  setup.ensemble.problem = starts.problem;
  setup.ensemble.integrator = ensemble_integrator_index("yoshida4");
  setup.ensemble.dt = kDt;
  setup.ensemble.steps = steps;
  setup.ensemble.trajectories = n;
  setup.ensemble.starts = starts.starts;
  setup.kernel = ChaosKernel::growth;
  setup.every = every;
  EnsembleRunOptions one_core;
  one_core.backend = Backend::cpu;
  one_core.threads = 1;

  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> lanes_s, scalar_s, lanes_cpu, scalar_cpu, lanes_lambda, scalar_lambda;
  std::string kernel;
  int threads = 0;
  for (std::int64_t r = 0; r < repeat; ++r) {
    const double c0 = cpu_seconds();
    const ChaosOutcome o = run_chaos(setup, one_core);
    lanes_cpu.push_back(cpu_seconds() - c0);
    lanes_s.push_back(o.info.seconds);
    kernel = o.info.kernel;
    threads = o.info.threads;
    const auto at = o.values.begin() + GrowthIndicators<double, 1>::lyapunov * n;
    lanes_lambda.assign(at, at + n);
    const auto t0 = std::chrono::steady_clock::now();
    const double c1 = cpu_seconds();
    scalar_lambda = bench::scalar_henon_heiles_lyapunov(starts.rows, n, steps, kDt, every);
    scalar_cpu.push_back(cpu_seconds() - c1);
    scalar_s.push_back(seconds_since(t0));
  }
  // Agreement: the regular starts (λ below 0.01 at t = 1000, ln(t)/t ≈ 0.007) to rounding's
  // growth along a torus, the chaotic ones by their fluctuation.
  constexpr double kRegular = 0.01;
  double regular_worst = 0;
  std::int64_t both_chaotic = 0, both_regular = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double a = lanes_lambda[static_cast<std::size_t>(i)],
                 b = scalar_lambda[static_cast<std::size_t>(i)];
    if (a < kRegular && b < kRegular) {
      ++both_regular;
      regular_worst = std::max(regular_worst, std::abs(a - b));
    }
    both_chaotic += a >= kRegular && b >= kRegular;
  }
  const double work = static_cast<double>(n) * static_cast<double>(steps);
  const double lanes = work / median(lanes_s), scalar = work / median(scalar_s);
  fmt::print(
      "{{\"bench\": \"lyapunov-map-one-core\", \"cpu\": \"{}\", \"problem\": \"henon-heiles\", \"energy\": 0.125, "
      "\"resolution\": {}, \"trajectories\": {}, \"integrator\": \"yoshida4\", \"dt\": {}, "
      "\"steps\": {}, \"every\": {}, \"repeat\": {}, \"lanes_kernel\": \"{}\", \"lanes_threads\": {}, "
      "\"scalar_build\": \"-O3 -march=native -ffp-contract=fast\", "
      "\"lanes_seconds\": {:.4f}, \"scalar_seconds\": {:.4f}, "
      "\"lanes_trajectory_steps_per_s\": {:.4g}, \"scalar_trajectory_steps_per_s\": {:.4g}, "
      "\"lanes_over_scalar\": {:.2f}, \"lanes_cpu_seconds\": {:.4f}, \"scalar_cpu_seconds\": {:.4f}, "
      "\"lanes_over_scalar_cpu_time\": {:.2f}, \"regular_both\": {}, \"regular_largest_lambda_difference\": "
      "{:.3g}, \"chaotic_both\": {}, \"classified_differently\": {}, \"git\": \"{}\"}}\n",
      cpu_model(), resolution, n, kDt, steps, every, repeat, kernel, threads, median(lanes_s), median(scalar_s), lanes,
      scalar, lanes / scalar, median(lanes_cpu), median(scalar_cpu),
      median(scalar_cpu) / median(lanes_cpu), both_regular, regular_worst, both_chaotic,
      n - both_regular - both_chaotic, git_hash());
  return 0;
}
