// SPDX-License-Identifier: MIT
// Leapfrog with block time steps against leapfrog at its smallest step, on a Plummer sphere
// (ε = 0.01, Hénon units) with hard binaries (scenes/hard_binaries.hpp, separation 0.01):
// wall time, the targets whose forces were computed (counted by a wrapper around the engine),
// the pair interactions that makes for the direct engine (targets × N), and the largest
// relative energy error at the ends of the steps of dt. Prints JSON.
//
//   orrery_block_steps [N] [binaries] [engine] [t_end] [softening] [separation]
//   (defaults 2000 16 direct 1 0.01 0.01)
// Runs: block steps; leapfrog at the smallest step the block run used; leapfrog at the step
// most of its bodies took; leapfrog at dt.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/integrate/block_steps/array_stepper.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/integrate/counting_system.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/hard_binaries.hpp"
#include "orrery/scenes/plummer.hpp"

namespace {

using namespace orrery;

constexpr double kDt = 1.0 / 32;

struct Result {
  std::string method;
  int substeps;
  double seconds, drift;
  std::uint64_t targets;
  std::vector<int> level_counts;
};

Result run(const Particles<double>& q, const std::string& engine_name, const char* method,
           int substeps, double t_end, double softening) {
  EngineOptions o{.softening = softening};
  auto engine = make_force_engine<double>(engine_name, o);
  const std::size_t n = q.size();
  engine->set_bodies(q.mass, {});
  std::vector<double> x, v;
  for (const auto* a : {&q.x, &q.y, &q.z}) x.insert(x.end(), a->begin(), a->end());
  for (const auto* a : {&q.vx, &q.vy, &q.vz}) v.insert(v.end(), a->begin(), a->end());
  auto xd = engine->device().allocate(3 * n), vd = engine->device().allocate(3 * n);
  engine->device().copy_to_device(x, xd);
  engine->device().copy_to_device(v, vd);
  auto energy = [&] {
    engine->device().copy_to_host(vd, v);
    double kinetic = 0;
    for (std::size_t i = 0; i < n; ++i)
      kinetic += 0.5 * q.mass[i] * (v[i] * v[i] + v[n + i] * v[n + i] + v[2 * n + i] * v[2 * n + i]);
    return kinetic + engine->potential_energy(xd);
  };
  const double e0 = energy();
  auto stepper = make_array_stepper<double>(method, 0.0, {.length = softening});
  CountingSystem<double> system(*engine);
  Result r{method, substeps, 0, 0, 0, {}};
  const int steps = static_cast<int>(std::lround(t_end / kDt));
  for (int i = 0; i < steps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < substeps; ++k) stepper->step(system, xd, vd, kDt / substeps);
    r.seconds += seconds_since(t0);
    r.drift = std::max(r.drift, std::abs(energy() / e0 - 1));
  }
  r.targets = system.targets;
  if (auto* block = dynamic_cast<BlockLeapfrogArrayStepper<double>*>(stepper.get()))
    for (int level : block->levels()) {
      if (level >= static_cast<int>(r.level_counts.size())) r.level_counts.resize(level + 1);
      ++r.level_counts[level];
    }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace orrery;
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 2000;
  const int binaries = argc > 2 ? std::atoi(argv[2]) : 16;
  const std::string engine = argc > 3 ? argv[3] : "direct";
  const double t_end = argc > 4 ? std::atof(argv[4]) : 1.0;
  const double softening = argc > 5 ? std::atof(argv[5]) : 0.01;
  const double separation = argc > 6 ? std::atof(argv[6]) : 0.01;
  PlummerParams p;
  p.n = n;
  p.seed = 1;
  const Particles<double> q =
      with_hard_binaries(make_plummer(p).particles, binaries, separation, softening, 1.0, 2);
  const Result block = run(q, engine, "leapfrog-block", 1, t_end, softening);
  const int deepest = static_cast<int>(block.level_counts.size()) - 1;
  const int most = static_cast<int>(
      std::max_element(block.level_counts.begin(), block.level_counts.end()) -
      block.level_counts.begin());
  std::vector<Result> results{block, run(q, engine, "leapfrog", 1 << deepest, t_end, softening),
                              run(q, engine, "leapfrog", 1 << most, t_end, softening),
                              run(q, engine, "leapfrog", 1, t_end, softening)};
  std::printf("{\"benchmark\": \"block_steps\", \"git\": \"%s\", \"engine\": \"%s\", "
              "\"N\": %zu, \"binaries\": %d, \"softening\": %g, \"separation\": %g, \"dt\": %g, "
              "\"t_end\": %g, \"eta\": %g,\n \"runs\": [\n",
              git_hash().c_str(), engine.c_str(), q.size(), binaries, softening, separation,
              kDt, t_end, BlockStepOptions{}.eta);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    std::string levels;
    for (std::size_t k = 0; k < r.level_counts.size(); ++k)
      levels += (k ? ", " : "") + std::to_string(r.level_counts[k]);
    std::printf("  {\"method\": \"%s\", \"step\": %g, \"seconds\": %.4f, \"targets\": %llu, "
                "\"direct_pair_interactions\": %.4e, \"energy_drift\": %.3e, \"bodies_by_level\": [%s]}%s\n",
                r.method.c_str(), kDt / r.substeps, r.seconds,
                static_cast<unsigned long long>(r.targets),
                static_cast<double>(r.targets) * static_cast<double>(q.size()), r.drift,
                levels.c_str(), i + 1 < results.size() ? "," : "");
  }
  std::printf(" ]}\n");
}
