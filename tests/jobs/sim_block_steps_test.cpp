// SPDX-License-Identifier: MIT
// orrery sim with leapfrog-block: the length of its criterion is the softening or
// --block-length, and a run with neither is refused before any work, naming the flag.
#include <gtest/gtest.h>

#include <filesystem>

#include "orrery/core/error.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

SimJob kepler_block(const std::filesystem::path& out) {
  SimJob job;
  job.backend = Backend::cpu;
  job.scene = "kepler";  // unsoftened
  job.integrator = "leapfrog-block";
  job.t_end = 0.5;
  job.out = out.string();
  return job;
}

TEST(SimBlockSteps, WithoutSofteningNeedsABlockLength) {
  test::TempDir dir;
  try {
    run_simulation(kepler_block(dir / "run"));
    ADD_FAILURE() << "a run with neither softening nor --block-length was accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--block-length");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
  SimJob given = kepler_block(dir / "run");
  given.block_length = 0.01;
  EXPECT_EQ(run_simulation(given).time, 0.5);
}

}  // namespace
}  // namespace orrery
