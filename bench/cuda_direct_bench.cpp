// SPDX-License-Identifier: MIT
// The CUDA direct engine: interactions per second, N(N − 1) per evaluation of all accelerations,
// on one device, for fp32 and fp64 and N from 1 024 to 1 048 576 (bodies uniform in [−1, 1]³,
// ε = 0.01), and the fraction of the stated limits for an H100 (2.39·10¹² fp32,
// 0.98·10¹² fp64 interactions/s); bench/gpu_engines.sh derives the limit of the compiled kernel
// from its instruction count (bench/README.md, "Direct gravity on CUDA").
#include <benchmark/benchmark.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/nbody/engines.hpp"

namespace orrery::bench {
namespace {

// Args: N, and targets per CUDA thread (0: the engine's default).
template <class Real>
void cuda_direct(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Real> x(3 * n), m(n, Real(1.0 / static_cast<double>(n)));
  for (auto& v : x) v = static_cast<Real>(u(rng));
  EngineOptions o{.g = 1.0, .softening = 0.01};
  o.backend = Backend::cuda;
  o.devices = {0};
  o.targets_per_thread = static_cast<int>(state.range(1));
  auto e = make_force_engine<Real>("direct", o);
  auto xd = e->device().allocate(3 * n), ad = e->device().allocate(3 * n);
  e->device().copy_to_device(x, xd);
  e->set_bodies(m, {});
  e->accelerations(xd, ad);  // untimed: the context, the first launch
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    e->accelerations(xd, ad);
    seconds += seconds_since(t0);
  }
  const double rate = static_cast<double>(n) * static_cast<double>(n - 1) *
                      static_cast<double>(state.iterations()) / seconds;
  const double limit = sizeof(Real) == 4 ? 2.39e12 : 0.98e12;
  state.counters["interactions_per_second"] = rate;
  state.counters["fraction_of_issue_limit"] = rate / limit;
  state.SetLabel(e->backend());
}

void register_rows() {
  if (cuda_device_count() == 0) return;
  for (const std::int64_t n : {1024, 4096, 16384, 65536, 262144, 1048576}) {
    const int iterations = n >= 262144 ? 5 : 50;
    benchmark::RegisterBenchmark("direct/cuda/fp32", cuda_direct<float>)
        ->Args({n, 0})->Iterations(iterations)->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("direct/cuda/fp64", cuda_direct<double>)
        ->Args({n, 0})->Iterations(n >= 1048576 ? 2 : iterations)->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  // The kernel's variants, for the default's choice: direct_tune/cuda/PRECISION/N/TARGETS.
  for (const std::int64_t n : {16384, 65536, 262144})
    for (const std::int64_t targets : {2, 4, 8}) {
      benchmark::RegisterBenchmark("direct_tune/cuda/fp32", cuda_direct<float>)
          ->Args({n, targets})->Iterations(n > 16384 ? 10 : 50)->Unit(benchmark::kMillisecond)->UseRealTime();
      benchmark::RegisterBenchmark("direct_tune/cuda/fp64", cuda_direct<double>)
          ->Args({n, targets})->Iterations(n > 16384 ? 5 : 50)->Unit(benchmark::kMillisecond)->UseRealTime();
    }
}

const bool registered = (register_rows(), true);

}  // namespace
}  // namespace orrery::bench
