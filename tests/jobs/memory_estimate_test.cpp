// SPDX-License-Identifier: MIT
// A run's memory estimate counts the integrator's own arrays, measured from its stepper: at
// least what the method's mathematics must keep per body (each stage's acceleration; IAS15's
// seven b, g and e coefficients per component), so a many-stage method at large N is refused
// before it starts rather than failing partway.
#include <gtest/gtest.h>

#include "jobs/stepper_footprint.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/jobs/memory_estimate.hpp"
#include "orrery/jobs/sim_job.hpp"

namespace orrery {
namespace {

TEST(MemoryEstimate, StepperArraysHoldAtLeastEveryStagesAccelerations) {
  for (const IntegratorInfo& m : integrators()) {
    if (m.family != IntegratorFamily::explicit_runge_kutta) continue;
    const double tolerance = m.adaptive ? 1e-8 : 0.0;
    EXPECT_GE(stepper_values_per_body(std::string(m.name), tolerance), 3.0 * m.stages)
        << m.name;
  }
  // b, g and e: 7 coefficients of each of the 3 components.
  EXPECT_GE(stepper_values_per_body("ias15", 0.0), 3 * 7 * 3);
}

TEST(MemoryEstimate, ARunsEstimateGrowsWithItsIntegratorsStages) {
  SimJob small, large;
  small.integrator = "leapfrog";
  large.integrator = "feagin14";  // 35 stages
  const double n = 1e6;
  const double leapfrog = sim_memory_bytes(small, std::int64_t(n));
  const double feagin = sim_memory_bytes(large, std::int64_t(n));
  EXPECT_GE(feagin - leapfrog, n * 8 * 3 * (35 - 1));
  large.precision = Precision::fp128;
  EXPECT_DOUBLE_EQ(sim_memory_bytes(large, std::int64_t(n)) - n * 80, 2 * (feagin - n * 80));
}

}  // namespace
}  // namespace orrery
