// SPDX-License-Identifier: MIT
// The step loop of `orrery sim --engine direct` (or `--engine tree`, on the CPUs) over the ranks
// of an MPI job (docs/guide/mpi.md): a Plummer sphere of N bodies, leapfrog, each rank's slice on
// its own GPU (or CPU threads);
// after a warm-up, `repeat` timings of `steps` steps each. For each timing the slowest rank's
// seconds per step, and that rank's compute (its slice's forces), communication (the positions'
// all-gather with its staging copies) and waiting (for the slowest rank, before each gather: a
// barrier) apart; their medians. One JSON object on rank 0's standard output. Started alone, the
// same loop in one process (the baseline). Usage:
//   mpirun -np R orrery_mpi_direct_step --n 1048576 --backend cuda --steps 5 --repeat 5
//     [--warmup 2] [--threads T] [--device D: this GPU on every rank]
//     [--engine tree --theta 0.5: the tree over ranks, --backend cpu]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/jobs/simulation_of_job.hpp"
#include "orrery/nbody/step_schedule.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace {

struct Args {
  std::int64_t n = 1 << 20;
  std::string backend = "cuda";
  int steps = 5, repeat = 5, warmup = 2, threads = 0;
  int device = -1;  // -1: each rank's own (dist/rank_share.hpp), all GPUs in one process
  std::string engine = "direct";
  double theta = 0.5;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--n") a.n = std::stoll(value);
    else if (key == "--backend") a.backend = value;
    else if (key == "--steps") a.steps = std::stoi(value);
    else if (key == "--repeat") a.repeat = std::stoi(value);
    else if (key == "--warmup") a.warmup = std::stoi(value);
    else if (key == "--threads") a.threads = std::stoi(value);
    else if (key == "--device") a.device = std::stoi(value);
    else if (key == "--engine") a.engine = value;
    else if (key == "--theta") a.theta = std::stod(value);
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// One rank's timing: seconds of the steps, and the parts of its force evaluations.
struct Timing {
  double seconds, compute, communicate, wait;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace orrery;
  const dist::MpiSession mpi(argc, argv);
  const Args a = parse(argc, argv);
  const InitialConditions ic =
      make_scene("plummer", {{"n", ParamValue{a.n}}, {"seed", ParamValue{std::int64_t{1}}}});
  SimJob job;
  job.engine = a.engine;
  job.theta = a.theta;
  job.integrator = "leapfrog";
  job.threads = a.threads;
  job.backend = a.backend == "cpu" ? Backend::cpu : Backend::cuda;
  if (a.device >= 0) job.devices = {a.device};
  SimClock clock;
  clock.dt = ic.dt;
  Simulation<double> sim = make_simulation(resolved_simulation_choices(job, ic.softening),
                                           ic.particles, ic.g, ic.softening, clock);
  const StepSchedule open{std::numeric_limits<double>::infinity(), 0.0, 0.0};
  for (int k = 0; k < a.warmup; ++k) step_on_schedule(sim, open);
  dist::measure_rank_wait(true);
  const dist::RankLayout& l = dist::layout();
  std::vector<double> per_step, compute, communicate, wait;
  for (int r = 0; r < a.repeat; ++r) {
    dist::take_rank_force_times();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < a.steps; ++k) step_on_schedule(sim, open);
    const double seconds = seconds_since(t0);
    const dist::RankForceTimes t = dist::take_rank_force_times();
    const Timing mine{seconds, t.compute, t.communicate, t.wait};
    const auto all = dist::gather_to_root(std::as_bytes(std::span(&mine, 1)));
    if (!dist::writes()) continue;
    Timing slowest = mine;
    for (const auto& bytes : all) {
      Timing other;
      std::memcpy(&other, bytes.data(), sizeof other);
      if (other.seconds > slowest.seconds) slowest = other;
    }
    per_step.push_back(slowest.seconds / a.steps);
    compute.push_back(slowest.compute / a.steps);
    communicate.push_back(slowest.communicate / a.steps);
    wait.push_back(slowest.wait / a.steps);
  }
  if (!dist::writes()) return 0;
  const double pairs = static_cast<double>(a.n) * static_cast<double>(a.n);
  const bool direct = a.engine == "direct";
  // One process has no slices, gather or waiting: its parts are not measured (null).
  const auto part = [&](const std::vector<double>& v) {
    return l.size > 1 ? std::to_string(median(v)) : std::string("null");
  };
  std::printf(
      "{\"bench\": \"mpi_direct_step\", \"git\": \"%s\", \"n\": %lld, \"ranks\": %d, "
      "\"threads_per_rank\": %d, \"engine\": \"%s\", \"theta\": %s, \"backend\": \"%s\", "
      "\"engine_backend\": \"%s\", \"integrator\": \"leapfrog\", "
      "\"precision\": \"fp64\", \"steps_per_timing\": %d, \"timings\": %d, \"warmup_steps\": %d, "
      "\"seconds_per_step\": %.6g, \"compute_per_step\": %s, \"communicate_per_step\": %s, "
      "\"wait_per_step\": %s, \"pair_interactions_per_s\": %.6g, \"mpi\": \"%s\"}\n",
      git_hash().c_str(), static_cast<long long>(a.n), l.size, dist::rank_threads(a.threads),
      a.engine.c_str(), direct ? "null" : std::to_string(a.theta).c_str(), a.backend.c_str(),
      sim.engine().backend().c_str(), a.steps, a.repeat, a.warmup, median(per_step),
      part(compute).c_str(), part(communicate).c_str(), part(wait).c_str(),
      direct ? pairs / median(per_step) : 0.0,
      dist::mpi_built() ? dist::mpi_library().c_str() : "not built in");
  return 0;
}
