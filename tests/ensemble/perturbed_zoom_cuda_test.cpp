// SPDX-License-Identifier: MIT
// The GPU kernel of the map by perturbation (ensemble/cuda/perturbed_launch.cu) against the CPU
// lanes: the same differences from the same reference records, the same fp64 operations in the
// same order (written fused multiply-adds, correctly rounded square roots and quotients, builds
// without contraction), hence the same counts on every pixel. Skipped without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "orrery/device/cuda_presence.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"
#include "orrery/jobs/zoom_job.hpp"

namespace orrery {
namespace {

// A 24 × 24 window of the Pythagorean three-body problem (deep_zoom_reference.hpp's system)
// `width` wide around (−2, −1), twin a hundredth of the window away, critical distance 10⁵
// windows.
DivergenceMapParams perturbed_cuda_window(double width, const std::string& integrator) {
  DivergenceMapParams p;
  p.width = p.height = 24;
  p.steps = 4000;
  p.dt = 0.001;
  p.integrator = integrator;
  p.critical_distance = width * 1e5;
  p.masses = {3, 4, 5};
  p.g = 1;
  p.positions = {1, 3, 0, -2, -1, 0, 1, -1, 0};
  p.velocities = {};
  p.varied_body = 2;
  p.shift = {width / 100, width / 100, width / 100};
  const ZoomWindow w = zoom_window({-2.0, -1.0}, width, p.width, p.height);
  p.x_range = w.x_range;
  p.y_range = w.y_range;
  p.x_range_low = w.x_range_low;
  p.y_range_low = w.y_range_low;
  return p;
}

TEST(PerturbedZoomCuda, TheGpuCountsAreTheCpuCounts) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  for (const std::string integrator : {"rk4", "leapfrog", "yoshida4", "ab4"})
    for (const double width : {1e-12, 1e-20, 1e-30}) {
      const DivergenceMapParams p = perturbed_cuda_window(width, integrator);
      if (reference_bits(make_divergence_setup(p)) > reference_bits_available()) continue;
      MapRunOptions o;
      o.deep = DeepMethod::perturbation;
      o.backend = Backend::cpu;
      const DivergenceMap cpu = compute_divergence_map(p, o);
      o.backend = Backend::cuda;
      const DivergenceMap gpu = compute_divergence_map(p, o);
      ASSERT_EQ(gpu.info.backend, "cuda");
      int differ = 0;
      for (std::size_t i = 0; i < cpu.counts.size(); ++i) differ += cpu.counts[i] != gpu.counts[i];
      EXPECT_EQ(differ, 0) << integrator << " at width " << width;
      EXPECT_EQ(cpu.pixel_steps, gpu.pixel_steps) << integrator << " at width " << width;
    }
}

}  // namespace
}  // namespace orrery
