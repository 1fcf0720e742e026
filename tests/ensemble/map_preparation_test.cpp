// SPDX-License-Identifier: MIT
// MapPreparation sets the backend up beside other work (the GPUs' contexts, streams and memory);
// the map that follows is the map without it, bit for bit, and a preparation judges nothing:
// bad parameters are refused by the computation, as before.
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/ensemble/divergence_map.hpp"

namespace orrery {
namespace {

DivergenceMapParams small_map() {
  DivergenceMapParams p;
  p.width = 16;
  p.height = 12;
  p.steps = 2000;
  return p;
}

// On `backend`: first prepared (in a process where nothing has been set up yet, where the
// preparation does the most), then again without.
void expect_same_map(Backend backend) {
  const DivergenceMapParams p = small_map();
  MapRunOptions options;
  options.backend = backend;
  DivergenceMap prepared;
  {
    MapPreparation preparation(p, options);
    preparation.wait();
    prepared = compute_divergence_map(p, options);
  }
  const DivergenceMap plain = compute_divergence_map(p, options);
  EXPECT_EQ(prepared.counts, plain.counts);
  EXPECT_EQ(prepared.nonfinite, plain.nonfinite);
  EXPECT_EQ(prepared.info.backend, plain.info.backend);
  EXPECT_GE(prepared.info.setup_seconds, 0.0);
}

TEST(MapPreparation, TheMapAfterItIsTheMapWithoutIt) { expect_same_map(Backend::automatic); }

TEST(MapPreparation, OnTheGpuTheMapAfterItIsTheMapWithoutIt) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  expect_same_map(Backend::cuda);
}

TEST(MapPreparation, LeavesBadParametersToTheComputation) {
  DivergenceMapParams p = small_map();
  p.width = 0;
  MapRunOptions options;
  options.devices = {97};
  {
    MapPreparation preparation(p, options);  // neither throws nor stops anything
  }
  EXPECT_THROW(compute_divergence_map(p, options), ParameterError);
}

}  // namespace
}  // namespace orrery
