// SPDX-License-Identifier: MIT
#include "orrery/ensemble/problems/polynomial/polynomial_choice.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/physics/polynomial_dispatch.hpp"
#include "orrery/physics/polynomial_text.hpp"

namespace orrery {

namespace {

template <class Problem>
struct IsPolynomialProblem : std::false_type {};
template <int D, int N, unsigned Parity>
struct IsPolynomialProblem<PolynomialProblem<D, N, Parity>> : std::true_type {};

// Whether shape <D, N, Parity> holds v: the same coordinates, no higher degree, and v even in
// every coordinate the shape takes as even.
template <class Problem>
bool holds(const PolynomialTerms& v) {
  return v.dimension() == Problem::coordinates && v.degree() <= Problem::degree &&
         parity_holds(v, Problem::parity);
}

template <int I = 0>
PolynomialProblemChoice choose(const PolynomialTerms& v, const char* parameter) {
  if constexpr (I == kEnsembleProblemCount) {
    throw std::logic_error("choose_polynomial_problem: no compiled shape holds the potential");
  } else {
    using Problem = EnsembleProblems::at<I>;
    if constexpr (IsPolynomialProblem<Problem>::value) {
      if (holds<Problem>(v)) {
        constexpr int D = Problem::coordinates, N = Problem::degree;
        constexpr unsigned P = Problem::parity;
        auto data = std::make_shared<typename Problem::Data>();
        data->fp64 = pack_potential<double, D, N, P>(v, parameter);
        data->fp32 = pack_potential<float, D, N, P>(v, parameter);
        return {I, std::move(data)};
      }
    }
    return choose<I + 1>(v, parameter);
  }
}

}  // namespace

PolynomialTerms parse_ensemble_potential(std::string_view text, std::string_view parameter) {
  const PolynomialTerms v = parse_potential(text, 3, parameter);
  return PolynomialTerms(v.terms(), std::max(1, v.coordinates_used()));
}

PolynomialProblemChoice choose_polynomial_problem(const PolynomialTerms& v,
                                                  const char* parameter) {
  return choose(v, parameter);
}

}  // namespace orrery
