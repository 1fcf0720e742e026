// SPDX-License-Identifier: MIT
// ias15 on the Pythagorean three-body problem (Burrau 1913) to t = 70 through the library: the
// scene, the direct CPU engine and a Simulation stepped as `orrery sim` steps it (regular steps
// of the suggested size, the last one landing on t = 70), without the run's files. The figure
// to set against REBOUND's IAS15 on the same machine (bench/README.md, "IAS15"): seconds per
// integration, with the steps, force evaluations, energy error and the final binary's a and e.
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <string>

#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::bench {
namespace {

constexpr double kEnd = 70.0;

// Counts the force evaluations of the stepper.
template <class Real>
class Counted final : public ForceEngine<Real> {
 public:
  explicit Counted(std::unique_ptr<ForceEngine<Real>> inner) : inner_(std::move(inner)) {}
  long evaluations = 0;
  std::string name() const override { return inner_->name(); }
  std::string backend() const override { return inner_->backend(); }
  ArrayDevice<Real>& device() override { return inner_->device(); }
  void set_bodies(std::span<const Real> m, std::span<const Real> e) override {
    inner_->set_bodies(m, e);
  }
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override {
    ++evaluations;
    inner_->accelerations(x, a);
  }
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override {
    inner_->accelerations_and_potentials(x, a, phi);
  }
  double potential_energy(const DeviceBuffer<Real>& x) override {
    return inner_->potential_energy(x);
  }

 private:
  std::unique_ptr<ForceEngine<Real>> inner_;
};

// The calling thread's CPU time: on a shared, loaded machine the figure that stays comparable.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// state.range(0): the step criterion, an index of kIas15CriterionNames (0: prs24, 1: global).
template <class Real>
void BM_Ias15Pythagorean(benchmark::State& state) {
  const std::string_view criterion = kIas15CriterionNames.at(static_cast<std::size_t>(state.range(0)));
  const InitialConditions ic = make_scene("pythagorean");
  double seconds = 0, cpu_seconds = 0, drift = 0, a = 0, e = 0;
  long steps = 0, rejected = 0, evaluations = 0;
  for (auto _ : state) {
    EngineOptions o;
    o.g = ic.g;
    o.softening = ic.softening;
    o.threads = 1;
    auto engine = std::make_unique<Counted<Real>>(make_force_engine<Real>("direct", o));
    Counted<Real>* counted = engine.get();
    SimClock clock;
    clock.dt = ic.dt;
    Simulation<Real> sim(convert_particles<Real>(ic.particles), std::move(engine),
                         make_array_stepper<Real>("ias15", 0.0, {}, 0, criterion), clock);
    const Diagnostics start = sim.diagnostics();
    steps = rejected = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    while (sim.clock().remaining(kEnd) > 0) {
      const double h = sim.clock().dt, r = sim.clock().remaining(kEnd);
      const StepReport<Real> report = r <= h ? sim.step_onto(kEnd, r) : sim.step(h);
      report.accepted ? ++steps : ++rejected;
    }
    seconds = seconds_since(t0);
    cpu_seconds = thread_cpu_seconds() - c0;
    evaluations = counted->evaluations;
    drift = std::abs(drift_since(start, sim.diagnostics()).energy);
    // The binary of the bodies of masses 4 and 5 (the scene's second and third).
    const auto& p = sim.particles();
    const double rx = static_cast<double>(p.x[2] - p.x[1]), ry = static_cast<double>(p.y[2] - p.y[1]);
    const double vx = static_cast<double>(p.vx[2] - p.vx[1]),
                 vy = static_cast<double>(p.vy[2] - p.vy[1]);
    const double mu = static_cast<double>(p.mass[1] + p.mass[2]);
    const double energy = (vx * vx + vy * vy) / 2 - mu / std::sqrt(rx * rx + ry * ry);
    const double h = rx * vy - ry * vx;
    a = -mu / (2 * energy);
    e = std::sqrt(1 + 2 * energy * h * h / (mu * mu));
  }
  state.counters["seconds"] = seconds;
  state.counters["cpu_seconds"] = cpu_seconds;
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["rejected"] = static_cast<double>(rejected);
  state.counters["force_evaluations"] = static_cast<double>(evaluations);
  state.counters["energy_error"] = drift;
  state.counters["binary_a"] = a;
  state.counters["binary_e"] = e;
  state.counters["us_per_step"] = 1e6 * seconds / static_cast<double>(steps);
}

BENCHMARK(BM_Ias15Pythagorean<double>)->Name("ias15_pythagorean/fp64/prs24")->Arg(0)->UseRealTime()->MinTime(1);
BENCHMARK(BM_Ias15Pythagorean<double>)->Name("ias15_pythagorean/fp64/global")->Arg(1)->UseRealTime()->MinTime(1);
BENCHMARK(BM_Ias15Pythagorean<float128>)->Name("ias15_pythagorean/fp128/prs24")->Arg(0)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace orrery::bench
