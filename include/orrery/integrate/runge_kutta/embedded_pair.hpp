// SPDX-License-Identifier: MIT
// What makes a tableau an embedded pair (runge_kutta/embedded_pairs.hpp): the tables a step-size
// control can run (runge_kutta/step_control.hpp).
#pragma once

#include <concepts>

#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/coefficient.hpp"

namespace orrery {

// An embedded pair gives its second weights b̂ (b_embedded), or, where the method is published
// that way, the error weights b − b̂ themselves (error_weight).
template <class T>
concept EmbeddedPair = ButcherTableau<T> && requires {
  { T::embedded_order } -> std::convertible_to<int>;
} && (requires { as_coefficient(T::b_embedded(0)); } || requires { as_coefficient(T::error_weight(0)); });

}  // namespace orrery
