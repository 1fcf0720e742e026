// SPDX-License-Identifier: MIT
// From a potential written as text to the ensemble problem that runs it: parsed once, its
// number of coordinates the highest it uses (x; x, y; or x, y, z), then packed into the first
// compiled shape of `polynomial` (ensemble/ensemble_catalogue.hpp) that holds it, in each lane
// precision.
#pragma once

#include <memory>
#include <string_view>

#include "orrery/physics/polynomial_terms.hpp"

namespace orrery {

// V(q) from text in x, y, z (q1, q2, q3); a constant is a potential of one coordinate.
// TextParameterError (naming `parameter`, pointing at the character) for text outside the
// grammar or above the highest degree compiled (physics/polynomial_text.hpp).
PolynomialTerms parse_ensemble_potential(std::string_view text, std::string_view parameter);

struct PolynomialProblemChoice {
  int problem = 0;                   // index into EnsembleProblems
  std::shared_ptr<const void> data;  // its Data: V, ∇V and the Hessian in fp64 and fp32
};

// The first shape of the catalogue that holds v; ParameterError under `parameter` where a
// coefficient is beyond fp32's range.
PolynomialProblemChoice choose_polynomial_problem(const PolynomialTerms& v,
                                                  const char* parameter = "potential");

}  // namespace orrery
