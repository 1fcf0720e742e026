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
//
// EnsembleSystem turns a problem into what the steppers and the backends use: the register state
// (integrate/phase_state.hpp), its flat words y = (q, p) or y, and the integrator over it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/register_integrator.hpp"
#include "orrery/integrate/step_arithmetic.hpp"

namespace orrery {

// The largest state plus parameter words of any problem: the size of a start's row.
inline constexpr int kEnsembleMaxWords = 16;

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

// The relative change of an invariant, (E − E0)/|E0|, or the absolute one where E0 = 0.
ORRERY_HD double relative_drift(double e, double e0) {
  const double change = e - e0;
  return e0 != 0.0 ? change / (e0 < 0.0 ? -e0 : e0) : change;
}

// Integrates one trajectory (or one per lane) for `steps` steps of dt, stopping at `samples`
// evenly spaced steps (sample k ends at step ⌊steps·k/samples⌋, 1 ≤ k ≤ samples ≤ steps) to call
// sample(k, state). A splitting method merges the kicks between samples
// (splitting/register_stepper.hpp); the state at every sample is synchronised (q and p at the
// same time). The agent shared by the CPU lanes and the CUDA kernel.
template <class Problem, class Table, class T, class Sample>
ORRERY_HD void integrate_trajectory(typename EnsembleSystem<Problem, T>::State& st,
                                    const typename EnsembleSystem<Problem, T>::Field& field,
                                    const T& dt, std::int64_t steps, int samples,
                                    Sample&& sample) {
  using Integrator = typename EnsembleSystem<Problem, T>::template Integrator<Table>;
  typename Integrator::Memory memory;
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
