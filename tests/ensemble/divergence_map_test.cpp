// SPDX-License-Identifier: MIT
// The optimised CPU divergence map against the plain specification, and its physics contracts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cpu_map_options.hpp"
#include "divergence_reference.hpp"
#include "reference_pixels.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "sensitive_window.hpp"

namespace orrery {
namespace {

// Windows where the twins separate within a few thousand steps, so a small grid holds many
// different counts (checked below: an agreement of constants would prove nothing).
DivergenceMapParams xy_body1() { return test::sensitive_window(1000, 1000, 4000); }

DivergenceMapParams yz_body2() {
  DivergenceMapParams p = xy_body1();
  p.plane = Plane::yz;
  p.varied_body = 2;
  p.x_range = {-6.0, 6.0};
  p.y_range = {-6.0, 6.0};
  p.shift = {0.01, -0.008, 0.012};
  return p;
}

DivergenceMapParams xz_body3() {
  DivergenceMapParams p = xy_body1();
  p.plane = Plane::xz;
  p.varied_body = 3;
  p.x_range = {4.0, 16.0};
  p.y_range = {6.0, 18.0};
  p.masses = {12.0, 18.0, 25.0};
  p.g = 7.5;
  return p;
}

// Many pixels never diverge here: the lanes that finish by reaching `steps` are exercised too.
DivergenceMapParams xz_body2_some_never() {
  DivergenceMapParams p = xy_body1();
  p.plane = Plane::xz;
  p.varied_body = 2;
  p.critical_distance = 0.05;
  p.x_range = {-6.0, 6.0};
  p.y_range = {-6.0, 6.0};
  return p;
}

// Twins 5·10⁻¹¹ apart that count as diverged at a 1 % larger separation: the count follows the
// rounding of every step, so any deviation from the specified arithmetic changes it.
DivergenceMapParams rounding_sensitive() {
  DivergenceMapParams p = xy_body1();
  p.shift = {5e-11, 5e-11, 5e-11};
  p.critical_distance = 1.01 * std::sqrt(3.0) * 5e-11;
  return p;
}

template <class Real, class Factor>
std::vector<std::int32_t> reference_map(const DivergenceMapParams& p) {
  std::vector<std::int32_t> out;
  for (std::int64_t k = 0; k < p.height; ++k)
    for (std::int64_t j = 0; j < p.width; ++j)
      out.push_back(test::reference_pixel_count<Real, Factor>(p, j, k));
  return out;
}

std::vector<std::int32_t> reference_map(const DivergenceMapParams& p, Precision precision) {
  switch (precision) {
    case Precision::fp32: return reference_map<float, float>(p);
    case Precision::mixed: return reference_map<double, float>(p);
    default: return reference_map<double, double>(p);
  }
}

using test::cpu;

struct Case {
  const char* name;
  DivergenceMapParams (*params)();
};

class OptimisedAgainstSpec
    : public ::testing::TestWithParam<std::tuple<Case, std::pair<int, int>, Precision>> {};

TEST_P(OptimisedAgainstSpec, EveryKernelAndThreadCountGivesTheSpecCountsExactly) {
  const auto& [c, size, precision] = GetParam();
  DivergenceMapParams p = c.params();
  p.width = size.first;
  p.height = size.second;
  const auto expected = reference_map(p, precision);
  for (const auto& kernel : supported_cpu_kernel_names())
    for (int threads : {1, 2}) {
      const DivergenceMap map = compute_divergence_map(p, cpu(kernel, threads, precision));
      ASSERT_EQ(map.counts, expected) << c.name << " kernel " << kernel << ", " << threads
                                      << " threads, " << to_string(precision);
      std::int64_t sum = 0;
      for (auto n : expected) sum += n;
      EXPECT_EQ(map.pixel_steps, sum);
    }
}

const Case kCases[] = {{"xy_body1", xy_body1},
                       {"yz_body2", yz_body2},
                       {"xz_body3", xz_body3},
                       {"xz_body2_some_never", xz_body2_some_never},
                       {"rounding_sensitive", rounding_sensitive}};

std::string case_name(
    const ::testing::TestParamInfo<std::tuple<Case, std::pair<int, int>, Precision>>& info) {
  const auto& [c, size, precision] = info.param;
  return std::string(c.name) + "_" + std::to_string(size.first) + "x" +
         std::to_string(size.second) + "_" + to_string(precision);
}

INSTANTIATE_TEST_SUITE_P(
    Windows, OptimisedAgainstSpec,
    ::testing::Combine(::testing::ValuesIn(kCases),
                       ::testing::Values(std::pair{1, 1}, std::pair{3, 5}, std::pair{17, 9},
                                         std::pair{31, 17}),
                       ::testing::Values(Precision::fp64, Precision::fp32, Precision::mixed)),
    case_name);

TEST(DivergenceMap, TestWindowsHoldManyDifferentCounts) {
  for (const auto& c : kCases) {
    DivergenceMapParams p = c.params();
    p.width = 31;
    p.height = 17;
    auto counts = compute_divergence_map(p, cpu("", 2)).counts;
    std::sort(counts.begin(), counts.end());
    const auto distinct = std::unique(counts.begin(), counts.end()) - counts.begin();
    EXPECT_GT(distinct, 50) << c.name;
    EXPECT_LT(counts.front(), p.steps / 2) << c.name;
  }
  DivergenceMapParams p = xz_body2_some_never();
  p.width = 31;
  p.height = 17;
  auto counts = compute_divergence_map(p, cpu("", 2)).counts;
  EXPECT_GT(std::count(counts.begin(), counts.end(), p.steps), 3);
}

TEST(DivergenceMap, BitIdenticalAcrossThreadCountsAndRuns) {
  DivergenceMapParams p = xy_body1();
  p.width = 64;
  p.height = 48;
  const auto first = compute_divergence_map(p, cpu("", 1)).counts;
  for (int threads : {1, 2, 3, 7}) {
    EXPECT_EQ(compute_divergence_map(p, cpu("", threads)).counts, first) << threads;
  }
}

TEST(DivergenceMap, ZeroShiftNeverDiverges) {
  DivergenceMapParams p;
  p.width = 13;
  p.height = 7;
  p.steps = 3000;
  p.shift = {0.0, 0.0, 0.0};
  for (Precision precision : {Precision::fp64, Precision::fp32, Precision::mixed}) {
    const auto map = compute_divergence_map(p, cpu("", 2, precision));
    for (auto n : map.counts) ASSERT_EQ(n, p.steps);
    EXPECT_EQ(map.pixel_steps, p.steps * 13 * 7);
  }
}

TEST(DivergenceMap, CriticalDistanceBelowInitialSeparationGivesZero) {
  DivergenceMapParams p;
  p.width = 9;
  p.height = 11;
  // The twins start |(s, s, s)| = s·√3 ≈ 0.00173 apart.
  p.critical_distance = 0.0017;
  const auto map = compute_divergence_map(p, cpu("", 2));
  for (auto n : map.counts) ASSERT_EQ(n, 0);
  EXPECT_EQ(map.pixel_steps, 0);
}

TEST(DivergenceMap, PublishedReferencePixelsAtFullLength) {
  const auto ref = test::published_reference_pixels();
  ASSERT_EQ(ref.pixels.size(), 600u) << "missing reference data";
  const DivergenceMapParams canonical;  // the defaults are the canonical map
  const auto got = compute_divergence_pixels(canonical, ref.pixels, cpu("", 0));
  std::size_t equal = 0;
  for (std::size_t i = 0; i < ref.pixels.size(); ++i) equal += got.counts[i] == ref.counts[i];
  EXPECT_EQ(equal, ref.pixels.size()) << "pixels equal to the published counts";
  // The sample is not all never-diverging pixels.
  EXPECT_LT(*std::min_element(ref.counts.begin(), ref.counts.end()), 20000);
}

TEST(DivergenceMap, PixelListMatchesTheGrid) {
  DivergenceMapParams p = xy_body1();
  p.width = 20;
  p.height = 10;
  const auto grid = compute_divergence_map(p, cpu("", 2));
  std::vector<PixelIndex> pixels{{19, 9}, {0, 0}, {7, 3}, {7, 3}, {12, 5}};
  const auto some = compute_divergence_pixels(p, pixels, cpu("", 2));
  for (std::size_t i = 0; i < pixels.size(); ++i)
    EXPECT_EQ(some.counts[i], grid.at(pixels[i][0], pixels[i][1]));
}

TEST(DivergenceMap, NonFinitePositionsAreMarkedAndCounted) {
  // A step so long that positions overflow to infinity after a few steps; the twins' separation
  // then becomes inf − inf = NaN.
  DivergenceMapParams p;
  p.width = 5;
  p.height = 4;
  p.steps = 100;
  p.dt = 1e200;
  const auto map = compute_divergence_map(p, cpu("", 2));
  EXPECT_EQ(map.nonfinite_pixels, 20);
  for (std::size_t i = 0; i < map.counts.size(); ++i) {
    bool nonfinite = false;
    const auto expected = test::reference_pixel_count<double>(p, static_cast<std::int64_t>(i % 5),
                                                              static_cast<std::int64_t>(i / 5),
                                                              &nonfinite);
    EXPECT_TRUE(nonfinite);
    EXPECT_EQ(map.nonfinite[i], 1);
    EXPECT_EQ(map.counts[i], expected);
    EXPECT_GT(map.counts[i], 0);
    EXPECT_LT(map.counts[i], p.steps);
  }
}

TEST(DivergenceMap, ProgressReachesTheTotal) {
  DivergenceMapParams p = xy_body1();
  p.width = 40;
  p.height = 30;
  MapRunOptions o = cpu("", 2);
  MapProgress last;
  int calls = 0;
  o.progress = [&](const MapProgress& m) {
    last = m;
    ++calls;
  };
  const auto map = compute_divergence_map(p, o);
  EXPECT_GE(calls, 1);
  EXPECT_EQ(last.pixels_done, 1200);
  EXPECT_EQ(last.pixels_total, 1200);
  EXPECT_EQ(last.pixel_steps, map.pixel_steps);
}

TEST(DivergenceMap, RefusesADeviceListedTwice) {
  // Whatever the backend: a device named twice is a mistake in the list, not a wish for two
  // shares of one device.
  DivergenceMapParams p = xy_body1();
  p.width = p.height = 4;
  MapRunOptions o = cpu("", 1);
  o.devices = {0, 1, 0};
  try {
    compute_divergence_map(p, o);
    ADD_FAILURE() << "accepted --devices 0,1,0";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "devices");
    EXPECT_NE(std::string(e.what()).find("0,1,0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace orrery
