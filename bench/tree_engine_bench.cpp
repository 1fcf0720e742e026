// SPDX-License-Identifier: MIT
// The Barnes–Hut engines on a Plummer sphere (Hénon units, seed 1, ε = 0): seconds per
// evaluation of accelerations and potentials (tree build + walk + sums), the build and force
// parts, and the accuracy of |a| against a direct sum in long double on 1000 random targets
// (median and 99th percentile of the relative error). The direct engine on the same sphere gives
// the speed-up. Rows: tree/<backend>/<precision>/<N>, direct/cpu/<precision>/<N>, and
// tree_devices/cuda/fp32/<N>/0/0/<devices> for the tree on several GPUs of the host.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::bench {
namespace {

constexpr std::size_t kSample = 1000;
// Beyond this many bodies the long-double reference takes 100 targets (a minute at 10⁷).
constexpr std::size_t kLargeSystem = 2000000;

struct Sphere {
  std::vector<double> x;  // 3N, [x.., y.., z..]
  std::vector<double> m;
};

const Sphere& plummer(std::size_t n) {
  static std::map<std::size_t, Sphere> cache;
  auto [it, fresh] = cache.try_emplace(n);
  if (fresh) {
    const auto p = make_scene("plummer", {{"n", ParamValue{static_cast<std::int64_t>(n)}},
                                          {"seed", ParamValue{std::int64_t{1}}}})
                       .particles;
    Sphere& s = it->second;
    s.x.insert(s.x.end(), p.x.begin(), p.x.end());
    s.x.insert(s.x.end(), p.y.begin(), p.y.end());
    s.x.insert(s.x.end(), p.z.begin(), p.z.end());
    s.m = p.mass;
  }
  return it->second;
}

// The sample of targets and their accelerations by a long-double direct sum, once per N (at
// 10⁶ bodies a reference takes seconds, and the θ rows share one).
struct Reference {
  std::vector<std::size_t> target;
  std::vector<long double> a;  // 3 per target
};

const Reference& reference(const Sphere& s) {
  static std::map<std::size_t, Reference> cache;
  const std::size_t n = s.m.size();
  auto [it, fresh] = cache.try_emplace(n);
  if (!fresh) return it->second;
  Reference& r = it->second;
  std::mt19937_64 rng(7);
  const std::size_t sample = std::min(n > kLargeSystem ? kSample / 10 : kSample, n);
  for (std::size_t k = 0; k < sample; ++k) r.target.push_back(rng() % n);
  r.a.resize(3 * sample);
#pragma omp parallel for schedule(dynamic)
  for (std::size_t k = 0; k < sample; ++k) {
    const std::size_t i = r.target[k];
    long double ex = 0, ey = 0, ez = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const long double dx = s.x[j] - s.x[i], dy = s.x[n + j] - s.x[n + i],
                        dz = s.x[2 * n + j] - s.x[2 * n + i];
      const long double r2 = dx * dx + dy * dy + dz * dz;
      const long double f = s.m[j] / (r2 * std::sqrt(r2));
      ex += f * dx, ey += f * dy, ez += f * dz;
    }
    r.a[3 * k] = ex, r.a[3 * k + 1] = ey, r.a[3 * k + 2] = ez;
  }
  return r;
}

// Relative errors of |a| on the reference's targets: median and 99th percentile.
template <class Real>
std::pair<double, double> median_and_p99(const Sphere& s, const std::vector<Real>& a) {
  const std::size_t n = s.m.size();
  const Reference& r = reference(s);
  std::vector<double> err;
  for (std::size_t k = 0; k < r.target.size(); ++k) {
    const std::size_t i = r.target[k];
    const long double ex = r.a[3 * k], ey = r.a[3 * k + 1], ez = r.a[3 * k + 2];
    const long double dx = a[i] - ex, dy = a[n + i] - ey, dz = a[2 * n + i] - ez;
    err.push_back(static_cast<double>(std::sqrt((dx * dx + dy * dy + dz * dz) /
                                                (ex * ex + ey * ey + ez * ez))));
  }
  std::sort(err.begin(), err.end());
  return {err[err.size() / 2], err[err.size() * 99 / 100]};
}

template <class Real>
void engine_row(benchmark::State& state, const std::string& engine, Backend backend,
                bool potentials = true, bool devices_arg = false, bool theta_arg = false) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  // θ rows: (N, 1000 θ, multipole, leaf, group); the others (N, leaf, group, …).
  const std::int64_t leaf_arg = theta_arg ? state.range(3) : state.range(1);
  const std::int64_t group_arg = theta_arg ? state.range(4) : state.range(2);
  const int leaf = leaf_arg > 0 ? static_cast<int>(leaf_arg) : 0;
  const int group = group_arg > 0 ? static_cast<int>(group_arg) : 0;
  const Sphere& s = plummer(n);
  EngineOptions o;
  o.backend = backend;
  o.theta = theta_arg ? static_cast<double>(state.range(1)) / 1000.0 : 0.5;
  if (theta_arg) o.multipole = state.range(2) == 0 ? Multipole::monopole : Multipole::quadrupole;
  o.leaf_size = leaf;
  o.group_size = group;
  if (devices_arg) {  // the first range(3) devices; none named is every device
    if (state.range(3) > cuda_device_count()) {
      state.SkipWithError("fewer devices than the row asks");
      return;
    }
    for (int d = 0; d < state.range(3); ++d) o.devices.push_back(d);
  }
  auto e = make_force_engine<Real>(engine, o);
  std::vector<Real> x(s.x.begin(), s.x.end()), m(s.m.begin(), s.m.end()), a(3 * n);
  auto xd = e->device().allocate(3 * n), ad = e->device().allocate(3 * n),
       pd = e->device().allocate(n);
  e->device().copy_to_device(x, xd);
  e->set_bodies(m, {});
  auto evaluate = [&] {
    if (potentials)
      e->accelerations_and_potentials(xd, ad, pd);
    else
      e->accelerations(xd, ad);
  };
  evaluate();  // untimed: pages, threads, the GPU's start
  double build = 0, force = 0;
  std::vector<double> wall;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    evaluate();
    wall.push_back(seconds_since(t0));
    build += e->last_timings().build;
    force += e->last_timings().force;
  }
  e->device().copy_to_host(ad, a);
  const auto [median, p99] = median_and_p99(s, a);
  std::sort(wall.begin(), wall.end());
  const double k = static_cast<double>(wall.size());
  state.counters["seconds_median"] = wall[wall.size() / 2];
  state.counters["build_seconds"] = build / k;
  state.counters["force_seconds"] = force / k;
  state.counters["error_median"] = median;
  state.counters["error_p99"] = p99;
  state.SetLabel(e->backend());
}

void register_rows() {
  for (const std::int64_t n : {10000, 100000, 1000000}) {
    benchmark::RegisterBenchmark("tree/cpu/fp32",
                                 [](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cpu); })
        ->Args({n, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(n >= 1000000 ? 2 : 5)->UseRealTime();
    benchmark::RegisterBenchmark("tree/cpu/fp64",
                                 [](benchmark::State& s) { engine_row<double>(s, "tree", Backend::cpu); })
        ->Args({n, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(n >= 1000000 ? 2 : 5)->UseRealTime();
  }
  for (const char* p : {"fp32", "fp64"}) {
    const bool f32 = std::string(p) == "fp32";
    benchmark::RegisterBenchmark(
        (std::string("direct/cpu/") + p).c_str(),
        f32 ? +[](benchmark::State& s) { engine_row<float>(s, "direct", Backend::cpu); }
            : +[](benchmark::State& s) { engine_row<double>(s, "direct", Backend::cpu); })
        ->Args({100000, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
  }
  // The leaf and group sizes the defaults were chosen from (docs/internals/gravity-tree.md).
  auto* tune = benchmark::RegisterBenchmark(
      "tree_tune/cpu/fp32", [](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cpu); });
  for (const std::int64_t leaf : {8, 16, 32})
    for (const std::int64_t group : {32, 64, 128, 256, 512})
      if (group >= leaf) tune->Args({100000, leaf, group});
  tune->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
  if (cuda_device_count() == 0) return;
  auto* tune_cuda = benchmark::RegisterBenchmark(
      "tree_tune/cuda/fp32", [](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cuda); });
  for (const std::int64_t leaf : {8, 16, 32})
    for (const std::int64_t group : {32, 64}) tune_cuda->Args({1000000, leaf, group});
  tune_cuda->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
  // Accelerations alone: what a simulation's step asks of the engine.
  benchmark::RegisterBenchmark("tree_accelerations/cuda/fp32", [](benchmark::State& s) {
    engine_row<float>(s, "tree", Backend::cuda, false);
  })->Args({1000000, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
  // Time against accuracy (the work–precision diagram of docs/internals/gravity-tree.md):
  // tree_theta/<backend>/fp32/<N>/<1000 θ>/<0 monopole, 2 quadrupole>/<leaf>/<group> (0: the
  // engine's defaults, chosen for quadrupoles; the monopole rows at θ = 0.5 try the others).
  for (const Backend b : {Backend::cpu, Backend::cuda}) {
    if (b == Backend::cuda && cuda_device_count() == 0) continue;
    const bool gpu = b == Backend::cuda;
    auto* theta = benchmark::RegisterBenchmark(
        gpu ? "tree_theta/cuda/fp32" : "tree_theta/cpu/fp32",
        gpu ? +[](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cuda, true, false, true); }
            : +[](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cpu, true, false, true); });
    for (const std::int64_t n : gpu ? std::vector<std::int64_t>{1000000, 10000000}
                                    : std::vector<std::int64_t>{1000000})
      for (const std::int64_t multipole : {0, 2})
        for (const std::int64_t t : {400, 500, 600, 700, 800, 900, 1000})
          theta->Args({n, t, multipole, 0, 0});
    if (gpu)
      for (const std::int64_t leaf : {8, 16, 32})
        for (const std::int64_t group : {32, 64}) theta->Args({1000000, 500, 0, leaf, group});
    theta->Unit(benchmark::kMillisecond)->Iterations(gpu ? 10 : 2)->UseRealTime();
  }
  // The tree on 1, 2, 4, 8 devices of the host: tree_devices/cuda/fp32/N/0/0/DEVICES.
  auto* devices = benchmark::RegisterBenchmark("tree_devices/cuda/fp32", [](benchmark::State& s) {
    engine_row<float>(s, "tree", Backend::cuda, true, true);
  });
  for (const std::int64_t n : {1000000, 10000000})
    for (const std::int64_t d : {1, 2, 4, 8}) devices->Args({n, 0, 0, d});
  devices->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
  for (const std::int64_t n : {100000, 1000000, 10000000}) {
      benchmark::RegisterBenchmark("tree/cuda/fp32",
                                   [](benchmark::State& s) { engine_row<float>(s, "tree", Backend::cuda); })
          ->Args({n, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
      benchmark::RegisterBenchmark("tree/cuda/fp64",
                                   [](benchmark::State& s) { engine_row<double>(s, "tree", Backend::cuda); })
          ->Args({n, 0, 0})->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
    }
}

const bool registered = (register_rows(), true);

}  // namespace
}  // namespace orrery::bench
