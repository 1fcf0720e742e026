// SPDX-License-Identifier: MIT
// Maps with every integrator: the CPU lanes (every kernel, thread count and precision) against
// the plain reference written from the literature's coefficients (divergence_reference.hpp),
// pixel for pixel; the parameter and its errors; and what the integrators change in a map.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "cpu_map_options.hpp"
#include "divergence_reference.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "sensitive_window.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"

namespace orrery {
namespace {

DivergenceMapParams quick_window(const std::string& integrator) {
  DivergenceMapParams p = test::sensitive_window(13, 9, 3000);
  p.integrator = integrator;
  return p;
}

std::vector<std::int32_t> reference_map(const DivergenceMapParams& p, Precision precision) {
  std::vector<std::int32_t> out;
  for (std::int64_t k = 0; k < p.height; ++k)
    for (std::int64_t j = 0; j < p.width; ++j)
      out.push_back(precision == Precision::fp32
                        ? test::reference_pixel_count<float, float>(p, j, k)
                    : precision == Precision::mixed
                        ? test::reference_pixel_count<double, float>(p, j, k)
                        : test::reference_pixel_count<double, double>(p, j, k));
  return out;
}

using test::cpu;

class MapIntegrator
    : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {};

TEST_P(MapIntegrator, EveryKernelAndThreadCountGivesTheReferenceCountsExactly) {
  const auto& [integrator, precision] = GetParam();
  const DivergenceMapParams p = quick_window(integrator);
  const auto expected = reference_map(p, precision);
  // Agreement of a few constant counts would prove nothing.
  EXPECT_GT(std::set<std::int32_t>(expected.begin(), expected.end()).size(), 20u);
  for (const auto& kernel : supported_cpu_kernel_names())
    for (int threads : {1, 2}) {
      const DivergenceMap map = compute_divergence_map(p, cpu(kernel, threads, precision));
      ASSERT_EQ(map.counts, expected) << integrator << ", kernel " << kernel << ", " << threads
                                      << " threads, " << to_string(precision);
    }
}

std::vector<std::string> all_map_integrators() { return map_integrator_names(); }

INSTANTIATE_TEST_SUITE_P(
    Every, MapIntegrator,
    ::testing::Combine(::testing::ValuesIn(all_map_integrators()),
                       ::testing::Values(Precision::fp64, Precision::fp32, Precision::mixed)),
    [](const auto& info) {
      std::string name = std::get<0>(info.param) + "_" + to_string(std::get<1>(info.param));
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(MapIntegrators, TheSevenOfThePublishedWorkAndTheLibraryAreOffered) {
  const auto names = map_integrator_names();
  for (const char* name : {"euler", "midpoint", "rk4", "leapfrog", "yoshida4", "ab2", "ab4"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_EQ(names.front(), "euler");  // index 0: the default and the published map
}

TEST(MapIntegrators, AnUnknownNameIsRefusedNamingTheAcceptedOnes) {
  DivergenceMapParams p = quick_window("rk5");
  try {
    compute_divergence_map(p, cpu("", 1, Precision::fp64));
    FAIL() << "accepted an unknown integrator";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "integrator");
    EXPECT_EQ(e.value(), "rk5");
    EXPECT_NE(e.accepted().find("ab4"), std::string::npos) << e.what();
  }
}

TEST(MapIntegrators, ChangeTheCountsOfChaoticPixels) {
  // The integrators are different maps: a higher-order method moves the count of pixels whose
  // twins separate within the run, so no entry silently runs Euler.
  const auto euler = compute_divergence_map(quick_window("euler"), cpu("", 2, Precision::fp64));
  for (const auto& name : map_integrator_names()) {
    if (name == "euler") continue;
    const auto other = compute_divergence_map(quick_window(name), cpu("", 2, Precision::fp64));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < euler.counts.size(); ++i) differ += other.counts[i] != euler.counts[i];
    EXPECT_GT(differ, euler.counts.size() / 4) << name;
  }
}

}  // namespace
}  // namespace orrery
