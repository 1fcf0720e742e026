// SPDX-License-Identifier: MIT
// The potential V(q) of H = |p|²/2 + V(q) written as text, parsed once into canonical form
// (physics/polynomial_terms.hpp), from which ∇V and the Hessian follow exactly.
//
// The grammar (whitespace anywhere between tokens):
//   sum     = product { ("+" | "-") product }
//   product = signed { ("*" | "/") signed }        a divisor must be a nonzero number
//   signed  = ("-" | "+") signed | power
//   power   = primary [ "^" digits ]               a whole exponent, written in digits
//   primary = number | coordinate | "(" sum ")"
//   number  = digits ["." digits] [("e" | "E") ["+" | "-"] digits]  (or "." digits …)
//   coordinate = x | y | z, or q1 | q2 | q3 (the same three)
// so "-x^2" is −(x²). A coordinate beyond the problem's dimension, a degree above
// kMaxPotentialDegree (in the result or on the way to it), a number beyond the range of double
// and anything else outside the grammar are refused with a TextParameterError at the character.
// Recursive descent, one function a rule (Aho, Lam, Sethi & Ullman, Compilers, 2nd ed., §2.4).
#pragma once

#if defined(__CUDACC__)
#error "orrery/physics/polynomial_text.hpp is host-only"
#endif

#include <string_view>

#include "orrery/core/text_error.hpp"
#include "orrery/physics/polynomial_terms.hpp"

namespace orrery {

// V from `text` for a problem of `dimension` coordinates (1 to 3); errors name `parameter`.
PolynomialTerms parse_potential(std::string_view text, int dimension,
                                std::string_view parameter = "potential");

}  // namespace orrery
