// SPDX-License-Identifier: MIT
// Tangent dynamics of an ensemble problem: the state y together with K deviation vectors w_k,
// advanced by the integrator's own step Φ_h,
//
//   y_{n+1} = Φ_h(y_n),   w_{k,n+1} = DΦ_h(y_n) w_{k,n}
//
// by running the step on dual numbers (core/dual.hpp): word w of the state is a Dual whose value
// is y_w and whose derivative k is (w_k)_w. DΦ_h is the exact derivative of the discrete map
// (the variational equations of the method, not a second integration of the continuous ones), so
// a symplectic method's tangent map is symplectic as the method is (Skokos & Gerlach, Phys. Rev. E
// 82, 036704 (2010): "tangent map method"); the problems' Field<T> templates give it with no
// hand-written Jacobian, the three-body problem included. The values keep the bits of the plain
// run with the same field.
//
// The deviation vectors are linear in the initial ones, so a caller may rescale or
// orthonormalise them between steps (renormalisation, Gram–Schmidt): integrate_tangent restarts
// the integrator after each interval (a splitting method's kept a(x) carries derivatives along
// the old vectors; restarting recomputes it with the same value bits). A multistep method's
// history cannot be restarted so: only one-step methods are accepted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "orrery/ensemble/ensemble_problem.hpp"
#include "orrery/integrate/dual_element.hpp"
#include "orrery/physics/inverse_cube.hpp"

namespace orrery {

// W is the deviation vectors' word: T, or DoubleDouble<T> for vectors carried to double-double
// accuracy beside the fp64 state (core/dual_double_double.hpp).
template <class Problem, class T, int K, class W = T>
struct TangentSystem {
  using Lane = T;
  using Word = W;
  using E = std::conditional_t<std::is_same_v<W, T>, Dual<T, K>, DualDD<T, K>>;
  using Base = EnsembleSystem<Problem, E>;
  static constexpr int C = Base::C, P = Base::P, D = Base::D, vectors = K;
  using State = typename Base::State;
  using Field = typename Base::Field;
  template <class Table>
  using Integrator = typename Base::template Integrator<Table>;

  // Deviation vectors as a D × K matrix of words: column k is w_k.
  struct Vectors {
    W w[D][K];
  };

  // The field bound to a trajectory's parameters (constants: no derivative along them).
  ORRERY_HD static Field field(const typename Problem::Data& data, const T (&k)[P > 0 ? P : 1]) {
    return Problem::template field<E>(data, pack(k));
  }
  // The same with the GPU's fast pair factor where the problem takes one (a CUDA kernel's
  // default: values close to, not equal to, the CPU's), otherwise the field above.
  ORRERY_HD static auto fast_field(const typename Problem::Data& data,
                                   const T (&k)[P > 0 ? P : 1]) {
    if constexpr (ensemble_pair_factor_policies<Problem>)
      return Problem::template field<E, InverseCubeFast>(data, pack(k));
    else
      return field(data, k);
  }
  ORRERY_HD static ParameterPack<E, P> pack(const T (&k)[P > 0 ? P : 1]) {
    ParameterPack<E, P> constants;
    for (int w = 0; w < P; ++w) constants.value[w] = E(k[w]);
    return constants;
  }

  ORRERY_HD static T& value(State& s, int w) { return Base::word(s, w).v; }
  ORRERY_HD static const T& value(const State& s, int w) { return Base::word(s, w).v; }

  ORRERY_HD static void set_vectors(State& s, const Vectors& m) {
    for (int w = 0; w < D; ++w)
      for (int k = 0; k < K; ++k) Base::word(s, w).d[k] = m.w[w][k];
  }
  ORRERY_HD static void get_vectors(const State& s, Vectors& m) {
    for (int w = 0; w < D; ++w)
      for (int k = 0; k < K; ++k) m.w[w][k] = Base::word(s, w).d[k];
  }
};

// A lane value as a deviation vector's word (exact).
template <class W, class T>
ORRERY_HD W tangent_word(const T& x) {
  if constexpr (std::is_same_v<W, T>)
    return x;
  else
    return W(x, T(0.0));
}

// Advances a tangent state by `steps` steps of dt in `intervals` equal parts (part k ends at step
// ⌊steps·k/intervals⌋), calling at_interval(k, state) after each: the place to read, rescale or
// orthonormalise the deviation vectors. Shared by the CPU lanes and the CUDA kernel.
template <class Problem, class Table, class T, int K, class W = T, class Field, class AtInterval>
ORRERY_HD void integrate_tangent(typename TangentSystem<Problem, T, K, W>::State& st,
                                 const Field& field, const T& dt, std::int64_t steps,
                                 std::int64_t intervals, AtInterval&& at_interval) {
  using Integrator = typename TangentSystem<Problem, T, K, W>::template Integrator<Table>;
  static_assert(Integrator::starter_steps == 0 && Integrator::parked_words == 0,
                "tangent dynamics takes a one-step method (the vectors are rescaled between "
                "intervals, which a multistep history would not follow)");
  typename Integrator::Memory memory{};
  std::int64_t done = 0;
  for (std::int64_t k = 1; k <= intervals; ++k) {
    const std::int64_t until = steps * k / intervals;
    Integrator::start(st, memory, field);
    if (until > done) Integrator::run(st, memory, dt, until - done, field);
    done = until;
    at_interval(k, st);
  }
}

}  // namespace orrery
