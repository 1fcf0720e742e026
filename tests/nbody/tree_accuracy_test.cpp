// SPDX-License-Identifier: MIT
// The tree at a given accuracy (nbody/tree_accuracy.hpp): the settings chosen for a target keep
// it over every body of the system, not only the sample they were measured on — on a Plummer
// sphere and on two galaxies mid-collision (disks overlapping, each with its central body) — on
// the CPU, and on a GPU where there is one; a tighter target never costs less work; targets out
// of range, unreachable ones and contradictory flags are refused naming --accuracy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/jobs/forces_job.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/tree_accuracy.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {
namespace {

struct System {
  std::vector<double> x, m, eps;  // x: 3N
  double softening = 0;
};

System of(const InitialConditions& ic) {
  const auto& p = ic.particles;
  System s;
  for (const auto* a : {&p.x, &p.y, &p.z}) s.x.insert(s.x.end(), a->begin(), a->end());
  s.m = p.mass;
  s.softening = ic.softening;
  return s;
}

System plummer(std::int64_t n) {
  return of(make_scene("plummer", {{"n", ParamValue{n}}, {"seed", ParamValue{std::int64_t{3}}}}));
}

// Two disk galaxies mid-collision, their centres 0.6 disk radii apart across the line of approach
// (the scene's impact parameter) and less along it: two clumps, two central bodies holding a
// fifth of each galaxy's mass, overlapping disks — what a Plummer sphere does not have. In
// N-body units so that fp32 holds them.
System collision(std::int64_t n) {
  return of(make_scene("two-galaxies", {{"n", ParamValue{n}},
                                        {"seed", ParamValue{std::int64_t{5}}},
                                        {"separation", ParamValue{3e20}},
                                        {"central-fraction", ParamValue{0.2}},
                                        {"units", ParamValue{std::string("nbody")}}}));
}

template <class Real>
std::vector<double> accelerations(const std::string& engine, const EngineOptions& o,
                                  const System& s) {
  auto e = make_force_engine<Real>(engine, o);
  const std::size_t n = s.m.size();
  std::vector<Real> x(s.x.begin(), s.x.end()), m(s.m.begin(), s.m.end()), a(3 * n);
  auto xd = e->device().allocate(3 * n), ad = e->device().allocate(3 * n);
  e->device().copy_to_device(x, xd);
  e->set_bodies(m, {});
  e->accelerations(xd, ad);
  e->device().copy_to_host(ad, a);
  return {a.begin(), a.end()};
}

// Median and 99th percentile over every body of |a − a_direct| / |a_direct|.
std::pair<double, double> errors(const std::vector<double>& a, const std::vector<double>& ref) {
  const std::size_t n = a.size() / 3;
  std::vector<double> e;
  for (std::size_t i = 0; i < n; ++i) {
    double d2 = 0, r2 = 0;
    for (std::size_t c = 0; c < 3; ++c) {
      const double d = a[c * n + i] - ref[c * n + i];
      d2 += d * d, r2 += ref[c * n + i] * ref[c * n + i];
    }
    if (r2 > 0) e.push_back(std::sqrt(d2 / r2));
  }
  std::sort(e.begin(), e.end());
  return {e[e.size() / 2], e[e.size() * 99 / 100]};
}

template <class Real>
void holds_over_every_body(const System& s, Backend backend, std::vector<double> targets) {
  EngineOptions base;
  base.backend = backend;
  base.softening = s.softening;
  EngineOptions exact = base;
  exact.backend = Backend::cpu;
  const std::vector<double> ref = accelerations<double>("direct", exact, s);
  std::vector<Real> x(s.x.begin(), s.x.end()), m(s.m.begin(), s.m.end());
  double last_work = 0;
  for (const double target : targets) {
    const TreeAccuracyChoice c = choose_tree_setting<Real>(target, base, x, m, {});
    EngineOptions o = base;
    o.theta = c.chosen.theta;
    o.multipole = c.chosen.multipole;
    const auto [median, p99] = errors(accelerations<Real>("tree", o, s), ref);
    SCOPED_TRACE(fmt::format("target {:g}: {}; every body: median {:.3g}, p99 {:.3g}", target,
                             describe(c), median, p99));
    EXPECT_LE(median, target);
    EXPECT_LE(p99, kTreeAccuracyTail * target);
    // The targets come loosest first: each asks at least the work of the one before.
    const double cost = c.chosen.multipole == Multipole::quadrupole
                            ? quadrupole_cell_cost(resolve_backend<Real>(base).backend)
                            : 1.0;
    const double work = cost / std::pow(c.chosen.theta, 3);
    EXPECT_GE(work, last_work);
    last_work = work;
  }
}

TEST(TreeAccuracy, PlummerKeepsTheTargetOverEveryBody) {
  holds_over_every_body<double>(plummer(12000), Backend::cpu, {3e-3, 3e-4, 3e-5});
}

TEST(TreeAccuracy, CollisionKeepsTheTargetOverEveryBody) {
  holds_over_every_body<double>(collision(12000), Backend::cpu, {3e-3, 3e-4, 3e-5});
}

TEST(TreeAccuracy, Fp32KeepsTheTargetOverEveryBody) {
  holds_over_every_body<float>(collision(12000), Backend::cpu, {1e-3, 3e-4});
}

TEST(TreeAccuracy, GpuKeepsTheTargetOverEveryBody) {
  if (cuda_device_count() < 1) GTEST_SKIP() << "needs a CUDA device";
  holds_over_every_body<float>(plummer(50000), Backend::cuda, {1e-3, 3e-4, 1e-4});
  holds_over_every_body<float>(collision(50000), Backend::cuda, {3e-4});
}

TEST(TreeAccuracy, RefusesTargetsOutOfRangeOrOutOfReach) {
  for (const double bad : {0.0, 1e-7, 0.5, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      check_tree_accuracy(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), "--accuracy");
    }
  }
  // fp32 sums round at ~10⁻⁷ per term: 10⁻⁶ of the median is beyond any θ of the ladder.
  const System s = plummer(4000);
  std::vector<float> x(s.x.begin(), s.x.end()), m(s.m.begin(), s.m.end());
  try {
    choose_tree_setting<float>(1e-6, EngineOptions{}, x, m, {});
    ADD_FAILURE() << "an fp32 tree at 1e-6 was accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--accuracy");
    EXPECT_NE(std::string(e.what()).find("--engine direct"), std::string::npos) << e.what();
  }
}

TEST(TreeAccuracy, TheForcesJobRefusesContradictions) {
  ForcesJob job;
  job.input = "unused.csv";
  job.out = "unused.h5";
  job.accuracy = 3e-4;
  auto refused = [&](const ForcesJob& j) {
    try {
      run_forces_job(j);
    } catch (const ParameterError& e) {
      return e.parameter() == "--accuracy";
    } catch (const std::exception&) {
    }
    return false;
  };
  EXPECT_TRUE(refused(job)) << "with the direct engine";
  job.engine = "tree";
  job.theta = 0.7;
  EXPECT_TRUE(refused(job)) << "with --theta";
  job.theta = ForcesJob{}.theta;
  job.multipole = "monopole";
  EXPECT_TRUE(refused(job)) << "with --multipole";
}

}  // namespace
}  // namespace orrery
