// SPDX-License-Identifier: MIT
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <limits>

#include <fmt/format.h>

#include "ensemble/index_dispatch.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/perturbed_twin.hpp"
#include "orrery/integrate/register_integrator.hpp"
#if ORRERY_WITH_MPFR
#include "orrery/core/mpreal_lane_math.hpp"
#endif

namespace orrery {

namespace {

using DD = DoubleDouble<double>;

double reference_word(const DD& x) { return x.hi; }
void reference_number(const DD& x, DD& to) { to = x; }
#if ORRERY_WITH_MPFR
double reference_word(const mpfr::mpreal& x) { return x.toDouble(); }
void reference_number(const DD& x, mpfr::mpreal& to) { to = mpfr::mpreal(x.hi) + mpfr::mpreal(x.lo); }
#endif

// Newton's accelerations (physics/pairwise_gravity.hpp's pairs, in R), recording each pair's
// d, |d|², |d| and 1/|d|³ in fp64 as it goes.
template <class R>
struct RecordingGravity {
  R gm[kMapBodies];
  std::vector<double>* out;

  void operator()(const Vec3<R> (&x)[kMapBodies], Vec3<R> (&a)[kMapBodies]) const {
    for (int i = 0; i < kMapBodies; ++i) a[i] = Vec3<R>{R(0.0), R(0.0), R(0.0)};
    for (int i = 0; i < kMapBodies; ++i)
      for (int j = i + 1; j < kMapBodies; ++j) {
        const Vec3<R> d = x[i] - x[j];
        const R r2 = norm2(d);
        const R r = sqrt(r2);
        const R inv_r3 = R(1.0) / (r2 * r);
        for (const R* w : {&d.x, &d.y, &d.z, &r2, &r, &inv_r3}) out->push_back(reference_word(*w));
        a[i] = mul_add(R(-(gm[j] * inv_r3)), d, a[i]);
        a[j] = mul_add(R(gm[i] * inv_r3), d, a[j]);
      }
  }
};

bool reference_finite_since(const std::vector<double>& records, std::size_t from) {
  for (std::size_t i = from; i < records.size(); ++i)
    if (!std::isfinite(records[i])) return false;
  return true;
}

template <class Table, class R>
ReferenceOrbit integrate_reference(const DivergenceSetup& s, int bits) {
  using Integrator = RegisterIntegrator<Table, BodyState<R, kMapBodies>>;
  ReferenceOrbit orbit;
  orbit.bits = bits;
  const BodyState<DD, kMapBodies> start = reference_start(s);
  BodyState<R, kMapBodies> x;
  for (int n = 0; n < kMapBodies; ++n)
    for (int c = 0; c < 3; ++c) {
      reference_number(component(start.x[n], c), component(x.x[n], c));
      reference_number(component(start.v[n], c), component(x.v[n], c));
    }
  RecordingGravity<R> g;
  for (int n = 0; n < kMapBodies; ++n) g.gm[n] = R(s.gm[n]);
  g.out = &orbit.records;
  typename Integrator::Memory memory{};
  Integrator::start(x, memory, g);
  constexpr std::size_t kWords = kReferenceRecordWords;
  orbit.evals_at_start = static_cast<int>(orbit.records.size() / kWords);
  if (orbit.evals_at_start != PerturbedTwin<Table, double>::evals_at_start)
    throw std::logic_error("reference orbit: the integrator's start evaluates the forces "
                           "other than the perturbed map reads them");
  const R dt = R(s.dt);
  for (std::int64_t n = 0; n < s.steps; ++n) {
    const std::size_t before = orbit.records.size();
    Integrator::step(x, memory, dt, n < Integrator::starter_steps, g);
    const int evals = static_cast<int>((orbit.records.size() - before) / kWords);
    if (n == 0) orbit.evals_per_step = evals;
    if (evals != orbit.evals_per_step)
      throw std::logic_error("reference orbit: steps evaluate the forces unequally often");
    if (!reference_finite_since(orbit.records, before)) {
      orbit.records.resize(before);
      break;
    }
    orbit.steps = n + 1;
  }
  return orbit;
}

}  // namespace

BodyState<DD, kMapBodies> reference_start(const DivergenceSetup& s) {
  BodyState<DD, kMapBodies> b;
  for (int n = 0; n < kMapBodies; ++n)
    for (int c = 0; c < 3; ++c) {
      component(b.x[n], c) = DD(component(s.x0[n], c));
      component(b.v[n], c) = DD(component(s.v0[n], c));
    }
  // The centre: the window's low end in double-double plus half its span (exact halving).
  component(b.x[s.body], s.axis_u) = DD(s.u_min, s.u_min_low) + DD(0.5 * s.u_span_dd);
  component(b.x[s.body], s.axis_v) = DD(s.v_min, s.v_min_low) + DD(0.5 * s.v_span_dd);
  return b;
}

int reference_bits(const DivergenceSetup& s) {
  double reach = 0;
  for (int n = 0; n < kMapBodies; ++n)
    reach = std::max({reach, std::abs(s.x0[n].x), std::abs(s.x0[n].y), std::abs(s.x0[n].z)});
  reach = std::max({reach, std::abs(s.u_min) + std::abs(s.u_span_dd),
                    std::abs(s.v_min) + std::abs(s.v_span_dd)});
  double finest = std::min(std::abs(s.u_span_dd) / s.width, std::abs(s.v_span_dd) / s.height);
  const double shift = std::sqrt(norm2(s.shift));
  if (shift > 0) finest = std::min(finest, shift);
  // u = 2^−bits with u·reach ≤ margin·finest.
  const int bits = static_cast<int>(std::ceil(std::log2(reach / (kReferenceMargin * finest))));
  return std::max(bits, 53);
}

int reference_bits_available() {
#if ORRERY_WITH_MPFR
  return std::numeric_limits<int>::max();
#else
  return 106;
#endif
}

ReferenceOrbit compute_reference_orbit(const DivergenceSetup& s, int bits) {
  if (bits > reference_bits_available())
    throw ParameterError("precision", "perturbed",
                         fmt::format("a window whose reference trajectory needs at most {} bits "
                                     "(this one needs {}: this build has no MPFR, Debian's "
                                     "libmpfr-dev and libmpfrc++-dev)",
                                     reference_bits_available(), bits));
  return visit_index<kMapIntegratorCount>(s.integrator, [&]<int I>() {
    using Table = map_integrator_t<I>;
#if ORRERY_WITH_MPFR
    if (bits > 106) {
      // Rounded up to whole limbs, as MPFR stores them anyway.
      const int limbs = (bits + 63) / 64 * 64;
      const mpfr_prec_t before = mpfr::mpreal::get_default_prec();
      mpfr::mpreal::set_default_prec(limbs);
      ReferenceOrbit orbit = integrate_reference<Table, mpfr::mpreal>(s, limbs);
      mpfr::mpreal::set_default_prec(before);
      return orbit;
    }
#endif
    return integrate_reference<Table, DD>(s, 106);
  });
}

}  // namespace orrery
