// SPDX-License-Identifier: MIT
// How the force-engine benchmarks time an engine: n bodies uniform in the cube [−1, 1]³ (seed 1)
// with equal masses summing to 1, one untimed evaluation (pages touched, threads started), then
// the benchmark's iterations; wall-clock and process CPU seconds of those.
#pragma once

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <random>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::bench {

inline double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct EvaluationTimes {
  double wall_seconds = 0, cpu_seconds = 0;
};

template <class Real>
EvaluationTimes time_evaluations(benchmark::State& state, ForceEngine<Real>& engine,
                                 std::size_t n) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> pos(-1.0, 1.0);
  std::vector<Real> x(3 * n), m(n, Real(1.0 / static_cast<double>(n)));
  for (auto& v : x) v = static_cast<Real>(pos(rng));
  auto xd = engine.device().allocate(3 * n);
  auto ad = engine.device().allocate(3 * n);
  engine.device().copy_to_device(x, xd);
  engine.set_bodies(m, {});
  engine.accelerations(xd, ad);
  const double cpu0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    engine.accelerations(xd, ad);
    benchmark::DoNotOptimize(ad.data());
  }
  EvaluationTimes t;
  t.wall_seconds = seconds_since(t0);
  t.cpu_seconds = process_cpu_seconds() - cpu0;
  return t;
}

}  // namespace orrery::bench
