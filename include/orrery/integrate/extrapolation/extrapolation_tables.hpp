// SPDX-License-Identifier: MIT
// Extrapolation methods (Gragg 1965; Bulirsch & Stoer 1966; Hairer, Nørsett & Wanner, "Solving
// Ordinary Differential Equations I", 2nd ed., §II.9 and §II.14): a basic step of size H is
// computed with n_j substeps of a symmetric method for j = 1, 2, ..., giving T_{j,1}; because
// their error is a series in even powers of H/n_j, the Aitken–Neville recursion
//
//   T_{j,l+1} = T_{j,l} + (T_{j,l} − T_{j−1,l}) / ((n_j/n_{j−l})² − 1)
//
// removes one power of H² per column, and T_{k,k} has order 2k. A table is the step-number
// sequence n_j and its column bounds; the weights 1/((n_j/n_{j−l})² − 1) = n_{j−l}²/(n_j² −
// n_{j−l}²) are ratios of integers, formed from the sequence here and rounded once in the run's
// precision, so they hold to full fp128 accuracy.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>

#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// Gragg–Bulirsch–Stoer for x'' = a(x) on the Störmer rule (leapfrog; extrapolation/array_stepper.hpp
// says why), with the harmonic sequence n_j = 2j of ODEX (Hairer–Nørsett–Wanner §II.9): the
// cheapest sequence whose first entry already has a midpoint. Up to 9 lines, so the order-and-step
// control of ODEX works with orders 4 … 16 (k = 2 … 8 columns and one line to hope for); without
// a tolerance, 4 columns: order 8.
struct BulirschStoer {
  static constexpr const char* name = "bulirsch-stoer";
  static constexpr IntegratorFamily family = IntegratorFamily::extrapolation;
  static constexpr const char* description =
      "Gragg–Bulirsch–Stoer extrapolation of the Störmer rule, n = 2, 4, 6, …; order 8 "
      "(4 columns) at a fixed step, orders 4–16 with --tolerance";
  static constexpr int max_lines = 9;
  static constexpr int fixed_columns = 4;
  static constexpr int order = 2 * fixed_columns;
  static constexpr std::array<int, max_lines> steps{2, 4, 6, 8, 10, 12, 14, 16, 18};
};

template <class T>
concept ExtrapolationTable = requires {
  { T::max_lines } -> std::convertible_to<int>;
  { T::fixed_columns } -> std::convertible_to<int>;
  T::steps[0];
};

// The substeps n_j of line j = 1 … max_lines.
template <ExtrapolationTable Table>
constexpr int substeps(int j) {
  return Table::steps[static_cast<std::size_t>(j - 1)];
}

// The weight of T_{j,l+1} = T_{j,l} + w (T_{j,l} − T_{j−1,l}), as numerator and denominator:
// n_{j−l}² / (n_j² − n_{j−l}²).
struct Ratio {
  long long numerator, denominator;
};
template <ExtrapolationTable Table>
constexpr Ratio extrapolation_weight(int j, int l) {
  const long long n = substeps<Table>(j), m = substeps<Table>(j - l);
  return {m * m, n * n - m * m};
}

// The cost of T_{k,k}: a(x) at the start once, then n_j evaluations for line j (the Störmer rule
// evaluates at each of its n_j substep ends). ODEX's A_k, the work that its order control weighs.
template <ExtrapolationTable Table>
constexpr int extrapolation_cost(int k) {
  int cost = 1;
  for (int j = 1; j <= k; ++j) cost += substeps<Table>(j);
  return cost;
}

}  // namespace orrery
