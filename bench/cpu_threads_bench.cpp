// SPDX-License-Identifier: MIT
// Where a second CPU thread pays: the direct engine's force evaluation and the fused array
// update, timed at small sizes with one and with two threads, the split forced
// (min_work_per_thread = 1). The size from which two threads are faster sets the grains of
// src/nbody/direct/cpu/direct_engine.cpp (kPairsPerThread) and
// src/device/cpu/host_array_device.cpp (kElementsPerThread); docs/internals/gravity-cpu.md,
// "Threads".
#include <benchmark/benchmark.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/nbody/engines.hpp"
#include "engine_timing.hpp"

namespace orrery::bench {
namespace {

void BM_DirectSmall(benchmark::State& state, std::size_t n, int threads) {
  EngineOptions options;
  options.softening = 0.01;
  options.threads = threads;
  options.min_work_per_thread = 1;
  auto engine = make_force_engine<double>("direct", options);
  const double seconds = time_evaluations(state, *engine, n).wall_seconds;
  const auto evaluations = static_cast<double>(state.iterations());
  state.counters["pairs"] = static_cast<double>(n * n);
  state.counters["us_per_evaluation"] = 1e6 * seconds / evaluations;
  state.counters["threads"] = threads;
}

// y + h (k1 + 2 k2 + 2 k3 + k4)/6 over n elements: an rk4 stage's update.
void BM_Combine(benchmark::State& state, std::size_t n, int threads) {
  HostArrayDevice<double> device(threads, 1);
  auto y = device.allocate(n), out = device.allocate(n);
  std::vector<DeviceBuffer<double>> k;
  for (int j = 0; j < 4; ++j) k.push_back(device.allocate(n));
  const std::vector<double> c{1.0 / 6, 2.0 / 6, 2.0 / 6, 1.0 / 6};
  const std::vector<const DeviceBuffer<double>*> ks{&k[0], &k[1], &k[2], &k[3]};
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    device.combine(out, y, 0.01, c, ks);
    benchmark::DoNotOptimize(out.data());
  }
  const double seconds = seconds_since(t0);
  state.counters["elements"] = static_cast<double>(n);
  state.counters["us_per_update"] = 1e6 * seconds / static_cast<double>(state.iterations());
  state.counters["threads"] = threads;
}

int register_all() {
  for (std::size_t n : {3u, 8u, 16u, 32u, 48u, 64u, 96u, 128u, 192u, 256u, 384u, 512u})
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("direct_small/" + std::to_string(n) + "/" + std::to_string(threads) + "threads")
              .c_str(),
          BM_DirectSmall, n, threads)
          ->UseRealTime()
          ->MinTime(0.2);
  for (std::size_t n = 1 << 10; n <= (1 << 20); n <<= 1)
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("combine/" + std::to_string(n) + "/" + std::to_string(threads) + "threads").c_str(),
          BM_Combine, n, threads)
          ->UseRealTime()
          ->MinTime(0.2);
  return 0;
}
const int registered = register_all();

}  // namespace
}  // namespace orrery::bench
