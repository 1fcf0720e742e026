// SPDX-License-Identifier: MIT
// The SALI map as a measurement, one JSON line per run: Hénon–Heiles at E = 1/8 on the
// section x = 0 (y:py), an N × N grid (default 400 × 400, the figure's), yoshida4, h = 0.01,
// t = 10³, fp64, two tangent vectors per start (orrery chaos --indicator sali), on the CPU lanes
// with every core; and the same with MEGNO (one vector). Measurements, not tests.
//
//   orrery_chaos_bench [--resolution N] [--t-end T] [--threads K] [--repeat K]
//
// "seconds" is the run alone (the chaos lanes, every trajectory), the median of K runs;
// "trajectory_steps_per_second" counts a start's step with its vectors as one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/version.hpp"
#include "orrery/jobs/chaos_job.hpp"

int main(int argc, char** argv) {
  using namespace orrery;
  std::int64_t resolution = 400, threads = 0, repeat = 1;
  double t_end = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--resolution")
      resolution = std::atoll(argv[i + 1]);
    else if (flag == "--t-end")
      t_end = std::atof(argv[i + 1]);
    else if (flag == "--threads")
      threads = std::atoll(argv[i + 1]);
    else if (flag == "--repeat")
      repeat = std::max<std::int64_t>(1, std::atoll(argv[i + 1]));
    else {
      std::fprintf(stderr, "orrery_chaos_bench: unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  for (const char* indicator : {"sali", "megno"}) {
    ChaosJob job;
    job.ensemble.problem = "henon-heiles";
    job.ensemble.energy = 0.125;
    job.ensemble.plane = "y:py";
    job.ensemble.resolution = resolution;
    job.ensemble.integrators = "yoshida4";
    job.ensemble.dt = 0.01;
    job.ensemble.t_end = t_end;
    job.ensemble.samples = 1;
    job.ensemble.threads = threads;
    job.indicator = indicator;
    job.in_memory = true;
    std::vector<double> seconds;
    ChaosJobOutcome o;
    for (std::int64_t r = 0; r < repeat; ++r) {
      o = run_chaos_job(job);
      seconds.push_back(o.run.info.seconds);
    }
    std::sort(seconds.begin(), seconds.end());
    const double s = seconds[seconds.size() / 2];
    const double steps = static_cast<double>(o.run.trajectories) * static_cast<double>(o.steps);
    fmt::print(
        "{{\"case\": \"chaos-{}-henon-heiles\", \"resolution\": {}, \"trajectories\": {}, "
        "\"steps\": {}, \"integrator\": \"yoshida4\", \"dt\": 0.01, \"backend\": \"{}\", "
        "\"kernel\": \"{}\", \"threads\": {}, \"seconds\": {:.4f}, "
        "\"trajectory_steps_per_second\": {:.4g}, \"chaotic_fraction\": {}, \"git\": \"{}\"}}\n",
        indicator, resolution, o.run.trajectories, o.steps, o.run.info.backend,
        o.run.info.kernel, o.run.info.threads, s, steps / s,
        o.chaotic_fraction ? fmt::format("{:.4f}", *o.chaotic_fraction) : "null", git_hash());
  }
  return 0;
}
