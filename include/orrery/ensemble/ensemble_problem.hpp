// SPDX-License-Identifier: MIT
// What the ensemble engine needs of a problem (a small system integrated once per trajectory, one
// trajectory per GPU thread or SIMD lane), and how it sees one:
//
//   name, description                 the word of --problem and one line for --help
//   second_order                      true: H = |p|²/2 + V(q), the state is (q, p) and the field is
//                                     a(q) = −∇V (every register integrator, splitting methods
//                                     included); false: y' = f(y) (explicit Runge–Kutta)
//   coordinates                       q's (second order) or y's dimension
//   parameters                        values each trajectory carries besides its state (σ, ρ, β)
//   state_names, parameter_names      the words of --plane, --sweep and the output's columns
//   state_defaults, parameter_defaults  what a run starts from unless told otherwise
//   Data                              what every trajectory shares (a user's polynomial); trivially
//                                     copyable, so it is a kernel argument as it is
//   Field<T>, field(data, params)     the right-hand side bound to one trajectory's parameters, for
//                                     any lane type T: a(q) or f(y), written once (physics/)
//   has_energy, energy(data, params, y)  the invariant, in double, whose drift a run reports
//   potential(data, params, q)        V(q) in double (0 without one; three-body: G·V, G·m given)
//   energy_starts (optional)          false where the energy is not |p|²/2 + V(q) (three bodies
//                                     of their own masses): grid and random starts then take no
//                                     momentum from --energy; absent: has_energy && second_order
//   pair_factor_policies (optional)   true where Field<T, InverseCube> and
//                                     field<T, InverseCube>(data, params) take the 1/r³ policy
//                                     (physics/inverse_cube.hpp): a CUDA kernel may then use the
//                                     GPU's fast factor where it need not give the CPU's bits
//
// EnsembleSystem turns a problem into what the steppers and the backends use: the register state
// (integrate/phase_state.hpp), its flat words y = (q, p) or y, and the integrator over it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/register_integrator.hpp"
#include "orrery/integrate/step_arithmetic.hpp"

namespace orrery {

// The largest state plus parameter words of any problem: the size of a start's row (three-body:
// 18 + 3).
inline constexpr int kEnsembleMaxWords = 24;

// A trajectory's parameters in its lane type (at least one slot, so that none is an empty array).
template <class T, int P>
struct ParameterPack {
  T value[P > 0 ? P : 1];
};

template <class Problem, class T>
struct EnsembleSystem {
  static constexpr int C = Problem::coordinates;
  static constexpr int P = Problem::parameters;
  // Words of the state: (q, p) or y.
  static constexpr int D = Problem::second_order ? 2 * C : C;
  static_assert(D + P <= kEnsembleMaxWords);
  using State = std::conditional_t<Problem::second_order, PhaseState<T, C>, FirstOrderState<T, C>>;
  using Parameters = ParameterPack<T, P>;
  using Field = typename Problem::template Field<T>;
  // Ensembles advance with one fused multiply-add per term (integrate/step_arithmetic.hpp).
  template <class Table>
  using Integrator = RegisterIntegrator<Table, State, ScaleEachTerm>;

  ORRERY_HD static T& word(State& s, int w) {
    if constexpr (Problem::second_order)
      return w < C ? s.x[w] : s.v[w - C];
    else
      return s.y[w];
  }
  ORRERY_HD static const T& word(const State& s, int w) {
    return word(const_cast<State&>(s), w);
  }
};

// Whether grid and random starts of Problem may take a momentum from an energy (energy_starts).
template <class Problem>
inline constexpr bool ensemble_energy_starts = [] {
  if constexpr (requires { Problem::energy_starts; })
    return Problem::energy_starts;
  else
    return Problem::has_energy && Problem::second_order;
}();

// Whether Problem's field takes a pair-factor policy (pair_factor_policies).
template <class Problem>
inline constexpr bool ensemble_pair_factor_policies = [] {
  if constexpr (requires { Problem::pair_factor_policies; })
    return Problem::pair_factor_policies;
  else
    return false;
}();

// The field of the precision `mixed` (docs/internals/divergence-map.md: "k evaluated in fp32 … then
// widened"): the state, every stage and every step's sum stay in the lane type T (fp64); the
// right-hand side is evaluated in fp32 from the state rounded once to fp32, with the problem's
// fp32 data and the parameters rounded to fp32, and widened exactly. Written once, for every
// problem, over its own Field<float lanes>.
template <class Problem, class T>
struct MixedField {
  using Narrow = rebind_t<float, T>;
  typename Problem::template Field<Narrow> narrow;
  template <int C>
  ORRERY_HD void operator()(const T (&q)[C], T (&out)[C]) const {
    Narrow qn[C], on[C];
    for (int i = 0; i < C; ++i) qn[i] = convert<Narrow>(q[i]);
    narrow(qn, on);
    for (int i = 0; i < C; ++i) out[i] = convert<T>(on[i]);
  }
};

// The field a lane of type T integrates with: the problem's own, or with `mixed` its fp32 one
// through MixedField.
template <class Problem, class T, bool Mixed>
ORRERY_HD auto ensemble_field(const typename Problem::Data& data,
                              const ParameterPack<T, Problem::parameters>& k) {
  if constexpr (Mixed) {
    using Narrow = rebind_t<float, T>;
    ParameterPack<Narrow, Problem::parameters> kn;
    for (int w = 0; w < Problem::parameters; ++w) kn.value[w] = convert<Narrow>(k.value[w]);
    return MixedField<Problem, T>{Problem::template field<Narrow>(data, kn)};
  } else {
    return Problem::template field<T>(data, k);
  }
}

// The relative change of an invariant, (E − E0)/|E0|, or the absolute one where E0 = 0.
ORRERY_HD double relative_drift(double e, double e0) {
  const double change = e - e0;
  return e0 != 0.0 ? change / (e0 < 0.0 ? -e0 : e0) : change;
}

// Integrates one trajectory (or one per lane) for `steps` steps of dt, stopping at `samples`
// evenly spaced steps (sample k ends at step ⌊steps·k/samples⌋, 1 ≤ k ≤ samples ≤ steps) to call
// sample(k, state). A splitting method merges the kicks between samples
// (splitting/register_stepper.hpp); the state at every sample is synchronised (q and p at the
// same time). The field is the problem's Field<T> or an adaptor of it (a call kept out of line,
// an evaluation in another precision). The agent shared by the CPU lanes and the CUDA kernel.
template <class Problem, class Table, class T, class Field, class Sample>
ORRERY_HD void integrate_trajectory(typename EnsembleSystem<Problem, T>::State& st,
                                    const Field& field, const T& dt, std::int64_t steps,
                                    int samples, Sample&& sample) {
  using Integrator = typename EnsembleSystem<Problem, T>::template Integrator<Table>;
  // Value-initialised: a multistep method's starter steps compute (and discard) the Adams sum over
  // history slots not yet filled, and a read of an indeterminate value is undefined behaviour
  // that an optimiser may act on.
  typename Integrator::Memory memory{};
  Integrator::start(st, memory, field);
  std::int64_t done = 0;
  for (int k = 1; k <= samples; ++k) {
    const std::int64_t until = steps * k / samples;
    if constexpr (Integrator::starter_steps > 0) {
      for (; done < until; ++done)
        Integrator::step(st, memory, dt, done < Integrator::starter_steps, field);
    } else {
      Integrator::run(st, memory, dt, until - done, field);
      done = until;
    }
    sample(k, static_cast<const typename EnsembleSystem<Problem, T>::State&>(st));
  }
}

}  // namespace orrery
