// SPDX-License-Identifier: MIT
// The deep zoom's double-double map against an arbitrary-precision reference: the same map (the
// same problem code, twin_divergence.hpp, the same starts and integrator coefficients) stepped
// with MPFR numbers at 160 bits, on small grids far narrower than fp64 resolves. Where a count
// differs, the reference must itself be sensitive there: its count changes at 256 bits.
//
// The system is the Pythagorean three-body problem (masses 3, 4, 5 at rest at (1, 3), (−2, −1),
// (1, −1); Burrau 1913, Szebehely & Peters 1967), body 2 varied: its first close encounter
// stretches a separation 10¹¹-fold within about two thousand rk4 steps of 10⁻³, so every
// pixel's count ends inside a test's time.
#include <gtest/gtest.h>

#include <mpreal.h>

#include <array>
#include <vector>

#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/ensemble/problems/divergence3/twin_start_dd.hpp"
#include "orrery/jobs/zoom_job.hpp"

namespace orrery {

template <>
struct LaneMath<mpfr::mpreal> {
  static mpfr::mpreal mul_add(const mpfr::mpreal& a, const mpfr::mpreal& b,
                              const mpfr::mpreal& c) {
    return mpfr::fma(a, b, c);
  }
  static mpfr::mpreal sqrt(const mpfr::mpreal& x) { return mpfr::sqrt(x); }
  static mpfr::mpreal select(bool take_first, const mpfr::mpreal& a, const mpfr::mpreal& b) {
    return take_first ? a : b;
  }
};

namespace {

using mpfr::mpreal;

constexpr std::int32_t kGrid = 3;  // pixels across

DivergenceMapParams pythagorean_window(double width) {
  DivergenceMapParams p;
  p.width = p.height = kGrid;
  p.steps = 4000;
  p.dt = 0.001;
  p.integrator = "rk4";
  // The twin a hundredth of the window away (finer than the pixels, as a zoom's scaled shift
  // is), the critical distance 10⁷ times that: the first close encounter stretches it so far.
  p.critical_distance = width * 1e5;
  p.masses = {3, 4, 5};
  p.g = 1;
  p.positions = {1, 3, 0, -2, -1, 0, 1, -1, 0};
  p.velocities = {};
  p.varied_body = 2;
  p.shift = {width / 100, width / 100, width / 100};
  const ZoomWindow w = zoom_window({-2.0, -1.0}, width, kGrid, kGrid);
  p.x_range = w.x_range;
  p.y_range = w.y_range;
  p.x_range_low = w.x_range_low;
  p.y_range_low = w.y_range_low;
  return p;
}

// The count of pixel (j, k) with every number an MPFR float of `bits` bits: the map's own loop
// (divergence_map.md) over the map's problem code.
template <class Table>
std::int32_t reference_count(const DivergenceSetup& s, std::int64_t j, std::int64_t k, int bits) {
  mpreal::set_default_prec(bits);
  using Map = TwinDivergence<Table, mpreal, InverseCubeExact, 1>;
  const TwinStartDd start = twin_start_dd(s, j, k);
  const auto exact = [](const DoubleDouble<double>& x) { return mpreal(x.hi) + mpreal(x.lo); };
  typename Map::State st;
  const auto copy = [&](BodyState<mpreal, kMapBodies>& to,
                        const BodyState<DoubleDouble<double>, kMapBodies>& from) {
    for (int n = 0; n < kMapBodies; ++n) {
      to.x[n] = {exact(from.x[n].x), exact(from.x[n].y), exact(from.x[n].z)};
      to.v[n] = {exact(from.v[n].x), exact(from.v[n].y), exact(from.v[n].z)};
    }
  };
  copy(st.base, start.base);
  copy(st.twin, start.twin);
  const typename Map::Gravity g = Map::gravity(s);
  Map::begin(st, g);
  const mpreal dt = s.dt, dc2 = s.critical_distance2;
  for (std::int64_t n = 0; n < s.steps; ++n) {
    if (!(Map::separation2(st) <= dc2)) return static_cast<std::int32_t>(n);
    Map::advance(st, g, dt, n < Map::starter_steps);
  }
  return static_cast<std::int32_t>(s.steps);
}

struct Agreement {
  int equal = 0, sensitive = 0, wrong = 0, finished = 0;
};

Agreement compare_with_reference(double width) {
  const DivergenceMapParams p = pythagorean_window(width);
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.precision = Precision::dd;
  o.threads = 1;
  const DivergenceMap map = compute_divergence_map(p, o);
  const DivergenceSetup s = make_divergence_setup(p);
  Agreement a;
  for (std::int32_t k = 0; k < kGrid; ++k)
    for (std::int32_t j = 0; j < kGrid; ++j) {
      const std::int32_t ref = reference_count<ClassicRK4>(s, j, k, 160);
      a.finished += ref < p.steps;
      EXPECT_GT(ref, 0) << "the twins start within the critical distance";
      if (map.at(j, k) == ref) {
        ++a.equal;
      } else if (reference_count<ClassicRK4>(s, j, k, 256) != ref) {
        ++a.sensitive;
      } else {
        ++a.wrong;
        ADD_FAILURE() << "width " << width << " pixel (" << j << ", " << k << "): dd "
                      << map.at(j, k) << ", MPFR " << ref;
      }
    }
  return a;
}

TEST(DeepZoom, DoubleDoubleCountsAreTheArbitraryPrecisionCounts) {
  for (const double width : {1e-12, 1e-18, 1e-25}) {
    const Agreement a = compare_with_reference(width);
    EXPECT_EQ(a.wrong, 0) << "width " << width;
    EXPECT_EQ(a.finished, kGrid * kGrid) << "every count ends before the step limit";
    // The control: at fp64's 53 bits the same reference loses the window (and the twin's
    // shift), and its count is not the double-double one.
    const DivergenceSetup s = make_divergence_setup(pythagorean_window(width));
    if (width < 1e-15) {
      EXPECT_NE(reference_count<ClassicRK4>(s, 1, 1, 53),
                reference_count<ClassicRK4>(s, 1, 1, 160));
    }
    RecordProperty("width_" + std::to_string(width),
                   std::to_string(a.equal) + " equal, " + std::to_string(a.sensitive) +
                       " sensitive");
  }
}

TEST(DeepZoom, WhereFp64ResolvesTheWindowBothPrecisionsAgree) {
  DivergenceMapParams p = pythagorean_window(1e-6);
  p.x_range_low = p.y_range_low = {0.0, 0.0};  // a window fp64 holds: the ends are fp64's
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.threads = 1;
  const DivergenceMap fp64 = compute_divergence_map(p, o);
  o.precision = Precision::dd;
  const DivergenceMap dd = compute_divergence_map(p, o);
  const DivergenceSetup s = make_divergence_setup(p);
  for (std::int32_t k = 0; k < kGrid; ++k)
    for (std::int32_t j = 0; j < kGrid; ++j)
      if (fp64.at(j, k) != dd.at(j, k)) {
        EXPECT_NE(reference_count<ClassicRK4>(s, j, k, 160),
                  reference_count<ClassicRK4>(s, j, k, 256))
            << "pixel (" << j << ", " << k << "): fp64 " << fp64.at(j, k) << ", dd "
            << dd.at(j, k) << " where the reference is not sensitive";
      }
  EXPECT_GT(dd.at(0, 0), 0) << "the twins start within the critical distance";
  EXPECT_LT(dd.at(0, 0), p.steps);
}

}  // namespace
}  // namespace orrery
