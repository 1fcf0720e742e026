// SPDX-License-Identifier: MIT
// Steps of the CUDA tree engine through orrery's Simulation (the path of `orrery sim`: particles
// uploaded once; forces, kicks and the drift on the GPU), leapfrog: the largest system one GPU
// steps — a Plummer sphere (Hénon units, seed 1, ε = 10⁻⁴, step 10⁻³), fp32 — and the galaxy
// collision at N = 10⁶ with its scene's G, ε and step. Counters: seconds per step, the tree
// build and walk of the last force evaluation, the device memory in use, bytes per body. Rows:
// tree_step/cuda/<scene>/<precision>/<N>, two-galaxies also in N-body units; the engine's own speed and accuracy rows are in
// tree_engine_bench.cpp.
#include <benchmark/benchmark.h>

#include <cuda_runtime.h>

#include <chrono>
#include <string>

#include "orrery/core/particles.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::bench {
namespace {

template <class Real>
void tree_step(benchmark::State& state, const std::string& scene_name,
               const std::string& units = "") {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Particles<Real> p;
  EngineOptions o;
  o.softening = 1e-4;
  double dt = 1e-3;
  {
    SceneSettings settings{{"n", ParamValue{static_cast<std::int64_t>(n)}},
                           {"seed", ParamValue{std::int64_t{1}}}};
    if (!units.empty()) settings.emplace_back("units", ParamValue{units});
    const auto scene = make_scene(scene_name, settings);
    p = convert_particles<Real>(scene.particles);
    if (scene_name != "plummer") o.g = scene.g, o.softening = scene.softening, dt = scene.dt;
  }
  o.backend = Backend::cuda;
  o.devices = {0};
  SimClock clock;
  clock.dt = dt;
  Simulation<Real> sim(std::move(p), make_force_engine<Real>("tree", o),
                       make_array_stepper<Real>("leapfrog"), clock);
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    sim.step(dt);
    cudaDeviceSynchronize();
    seconds += seconds_since(t0);
  }
  state.counters["step_seconds"] = seconds / static_cast<double>(state.iterations());
  std::size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  const EngineTimings t = sim.engine().last_timings();
  state.counters["build_seconds"] = t.build;
  state.counters["force_seconds"] = t.force;
  state.counters["device_bytes_used"] = static_cast<double>(total - free);
  state.counters["bytes_per_body"] = static_cast<double>(total - free) / static_cast<double>(n);
  state.SetLabel(sim.engine().backend());
}

void register_rows() {
  if (cuda_device_count() == 0) return;
  for (const std::int64_t n : {10000000, 200000000})
    benchmark::RegisterBenchmark("tree_step/cuda/plummer/fp32",
                                 [](benchmark::State& s) { tree_step<float>(s, "plummer"); })
        ->Arg(n)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
  // The collision's own steps (docs/guide/collision.md): fp64, since its SI units overflow fp32.
  benchmark::RegisterBenchmark("tree_step/cuda/two-galaxies/fp64",
                               [](benchmark::State& s) { tree_step<double>(s, "two-galaxies"); })
      ->Arg(1000000)->Iterations(20)->Unit(benchmark::kMillisecond)->UseRealTime();
  // The same collision in the scene's N-body units, where fp32 squares its distances.
  benchmark::RegisterBenchmark("tree_step/cuda/two-galaxies-nbody/fp32", [](benchmark::State& s) {
    tree_step<float>(s, "two-galaxies", "nbody");
  })->Arg(1000000)->Iterations(20)->Unit(benchmark::kMillisecond)->UseRealTime();
}

const bool registered = (register_rows(), true);

}  // namespace
}  // namespace orrery::bench
