// SPDX-License-Identifier: MIT
// From a potential parsed at run time to the compile-time shape that evaluates it fastest
// (physics/polynomial.hpp): the smallest degree, and the most coordinates taken as even, among
// the shapes a caller compiled. The caller lists them, since each is one more instantiation of
// its kernel:
//
//   visit_potential<double, 2>(v, PotentialDegrees<3, 4, 6>{},
//                              PotentialParities<0, parity_word(VariableParity::even)>{},
//                              [&](const auto& packed) { run_kernel(packed); });
//
// Where V(−x) = V(x), V = W(x², …) and ∂V/∂x = 2x ∂W/∂(x²): Horner's rule then steps in x²,
// through half the powers. Hénon–Heiles is even in x (Hénon & Heiles, AJ 69, 73 (1964)): its
// gradient costs 6 fp64 operations in the shape even in x, 10 in the dense one.
#pragma once

#if defined(__CUDACC__)
#error "orrery/physics/polynomial_dispatch.hpp is host-only"
#endif

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "orrery/physics/polynomial_terms.hpp"

namespace orrery {

template <int... Degrees>
struct PotentialDegrees {};
template <unsigned... Parities>
struct PotentialParities {};

// Whether every coordinate that `parity` calls even is even in v (and no coordinate is odd).
inline bool parity_holds(const PolynomialTerms& v, unsigned parity) {
  for (int i = 0; i < 3; ++i) {
    const VariableParity p = parity_of(parity, i);
    if (p == VariableParity::odd) return false;
    if (p == VariableParity::even && (i >= v.dimension() || !v.even_in(i))) return false;
  }
  return true;
}

namespace polynomial_detail {

// f(v packed in <Real, D, N, P>) for the P equal to `parity` (the last one listed otherwise).
template <class Real, int D, int N, unsigned P, unsigned... Rest, class F>
decltype(auto) with_parity(PotentialParities<P, Rest...>, const PolynomialTerms& v,
                           unsigned parity, F& f, const char* parameter) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(pack_potential<Real, D, N, P>(v, parameter));
  } else {
    if (parity == P) return f(pack_potential<Real, D, N, P>(v, parameter));
    return with_parity<Real, D, N>(PotentialParities<Rest...>{}, v, parity, f, parameter);
  }
}

template <class Real, int D, int N, int... Rest, unsigned... Parities, class F>
decltype(auto) with_degree(PotentialDegrees<N, Rest...>, PotentialParities<Parities...> parities,
                           const PolynomialTerms& v, int degree, unsigned parity, F& f,
                           const char* parameter) {
  if constexpr (sizeof...(Rest) == 0) {
    return with_parity<Real, D, N>(parities, v, parity, f, parameter);
  } else {
    if (degree == N) return with_parity<Real, D, N>(parities, v, parity, f, parameter);
    return with_degree<Real, D>(PotentialDegrees<Rest...>{}, parities, v, degree, parity, f,
                                parameter);
  }
}

}  // namespace polynomial_detail

// Packs v into the chosen shape <Real, D, degree, parity> and returns f(packed). Refuses, under
// `parameter`, a degree above every listed one; throws std::logic_error where no listed parity
// holds (list 0, the dense one, to have a shape for every potential).
template <class Real, int D, int... Degrees, unsigned... Parities, class F>
decltype(auto) visit_potential(const PolynomialTerms& v, PotentialDegrees<Degrees...>,
                               PotentialParities<Parities...>, F&& f,
                               const char* parameter = "potential") {
  static_assert(sizeof...(Degrees) > 0 && sizeof...(Parities) > 0);
  static_assert(((Degrees >= 2) && ...), "the smallest shape has degree 2");
  if (v.dimension() != D) throw std::logic_error("visit_potential: another dimension");
  const int need = v.shape().degree;
  int degree = 0;
  for (const int n : {Degrees...})
    if (n >= need && (degree == 0 || n < degree)) degree = n;
  if (degree == 0)
    throw ParameterError(parameter, v.text(),
                         fmt::format("a polynomial of degree at most {}", std::max({Degrees...})));
  int best_even = -1;
  unsigned parity = 0;
  for (const unsigned p : {Parities...}) {
    const int even = std::popcount(p & 0b010101u);
    if (parity_holds(v, p) && even > best_even) best_even = even, parity = p;
  }
  if (best_even < 0) throw std::logic_error("visit_potential: no listed parity holds");
  return polynomial_detail::with_degree<Real, D>(PotentialDegrees<Degrees...>{},
                                                PotentialParities<Parities...>{}, v, degree,
                                                parity, f, parameter);
}

}  // namespace orrery
