// SPDX-License-Identifier: MIT
// CPU divergence map: pixel-steps per second per core (pixel-steps = Σ over pixels of the steps
// actually integrated) for each kernel and precision, and the fraction of the core's
// divide/square-root limit reached (6 square roots and 6 divisions per pixel-step).
#include <benchmark/benchmark.h>

#include <omp.h>

#include <map>
#include <string>

#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::bench {

#define ORRERY_PEAK_DECL(isa) \
  namespace isa {             \
  double peak_fp64();         \
  double peak_fp32();         \
  }
ORRERY_PEAK_DECL(generic)
#if defined(ORRERY_HAVE_PEAK_avx512)
ORRERY_PEAK_DECL(avx512)
ORRERY_PEAK_DECL(avx2)
#endif

namespace {

// Square roots (and as many divisions) one core completes per second with this kernel's ISA.
double divider_peak(const std::string& kernel, bool fp32) {
  static std::map<std::string, double> cache;
  const std::string key = kernel + (fp32 ? "/fp32" : "/fp64");
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  double (*probe)() = fp32 ? generic::peak_fp32 : generic::peak_fp64;
#if defined(ORRERY_HAVE_PEAK_avx512)
  if (kernel == "avx512") probe = fp32 ? avx512::peak_fp32 : avx512::peak_fp64;
  if (kernel == "avx2") probe = fp32 ? avx2::peak_fp32 : avx2::peak_fp64;
#endif
  return cache[key] = probe();
}

// The canonical map's window at a coarse grid and a shorter run: the same mixture of early,
// late and never-diverging pixels as the full map.
void BM_DivergenceMapCpu(benchmark::State& state, std::string kernel, Precision precision,
                         int threads) {
  DivergenceMapParams p;
  p.width = p.height = 64;
  p.steps = 20000;
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.cpu_kernel = kernel;
  o.precision = precision;
  o.threads = threads > 0 ? threads : omp_get_max_threads();
  double steps = 0, seconds = 0;
  for (auto _ : state) {
    const DivergenceMap map = compute_divergence_map(p, o);
    steps += static_cast<double>(map.pixel_steps);
    seconds += map.info.wall_seconds;
  }
  const double per_core = steps / seconds / o.threads;
  state.counters["pixel_steps_per_s"] = steps / seconds;
  state.counters["pixel_steps_per_s_per_core"] = per_core;
  state.counters["threads"] = o.threads;
  if (precision != Precision::mixed) {
    // Limit: 6 square roots + 6 divisions per pixel-step, at the measured divider rate.
    const double limit_per_core = divider_peak(kernel, precision == Precision::fp32) / 6.0;
    state.counters["limit_pixel_steps_per_s_per_core"] = limit_per_core;
    state.counters["fraction_of_limit"] = per_core / limit_per_core;
  }
  state.SetLabel(kernel + " " + to_string(precision));
}

int register_all() {
  for (const auto& kernel : supported_cpu_kernel_names())
    for (Precision precision : {Precision::fp64, Precision::fp32, Precision::mixed})
      for (int threads : {1, 0})
        benchmark::RegisterBenchmark(
            ("divergence_map_cpu/" + kernel + "/" + to_string(precision) + "/" +
             (threads == 1 ? "1thread" : "allthreads"))
                .c_str(),
            BM_DivergenceMapCpu, kernel, precision, threads)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MinTime(1.0);
  return 0;
}
const int registered = register_all();

}  // namespace
}  // namespace orrery::bench
