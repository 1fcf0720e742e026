// SPDX-License-Identifier: MIT
// `three-body` as the divergence map's system: grid starts on x1:y1 are the map's pixels, and a
// trajectory from one follows the map's own base system (problems/divergence3/twin_divergence.hpp):
// bit for bit where the two arithmetic policies round alike, within rounding's reach elsewhere;
// and starts of a given energy are refused (the energy is not |p|²/2 + V(q)), a plane's ranges
// asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;
using Problem = ThreeBodyProblem;
constexpr int kWords = 2 * Problem::coordinates;  // 18 state words
constexpr int kRowWords = kWords + Problem::parameters;

// A grid of the map's default window on planet 1's (x, y), as `orrery ensemble` makes it.
EnsembleJob map_grid_job(int resolution) {
  EnsembleJob job;
  job.problem = "three-body";
  job.starts = "grid";
  job.plane = "x1:y1";
  job.ranges["x1"] = DivergenceMapParams{}.x_range;
  job.ranges["y1"] = DivergenceMapParams{}.y_range;
  job.resolution = resolution;
  return job;
}

TEST(ThreeBodyEnsemble, GridStartsOnX1Y1AreTheMapsPixels) {
  constexpr int kSide = 24;
  const EnsembleStartSet starts = make_ensemble_starts(map_grid_job(kSide));
  DivergenceMapParams params;
  params.width = params.height = kSide;
  const DivergenceSetup s = make_divergence_setup(params);
  ASSERT_EQ(starts.trajectories, std::int64_t{kSide} * kSide);
  for (std::int64_t t = 0; t < starts.trajectories; ++t) {
    const std::int64_t index = starts.grid_index[static_cast<std::size_t>(t)];
    const TwinStart pixel = twin_start(s, index % kSide, index / kSide);
    const double* row = starts.rows.data() + t * kRowWords;
    for (int n = 0; n < kMapBodies; ++n) {
      for (int axis = 0; axis < 3; ++axis) {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(row[3 * n + axis]),
                  std::bit_cast<std::uint64_t>(component(pixel.base.x[n], axis)))
            << "pixel " << index << " body " << n + 1 << " axis " << axis;
        ASSERT_EQ(row[9 + 3 * n + axis], component(pixel.base.v[n], axis));
      }
      ASSERT_EQ(row[kWords + n], s.gm[n]);
    }
  }
}

// The map's base system of pixel (j, k) after `steps` steps (its own trajectory code, fp64 with
// the exact pair factor, as the CPU map runs it), as the ensemble's 18 words.
template <class Table>
std::vector<double> map_base_after(const DivergenceSetup& s, std::int64_t j, std::int64_t k,
                                   std::int64_t steps) {
  using Map = TwinDivergence<Table, double, InverseCubeExact, 0>;
  const TwinStart start = twin_start<0>(s, j, k);
  typename Map::State st;
  st.base = start.base;
  st.twin = start.twin;
  const typename Map::Gravity g = Map::gravity(s);
  Map::begin(st, g);
  for (std::int64_t n = 0; n < steps; ++n) Map::advance(st, g, s.dt, n < Map::starter_steps);
  std::vector<double> y(kWords);
  for (int n = 0; n < kMapBodies; ++n)
    for (int axis = 0; axis < 3; ++axis) {
      y[3 * n + axis] = component(st.base.x[n], axis);
      y[9 + 3 * n + axis] = component(st.base.v[n], axis);
    }
  return y;
}

TEST(ThreeBodyEnsemble, TrajectoryFromAPixelFollowsTheMapsBaseSystem) {
  // The same physics in two arithmetic policies (integrate/step_arithmetic.hpp): the map sums
  // h·Σc_j K_j as s = Σ c_j K_j then fma(h, s, y), the ensemble as fma(h·c_j, K_j, y) term by
  // term. Where every c_j is 1 or ½ the two round alike, so explicit Euler, midpoint, symplectic
  // Euler and leapfrog (kicks not merged: a sample every step) give the map's bits; elsewhere
  // they part by rounding, amplified by the pixel's chaos over the run.
  constexpr int kSide = 8;
  constexpr std::int64_t kSteps = 3000;    // the map's dt: t = 3
  constexpr double kRoundingApart = 1e-9;  // ε ~ 10⁻¹⁶ per step, grown by ≤ 10⁴ here
  const EnsembleStartSet starts = make_ensemble_starts(map_grid_job(kSide));
  DivergenceMapParams params;
  params.width = params.height = kSide;
  const DivergenceSetup s = make_divergence_setup(params);
  const auto compare = [&]<class Table>(bool same_bits) {
    SmallEnsemble e;
    e.problem = "three-body";
    e.integrator = std::string(Table::name);
    e.dt = s.dt;
    e.steps = kSteps;
    e.samples = same_bits ? static_cast<int>(kSteps) : 1;
    e.rows = starts.rows;
    const EnsembleOutcome out = e.run();
    int finite = 0;
    for (std::int64_t t = 0; t < starts.trajectories; ++t) {
      const std::int64_t index = starts.grid_index[static_cast<std::size_t>(t)];
      const std::vector<double> map = map_base_after<Table>(s, index % kSide, index / kSide, kSteps);
      const double* ours = out.final_state.data() + t * kWords;
      bool all_finite = true;
      for (int w = 0; w < kWords; ++w) all_finite = all_finite && std::isfinite(map[w]);
      if (!all_finite) continue;  // a close encounter the step cannot follow
      ++finite;
      for (int w = 0; w < kWords; ++w) {
        if (same_bits)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(ours[w]), std::bit_cast<std::uint64_t>(map[w]))
              << Table::name << " pixel " << index << " word " << w;
        else
          EXPECT_NEAR(ours[w], map[w], kRoundingApart * std::max(1.0, std::abs(map[w])))
              << Table::name << " pixel " << index << " word " << w;
      }
    }
    EXPECT_GT(finite, kSide * kSide / 2) << Table::name;
  };
  compare.operator()<ExplicitEuler>(true);
  compare.operator()<Midpoint>(true);
  compare.operator()<SymplecticEuler>(true);
  compare.operator()<LeapfrogKDK>(true);
  compare.operator()<ClassicRK4>(false);
  compare.operator()<Yoshida4>(false);
  compare.operator()<EulerStartedAdamsBashforth4>(false);
}


TEST(ThreeBodyEnsemble, EnergyStartsAreRefusedAndTheRangesAskedFor) {
  EnsembleJob job = map_grid_job(4);
  job.energy = 1.0;
  job.out = "";
  job.in_memory = true;
  try {
    validate(job);
    ADD_FAILURE() << "--energy accepted for three-body";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--energy");
    EXPECT_NE(std::string(e.what()).find("|p|^2/2 + V(q)"), std::string::npos) << e.what();
  }
  job.energy.reset();
  job.ranges.erase("y1");
  try {
    make_ensemble_starts(job);
    ADD_FAILURE() << "a plane without its ranges accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "y1-range");
  }
}

}  // namespace
}  // namespace orrery
