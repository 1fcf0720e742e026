// SPDX-License-Identifier: MIT
// Work against precision for every integrator of the registry (the diagram of the published
// N-body library's integrator paper): the relative energy error |E − E₀|/|E₀| at the end of a run
// against the force evaluations it took, counted by a wrapper around the engine (rejected steps
// of the adaptive methods included). Fixed-step methods run at steps h₀/2^k, adaptive ones at
// tolerances 10⁻⁴ … 10⁻¹³. Problems: Kepler e = 0.9 for 10 periods, the Pythagorean three-body
// problem to t = 70, a Plummer sphere of 1000 bodies (ε = 0.01) to t = 1. Direct engine, fp64,
// one CPU thread. Prints CSV: problem,method,control,setting,evaluations,energy_error,seconds,
// finished (control: "tolerance" or "fixed", the setting a tolerance or a step; finished 0 for a
// run stopped by the cap of 2·10⁷ evaluations before its end time, its error then meaningless). A run the method cannot
// make (an implicit method whose stage equations do not converge at that step) is left out and
// named on stderr. Arguments: the problems to run (all three when none).
// scripts/work_precision.py draws docs/images/work-precision.png from it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/integrate/counting_system.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace {

using namespace orrery;

constexpr long kMostEvaluations = 20000000;

struct Problem {
  std::string name;
  InitialConditions ic;
  double t_end, h0;
};

double energy(ForceEngine<double>& engine, const DeviceBuffer<double>& x,
              const DeviceBuffer<double>& v, const std::vector<double>& mass) {
  const std::size_t n = mass.size();
  std::vector<double> hx(3 * n), hv(3 * n);
  engine.device().copy_to_host(x, hx);
  engine.device().copy_to_host(v, hv);
  return diagnostics_of<double>(std::span<const double>(hx), std::span<const double>(hv),
                                std::span<const double>(mass), engine.potential_energy(x), 0.0)
      .energy_total;
}

void run_once(const Problem& p, const IntegratorInfo& method, double setting) {
  EngineOptions o{.g = p.ic.g, .softening = p.ic.softening, .threads = 1};
  auto engine = make_force_engine<double>("direct", o);
  const auto& q = p.ic.particles;
  const std::size_t n = q.mass.size();
  engine->set_bodies(q.mass, q.softening);
  std::vector<double> x, v;
  for (const auto* a : {&q.x, &q.y, &q.z}) x.insert(x.end(), a->begin(), a->end());
  for (const auto* a : {&q.vx, &q.vy, &q.vz}) v.insert(v.end(), a->begin(), a->end());
  auto xd = engine->device().allocate(3 * n), vd = engine->device().allocate(3 * n);
  engine->device().copy_to_device(x, xd);
  engine->device().copy_to_device(v, vd);
  const double e0 = energy(*engine, xd, vd, q.mass);
  auto stepper = make_array_stepper<double>(method.name, method.adaptive ? setting : 0.0);
  CountingSystem<double> system(*engine);
  double t = 0, h = method.adaptive ? p.h0 : setting;
  const auto start = std::chrono::steady_clock::now();
  while (t < p.t_end && system.evaluations < kMostEvaluations) {
    const double step = std::min(h, p.t_end - t);
    const StepReport<double> r = stepper->step(system, xd, vd, step);
    if (r.accepted) t += step;
    if (method.adaptive) h = r.next;
  }
  const double seconds = seconds_since(start);
  const double e1 = energy(*engine, xd, vd, q.mass);
  std::printf("%s,%s,%s,%g,%ld,%.6e,%.4f,%d\n", p.name.c_str(),
              std::string(method.name).c_str(), method.adaptive ? "tolerance" : "fixed", setting,
              system.evaluations, std::abs((e1 - e0) / e0), seconds, t >= p.t_end ? 1 : 0);
  std::fflush(stdout);
}

void run(const Problem& p, const IntegratorInfo& method, double setting) {
  try {
    run_once(p, method, setting);
  } catch (const RunError& e) {
    std::fprintf(stderr, "%s, %s at %g: left out (%s)\n", p.name.c_str(),
                 std::string(method.name).c_str(), setting, e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace orrery;
  const std::vector<std::string> wanted(argv + 1, argv + argc);
  std::vector<Problem> problems;
  {
    auto ic = make_scene("kepler", {{"eccentricity", ParamValue{0.9}}});
    const double t_end = ic.t_end;  // ten periods
    problems.push_back({"kepler-e0.9", ic, t_end, 16 * ic.dt});
  }
  problems.push_back({"pythagorean", make_scene("pythagorean"), 70.0, 0.01});
  {
    auto ic = make_scene("plummer", {{"n", ParamValue{std::int64_t{1000}}},
                                     {"seed", ParamValue{std::int64_t{1}}}});
    ic.softening = 0.01;
    problems.push_back({"plummer-1000", ic, 1.0, 0.02});
  }
  std::printf("problem,method,control,setting,evaluations,energy_error,seconds,finished\n");
  for (const Problem& p : problems) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), p.name) == wanted.end())
      continue;
    for (const IntegratorInfo& m : integrators()) {
      // Block steps need a length and a spread of accelerations: bench/block_steps.cpp.
      if (m.family == IntegratorFamily::block_steps) continue;
      if (m.adaptive)
        for (double tol : {1e-4, 1e-6, 1e-8, 1e-10, 1e-12})
          run(p, m, tol);
      // Every method at fixed steps too (the adaptive ones with their advanced solution), but
      // ias15, which always controls its step.
      for (int k = 0; k < 7 && m.family != IntegratorFamily::ias15; ++k) {
        const double h = p.h0 / std::pow(2.0, k);
        if (p.t_end / h * m.force_evaluations > 4e6 / (p.name == "plummer-1000" ? 400 : 1))
          break;
        IntegratorInfo fixed = m;
        fixed.adaptive = false;
        run(p, fixed, h);
      }
    }
  }
}
