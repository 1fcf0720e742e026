// SPDX-License-Identifier: MIT
// Every scene's --softening reaches the force engine of a run: the run's initial potential
// energy equals the softened pair sum −G Σ_{i<j} m_i m_j / √(r_ij² + ε²) over the scene's
// particles with the ε given here, computed here, and differs from the unsoftened sum by far
// more than rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/scenes/scene_registry.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// Compensated sums over a few dozen pairs agree to a few roundings.
constexpr double kSumTolerance = 1e-12;

double pair_potential(const Particles<double>& p, double g, double eps) {
  long double w = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const double dx = p.x[j] - p.x[i], dy = p.y[j] - p.y[i], dz = p.z[j] - p.z[i];
      w -= static_cast<long double>(p.mass[i]) * p.mass[j] /
           std::sqrt(static_cast<long double>(dx) * dx + static_cast<long double>(dy) * dy +
                     static_cast<long double>(dz) * dz + static_cast<long double>(eps) * eps);
    }
  return static_cast<double>(g * w);
}

TEST(SceneSoftening, ReachesTheForceEngineOfARun) {
  for (const std::string& name : scene_names()) {
    SCOPED_TRACE(name);
    SceneSettings settings;
    for (const auto& p : find_scene(name).description.parameters)
      if (p.spec.name == "n") settings.emplace_back("n", ParamValue{std::int64_t{24}});
    // ε of the order of the system's own size, so that it changes the energy by a lot.
    const InitialConditions plain = make_scene(name, settings);
    const double eps = 0.5 * diagnostics_of(plain.particles, 0.0, 0.0).rms_radius;
    settings.emplace_back("softening", ParamValue{eps});

    test::TempDir dir;
    SimJob job;
    job.scene = name;
    job.scene_settings = settings;
    job.stop_after = 1;
    job.out = (dir / "run").string();
    run_simulation(job);
    const double w = RunStore::open(dir / "run").initial_diagnostics().energy_potential;

    const double softened = pair_potential(plain.particles, plain.g, eps);
    const double bare = pair_potential(plain.particles, plain.g, 0.0);
    EXPECT_NEAR(w, softened, kSumTolerance * std::abs(softened));
    EXPECT_GT(std::abs(softened - bare), 1e3 * kSumTolerance * std::abs(bare));
  }
}

}  // namespace
}  // namespace orrery
