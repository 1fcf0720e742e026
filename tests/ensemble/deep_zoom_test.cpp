// SPDX-License-Identifier: MIT
// The deep zoom's double-double map against an arbitrary-precision reference: the same map (the
// same problem code, twin_divergence.hpp, the same starts and integrator coefficients) stepped
// with MPFR numbers at 160 bits, on small grids far narrower than fp64 resolves. Where a count
// differs, the reference must itself be sensitive there: its count changes at 256 bits. The
// system and the reference's loop: deep_zoom_reference.hpp.
#include <gtest/gtest.h>

#include <vector>

#include "deep_zoom_reference.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_start_dd.hpp"

namespace orrery {
namespace {

using deep_zoom_reference::mpreal;

constexpr std::int32_t kGrid = 3;  // pixels across

DivergenceMapParams pythagorean_window(double width) {
  return deep_zoom_reference::pythagorean_window(width, kGrid);
}

// The count of pixel (j, k) with every number an MPFR float of `bits` bits: the map's own loop
// (divergence_map.md) over the map's problem code.
template <class Table>
std::int32_t reference_count(const DivergenceSetup& s, std::int64_t j, std::int64_t k, int bits) {
  mpreal::set_default_prec(bits);
  const TwinStartDd start = twin_start_dd(s, j, k);
  return deep_zoom_reference::mpfr_count<Table>(s, deep_zoom_reference::exact(start.base),
                                                deep_zoom_reference::exact(start.twin));
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
