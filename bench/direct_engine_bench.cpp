// SPDX-License-Identifier: MIT
// The direct CPU engine: interactions per second per core (N·(N − 1) per evaluation of all
// accelerations) for each instruction-set variant, precision, N and thread count, and the
// fraction of the core's limit reached. The limit is the rate at which this core retires the
// kernel's instruction mix per interaction vector, counted in its disassembly and run in the
// same process (mix_peak.cpp; bench/README.md, "Direct gravity on the CPU"); the generic
// variant, which keeps the IEEE square root and division, is held to the divider's rate
// (divider_peak.cpp).
#include <benchmark/benchmark.h>

#include <omp.h>
#include <sys/resource.h>

#include <chrono>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/engines.hpp"
#include "engine_timing.hpp"
#include "mix_peak.hpp"

namespace orrery::bench {

#define ORRERY_PEAK_DECL(isa) \
  namespace isa {             \
  double peak_fp64();         \
  double peak_fp32();         \
  double mix_peak_fp64(const MixRecipe&); \
  double mix_peak_fp32(const MixRecipe&); \
  }
ORRERY_PEAK_DECL(generic)
#if defined(ORRERY_HAVE_PEAK_avx512)
ORRERY_PEAK_DECL(avx512)
ORRERY_PEAK_DECL(avx2)
#endif
#undef ORRERY_PEAK_DECL

namespace {

// The inner loop's instructions per interaction vector (objdump -d of direct_tiles.cpp.o, the
// loop of accumulate_block that holds vrsqrt14 / vrsqrtps; bench/README.md lists them).
struct KernelMix {
  MixRecipe fp64, fp32;
};
const std::map<std::string, KernelMix> kMixes = {
    // 3 sub + 1 add (ε²); fp64 15 = 3 fma (r²) + 3 mul (y₀², y₀³, m·) + 1 fnmadd (e) + 3 fma
    // (series) + 1 mul + 1 fma (k) + 3 fma (sums), fp32 13 (one series term); vrsqrt14.
    {"avx512", {{.fmas = 15, .adds = 4, .estimates = 1}, {.fmas = 13, .adds = 4, .estimates = 1}}},
    // fp64: 16 (4 series terms), vcvtpd2ps + vrsqrtps + vcvtps2pd, vandnpd, vcmppd + vmovmskpd
    // (the fp32-range check); fp32 as AVX-512's with vrsqrtps.
    {"avx2",
     {{.fmas = 16, .adds = 4, .estimates = 1, .logic = 1, .compares = 1},
      {.fmas = 13, .adds = 4, .estimates = 1}}},
};

double measured_limit(const std::string& kernel, bool fp32) {
  static std::map<std::string, double> cache;
  const std::string key = kernel + (fp32 ? "/fp32" : "/fp64");
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  double limit = 0;
  if (kernel == "generic") {
    limit = fp32 ? generic::peak_fp32() : generic::peak_fp64();  // sqrt+div pairs per second
  }
#if defined(ORRERY_HAVE_PEAK_avx512)
  else {
    const KernelMix& m = kMixes.at(kernel);
    if (kernel == "avx512") limit = fp32 ? avx512::mix_peak_fp32(m.fp32) : avx512::mix_peak_fp64(m.fp64);
    if (kernel == "avx2") limit = fp32 ? avx2::mix_peak_fp32(m.fp32) : avx2::mix_peak_fp64(m.fp64);
  }
#endif
  return cache[key] = limit;
}

template <class Real>
void BM_DirectEngine(benchmark::State& state, std::string kernel, std::size_t n, int threads) {
  EngineOptions options;
  options.g = 1.0;
  options.softening = 0.01;
  options.threads = threads > 0 ? threads : omp_get_max_threads();
  options.cpu_kernel = kernel;
  auto engine = make_force_engine<Real>("direct", options);
  const EvaluationTimes t = time_evaluations(state, *engine, n);
  const double seconds = t.wall_seconds, cpu_seconds = t.cpu_seconds;
  const double interactions = static_cast<double>(n) * static_cast<double>(n - 1) *
                              static_cast<double>(state.iterations());
  const double per_core = interactions / seconds / options.threads;
  const bool fp32 = std::is_same_v<Real, float>;
  const double limit = measured_limit(kernel, fp32);
  state.counters["interactions_per_s"] = interactions / seconds;
  state.counters["interactions_per_s_per_core"] = per_core;
  // Per second of CPU time of all threads: what a core delivers while it runs this engine,
  // unaffected by other programs that share the cores (wall-clock rates are, on a busy host).
  state.counters["interactions_per_cpu_s"] = interactions / cpu_seconds;
  state.counters["threads"] = options.threads;
  state.counters["limit_interactions_per_s_per_core"] = limit;
  state.counters["fraction_of_limit"] = per_core / limit;
  state.counters["fraction_of_limit_cpu_time"] = interactions / cpu_seconds / limit;
  state.SetLabel(kernel + (fp32 ? " fp32" : " fp64"));
}

// The potential energy (a diagnostic, called once per output): pairs i < j per second, each a
// correctly rounded square root and division, so the divider's rate is its limit.
void BM_DirectPotential(benchmark::State& state, std::string kernel, std::size_t n) {
  EngineOptions options;
  options.softening = 0.01;
  options.threads = 1;
  options.cpu_kernel = kernel;
  auto engine = make_force_engine<double>("direct", options);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> pos(-1.0, 1.0);
  std::vector<double> x(3 * n), m(n, 1.0 / static_cast<double>(n));
  for (auto& v : x) v = pos(rng);
  auto xd = engine->device().allocate(3 * n);
  engine->device().copy_to_device(x, xd);
  engine->set_bodies(m, {});
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(engine->potential_energy(xd));
  const double seconds = seconds_since(t0);
  const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1) *
                       static_cast<double>(state.iterations());
  state.counters["pairs_per_s_per_core"] = pairs / seconds;
  double divider = generic::peak_fp64();
#if defined(ORRERY_HAVE_PEAK_avx512)
  if (kernel == "avx512") divider = avx512::peak_fp64();
  if (kernel == "avx2") divider = avx2::peak_fp64();
#endif
  state.counters["limit_pairs_per_s_per_core"] = divider;
  state.SetLabel(kernel + " fp64");
}

int register_all() {
  for (const auto& kernel : supported_cpu_kernel_names())
    benchmark::RegisterBenchmark(("direct_potential/" + kernel + "/fp64/8192/1thread").c_str(),
                                 BM_DirectPotential, kernel, std::size_t{8192})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(0.5);
  for (const auto& kernel : supported_cpu_kernel_names())
    for (bool fp32 : {false, true})
      for (std::size_t n : {2048u, 8192u, 32768u}) {
        if (kernel == "generic" && n > 8192) continue;  // ~10 s an evaluation, nothing new
        for (int threads : {1, 0}) {
          const std::string name = "direct_engine/" + kernel + (fp32 ? "/fp32/" : "/fp64/") +
                                   std::to_string(n) + (threads == 1 ? "/1thread" : "/allthreads");
          auto* b = fp32 ? benchmark::RegisterBenchmark(name.c_str(), BM_DirectEngine<float>,
                                                        kernel, n, threads)
                         : benchmark::RegisterBenchmark(name.c_str(), BM_DirectEngine<double>,
                                                        kernel, n, threads);
          b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
        }
      }
  return 0;
}
const int registered = register_all();

}  // namespace
}  // namespace orrery::bench
