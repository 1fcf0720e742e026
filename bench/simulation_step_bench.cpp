// SPDX-License-Identifier: MIT
// One step of a three-body system (the figure-eight scene, leapfrog, the direct CPU engine on one
// thread) as `orrery sim` takes it: step_on_schedule and the non-finite check. The C++ side of
// bench/python_step_overhead.py, which times sim.step() of the same system from Python.
#include <benchmark/benchmark.h>

#include <limits>

#include "orrery/jobs/simulation_of_job.hpp"
#include "orrery/nbody/step_schedule.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::bench {
namespace {

void BM_SimulationStepThreeBodies(benchmark::State& state) {
  const InitialConditions ic = make_scene("figure-eight");
  SimJob job;
  job.threads = 1;
  SimClock clock;
  clock.dt = ic.dt;
  Simulation<double> sim = make_simulation(resolved_simulation_choices(job, ic.softening),
                                           ic.particles, ic.g, ic.softening, clock);
  const StepSchedule open{std::numeric_limits<double>::infinity(), 0.0, 0.0};
  for (auto _ : state) {
    step_on_schedule(sim, open);
    benchmark::DoNotOptimize(sim.first_nonfinite());
  }
  state.counters["steps_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulationStepThreeBodies);

}  // namespace
}  // namespace orrery::bench
