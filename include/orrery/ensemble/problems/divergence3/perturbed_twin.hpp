// SPDX-License-Identifier: MIT
// The divergence map by perturbation (--deep perturbation, the deep zoom): one reference
// trajectory X_n per frame, the system started at the window's centre and integrated on the
// host in double-double or MPFR (reference_orbit.hpp), and each pixel's pair of systems
// integrated in fp64 as its differences δ_n (pixel) and δ'_n (twin) from it:
//
//   δ_{n+1} = Φ(X_n + δ_n) − Φ(X_n)
//
// where Φ is one step of the map's integrator. Every map integrator is linear in its state and
// its derivatives except through the forces, so Φ applied to δ with the forces replaced by
// their differences a(Y + y) − a(Y) at the reference's own stage positions Y (read, one record
// per force evaluation, from the reference's records) is exactly that difference;
// physics/gravity_difference.hpp forms each force difference without cancellation. The
// observable is the twins' separation, δ'_b − δ_b: exact in fp64 however narrow the window,
// since neither term holds the window's coordinates.
//
// A cursor walks the records: `word(w)` (word w of the current record, a value of the lane type)
// and `next()`. Each trajectory reads the records of its own step; the GPU's threads of a warp
// read the same one (a broadcast), the CPU's lanes each their own.
#pragma once

#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/integrate/register_integrator.hpp"
#include "orrery/physics/gravity_difference.hpp"

namespace orrery {

inline constexpr int kReferencePairs = kMapBodies * (kMapBodies - 1) / 2;
// One force evaluation of the reference: its pairs (i < j, lexicographic), each
// kPairReferenceWords words (d = X_i − X_j, |d|², |d|, 1/|d|³).
inline constexpr int kReferenceRecordWords = kReferencePairs * kPairReferenceWords;

// Records in fp64 memory, every lane at the same record.
struct ReferenceCursor {
  const double* at;
  ORRERY_HD double word(int w) const { return at[w]; }
  ORRERY_HD void next() { at += kReferenceRecordWords; }
};

// a(X + e) − a(X) for the bodies' differences e, X the reference at the cursor's record; moves
// the cursor to the next record.
template <class T, class Cursor>
struct GravityDifference {
  const T* gm;  // G·m of each body
  Cursor* cursor;

  ORRERY_HD void operator()(const Vec3<T> (&e)[kMapBodies], Vec3<T> (&da)[kMapBodies]) const {
    for (int i = 0; i < kMapBodies; ++i) da[i] = Vec3<T>{T(0.0), T(0.0), T(0.0)};
    int w = 0;
    ORRERY_UNROLL
    for (int i = 0; i < kMapBodies; ++i) {
      ORRERY_UNROLL
      for (int j = i + 1; j < kMapBodies; ++j) {
        const Cursor& c = *cursor;
        const Vec3<T> d{T(c.word(w)), T(c.word(w + 1)), T(c.word(w + 2))};
        const Vec3<T> f = pair_factor_difference(d, T(c.word(w + 3)), T(c.word(w + 4)),
                                                 T(c.word(w + 5)), e[i] - e[j]);
        da[i] = mul_add(-gm[j], f, da[i]);
        da[j] = mul_add(gm[i], f, da[j]);
        w += kPairReferenceWords;
      }
    }
    cursor->next();
  }
};

// A pixel's start as differences from the reference's (the window's centre in double-double,
// reference_orbit.hpp): the varied body at u_j − u_c = (u_span·j)/W − u_span/2 (likewise v), the
// twin that plus the shift; every other body and every velocity as the reference's. Each is an
// fp64 number of the window's size, so fp64 holds it to 2⁻⁵³ of the window, at any depth.
struct PerturbedStart {
  Vec3d pixel, twin;  // the varied body's differences
};

ORRERY_HD PerturbedStart perturbed_start(const DivergenceSetup& s, std::int64_t j,
                                      std::int64_t k) {
  Vec3d p{0.0, 0.0, 0.0};
  component(p, s.axis_u) = (s.u_span_dd * static_cast<double>(j)) / s.width - 0.5 * s.u_span_dd;
  component(p, s.axis_v) = (s.v_span_dd * static_cast<double>(k)) / s.height - 0.5 * s.v_span_dd;
  return {p, p + s.shift};
}

template <class Table, class T>
struct PerturbedTwin {
  using Integrator = RegisterIntegrator<Table, BodyState<T, kMapBodies>>;

  struct State {
    BodyState<T, kMapBodies> pixel, twin;  // differences from the reference
    typename Integrator::Memory pixel_memory, twin_memory;
  };

  static constexpr int starter_steps = Integrator::starter_steps;
  // Force evaluations before the first step (a splitting method's kept a(x)) and per step: the
  // reference's records follow this layout (reference_orbit.hpp checks it as it records).
  static constexpr int evals_at_start = Table::family == IntegratorFamily::splitting ? 1 : 0;

  struct Gm {
    T gm[kMapBodies];
  };
  ORRERY_HD static Gm gravity(const DivergenceSetup& s) {
    Gm g;
    for (int n = 0; n < kMapBodies; ++n) g.gm[n] = T(s.gm[n]);
    return g;
  }

  // After the differences are set (a pixel's start, or a state copied back): what the
  // integrator derives from them. `at`: the record of the reference at the state's step (its
  // positions); read by a splitting method alone.
  template <class Cursor>
  ORRERY_HD static void begin(State& st, const Gm& g, Cursor at) {
    Cursor c = at;
    Integrator::start(st.pixel, st.pixel_memory, GravityDifference<T, Cursor>{g.gm, &c});
    c = at;
    Integrator::start(st.twin, st.twin_memory, GravityDifference<T, Cursor>{g.gm, &c});
  }

  template <int B>
  ORRERY_HD static T separation2(const State& st) {
    return norm2(st.twin.x[B] - st.pixel.x[B]);
  }

  // One step of both systems; `at` is the first record of the step, and is left after its last.
  template <class Cursor, class M>
  ORRERY_HD static void advance(State& st, const Gm& g, Cursor& at, const T& dt,
                                const M& starting) {
    Cursor c = at;
    Integrator::step(st.pixel, st.pixel_memory, dt, starting, GravityDifference<T, Cursor>{g.gm, &c});
    c = at;
    Integrator::step(st.twin, st.twin_memory, dt, starting, GravityDifference<T, Cursor>{g.gm, &c});
    at = c;
  }
};

}  // namespace orrery
