// SPDX-License-Identifier: MIT
// The map by perturbation (--deep perturbation: each pixel in fp64 as its difference from a
// reference trajectory, problems/divergence3/perturbed_twin.hpp) against the arbitrary-precision
// reference (deep_zoom_reference.hpp): every pixel's own pair of systems stepped with MPFR
// numbers from the same start, the reference's centre plus the pixel's fp64 differences, added
// exactly. Where a count differs, the reference must itself be sensitive there: its count
// changes from 160 to 256 bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>

#include "deep_zoom_reference.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/perturbed_twin.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

namespace orrery {
namespace {

using deep_zoom_reference::mpfr_count;
using deep_zoom_reference::MpState;
using deep_zoom_reference::mpreal;

constexpr std::int32_t kPerturbedGrid = 4;  // pixels across

// The count of pixel (j, k) of the perturbed map's own start, at `bits` bits.
template <class Table>
std::int32_t perturbed_reference_count(const DivergenceSetup& s, std::int64_t j, std::int64_t k,
                                       int bits) {
  mpreal::set_default_prec(bits);
  const MpState centre = deep_zoom_reference::exact(reference_start(s));
  const PerturbedStart d = perturbed_start(s, j, k);
  MpState base = centre, twin = centre;
  for (int c = 0; c < 3; ++c) {
    component(base.x[s.body], c) += mpreal(component(d.pixel, c));
    component(twin.x[s.body], c) += mpreal(component(d.twin, c));
  }
  return mpfr_count<Table>(s, base, twin);
}

std::int32_t perturbed_reference_count(const DivergenceSetup& s, std::int64_t j, std::int64_t k,
                                       int bits) {
  return visit_index<kMapIntegratorCount>(s.integrator, [&]<int I>() {
    return perturbed_reference_count<map_integrator_t<I>>(s, j, k, bits);
  });
}

struct PerturbedAgreement {
  int equal = 0, sensitive = 0, wrong = 0, finished = 0, pixels = 0;
};

// `other`: the counts compared with the reference (the perturbed map's, or another map's of the
// same window).
PerturbedAgreement against_reference(const DivergenceMapParams& p, const DivergenceMap& map) {
  const DivergenceSetup s = make_divergence_setup(p);
  PerturbedAgreement a;
  for (std::int32_t k = 0; k < p.height; ++k)
    for (std::int32_t j = 0; j < p.width; ++j) {
      const std::int32_t ref = perturbed_reference_count(s, j, k, 160);
      ++a.pixels;
      a.finished += ref < p.steps;
      EXPECT_GT(ref, 0) << "the twins start within the critical distance";
      if (map.at(j, k) == ref) {
        ++a.equal;
      } else if (perturbed_reference_count(s, j, k, 256) != ref) {
        ++a.sensitive;
      } else {
        ++a.wrong;
        ADD_FAILURE() << "width " << (s.u_span_dd) << " " << p.integrator << " pixel (" << j
                      << ", " << k << "): " << map.at(j, k) << ", MPFR " << ref;
      }
    }
  return a;
}

DivergenceMap perturbed_map(const DivergenceMapParams& p) {
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.deep = DeepMethod::perturbation;
  o.threads = 1;
  return compute_divergence_map(p, o);
}

TEST(PerturbedZoom, CountsAreTheArbitraryPrecisionCounts) {
  for (const double width : {1e-12, 1e-18, 1e-25, 1e-30}) {
    const DivergenceMapParams p = deep_zoom_reference::pythagorean_window(width, kPerturbedGrid);
    const DivergenceMap map = perturbed_map(p);
    const PerturbedAgreement a = against_reference(p, map);
    const std::set<std::int32_t> distinct(map.counts.begin(), map.counts.end());
    EXPECT_EQ(a.wrong, 0) << "width " << width;
    EXPECT_EQ(a.finished, a.pixels) << "every count ends before the step limit";
    EXPECT_GE(a.equal, 0.999 * a.pixels - a.sensitive) << "width " << width;
    char name[32];
    std::snprintf(name, sizeof name, "width_%g", width);
    RecordProperty(name,
                   std::to_string(a.equal) + " equal, " + std::to_string(a.sensitive) +
                       " sensitive, " + std::to_string(distinct.size()) + " distinct counts");
  }
}

TEST(PerturbedZoom, EveryMapIntegratorRunsPerturbed) {
  for (const std::string& name : map_integrator_names()) {
    DivergenceMapParams p = deep_zoom_reference::pythagorean_window(1e-18, 2);
    p.integrator = name;
    const PerturbedAgreement a = against_reference(p, perturbed_map(p));
    EXPECT_EQ(a.wrong, 0) << name;
  }
}

TEST(PerturbedZoom, WhereFp64ResolvesTheWindowItAgreesWithFp64) {
  DivergenceMapParams p = deep_zoom_reference::pythagorean_window(1e-6, kPerturbedGrid);
  p.x_range_low = p.y_range_low = {0.0, 0.0};  // a window fp64 holds: the ends are fp64's
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.threads = 1;
  const DivergenceMap fp64 = compute_divergence_map(p, o);
  const DivergenceMap perturbed = perturbed_map(p);
  const DivergenceSetup s = make_divergence_setup(p);
  int equal = 0;
  for (std::int32_t k = 0; k < p.height; ++k)
    for (std::int32_t j = 0; j < p.width; ++j) {
      if (fp64.at(j, k) == perturbed.at(j, k)) {
        ++equal;
        continue;
      }
      EXPECT_NE(perturbed_reference_count(s, j, k, 160), perturbed_reference_count(s, j, k, 256))
          << "pixel (" << j << ", " << k << "): fp64 " << fp64.at(j, k) << ", perturbed "
          << perturbed.at(j, k) << " where the reference is not sensitive";
    }
  EXPECT_GT(equal, 0);
  EXPECT_LT(perturbed.at(0, 0), p.steps);
}

// A force difference keeps fp64's relative precision whatever the size of the difference: the
// plain difference of the two pair factors loses all of it once e is below 10⁻¹⁶ of d.
TEST(PerturbedZoom, ForceDifferenceKeepsItsRelativePrecision) {
  // A few tens of roundings, each 2⁻⁵³ relative, in a sum of two terms of at most equal size.
  constexpr double kRelativeTolerance = 1e-14;
  mpreal::set_default_prec(256);
  std::mt19937_64 random(31);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double worst = 0, worst_plain = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3d d{unit(random), unit(random), unit(random)};
    const double size = std::pow(10.0, -30.0 + 30.0 * (trial % 31) / 30.0);
    const Vec3d e{size * unit(random), size * unit(random), size * unit(random)};
    using M = Vec3<mpreal>;
    const M dm{d.x, d.y, d.z}, em{e.x, e.y, e.z};
    const auto factor = [](const M& x) {
      const mpreal r2 = norm2(x);
      return M{x.x / (r2 * sqrt(r2)), x.y / (r2 * sqrt(r2)), x.z / (r2 * sqrt(r2))};
    };
    const M exact = factor(dm + em) - factor(dm);
    const mpreal r2 = norm2(dm), r = sqrt(r2), inv_r3 = 1 / (r2 * r);
    const Vec3d got = pair_factor_difference(d, r2.toDouble(), r.toDouble(),
                                             inv_r3.toDouble(), e);
    const M gm{got.x, got.y, got.z};
    const double error = sqrt(norm2(gm - exact) / norm2(exact)).toDouble();
    worst = std::max(worst, error);
    const auto plain = [](const Vec3d& x) { return (1 / (norm2(x) * std::sqrt(norm2(x)))) * x; };
    const Vec3d p = plain(d + e) - plain(d);
    const M pm{p.x, p.y, p.z};
    worst_plain = std::max(worst_plain, sqrt(norm2(pm - exact) / norm2(exact)).toDouble());
  }
  EXPECT_LT(worst, kRelativeTolerance);
  EXPECT_GT(worst_plain, 0.5) << "the control: the plain difference cancels";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g (plain: %.3g)", worst, worst_plain);
  RecordProperty("worst_relative_error", text);
}

}  // namespace
}  // namespace orrery
