// SPDX-License-Identifier: MIT
// Every integrator runs over every engine through the force-engine contract: a Plummer sphere
// integrated for a quarter of a crossing time with each integrator × engine × backend follows
// the trajectory the same integrator gives on the exact direct CPU engine, to within what the
// engine's approximation allows, and conserves energy as well as that integrator does there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "orrery/device/cuda_presence.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {
namespace {

constexpr int kBodies = 256;
constexpr double kSoftening = 0.05;
constexpr double kDt = 1.0 / 128;
constexpr int kSteps = 32;  // t = 0.25 in Hénon units (crossing time ≈ 2.8)
// The tree at θ = 0.5 with quadrupoles errs by ~1e-3 in a force; over 32 steps of 1/128 that
// moves a body by far less than 1e-4 of the system's size (~1).
constexpr double kTreeOffset = 1e-4;
// GPU arithmetic (rsqrt, fma order) differs from the CPU's in the last bits only.
constexpr double kRoundingOffset = 1e-9;

Particles<double> plummer() {
  return make_scene("plummer", {{"n", ParamValue{std::int64_t{kBodies}}},
                                {"seed", ParamValue{std::int64_t{11}}}})
      .particles;
}

struct Outcome {
  std::vector<double> x;  // positions, [x.., y.., z..]
  double energy_drift;
};

Outcome integrate(const std::string& integrator, const std::string& engine, Backend backend) {
  EngineOptions options{.g = 1.0, .softening = kSoftening};
  options.backend = backend;
  options.leaf_size = 8;  // small leaves and groups: multipoles act even at this N
  options.group_size = 32;
  SimClock clock;
  clock.dt = kDt;
  Simulation<double> sim(plummer(), make_force_engine<double>(engine, options),
                         make_array_stepper<double>(integrator), clock);
  const Diagnostics start = sim.diagnostics();
  for (int s = 0; s < kSteps; ++s) sim.step(kDt);
  const Particles<double>& p = sim.particles();
  Outcome out;
  out.x.insert(out.x.end(), p.x.begin(), p.x.end());
  out.x.insert(out.x.end(), p.y.begin(), p.y.end());
  out.x.insert(out.x.end(), p.z.begin(), p.z.end());
  out.energy_drift = drift_since(start, sim.diagnostics()).energy;
  return out;
}

double largest_offset(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(IntegratorsOverEngines, EveryIntegratorFollowsTheDirectTrajectoryOnEveryEngine) {
  std::vector<Backend> backends{Backend::cpu};
  if (cuda_device_count() > 0) backends.push_back(Backend::cuda);
  for (const std::string& integrator : integrator_names()) {
    // ias15 chooses its steps from the forces it is given, so a tree's approximation changes
    // the steps themselves, not only the trajectory along the same steps.
    if (find_integrator(integrator).family == IntegratorFamily::ias15) continue;
    const Outcome reference = integrate(integrator, "direct", Backend::cpu);
    for (const std::string& engine : force_engine_names())
      for (Backend backend : backends) {
        if (engine == "direct" && backend == Backend::cpu) continue;
        SCOPED_TRACE(integrator + " on " + engine + " / " + to_string(backend));
        const Outcome run = integrate(integrator, engine, backend);
        const double bound = engine == "direct" ? kRoundingOffset : kTreeOffset;
        EXPECT_LT(largest_offset(run.x, reference.x), bound);
        // The engine's error adds at most its own size to the integrator's drift.
        EXPECT_LT(run.energy_drift, 2 * reference.energy_drift + bound);
      }
  }
}

}  // namespace
}  // namespace orrery
