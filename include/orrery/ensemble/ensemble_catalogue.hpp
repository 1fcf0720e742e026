// SPDX-License-Identifier: MIT
// The problems and integrators an ensemble can run, by name. The CPU lanes and the CUDA kernels
// are compiled once per problem (CMake compiles each per index; ORRERY_ENSEMBLE_PROBLEM_COUNT
// must equal the length of the list, checked at compile time) for every integrator and
// precision that applies.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "orrery/ensemble/ensemble_problem.hpp"
#include "orrery/ensemble/problems/henon_heiles/henon_heiles_problem.hpp"
#include "orrery/ensemble/problems/lorenz/lorenz_problem.hpp"
#include "orrery/ensemble/problems/polynomial/polynomial_problem.hpp"
#include "orrery/ensemble/problems/three_body/three_body_problem.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/integrate/multistep/adams_bashforth.hpp"
#include "orrery/integrate/runge_kutta/embedded_pair.hpp"

namespace orrery {

// The compiled shapes of `polynomial` (one entry each, all named "polynomial"), in the order a
// potential is tried against them (ensemble/problems/polynomial/polynomial_choice.hpp): the
// Hénon–Heiles-like one first (2-D, degree ≤ 3, even in x: half the multiply-adds in x), then a
// dense one of the highest degree the parser accepts for each number of coordinates.
inline constexpr unsigned kPolynomialEvenInX = parity_word(VariableParity::even);
using EnsembleProblems =
    TableList<HenonHeilesProblem, LorenzProblem, PolynomialProblem<2, 3, kPolynomialEvenInX>,
              PolynomialProblem<1, kMaxPotentialDegree, 0>,
              PolynomialProblem<2, kMaxPotentialDegree, 0>,
              PolynomialProblem<3, kMaxPotentialDegree, 0>, ThreeBodyProblem>;
inline constexpr int kEnsembleProblemCount = EnsembleProblems::size;

// Every register integrator of the library (integrate/register_integrator.hpp).
using EnsembleIntegrators =
    TableList<ExplicitEuler, Midpoint, ClassicRK4, DormandPrince5, Tsitouras5, DormandPrince853,
              SymplecticEuler, LeapfrogKDK, Yoshida4, Yoshida6, Yoshida8,
              EulerStartedAdamsBashforth2, EulerStartedAdamsBashforth4>;
inline constexpr int kEnsembleIntegratorCount = EnsembleIntegrators::size;

// Whether integrator Table applies to Problem: a first-order problem takes explicit
// Runge–Kutta methods only (a splitting or Adams method here advances x'' = a(x)).
template <class Problem, class Table>
inline constexpr bool integrator_applies =
    Problem::second_order || Table::family == IntegratorFamily::explicit_runge_kutta;

// Whether integrator Table can control its step (an embedded pair: dopri5, tsit5, dop853).
template <class Table>
inline constexpr bool integrator_adapts = EmbeddedPair<Table>;

struct EnsembleProblemInfo {
  std::string_view name, description;
  bool second_order;
  int coordinates, parameters, state_words;
  std::vector<std::string_view> state_names, parameter_names;
  std::vector<double> state_defaults, parameter_defaults;
  bool has_energy;
  bool energy_starts;  // grid and random starts take a momentum from --energy (ensemble_problem.hpp)
  bool needs_data;  // runs only with its Data (EnsembleSetup::data): a user's potential
};

struct EnsembleIntegratorInfo {
  std::string_view name, description;
  int order;
  IntegratorFamily family;
  bool adaptive;  // takes a tolerance (integrator_adapts)
};

const std::vector<EnsembleProblemInfo>& ensemble_problems();
const std::vector<EnsembleIntegratorInfo>& ensemble_integrators();
// Each name once (the shapes of `polynomial` share theirs).
std::vector<std::string> ensemble_problem_names();
std::vector<std::string> ensemble_integrator_names();
// Indices by name (the first entry of a shared name); ParameterError("problem" / "integrator", name, "one of: ...") if none.
int ensemble_problem_index(std::string_view name);
int ensemble_integrator_index(std::string_view name);
// ParameterError("integrator", ...) when the integrator does not apply to the problem.
void check_integrator_applies(int problem, int integrator);
// The names of the integrators that take a tolerance.
std::vector<std::string> adaptive_ensemble_integrator_names();
// The smallest tolerance a precision honours: 100 units in the last place of 1 (below it the
// error estimate is rounding, not the method's error).
double smallest_ensemble_tolerance(Precision precision);
// ParameterError("tolerance", ...) for a tolerance that is negative or not finite, one given to a
// method without step control, or one below smallest_ensemble_tolerance; 0 passes (fixed steps).
void check_ensemble_tolerance(double tolerance, int integrator, Precision precision);

// f.template operator()<Problem>() for problem index p.
template <class F, int I = 0>
decltype(auto) visit_ensemble_problem(int p, F&& f) {
  if constexpr (I + 1 < kEnsembleProblemCount) {
    if (p != I) return visit_ensemble_problem<F, I + 1>(p, static_cast<F&&>(f));
  }
  return f.template operator()<typename EnsembleProblems::template at<I>>();
}

}  // namespace orrery
