// SPDX-License-Identifier: MIT
// Maps with every integrator on the GPU against the CPU: bit-identical in exact mode (fp64, fp32
// and mixed), and the fast fp64 pair factor moving no more pixels than the map's own rounding
// sensitivity allows. The runs are long
// enough that every trajectory is parked and taken back several times (every 4096 steps), so the
// integrators' carried state (Adams–Bashforth history) and the state they derive again
// (a splitting method's a(x)) are exercised. Skipped where no GPU is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <string>

#include "orrery/ensemble/divergence_map.hpp"
#include "sensitive_window.hpp"
#include "orrery/ensemble/map_integrators.hpp"

namespace orrery {
namespace {

// The bar for the fast factor. The hardware reciprocal square root differs from the correctly
// rounded 1/r³ in the last bits, which moves the count of a chaotic pixel, rarely: at most
// 0.1 % of the pixels — or, for a method whose map is itself less sharply defined, as many as a
// one-ulp shift of the window moves on the CPU (ab4's parasitic roots amplify rounding noise
// near close encounters: docs/guide/map-integrators.md), plus three standard deviations of that
// count and three pixels (a Poisson count of moved pixels).
constexpr double kMaxMovedFraction = 0.001;

std::size_t moved_pixels(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
  std::size_t moved = 0;
  for (std::size_t i = 0; i < a.size(); ++i) moved += a[i] != b[i];
  return moved;
}

// The same window with both ends one ulp higher: every start moves by about an ulp.
DivergenceMapParams shifted_by_an_ulp(DivergenceMapParams p) {
  const double up = std::numeric_limits<double>::infinity();
  p.x_range = {std::nextafter(p.x_range[0], up), std::nextafter(p.x_range[1], up)};
  return p;
}

class CudaMapIntegrator : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  }
  static MapRunOptions on(Backend backend, Precision precision, bool exact) {
    MapRunOptions o;
    o.backend = backend;
    o.precision = precision;
    o.exact_gpu = exact;
    return o;
  }
};

// The canonical window at a lower resolution and full length.
DivergenceMapParams canonical(const std::string& integrator, int side) {
  DivergenceMapParams p;
  p.integrator = integrator;
  p.width = p.height = side;
  return p;
}

DivergenceMapParams sensitive(const std::string& integrator, int side) {
  DivergenceMapParams p = test::sensitive_window(side, side, 12000);
  p.integrator = integrator;
  return p;
}

TEST_P(CudaMapIntegrator, ExactModeIsBitIdenticalToTheCpu) {
  for (Precision precision : {Precision::fp64, Precision::fp32, Precision::mixed})
    for (const auto& p : {sensitive(GetParam(), 96), canonical(GetParam(), 48)}) {
      const auto cpu = compute_divergence_map(p, on(Backend::cpu, precision, false));
      const auto gpu = compute_divergence_map(p, on(Backend::cuda, precision, true));
      ASSERT_EQ(gpu.info.backend, "cuda");
      ASSERT_EQ(gpu.counts, cpu.counts) << GetParam() << " " << to_string(precision) << " "
                                        << p.width << "x" << p.height;
      EXPECT_EQ(gpu.nonfinite, cpu.nonfinite);
    }
}

TEST_P(CudaMapIntegrator, FastFp64MovesNoMorePixelsThanAnUlpOfInput) {
  for (const auto& [what, p] : {std::pair{"canonical 128x128", canonical(GetParam(), 128)},
                                std::pair{"sensitive 128x128", sensitive(GetParam(), 128)}}) {
    const auto cpu = compute_divergence_map(p, on(Backend::cpu, Precision::fp64, false));
    const auto gpu = compute_divergence_map(p, on(Backend::cuda, Precision::fp64, false));
    const auto nudged =
        compute_divergence_map(shifted_by_an_ulp(p), on(Backend::cpu, Precision::fp64, false));
    const std::size_t moved = moved_pixels(cpu.counts, gpu.counts);
    const std::size_t by_ulp = moved_pixels(cpu.counts, nudged.counts);
    const double allowed =
        std::max(kMaxMovedFraction * static_cast<double>(cpu.counts.size()),
                 static_cast<double>(by_ulp) + 3 * std::sqrt(static_cast<double>(by_ulp)) + 3);
    const double n = static_cast<double>(cpu.counts.size());
    std::printf("[ figure   ] %s: fast fp64 vs CPU, %s: %.6f identical (%zu moved); an ulp of "
                "input moves %zu (%.6f identical)\n",
                GetParam().c_str(), what, 1 - static_cast<double>(moved) / n, moved, by_ulp,
                1 - static_cast<double>(by_ulp) / n);
    RecordProperty(std::string("moved_") + what, std::to_string(moved));
    RecordProperty(std::string("moved_by_ulp_") + what, std::to_string(by_ulp));
    EXPECT_LE(static_cast<double>(moved), allowed) << GetParam() << " " << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Every, CudaMapIntegrator, ::testing::ValuesIn(map_integrator_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace orrery
