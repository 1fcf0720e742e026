// SPDX-License-Identifier: MIT
// The SALI map as a measurement, one JSON line per run: Hénon–Heiles at E = 1/8 on the
// section x = 0 (y:py), an N × N grid (default 400 × 400, the figure's), yoshida4, h = 0.01,
// t = 10³, fp64, two tangent vectors per start (orrery chaos --indicator sali), on the CPU lanes
// with every core or on the GPUs (--backend); and the same with MEGNO (one vector). With
// --three-body N: the MEGNO map of the divergence map's canonical window (x1:y1 over
// [−20, 20]², N × N starts, leapfrog at the map's dt = 0.001 for 50 000 steps), the issue's
// figure beside the divergence map of the same window. Measurements, not tests.
//
//   orrery_chaos_bench [--resolution N] [--t-end T] [--threads K] [--repeat K]
//                      [--backend cpu|cuda|auto] [--three-body N]
//
// "seconds" is the run alone (the chaos lanes or the GPU's share, every trajectory, copies
// included), "kernel_seconds" the GPU's kernel alone, each the median of K runs;
// "trajectory_steps_per_second" counts a start's step with its vectors as one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/backend.hpp"
#include "orrery/core/version.hpp"
#include "orrery/jobs/chaos_job.hpp"

int main(int argc, char** argv) {
  using namespace orrery;
  std::int64_t resolution = 400, threads = 0, repeat = 1, three_body = 0;
  double t_end = 1000;
  Backend backend = Backend::automatic;
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
    else if (flag == "--backend") {
      const auto& names = backend_names();
      const auto at = std::find(names.begin(), names.end(), std::string(argv[i + 1]));
      if (at == names.end()) {
        std::fprintf(stderr, "orrery_chaos_bench: --backend %s: cpu, cuda or auto\n", argv[i + 1]);
        return 2;
      }
      backend = static_cast<Backend>(at - names.begin());
    }
    else if (flag == "--three-body")
      three_body = std::atoll(argv[i + 1]);
    else {
      std::fprintf(stderr, "orrery_chaos_bench: unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  const auto measure = [&](const ChaosJob& job, const std::string& name) {
    std::vector<double> seconds, kernel;
    ChaosJobOutcome o;
    for (std::int64_t r = 0; r < repeat; ++r) {
      o = run_chaos_job(job);
      seconds.push_back(o.run.info.seconds);
      kernel.push_back(o.run.info.kernel_seconds);
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(kernel.begin(), kernel.end());
    const double s = seconds[seconds.size() / 2], k = kernel[kernel.size() / 2];
    const double steps = static_cast<double>(o.run.trajectories) * static_cast<double>(o.steps);
    fmt::print(
        "{{\"case\": \"{}\", \"resolution\": {}, \"trajectories\": {}, \"steps\": {}, "
        "\"integrator\": \"{}\", \"dt\": {}, \"backend\": \"{}\", \"kernel\": \"{}\", "
        "\"threads\": {}, \"seconds\": {:.4f}, \"kernel_seconds\": {:.4f}, "
        "\"trajectory_steps_per_second\": {:.4g}, \"chaotic_fraction\": {}, \"git\": \"{}\"}}\n",
        name, job.ensemble.resolution, o.run.trajectories, o.steps, job.ensemble.integrators,
        job.ensemble.dt, o.run.info.backend, o.run.info.kernel, o.run.info.threads, s, k,
        steps / s, o.chaotic_fraction ? fmt::format("{:.4f}", *o.chaotic_fraction) : "null",
        git_hash());
    std::fflush(stdout);
  };
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
    job.ensemble.backend = backend;
    job.indicator = indicator;
    job.in_memory = true;
    measure(job, fmt::format("chaos-{}-henon-heiles", indicator));
  }
  if (three_body > 0) {
    ChaosJob job;
    job.ensemble.problem = "three-body";
    job.ensemble.plane = "x1:y1";
    job.ensemble.ranges["x1"] = {-20, 20};
    job.ensemble.ranges["y1"] = {-20, 20};
    job.ensemble.resolution = three_body;
    job.ensemble.integrators = "leapfrog";
    job.ensemble.dt = 0.001;
    job.ensemble.steps = 50000;
    job.ensemble.samples = 1;
    job.ensemble.threads = threads;
    job.ensemble.backend = backend;
    job.indicator = "megno";
    job.in_memory = true;
    measure(job, "chaos-megno-three-body");
  }
  return 0;
}
